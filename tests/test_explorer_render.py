"""Server rendering of the growth explorer: every state complete without JavaScript."""

import json
import os
import re
from collections import Counter
from html import unescape
from itertools import pairwise
from pathlib import Path

import pytest

from pizarra.base.errors import SourcePos
from pizarra.render.explorers import (
    ExplorerStateError,
    asset_names,
    explorer_assets,
    render_explorer,
    resolve_state,
    state_pages,
    state_params,
)
from pizarra.source.blocks import Explorer
from pizarra.source.explorers import parse_explorer

FIXTURES = Path(__file__).parent / "fixtures" / "explorers"
BLOCK = re.compile(r"^:::\{explorer\} (\w+)\n(.*?)^:::$", re.S | re.M)
VALUES = (128, 256, 512, 1024, 2048, 4096, 8192)


def load(name: str, lang: str, body_edit: tuple[str, str] | None = None) -> Explorer:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    match = BLOCK.search(text)
    assert match is not None
    body = match.group(2)
    if body_edit is not None:
        body = body.replace(*body_edit)
    pos = SourcePos(name, text[: match.start()].count("\n") + 1)
    spec, diagnostics = parse_explorer(match.group(1), body, pos, lang)
    assert diagnostics == [] and spec is not None
    return Explorer(match.group(1), spec, pos)


@pytest.fixture(scope="module")
def reference() -> Explorer:
    return load("potencias.md", "es")


def text_of(html: str, attr: str) -> str:
    match = re.search(rf"<span {attr}>([^<]*)</span>", html)
    assert match is not None, attr
    return unescape(match.group(1))


def readout(html: str, ident: str) -> str:
    return text_of(html, f'data-readout="{ident}"')


def current_row(html: str) -> list[str]:
    match = re.search(r'<tr class="px-current" aria-current="true">(.*?)</tr>', html)
    assert match is not None
    return [unescape(c) for c in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", match.group(1))]


def test_initial_state_matches_the_reference_page(reference: Explorer) -> None:
    html = str(render_explorer(reference, "es"))
    assert readout(html, "n") == "1024"
    assert readout(html, "linear") == "8×"
    assert readout(html, "quadratic") == "64×"
    assert readout(html, "scores") == "1.048.576"
    assert text_of(html, "data-summary") == (
        "Con n = 1024, la longitud es 8× la base y su cuadrado es 64×: "
        "1.048.576 posiciones de puntuación."
    )
    assert current_row(html) == ["1024", "8×", "64×", "1.048.576", "← Seleccionada"]
    assert 'aria-valuetext="1024 tokens"' in html
    assert '<li><a href="./#crecimiento-atencion" aria-current="true">1024</a></li>' in html
    assert "Mostrar los datos del gráfico como tabla" in html
    assert "<caption" in html and "Crecimiento lineal y cuadrático relativo a 128 tokens" in html


def test_table_holds_all_seven_rows(reference: Explorer) -> None:
    html = str(render_explorer(reference, "es"))
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    cells = [
        [unescape(c) for c in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)
    ]
    assert cells == [
        ["128", "1×", "1×", "16.384", ""],
        ["256", "2×", "4×", "65.536", ""],
        ["512", "4×", "16×", "262.144", ""],
        ["1024", "8×", "64×", "1.048.576", "← Seleccionada"],
        ["2048", "16×", "256×", "4.194.304", ""],
        ["4096", "32×", "1024×", "16.777.216", ""],
        ["8192", "64×", "4096×", "67.108.864", ""],
    ]


def test_query_selects_a_state(reference: Explorer) -> None:
    html = str(render_explorer(reference, "es", {"n": "2048"}))
    assert [readout(html, r) for r in ("n", "linear", "quadratic", "scores")] == [
        "2048",
        "16×",
        "256×",
        "4.194.304",
    ]
    assert current_row(html)[0] == "2048"
    assert 'value="11"' in html  # the range sits on exponent 11
    assert html.count('aria-current="true">') == 2  # the state's link and its table row
    assert '<a href="crecimiento-atencion-n-2048.html#crecimiento-atencion" aria-current' in html


def test_no_javascript_control_links_every_state_to_its_own_page(reference: Explorer) -> None:
    html = str(render_explorer(reference, "es"))
    hrefs = re.findall(r'<li><a href="([^"]*)"', html)
    assert hrefs == [
        *(f"crecimiento-atencion-n-{v}.html#crecimiento-atencion" for v in (128, 256, 512)),
        "./#crecimiento-atencion",
        *(f"crecimiento-atencion-n-{v}.html#crecimiento-atencion" for v in (2048, 4096, 8192)),
    ]
    assert [name for name, _ in state_pages(reference.spec)] == [
        f"crecimiento-atencion-n-{v}.html" for v in (128, 256, 512, 2048, 4096, 8192)
    ]
    assert re.search(r'<input class="px-range" type="range"[^>]* hidden>', html)
    assert state_params(reference.spec) == ("n",)


@pytest.mark.parametrize(
    "bad", ["1000", "abc", "", "2048.0", "+2048", "9" * 500, "２０４８", "-128", "0x800"]
)
def test_bad_query_values_are_refused_with_what_is_allowed(reference: Explorer, bad: str) -> None:
    with pytest.raises(ExplorerStateError) as info:
        render_explorer(reference, "es", {"n": bad})
    assert info.value.param == "n"
    assert info.value.message == (
        "Valores permitidos para n: 128, 256, 512, 1024, 2048, 4096, 8192."
    )


def test_other_parameters_are_ignored(reference: Explorer) -> None:
    assert resolve_state(reference.spec, {"m": "3"}).value == 1024
    assert resolve_state(reference.spec, {"n": " 512 "}).value == 512


def test_chart_places_powers_at_equal_distances(reference: Explorer) -> None:
    html = str(render_explorer(reference, "es"))
    polylines = re.findall(r'<polyline class="px-line px-(\w+)" points="([^"]+)"', html)
    assert [style for style, _ in polylines] == ["solid", "dashed"]
    lines = [[tuple(map(float, p.split(","))) for p in pts.split()] for _, pts in polylines]
    xs = [x for x, _ in lines[0]]
    steps = {round(b - a, 1) for a, b in pairwise(xs)}
    assert len(xs) == 7 and len(steps) == 1
    linear_ys, quadratic_ys = ([y for _, y in line] for line in lines)
    linear_steps = [round(a - b, 1) for a, b in pairwise(linear_ys)]
    quadratic_steps = [round(a - b, 1) for a, b in pairwise(quadratic_ys)]
    # Log-log: one doubling of n is one step up for n and two for n^2.
    assert len(set(linear_steps)) == 1
    assert quadratic_steps == pytest.approx([2 * s for s in linear_steps], abs=0.15)
    tick = r'<text x="[^"]+" y="[^"]+" text-anchor="(\w+)"( class="px-wide-only")?>([^<]+)</text>'
    labels = re.findall(tick, html)
    # The first and last labels sit inside the plot's ends; those too close to their
    # neighbours at the phone font (256 and 4096) are for wide screens only.
    assert [(anchor, bool(wide), text) for anchor, wide, text in labels[:7]] == [
        ("start", False, "128"),
        ("middle", True, "256"),
        *(("middle", False, str(v)) for v in (512, 1024, 2048)),
        ("middle", True, "4096"),
        ("end", False, "8192"),
    ]
    y_labels = [text for _, _, text in labels[7:14]]
    assert y_labels == ["1×", "4×", "16×", "64×", "256×", "1024×", "4096×"]
    assert ">Lineal n</text>" in html and ">Cuadrático n²</text>" in html


def test_chart_has_a_text_alternative(reference: Explorer) -> None:
    html = str(render_explorer(reference, "es"))
    assert 'role="img" aria-labelledby="crecimiento-atencion-title"' in html
    desc = re.search(r"<desc[^>]*>([^<]+)</desc>", html)
    assert desc is not None
    assert "escala logarítmica de base 2" in desc.group(1)
    assert "de 128 a 8192 tokens" in desc.group(1)
    assert "de 1× a 4096×" in desc.group(1)
    assert "Cuadrático n²: línea discontinua." in desc.group(1)


def test_script_data_holds_every_state(reference: Explorer) -> None:
    html = str(render_explorer(reference, "es"))
    match = re.search(r"<script type=\"application/json\" data-explorer-data>(.*?)</script>", html)
    assert match is not None
    data = json.loads(match.group(1))
    assert [s["value"] for s in data["states"]] == [str(v) for v in VALUES]
    assert data["states"][-1]["readouts"] == {
        "n": "8192",
        "linear": "64",
        "quadratic": "4096",
        "scores": "67108864",
    }
    assert data["lang"] == "es" and data["valuetext"] == "{value} tokens"


def test_lesson_text_is_escaped_everywhere() -> None:
    hostile = "</script><img src=x onerror=alert(1)>"
    explorer = load("potencias.md", "es", ("label: Longitud seleccionada", f"label: '{hostile}'"))
    edited = load("potencias.md", "es", ("posiciones de puntuación.", f"{hostile}."))
    for html in (str(render_explorer(explorer, "es")), str(render_explorer(edited, "es"))):
        assert "<img" not in html
        assert html.count("</script>") == 1


def test_two_explorers_on_a_page_have_unique_ids(reference: Explorer) -> None:
    other = load("potencias.md", "es", ("id: crecimiento-atencion", "id: otro"))
    page = str(render_explorer(reference, "es")) + str(render_explorer(other, "es"))
    ids = Counter(re.findall(r'\bid="([^"]+)"', page))
    assert ids and all(count == 1 for count in ids.values())
    referenced = re.findall(r'(?:for|aria-labelledby|aria-describedby)="([^"]+)"', page)
    for names in referenced:
        for name in names.split():
            assert name in ids


def test_second_explorer_in_english_with_no_code_change() -> None:
    cube = load("cubic-en.md", "en")
    html = str(render_explorer(cube, "en", {"s": "1024"}))
    assert readout(html, "volume") == "262,144×"
    assert readout(html, "cm3") == "1,073,741,824"
    assert current_row(html)[-1] == "← Selected"
    assert "Show the chart data as a table" in html
    assert 'aria-valuetext="1,024 cm"' in html
    with pytest.raises(ExplorerStateError, match="Allowed values for s: 16, 32"):
        render_explorer(cube, "en", {"s": "2048"})


def test_reserved_widths_hold_the_widest_text(reference: Explorer) -> None:
    html = str(render_explorer(reference, "es"))
    sizers = re.findall(r"<span class=\"px-sizer\"[^>]*>([^<]*)</span>", html)
    assert len(sizers) == 6  # the value beside the slider, four readouts, the summary
    assert [len(s) for s in sizers[1:5]] == [4, 3, 5, len("67.108.864")]
    assert sizers[4] in {"16.777.216", "67.108.864"}


def test_assets() -> None:
    assets = explorer_assets()
    names = asset_names("growth")
    assert names == ("explorer-growth.js", "explorer-growth.css")
    assert all(assets[name] for name in names)
    assert b"import " not in assets["explorer-growth.js"]  # dependency-free module
    assert asset_names("spiral") == ()


def test_golden_html(reference: Explorer) -> None:
    """The whole fragment, readable; set PIZARRA_UPDATE_GOLDEN=1 to rewrite it."""
    golden = FIXTURES / "potencias.html"
    html = str(render_explorer(reference, "es"))
    if os.environ.get("PIZARRA_UPDATE_GOLDEN"):
        golden.write_text(html, encoding="utf-8")
    assert html == golden.read_text(encoding="utf-8")


def test_logarithm_readouts_are_correctly_rounded_in_the_page_data() -> None:
    from decimal import ROUND_HALF_UP, Decimal, localcontext

    html = str(render_explorer(load("logaritmos.md", "es"), "es"))
    data = json.loads(re.search(r"data-explorer-data>(.*?)</script>", html, re.S).group(1))
    assert [s["value"] for s in data["states"]] == [str(2**k) for k in range(1, 21)]
    with localcontext() as ctx:
        ctx.prec = 60
        for k, state in enumerate(data["states"], start=1):
            ln = Decimal(2**k).ln().quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
            assert state["readouts"]["natural"] == str(ln).rstrip("0").rstrip(".")
            assert state["readouts"]["mitades"] == state["readouts"]["logaritmo"] == str(k)
