"""Lowering rules: structure errors, anchors and positions (front matter takes 10 lines)."""

from __future__ import annotations

import pytest

from pizarra.source.blocks import Exercise, Note
from tests.support import lesson_from


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "::::{exercise}\n:::{solution}\nS\n:::\n::::\n",
            "prueba.md:11:1: error: this exercise has no question",
        ),
        (":::{solution}\nS\n:::\n", "prueba.md:11:1: error: a solution must be inside an exercise"),
        ("# Otro título\n", "prueba.md:11:1: error: a lesson has one level-1 heading"),
        (
            "".join(":" * (20 - i) + "{note}\n" for i in range(10))
            + "x\n"
            + "".join(":" * (11 + i) + "\n" for i in range(10)),
            "prueba.md:20:1: error: directives are nested more than 8 deep",
        ),
        (
            ":::{explorer}\nid: x\n:::\n",
            "prueba.md:11:1: error: {explorer} needs the explorer kind",
        ),
        (":::{note}\n:color: red\nTexto.\n:::\n", "prueba.md:12:1: error: unknown option :color:"),
        (
            "```{code-cell} javascript\nconsole.log(1)\n```\n",
            "prueba.md:11:1: error: code cells run python, python3, ipython3, ipython, "
            "not 'javascript'",
        ),
    ],
)
def test_structure_errors(body: str, expected: str) -> None:
    _, errors = lesson_from(body)
    assert [e.splitlines()[0] for e in errors][:1] == [expected] or any(
        e.startswith(expected) for e in errors
    ), errors


def test_a_nested_fence_right_after_the_opening_is_content_not_an_option() -> None:
    lesson, errors = lesson_from("::::{note}\n:::{note}\nDentro.\n:::\n::::\n")
    assert errors == []
    assert lesson is not None
    outer = lesson.blocks[0]
    assert isinstance(outer, Note) and isinstance(outer.body[0], Note)


def test_exercises_are_numbered_and_headings_get_unique_anchors() -> None:
    body = "## Repaso\n\n## Repaso\n\n" + "::::{exercise}\nP\n::::\n\n" * 3
    lesson, errors = lesson_from(body)
    assert errors == [] and lesson is not None
    assert [s.anchor for s in lesson.sections] == ["repaso", "repaso-2"]
    assert [e.number for e in lesson.blocks if isinstance(e, Exercise)] == [1, 2, 3]


def test_positions_of_inline_items() -> None:
    lesson, errors = lesson_from("Texto $a^2$ y\notra línea con {lesson}`3` y $$b$$.\n")
    assert errors == [] and lesson is not None
    assert [(m.tex, m.pos.line, m.pos.col) for m in lesson.math] == [("a^2", 11, 7), ("b", 12, 30)]
    assert [(r.number, r.pos.line, r.pos.col) for r in lesson.lesson_refs] == [(3, 12, 16)]


def test_lesson_role_explicit_text_keeps_the_number_and_rejects_a_bad_one() -> None:
    lesson, errors = lesson_from("Ver {lesson}`Lección 3 <3>` y {lesson}`la lección <tres>`.\n")
    assert lesson is not None and [r.number for r in lesson.lesson_refs] == [3]
    assert len(errors) == 1
    expected = "prueba.md:11:31: error: {lesson} expects a lesson number, not 'la lección <tres>'"
    assert errors[0].startswith(expected)
