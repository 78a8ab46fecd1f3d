"""TeX -> MathML with Temml in QuickJS: every lesson formula, the quirks, errors, limits."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from pizarra import assets, mathml
from pizarra.mathml import MathError, MathRenderer, TemmlRenderer

FORMULAS = Path(__file__).parent / "fixtures" / "math" / "formulas.txt"


@dataclass(frozen=True)
class Formula:
    """One block of the formulas fixture."""

    tex: str
    """The TeX between the dollars."""
    display: bool
    """``$$...$$`` rather than ``$...$``."""
    line: int
    """Where the block starts in the fixture, for test ids."""


def load_formulas(path: Path = FORMULAS) -> list[Formula]:
    """Blocks separated by blank lines, each ``$...$`` or ``$$...$$``; ``# `` lines skipped."""
    formulas: list[Formula] = []
    block: list[str] = []
    start = 0
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate([*lines, ""], start=1):
        if line.startswith("# "):
            continue
        if line.strip():
            if not block:
                start = number
            block.append(line)
            continue
        if block:
            text = "\n".join(block)
            display = text.startswith("$$")
            fence = "$$" if display else "$"
            assert text.startswith(fence) and text.endswith(fence), f"line {start}: {text!r}"
            formulas.append(Formula(text[len(fence) : -len(fence)].strip("\n"), display, start))
            block = []
    return formulas


ALL = load_formulas()


def parse(mathml_text: str) -> ET.Element:
    return ET.fromstring(mathml_text)


def texts(root: ET.Element, tag: str) -> list[str]:
    return [el.text or "" for el in root.iter(tag)]


@pytest.fixture(scope="module")
def render() -> Iterator[TemmlRenderer]:
    with TemmlRenderer() as renderer:
        yield renderer


def test_fixture_holds_the_whole_lesson() -> None:
    displays = [f for f in ALL if f.display]
    assert len(ALL) == 143
    assert len(displays) == 32
    assert len({(f.tex, f.display) for f in ALL}) == len(ALL)
    assert sum(r"\begin{aligned}" in f.tex for f in ALL) == 2
    restored = [f.tex for f in displays if "factores}}" in f.tex and "a^p=" in f.tex]
    assert restored, "the definition of a^p is restored"
    assert any(f.tex.startswith(r"\frac{(2n)^2d_k}{n^2d_k}") for f in displays)


@pytest.mark.parametrize("formula", ALL, ids=lambda f: f"line{f.line}")
def test_every_lesson_formula_renders(render: TemmlRenderer, formula: Formula) -> None:
    out = render(formula.tex, formula.display)
    root = parse(out)
    assert root.tag == "math"
    assert not list(root.iter("merror"))
    assert "<merror" not in out
    if formula.display:
        assert root.get("display") == "block"
    else:
        assert root.get("display") is None
    annotation = root.find("semantics/annotation")
    assert annotation is not None
    assert annotation.get("encoding") == "application/x-tex"
    assert annotation.text == formula.tex


def test_aligned_is_a_table_with_one_row_per_line(render: TemmlRenderer) -> None:
    aligned = [f for f in ALL if r"\begin{aligned}" in f.tex]
    for formula in aligned:
        root = parse(render(formula.tex, True))
        rows = list(root.iter("mtr"))
        assert len(list(root.iter("mtable"))) == 1
        assert len(rows) == formula.tex.count("\\\\") + 1
        assert all(len(row.findall("mtd")) == 2 for row in rows)
        assert "&" not in "".join(root.itertext()).replace(formula.tex, "")


def test_thousands_separator_is_one_number(render: TemmlRenderer) -> None:
    root = parse(render("2{,}048", False))
    assert texts(root, "mn") == ["2,048"]
    assert not list(root.iter("mo"))
    big = parse(render(r"512\times2{,}048=1{,}048{,}576", True))
    assert texts(big, "mn") == ["512", "2,048", "1,048,576"]


@pytest.mark.parametrize(
    ("tex", "tag", "expected"),
    [
        (r"QK^{\mathsf T}", "mi", "𝖳"),
        (r"r\ge0 \quad\Longleftrightarrow\quad x", "mo", "⟺"),
        (r"\underbrace{a\cdots a}_{m\text{ factores}}", "mo", "⏟"),
        (r"\text{él añadió}", "mtext", "él\u00a0añadió"),
        (r"a\ne0", "mo", "≠"),
    ],
)
def test_symbols(render: TemmlRenderer, tex: str, tag: str, expected: str) -> None:
    root = parse(render(tex, False))
    assert expected in texts(root, tag)


def test_structures(render: TemmlRenderer) -> None:
    root = parse(render(r"a^{m/q}=\left(\sqrt[q]{a}\right)^m", True))
    assert len(list(root.iter("mroot"))) == 1
    fences = [el for el in root.iter("mo") if el.get("fence") == "true"]
    assert [el.text for el in fences] == ["(", ")"]
    dfrac = parse(render(r"\dfrac{a^m}{a^n}", False))
    assert len(list(dfrac.iter("mfrac"))) == 1
    assert any(el.get("displaystyle") == "true" for el in dfrac.iter())
    brace = parse(render(r"\underbrace{a\cdots a}_{m\text{ factores}}", True))
    assert [el.text for el in brace.iter("mtext")] == ["\u00a0factores"]


@pytest.mark.parametrize(
    ("tex", "fragment", "offset"),
    [
        (r"\fracc{1}", r"Unsupported function name: \fracc", 0),
        (r"\frac{1", "Unexpected end of input", 7),
        (r"x^{2", "Expected '}'", None),
        ("a & b", "Expected 'EOF', got '&'", 2),
        ("é", "Accented Unicode text character", 0),
    ],
)
def test_invalid_tex_is_a_clean_error(
    render: TemmlRenderer, tex: str, fragment: str, offset: int | None
) -> None:
    with pytest.raises(MathError) as caught:
        render(tex, True)
    message = caught.value.message
    assert message.startswith("invalid LaTeX: ")
    assert fragment in message
    assert str(caught.value) == message
    for noise in ("\n", "\u0332", "<", "at position", "ParseError"):
        assert noise not in message
    if offset is not None:
        assert caught.value.offset == offset


def test_limits(render: TemmlRenderer) -> None:
    assert parse(render("x" * mathml.MAX_TEX_CHARS, False)).tag == "math"
    with pytest.raises(MathError, match="too long"):
        render("x" * (mathml.MAX_TEX_CHARS + 1), False)
    with pytest.raises(MathError, match="nested too deeply"):
        render("{" * 4900 + "x" + "}" * 4900, True)
    bomb = r"\def\a{x}\def\b{\a\a\a\a\a\a\a\a}\def\c{\b\b\b\b\b\b\b\b}\def\d{\c\c\c\c\c\c\c\c}\d\d"
    with pytest.raises(MathError, match="Too many expansions"):
        render(bomb, True)
    huge = parse(render(r"\rule{1000em}{1000pt}\kern{500em}", True))
    sizes = [el.get("width") for el in huge.iter("mspace")]
    assert sizes == ["20em", "20em"]
    with pytest.raises(MathError):
        render(r"\href{javascript:alert(1)}{x}", False)


def test_timeout_leaves_the_engine_usable(monkeypatch: pytest.MonkeyPatch) -> None:
    with TemmlRenderer() as renderer:
        renderer("x", False)
        monkeypatch.setattr(mathml, "RENDER_TIMEOUT_S", 1e-9)
        with pytest.raises(MathError, match="took longer"):
            renderer(r"\begin{aligned}" + r"a&=\frac{b}{c}\\" * 400 + r"\end{aligned}", True)
        monkeypatch.undo()
        assert parse(renderer(r"\frac{a}{b}", True)).tag == "math"


MEMORY_SCRIPT = r"""
from pizarra import mathml
from pizarra.mathml import MathError, TemmlRenderer

big = r"\begin{aligned}" + r"a&=b\\" * 1200 + r"\end{aligned}"
mathml.MAX_HEAP_BYTES = 3 * 2**20
renderer = TemmlRenderer()
try:
    renderer(big, True)
except MathError as exc:
    assert "too much memory" in exc.message, exc.message
else:
    raise SystemExit("no MathError")
mathml.MAX_HEAP_BYTES = 512 * 2**20
print(renderer(big, True).count("<mtr"))
"""


def test_memory_limit_restarts_the_engine() -> None:
    # In a process of its own: the engine is shared process-wide, and this test
    # needs one started with a tiny heap.
    done = subprocess.run(
        [sys.executable, "-c", MEMORY_SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1200"


def test_cache_returns_the_same_string(render: TemmlRenderer) -> None:
    first = render("a^{1/2}=\\sqrt{a}.", True)
    assert render("a^{1/2}=\\sqrt{a}.", True) is first
    assert render("a^{1/2}=\\sqrt{a}.", False) != first


def test_cache_is_bounded() -> None:
    with TemmlRenderer(cache_size=2) as renderer:
        first = renderer("1", False)
        renderer("2", False)
        assert renderer("1", False) is first
        renderer("3", False)
        renderer("4", False)
        assert renderer("1", False) is not first
        assert renderer("1", False) == first


def test_threads_share_one_renderer() -> None:
    with TemmlRenderer() as serial:
        expected = [serial(f.tex, f.display) for f in ALL]
    with TemmlRenderer() as shared, ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda f: shared(f.tex, f.display), ALL))
    assert got == expected


def test_explicit_temml_path(tmp_path: Path) -> None:
    with TemmlRenderer(assets.temml_js()) as renderer:
        assert "<mn>2</mn>" in renderer("2", False)
    with pytest.raises(FileNotFoundError), TemmlRenderer(tmp_path / "missing.js") as broken:
        broken("2", False)


def test_a_fake_renderer_satisfies_the_protocol() -> None:
    def fake(tex: str, display: bool) -> str:
        return f"<math>{tex}</math>"

    renderer: MathRenderer = fake
    assert renderer("x", True) == "<math>x</math>"


def test_main_font_face_covers_the_lesson(render: TemmlRenderer) -> None:
    core = assets.codepoints(assets.MATH_FONT.ranges)
    used: set[int] = set()
    for formula in ALL:
        root = parse(render(formula.tex, formula.display))
        semantics = root.find("semantics")
        assert semantics is not None
        for child in list(semantics)[:-1]:
            used.update(ord(ch) for ch in "".join(child.itertext()))
    missing = sorted(f"U+{cp:04X}" for cp in used - core)
    assert not missing
