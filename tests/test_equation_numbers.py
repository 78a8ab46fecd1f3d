"""amsmath environments are numbered per lesson, in order, as Jupyter Book numbers them."""

from __future__ import annotations

import itertools

from pizarra.check.references import check_references
from pizarra.math.mathml import MathCoreRenderer
from pizarra.render.pages import render_lesson_body
from pizarra.source.syntax.equation_numbers import number_environment
from tests.support import fake_math, lesson_from, small_course

LESSON = (
    "\\begin{equation}\n\\label{uno}\na = 1\n\\end{equation}\n\n"
    "\\begin{equation*}\nb = 2\n\\end{equation*}\n\n"
    "\\begin{align}\nc &= 3 \\label{tres} \\\\\nd &= 4 \\nonumber\n\\end{align}\n\n"
    "\\begin{equation}\ne = 5\n\\end{equation}\n\n"
    "Por {eq}`uno` y {eq}`tres` {cite}`libro`.\n"
)


def test_three_numbered_equations_count_one_two_three() -> None:
    lesson, errors = lesson_from(LESSON)
    assert errors == [] and lesson is not None
    course = small_course(lesson)
    assert check_references(course, lesson) == []
    html = str(render_lesson_body(course, lesson, fake_math))
    assert html.count("\\tag{") == 3
    assert "a = 1\\tag{1}" in html and "c &amp;= 3\\tag{2}" in html and "e = 5\\tag{3}" in html
    assert "b = 2\n\\end{equation*}" in html  # starred: no number
    assert "d &amp;= 4 \\nonumber\n\\end{align}" in html
    assert "\\label" not in html
    assert ">(1)</a>" in html and ">(2)</a>" in html  # the references show the numbers


def test_math_core_shows_the_lesson_numbers() -> None:
    counter = itertools.count(7)
    numbered = number_environment("\\begin{equation}x=1\\end{equation}", lambda: next(counter))
    assert numbered is not None and numbered.numbers == (7,)
    mathml = MathCoreRenderer()(numbered.tex, True)
    assert "<mtext>(7)</mtext>" in mathml and "(1)" not in mathml


def test_rows_of_nested_environments_are_not_rows() -> None:
    counter = itertools.count(1)
    tex = "\\begin{align}f &= \\begin{cases}1 \\\\ 2\\end{cases} \\\\ g &= {a \\\\ b}\\end{align}"
    numbered = number_environment(tex, lambda: next(counter))
    assert numbered is not None and numbered.numbers == (1, 2)
    assert numbered.tex.endswith("g &= {a \\\\ b}\\tag{2}\\end{align}")


def test_own_tags_and_unnumbered_environments_take_no_number() -> None:
    def never() -> int:
        raise AssertionError("numbered")

    assert number_environment("\\begin{equation*}x\\end{equation*}", never) is None
    assert number_environment("\\begin{aligned}x\\end{aligned}", never) is None
    tagged = number_environment("\\begin{equation}x\\tag{A}\\end{equation}", never)
    assert tagged is not None and tagged.numbers == ()


def test_a_label_in_an_eqnarray_names_it_and_is_not_typeset() -> None:
    from pizarra.check.math import check_math

    body = (
        "\\begin{eqnarray}\nx &=& 1 \\nonumber\\\\\n\\label{presa} y &=& 2\n\\end{eqnarray}\n\n"
        "Por {eq}`presa` {cite}`libro`.\n"
    )
    lesson, errors = lesson_from(body)
    assert errors == [] and lesson is not None
    assert check_math(lesson, MathCoreRenderer()) == []
    assert check_references(small_course(lesson), lesson) == []
