"""TeX of Jupyter Book lectures that math-core refuses: \\cr, split, math inside \\text."""

from __future__ import annotations

import time

import pytest

from pizarra.check.math import check_math
from pizarra.math.mathml import MathCoreRenderer, MathError
from pizarra.math.tex_compat import rewrite
from tests.support import FIXTURES, FRONT, lesson_from, read_fixtures

GOLDEN = [
    pytest.param(tex.rstrip("\n"), expected.rstrip("\n"), id=title)
    for title, tex, expected in read_fixtures(FIXTURES / "math" / "compat.md")
]


@pytest.fixture(scope="module")
def render() -> MathCoreRenderer:
    return MathCoreRenderer()


@pytest.mark.parametrize(("tex", "expected"), GOLDEN)
def test_golden(render: MathCoreRenderer, tex: str, expected: str) -> None:
    assert render(tex, True) == expected


@pytest.mark.parametrize(
    "tex",
    [
        r"a + b",
        r"\crcr x",
        r"\text{costs \$5}",
        r"\text{$x}",
        r"\textsf{split}",
        r"\begin{aligned} a \end{aligned}",
        r"\mathrm{cr}",
    ],
)
def test_other_tex_is_left_alone(tex: str) -> None:
    assert rewrite(tex).tex == tex


def test_rewrites() -> None:
    assert rewrite(r"a \cr b").tex == r"a \\ b"
    assert rewrite(r"\begin {split} a \end{split}").tex == r"\begin{aligned} a \end{aligned}"
    assert rewrite(r"\text{if $x$, or}").tex == r"{\text{if }{x}\text{, or}}"
    assert rewrite(r"\text{a {$x$} $y$}").tex == r"{\text{a {$x$} }{y}}"


@pytest.mark.parametrize(
    ("tex", "culprit"),
    [
        (r"\begin{split} a &= \fracc b \end{split}", r"\fracc"),
        (r"\text{when $\fracc x$ is large}", r"\fracc"),
        (r"1 \cr 2 \cr \fracc", r"\fracc"),
        (r"\text{$h$ then $x^{$}", "$h$"),
    ],
)
def test_errors_point_into_the_authors_tex(
    render: MathCoreRenderer, tex: str, culprit: str
) -> None:
    with pytest.raises(MathError) as caught:
        render(tex, True)
    assert caught.value.offset is not None
    assert tex[caught.value.offset :].startswith(culprit), caught.value.message


def test_error_column_in_the_lesson(render: MathCoreRenderer) -> None:
    lesson, errors = lesson_from("Text.\n\n$$\n\\begin{split}\na &= \\fracc b\n\\end{split}\n$$\n")
    assert errors == [] and lesson is not None
    [error] = check_math(lesson, render)
    assert (error.pos.line, error.pos.col) == (FRONT.count("\n") + 5, 6)
    assert "fracc" in error.message


def test_offsets_map_back_piece_by_piece() -> None:
    tex = r"x \cr \text{a $y$} z"
    out = rewrite(tex)
    assert out.tex == r"x \\ {\text{a }{y}} z"
    assert out.source_offset(out.tex.index("y")) == tex.index("y")
    assert out.source_offset(out.tex.index("z")) == tex.index("z")
    assert out.source_offset(len(out.tex)) == len(tex)


def test_rewriting_is_linear() -> None:
    def seconds(n: int) -> float:
        """The best of three runs: a busy machine slows a run, never speeds one up."""
        tex = (r"\text{a $x$ b} \cr " * n) + r"\begin{split} a \end{split}"
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            rewrite(tex)
            best = min(best, time.perf_counter() - start)
        return best

    seconds(100)
    assert seconds(4000) < 40 * seconds(400) + 0.05


@pytest.mark.parametrize("star", ["", "*"])
def test_eqnarray_is_an_rcl_array(star: str) -> None:
    tex = f"\\begin{{eqnarray{star}}}\nz' &=& b\\\\\nb' &=& g\n\\end{{eqnarray{star}}}"
    assert rewrite(tex).tex == "\\begin{array}{rcl}\nz' &=& b\\\\\nb' &=& g\n\\end{array}"
    assert "<mtable" in MathCoreRenderer()(tex, True)


def test_a_font_switch_given_a_group_is_the_command() -> None:
    assert rewrite(r"z_\rm{exact} + \bf {v}").tex == r"z_\mathrm{exact} + \mathbf {v}"
    assert rewrite(r"{\rm x}").tex == r"{\rm x}"
    assert "<math" in MathCoreRenderer()(r"z_\rm{exact}", False)


def test_mbox_is_text() -> None:
    assert rewrite(r"x \mbox{ if } y").tex == r"x \text{ if } y"
    assert "<mtext" in MathCoreRenderer()(r"x \mbox{ if } y", False)
