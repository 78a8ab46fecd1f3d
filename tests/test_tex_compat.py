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


@pytest.mark.parametrize(
    ("tex", "display", "expected"),
    [
        (
            r"\begin{aligned} a \\[4pt] b \end{aligned}",
            True,
            r"\begin{aligned} a \\ b \end{aligned}",
        ),
        (r"a \\ [x]", True, r"\begin{gathered}a \\ [x]\end{gathered}"),
        (r"a \\ b", True, r"\begin{gathered}a \\ b\end{gathered}"),
        (r"x = 1 \tag{2}", True, r"\begin{gather*}x = 1 \tag{2}\end{gather*}"),
        (r"x = 1 \tag{2}", False, r"x = 1 \tag{2}"),
        (r"1, \dots, n", False, r"1, …, n"),
        (r"a + \dots + b", False, r"a + \cdots  + b"),
        (r"\color{#f00} x", False, r"\color[HTML]{FF0000} x"),
        (r"\textcolor{#00ff00}{x} y", False, r"{\color[HTML]{00FF00}{x}} y"),
        (
            r"\begin{eqnarray} a &=& b \end{eqnarray}",
            True,
            r"\begin{array}{rcl} a &=& b \end{array}",
        ),
        (r"\begin{alignat}{2} a &= b \end{alignat}", True, r"\begin{align} a &= b \end{align}"),
        (r"x_\rm{exact} + {\rm y}", False, r"x_\mathrm{exact} + {\rm y}"),
        (r"\sum_{\substack{a \\ b}}", True, r"\sum_{{\begin{subarray}{c}a \\ b\end{subarray}}}"),
        (
            r"\begin{smallmatrix} a & b \\ c & d \end{smallmatrix}",
            False,
            r"\begin{subarray}{cc} a & b \\ c & d \end{subarray}",
        ),
        (r"\widetilde{x} \mathclap{y}", False, r"\tilde{x} {y}"),
    ],
)
def test_katex_and_mathjax_forms(tex: str, display: bool, expected: str) -> None:
    assert rewrite(tex, display).tex == expected


@pytest.mark.parametrize(
    ("tex", "display", "seen"),
    [
        (r"\begin{pmatrix} 1 \\[2pt] 2 \end{pmatrix}", True, "<mtr>"),
        (r"a \\ b", True, "<mtr>"),
        (r"1, \dots, n", False, "<mi>…</mi>"),
        (r"x = 1 \tag{3}", True, "(3)"),
        (r"\color{#ff0000} x", False, "color:#FF0000"),
        (r"\begin{eqnarray} a &=& b \\ c &=& d \end{eqnarray}", True, "<mtr>"),
        (r"x_\rm{exact}", False, "<msub>"),
        (r"\sum_{\substack{a \\ b}}", True, "<mtable"),
        (r"\begin{smallmatrix} a & b \end{smallmatrix}", False, "<mtable"),
        (r"\begin{alignat}{2} a &= b & c &= d \end{alignat}", True, "<mtable"),
        (r"\widetilde{x} \mathclap{y} \rlap{z}", False, "<mover"),
    ],
)
def test_the_rewritten_forms_typeset(
    render: MathCoreRenderer, tex: str, display: bool, seen: str
) -> None:
    mathml = render(tex, display)
    assert seen in mathml
    assert "[2pt]" not in mathml.split("<annotation")[0]
    assert tex.replace("&", "&amp;") in mathml  # the author's TeX is the annotation


@pytest.mark.parametrize(
    ("tex", "hint"),
    [(r"a \Large b", "remove the size command"), (r"\colorbox{red}{x}", "no background")],
)
def test_katex_commands_math_core_cannot_draw_are_errors_with_a_hint(
    render: MathCoreRenderer, tex: str, hint: str
) -> None:
    with pytest.raises(MathError) as caught:
        render(tex, False)
    assert caught.value.hint is not None and hint in caught.value.hint


def test_mbox_is_text() -> None:
    assert rewrite(r"x \mbox{ if } y").tex == r"x \text{ if } y"
    assert "<mtext" in MathCoreRenderer()(r"x \mbox{ if } y", False)


def test_hbox_is_text_and_a_backslash_ending_a_line_is_a_space() -> None:
    assert rewrite(r"y = 0 \hbox { for } t \geq 0").tex == r"y = 0 \text { for } t \geq 0"
    assert rewrite("\\lim_{N}\\\n\\sum x").tex == "\\lim_{N}\\ \\sum x"
    mathml = MathCoreRenderer()("a\\\nb \\hbox{ if } c", True)
    assert "<mtext>\xa0if\xa0</mtext>" in mathml and "Unknown" not in mathml
