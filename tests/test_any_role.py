"""``{any}``: a label as ``{ref}``, else a lesson as ``{doc}``, else an error at its place."""

from __future__ import annotations

from dataclasses import replace

from pizarra.check.references import check_references
from pizarra.render.pages import render_lesson_body
from tests.support import fake_math, lesson_from, small_course


def test_any_links_a_label_first_and_a_lesson_otherwise() -> None:
    lesson, errors = lesson_from(
        "(sec-a)=\n## La sección\n\n"
        "Ver {any}`sec-a`, {any}`el teorema <thm>`, {any}`otra` y {any}`la otra <otra>` "
        "{cite}`libro`.\n\n"
        "```{prf:theorem}\n:label: thm\nT.\n```\n"
    )
    assert errors == [] and lesson is not None
    course = small_course(lesson)
    assert check_references(course, lesson) == []
    html = str(render_lesson_body(course, lesson, fake_math))
    assert (
        'Ver <a class="ref ref-any" href="#sec-a">La sección</a>, '
        '<a class="ref ref-any" href="#thm">el teorema</a>, '
        '<a class="ref ref-any" href="../otra/">Otra</a> y '
        '<a class="ref ref-any" href="../otra/">la otra</a> '
    ) in html


def test_any_reaches_an_upcoming_lesson_by_its_label_or_its_doc_name() -> None:
    lesson, errors = lesson_from("Ver {any}`ergodicidad` y {any}`cadenas_ii` {cite}`libro`.\n")
    assert errors == [] and lesson is not None
    course = small_course(lesson)
    upcoming = replace(course.entries[2], doc="cadenas_ii", labels=("ergodicidad",))
    course = replace(course, entries=(*course.entries[:2], upcoming))
    assert check_references(course, lesson) == []
    html = str(render_lesson_body(course, lesson, fake_math))
    assert html.count('href="../#leccion-3">Futura</a>') == 2


def test_a_name_that_is_both_a_label_and_a_lesson_goes_to_the_label_with_a_warning() -> None:
    lesson, errors = lesson_from("(otra)=\n## Aquí\n\nVer {any}`otra` {cite}`libro`.\n")
    assert errors == [] and lesson is not None
    course = small_course(lesson)
    [both] = check_references(course, lesson)
    assert both.format() == (
        "prueba.md:14:5: warning: {any} `otra` names both a label and a lesson; "
        "it links to the label\n"
        "    hint: write {ref}`otra` or {doc}`otra` to say which"
    )
    html = str(render_lesson_body(course, lesson, fake_math))
    assert '<a class="ref ref-any" href="#otra">Aquí</a>' in html


def test_any_that_names_nothing_is_an_error_at_its_place() -> None:
    lesson, errors = lesson_from(
        "(sitio)=\nTexto.\n\nVer {any}`nada`, {any}`sitio` y {any}`a <b c>` {cite}`libro`.\n"
    )
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:14:33: error: {any} needs a label or a lesson's file name, not 'a <b c>'"
    ]
    assert lesson is not None
    course = small_course(lesson)
    missing, untitled = check_references(course, lesson)
    assert missing.format().startswith(
        "prueba.md:14:5: error: {any} cannot be resolved: no label or lesson 'nada' in the course"
    )
    assert untitled.format().startswith(
        "prueba.md:14:18: error: {any} cannot be resolved: 'sitio' has no title to show"
    )
    html = str(render_lesson_body(course, lesson, fake_math))
    assert '<span class="ref">nada</span>' in html
