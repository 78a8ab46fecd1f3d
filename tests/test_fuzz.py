"""Property tests: random and mutated input to the three parsers of untrusted text.

The lesson parser, the claim reader and the explorer formula parser must answer
every input with a value or a diagnostic (never another exception) and within a
bound. ``make test`` runs a short session; ``make fuzz`` a long one.
"""

from __future__ import annotations

import os
from datetime import timedelta
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.check.claims import iter_claims
from pizarra.source.course import BUNDLED
from pizarra.source.explorers import parse_explorer
from pizarra.source.explorers.expr import ExprError, evaluate, free_variables, parse_expr
from pizarra.source.lower import parse_lesson
from pizarra.source.model import Lesson
from tests.support import FIXTURES, FRONT

LONG = os.environ.get("PIZARRA_FUZZ_EXAMPLES", "")
FUZZ = settings(
    max_examples=int(LONG) if LONG.isdigit() else 60,
    deadline=timedelta(seconds=20),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=not LONG,
)
"""Every property's settings: 60 fixed examples in ``make test``; ``make fuzz`` sets
``PIZARRA_FUZZ_EXAMPLES`` for a long, random session."""

LESSONS = sorted((BUNDLED / "lessons").glob("*.md")) + sorted(FIXTURES.rglob("*.md"))
SEEDS = [p.read_text(encoding="utf-8") for p in LESSONS]

MARKDOWN_PIECES = [
    "$",
    "$$",
    "\\$",
    "*",
    "**",
    "_",
    "`",
    "```",
    "~~~",
    ":::",
    "::::",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "](",
    "#",
    "## ",
    "\n",
    "\n\n",
    "  ",
    "\t",
    "\\",
    "|",
    "---",
    "- ",
    "1. ",
    "> ",
    "{lesson}`7`",
    "{cite}`libro`",
    "{ref}`x`",
    "{eq}`e`",
    "(x)=\n",
    "{explorer} growth",
    "{code-cell} python",
    "{exercise}",
    "{solution}",
    "{output}",
    "{math}",
    ":label: e\n",
    "<b>",
    "&amp;",
    "&#0;",
    "\x00",
    "\ufeff",
    "\r\n",
    "é",
    "𝑥",
    "2^{10}",
    "\\frac{1}{2}",
    "=",
    "\\approx",
    "9" * 5000,
    "id: a\n",
    "[a](#b)",
    "![i](x.png)",
    "http://x",
]
TEX_PIECES = [
    "0",
    "1",
    "2",
    "7",
    "10",
    "1024",
    "65{,}536",
    "65\\,536",
    "0{,}25",
    "2.5",
    "2,048",
    "9" * 50,
    "9" * 4400,
    "x",
    "n",
    "e",
    "\\pi",
    "=",
    "\\ne",
    "<",
    ">",
    "\\le",
    "\\ge",
    "\\approx",
    "\\sim",
    "+",
    "-",
    "\\cdot",
    "\\times",
    "/",
    ":",
    "^",
    "_",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\\left(",
    "\\right)",
    "\\frac",
    "\\dfrac",
    "\\sqrt",
    "\\log",
    "\\log_2",
    "\\ln",
    "\\exp",
    "!",
    "\\binom",
    "\\text{ y }",
    "\\quad",
    "\\,",
    "\\;",
    "&",
    "\\\\",
    "\\%",
    "%",
    "\\infty",
    "\\sum",
    "\\int",
    "\\begin{aligned}",
    "\\end{aligned}",
    "\\mathrm{d}",
    " ",
    "\n",
    "\\operatorname{softmax}",
    "\\underbrace",
    "\\overset",
    "10^{100}",
    "2^{2^{2^{2^{2}}}}",
]
EXPR_PIECES = [
    "n",
    "m",
    "x",
    "0",
    "1",
    "2",
    "3.5",
    "64",
    "65",
    "999999999999",
    "+",
    "-",
    "*",
    "/",
    "^",
    "(",
    ")",
    " ",
    "log2(",
    "log10(",
    "ln(",
    "log(",
    ",",
    "e",
    "pi",
    "_",
    "..",
    "1e5",
    "%",
]


def pieces(alphabet: list[str], max_size: int) -> st.SearchStrategy[str]:
    return st.lists(
        st.one_of(st.sampled_from(alphabet), st.text(max_size=4)), max_size=max_size
    ).map("".join)


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str], alphabet: list[str]) -> str:
    """A seed text with a few slices deleted, duplicated, swapped or replaced."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 6))):
        if not text:
            break
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 400)))
        op = draw(st.sampled_from(["delete", "duplicate", "insert", "replace", "swap"]))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] * draw(st.integers(1, 50)) + text[j:]
        elif op == "insert":
            text = text[:i] + draw(pieces(alphabet, 8)) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(pieces(alphabet, 3)) + text[j:]
        else:
            k = draw(st.integers(0, len(text)))
            text = text[:i] + text[k:] + text[i:k] if k > i else text[k:i] + text[:k] + text[i:]
    return text


def _parse(text: str, tmp: Path) -> tuple[Lesson | None, list[Diagnostic]]:
    lesson, diagnostics = parse_lesson(tmp / "fuzz.md", "fuzz.md", text, root=tmp)
    assert all(isinstance(d, Diagnostic) and d.pos.line >= 1 for d in diagnostics)
    return lesson, diagnostics


@FUZZ
@given(text=mutated(SEEDS, MARKDOWN_PIECES))
def test_lesson_parser_mutated_lessons(text: str) -> None:
    _parse(text, Path("/nonexistent-course"))


@FUZZ
@given(body=pieces(MARKDOWN_PIECES, 60))
def test_lesson_parser_random_markdown(body: str) -> None:
    _parse(FRONT.format(lang="es") + body, Path("/nonexistent-course"))


@FUZZ
@given(tex=pieces(TEX_PIECES, 30), lang=st.sampled_from(["es", "en"]))
def test_claim_reader_random_tex(tex: str, lang: str) -> None:
    for verdict in iter_claims(tex, lang=lang):
        assert verdict.status.value in ("checked", "unchecked", "failed")


FORMULAS = [m.split("$", 1)[0] for seed in SEEDS for m in seed.split("$")[1::2] if 0 < len(m) < 300]


@FUZZ
@given(tex=mutated(FORMULAS, TEX_PIECES), lang=st.sampled_from(["es", "en"]))
def test_claim_reader_mutated_formulas(tex: str, lang: str) -> None:
    iter_claims(tex, conventions={"zero_to_the_zero": "1"}, variables={"n": "positive"}, lang=lang)


@FUZZ
@given(text=pieces(EXPR_PIECES, 40), n=st.integers(-(10**6), 10**6))
def test_explorer_formula_parser(text: str, n: int) -> None:
    try:
        node = parse_expr(text, frozenset({"n", "m"}))
        env = {name: Fraction(n) for name in free_variables(node)}
        evaluate(node, env)
    except ExprError as exc:
        assert exc.message and 0 <= exc.offset <= len(text) + 1


EXPLORERS = [
    seed[seed.index("\n", seed.index(":::{explorer}")) + 1 : seed.rindex(":::")]
    for seed in SEEDS
    if ":::{explorer}" in seed
]


@FUZZ
@given(body=mutated(EXPLORERS, [*MARKDOWN_PIECES, *EXPR_PIECES, "\n  ", ": ", "- "]))
def test_explorer_declaration_mutated(body: str) -> None:
    spec, diagnostics = parse_explorer("growth", body, SourcePos("fuzz.md", 3), "es")
    assert spec is not None or diagnostics


def test_found_by_fuzzing_a_formula_ending_in_a_backslash() -> None:
    assert iter_claims("\\") == []
    [verdict] = iter_claims("2 = 2 \\")
    assert verdict.status.value == "unchecked"


def test_found_by_fuzzing_a_control_character_in_the_front_matter() -> None:
    lesson, diagnostics = parse_lesson(Path("x.md"), "x.md", "---\n\x1ftitle: a\n---\n")
    assert lesson is None or lesson.incomplete
    assert "unacceptable character" in diagnostics[0].message
