"""The ``function`` explorer: its formulas, its declaration's errors, its states."""

from __future__ import annotations

import itertools
import random
import re
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from pizarra.base.errors import SourcePos
from pizarra.render.explorers import (
    ExplorerStateError,
    render_explorer,
    resolve_state,
    state_pages,
    state_params,
)
from pizarra.render.explorers.states import fixed, plain_fixed, plural_category
from pizarra.source.blocks import Explorer
from pizarra.source.explorers import parse_explorer
from pizarra.source.explorers.expr import ExprError, Power, evaluate, parse_expr
from pizarra.source.explorers.function_spec import FunctionSpec
from pizarra.source.explorers.reals import enclose, rounded

FIXTURE = Path(__file__).parent / "fixtures" / "explorers" / "funcion.md"
BLOCK = re.compile(r"^:::\{explorer\} (\w+)\n(.*?)^:::$", re.S | re.M)
X = frozenset({"x", "a"})


def body(edit: tuple[str, str] | None = None) -> str:
    match = BLOCK.search(FIXTURE.read_text(encoding="utf-8"))
    assert match is not None
    return match.group(2) if edit is None else match.group(2).replace(*edit)


def parse(text: str, lang: str = "es") -> tuple[FunctionSpec | None, list[str]]:
    spec, diagnostics = parse_explorer("function", text, SourcePos("f.md", 3), lang)
    assert spec is None or isinstance(spec, FunctionSpec)
    return spec, [f"{d.pos.line}:{d.pos.col}: {d.message}" for d in diagnostics]


def test_variable_exponents_only_where_allowed() -> None:
    assert isinstance(parse_expr("a^x", X, powers=True), Power)
    with pytest.raises(ExprError, match="an exponent must be a constant"):
        parse_expr("a^x", X)
    assert evaluate(parse_expr("a^x", X, powers=True), {"a": Fraction(3), "x": Fraction(2)}) == 9
    assert evaluate(parse_expr("sqrt(x)", X), {"x": Fraction(9, 4)}) == Fraction(3, 2)
    assert evaluate(parse_expr("exp(x - 2)", X), {"x": Fraction(2)}) == 1
    with pytest.raises(ExprError, match="not a rational number"):
        evaluate(parse_expr("exp(x)", X), {"x": Fraction(1)})
    with pytest.raises(ExprError, match="sqrt of -1 is not defined"):
        rounded(parse_expr("sqrt(x)", X), {"x": Fraction(-1)}, 3)


@pytest.mark.parametrize(
    ("text", "true"),
    [
        ("exp(x)", lambda x, a: mpmath.exp(x)),
        ("sqrt(x)", lambda x, a: mpmath.sqrt(x)),
        ("a^x", lambda x, a: a**x),
        ("(1 + 1/x)^x", lambda x, a: (1 + 1 / x) ** x),
    ],
)
def test_enclosures_contain_the_true_value(text: str, true: object) -> None:
    mpmath.mp.dps = 120
    generator = random.Random(7)
    expr = parse_expr(text, X, powers=True)
    for _ in range(200):
        x = Fraction(generator.randint(1, 40000), generator.randint(20, 400))
        a = Fraction(generator.randint(11, 40), 10)
        box = enclose(expr, {"x": x, "a": a}, 64)
        value = true(
            mpmath.mpf(x.numerator) / x.denominator, mpmath.mpf(a.numerator) / a.denominator
        )  # type: ignore[operator]
        low = mpmath.mpf(box.lo.numerator) / box.lo.denominator
        high = mpmath.mpf(box.hi.numerator) / box.hi.denominator
        slack = abs(value) * mpmath.mpf(10) ** -100  # the conversions to mpf round
        assert low - slack <= value <= high + slack, (text, x, a)
        assert high - low <= abs(value) * mpmath.mpf(2) ** -48 + mpmath.mpf(2) ** -60


def test_e_as_a_limit_is_correctly_rounded() -> None:
    expr = parse_expr("(1 + 1/x)^x", X, powers=True)
    assert rounded(expr, {"x": Fraction(10**6)}, 9) == Fraction("2.718280469")
    assert rounded(parse_expr("exp(x)", X), {"x": Fraction(1)}, 12) == Fraction("2.718281828459")


def test_the_fixture_parses_and_every_state_has_a_page() -> None:
    spec, errors = parse(body())
    assert errors == [] and spec is not None
    assert state_params(spec) == ("a",)
    pages = state_pages(spec)
    assert len(pages) == 25
    assert pages[0] == ("pendiente-a-1.5.html", {"a": "1.5"})
    assert resolve_state(spec, {"a": "2.1"}) == (6,)


@pytest.mark.parametrize("bad", ["2.10", "2.05", "x", "-1", "1" * 40])
def test_a_query_is_read_strictly(bad: str) -> None:
    spec, _ = parse(body())
    assert spec is not None
    with pytest.raises(ExplorerStateError, match=r"Valores permitidos para a: 1\.5, 1\.6"):
        resolve_state(spec, {"a": bad})


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("from: 1.5, to: 4, step: 0.1", "from: 1.5, to: 4, step: 0.3"), "the step must"),
        (("from: 1.5, to: 4, step: 0.1", "from: 0.1, to: 7, step: 0.1"), "values need"),
        (("initial: 2\n", "initial: 2.05\n"), "9:14: initial must be one of the values"),
        (("from: -2, to: 2}", "from: -2, to: 2, scale: log2}"), "11:4: a logarithmic axis"),
        (("formula: a^x,", "formula: ln(x),"), "14:29: curve formula at a = 1.5, x = -2"),
        (("when: ln(a) < 1", "when: ln(a) == ln(a)"), "when at a = 1.5: cannot decide"),
        (("one: décima,", "two: décima,"), "'es' has no plural form 'two'"),
        (("{faltan} {d}", "{faltan} {e}"), "field {e} is not a parameter, readout, word"),
        (("curves:", "curvas:"), "unknown key 'curvas' in the explorer"),
        (("x: [-2, -1, 0, 1, 2]", "x: [-2, 3]"), "every table x must lie on the x axis"),
        (("{curve: potencia, x: 1}", "{curve: potencia, x: a}"), "mark x = 2.1 is outside"),
    ],
)
def test_errors_point_at_their_line(edit: tuple[str, str], message: str) -> None:
    spec, errors = parse(body(edit))
    assert spec is None
    assert any(message in e for e in errors), errors


def test_too_many_states_is_an_error_that_says_the_bound() -> None:
    two = body(
        (
            "    hint: Elige una base",
            "    hint: h\n"
            "  - {name: b, label: B, values: {from: 1, to: 3, step: 1}, initial: 1, hint: h}\n"
            "    hint2: Elige una base",
        )
    ).replace("    hint2: Elige una base entre 1,5 y 4; cada flecha la mueve una décima.\n", "")
    _, errors = parse(two)
    assert any("the parameters give 78 states; at most 64" in e for e in errors), errors


def test_numbers_keep_their_digits_and_plural_forms_follow_cldr() -> None:
    assert fixed(Fraction(97, 10), "es", 2) == "9,70"
    assert fixed(Fraction(12345), "es", 1) == "12.345,0"
    assert fixed(Fraction(1234), "en", 0) == "1,234"
    assert plain_fixed(Fraction(1, 2), 3) == "0.500"
    assert [plural_category("es", p) for p in ("1", "1.0", "2", "1000000")] == [
        "one",
        "one",
        "other",
        "many",
    ]
    assert [plural_category("en", p) for p in ("1", "1.0")] == ["one", "other"]


def test_render_shows_the_state_and_a_word_in_the_plural_it_needs() -> None:
    spec, _ = parse(body())
    assert spec is not None
    html = str(render_explorer(Explorer("function", spec, spec.pos), "es", {"a": "3.9"}))
    assert "Falta 1 décima para llegar a 4." in html
    assert 'aria-valuetext="3,9"' in html
    assert '<a href="./#pendiente">2</a>' in html


def test_log_axis_labels_every_kth_power_ending_with_the_last_and_never_overlap() -> None:
    from pizarra.render.explorers.function_chart import layout

    text = (FIXTURE.parent / "mitades.md").read_text(encoding="utf-8")
    match = BLOCK.search(text)
    assert match is not None
    spec, _ = parse(match.group(2))
    assert spec is not None
    chart = layout(spec, "es")
    labelled = [t for t in chart.x_ticks if t.label]
    assert [t.label for t in labelled] == ["2", "128", "8192", "524.288"]
    assert labelled[-1].at == chart.x_ticks[-1].at
    gaps = {round(b.at - a.at, 1) for a, b in itertools.pairwise(labelled)}
    assert len(gaps) == 1  # equal gaps between labels
    assert [t.label for t in chart.y_ticks if t.label] == ["0", "5", "10", "15", "20"]


KIND_SEEDS = [
    ("function", body()),
    (
        "distribution",
        BLOCK.findall((FIXTURE.parent / "softmax.md").read_text(encoding="utf-8"))[0][1],
    ),
]


def test_mutated_declarations_of_the_new_kinds_give_a_spec_or_diagnostics() -> None:
    """Bounded and total: random edits give a spec or errors, never an exception."""
    from hypothesis import given
    from hypothesis import strategies as hs

    from tests.test_fuzz import EXPR_PIECES, FUZZ, mutated

    pieces = [*EXPR_PIECES, "exp(", "sqrt(", "^x", "^a", "\n  ", ": ", "- ", "==", "<", "{", "}"]

    @FUZZ
    @given(index=hs.integers(0, 1), data=hs.data())
    def check(index: int, data: hs.DataObject) -> None:
        kind, seed = KIND_SEEDS[index]
        text = data.draw(mutated([seed], pieces))
        spec, diagnostics = parse_explorer(kind, text, SourcePos("fuzz.md", 3), "es")
        assert spec is not None or diagnostics

    check()
