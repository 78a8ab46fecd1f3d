"""Answer fields from source to page: declarations, build-time checks, lessons 7 and 8, HTML."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pizarra.check.answers.questions import AnswerCounts, check_answers
from pizarra.math.mathml import MathCoreRenderer
from pizarra.render.answers import render_answers
from pizarra.source.course import BUNDLED
from pizarra.source.lower import parse_lesson
from pizarra.source.model import Lesson

ROOT = Path(__file__).resolve().parents[1]
LESSONS = BUNDLED / "lessons"
HEAD = "---\ntitle: T\nlesson: 1\nlang: es\nsummary: S.\n---\n\n## Preguntas\n\n"


def lesson_of(body: str, tmp_path: Path) -> tuple[Lesson | None, list[str]]:
    path = tmp_path / "l.md"
    text = HEAD + body
    path.write_text(text, encoding="utf-8")
    lesson, errors = parse_lesson(path, "l.md", text)
    return lesson, [e.format() for e in errors]


def exercise(answer: str, solution: str = "") -> str:
    tail = f":::{{solution}}\n{solution}\n:::\n" if solution else ""
    return f"::::{{exercise}}\nCalcula $64^{{-2/3}}$.\n\n{answer}\n{tail}::::\n"


def answer(body: str, kind: str = "number") -> str:
    return f":::{{answer}} {kind}\n{body.strip()}\n:::\n"


def checked(body: str, tmp_path: Path) -> list[str]:
    lesson, errors = lesson_of(body, tmp_path)
    assert lesson is not None and errors == []
    return [d.format() for d in check_answers(lesson)]


GOOD = answer("label: Valor\nvalue: 1/16\nof: 64^{-2/3}\nform: evaluated\n")


def test_a_declaration_is_read_with_positions(tmp_path: Path) -> None:
    lesson, errors = lesson_of(exercise(GOOD), tmp_path)
    assert lesson is not None and errors == []
    (spec,) = next(lesson.exercises()).answers
    assert (spec.kind, spec.value[0].text, spec.value[0].pos.line) == ("number", "1/16", 15)
    assert spec.of is not None and spec.of.text == "64^{-2/3}"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            exercise(answer("label: V\nvalue: 1", kind="numero")),
            "l.md:13:1: error: unknown answer type 'numero'",
        ),
        (exercise(answer("label: V\nvalue: 1\nvalor: 2")), "l.md:16:1: error: unknown key 'valor'"),
        (exercise(answer("label: V")), "is missing the key 'value'"),
        (
            exercise(answer("label: V\nvalue: 1\ntests:\n  - input: '1'\n    verdict: ok")),
            "unknown verdict 'ok'",
        ),
        (
            exercise(answer("label: V\nvalue: x\nletters: [xy]", kind="expression")),
            "a letter is one letter",
        ),
        (answer("label: V\nvalue: 1"), "an answer field must be inside an exercise"),
    ],
)
def test_a_bad_declaration_is_an_error_at_its_line(body: str, message: str, tmp_path: Path) -> None:
    _, errors = lesson_of(body, tmp_path)
    assert any(message in e for e in errors), errors


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("label: V\nvalue: 1/2x", "l.md:15:8: error: '1/2x' cannot be read (ambiguous_division)"),
        ("label: V\nvalue: 2^(1/2)", "has no exact rational value"),
        (
            "label: V\nvalue: 1/16\nform: cooked",
            "l.md:16:7: error: unknown form 'cooked' for a number",
        ),
        ("label: V\nvalue: 1/16\napprox: true", "an approximate value is a decimal"),
        (
            "label: V\nvalue: 1/16\nmistakes:\n  - answer: 0,0625\n    feedback: f",
            "l.md:17:5: error: this anticipated mistake is judged correct",
        ),
        (
            "label: V\nvalue: 1/16\nform: evaluated\n"
            "tests:\n  - input: '2^-4'\n    verdict: correct",
            "l.md:18:5: error: question test: '2^-4' should be correct; "
            "the checker says incorrect (El valor es ese",
        ),
        (
            "label: V\nvalue: 1/16\n"
            "tests:\n  - input: '16'\n    verdict: incorrect\n    feedback: Nope",
            "should be incorrect (Nope); the checker says incorrect",
        ),
        (
            "label: V\nvalue: 1/8\nof: 64^{-2/3}",
            "l.md:16:5: error: the answer is not the value of 64^{-2/3}",
        ),
    ],
)
def test_a_value_the_checker_disagrees_with_is_an_error_at_its_line(
    body: str, message: str, tmp_path: Path
) -> None:
    found = checked(exercise(answer(body)), tmp_path)
    assert any(message in e for e in found), found


def test_expression_and_choice_declarations_are_checked(tmp_path: Path) -> None:
    expression = answer("label: E\nvalue: 1/x^2\nletters: [x]\nwhere: x < 0", kind="expression")
    assert any("unknown condition 'x < 0'" in e for e in checked(exercise(expression), tmp_path))
    choice = answer(
        "label: C\nvalue: z\noptions:\n  - id: a\n    text: A\n  - id: a\n    text: B", "choice"
    )
    found = checked(exercise(choice), tmp_path)
    assert any("two options have the id 'a'" in e for e in found)
    assert any("no option has the id 'z'" in e for e in found)


def test_a_label_or_an_option_of_math_alone_is_a_warning_at_its_line(tmp_path: Path) -> None:
    """Math alone may give a field or a check box no accessible name (axe finds none)."""
    choice = answer(
        "label: $\\log_5 0$\nvalue: b\noptions:\n  - id: a\n    text: $\\log_5 0$\n"
        "  - id: b\n    text: $\\log_5 25$ (base 5)",
        "choice",
    )
    found = checked(exercise(choice), tmp_path)
    assert [e.split(": ", 2)[:2] for e in found] == [
        ["l.md:13:1", "warning"],
        ["l.md:17:5", "warning"],
    ]
    assert "label is only math" in found[0] and "option's text is only math" in found[1]


def test_the_answer_is_checked_against_the_solution_s_final_statement(tmp_path: Path) -> None:
    body = "label: V\nvalue: 1/4\n"
    found = checked(exercise(answer(body), "$$\n64^{-2/3}=\\frac{1}{16}\n$$"), tmp_path)
    assert found == []  # no of: nothing to compare
    wrong = answer(body + "of: 64^{-2/3}")
    found = checked(
        exercise(wrong, "$$\n64^{-2/3}=\\frac{1}{64^{2/3}}=\\frac{1}{16}\n$$"), tmp_path
    )
    assert any(
        "l.md:15:8: error: the solution states 64^{-2/3} = \\frac{1}{16}" in e for e in found
    )
    counts = AnswerCounts()
    lesson, _ = lesson_of(exercise(GOOD, "$$\n64^{-2/3}=\\frac{1}{16}\n$$"), tmp_path)
    assert lesson is not None and check_answers(lesson, counts) == []
    assert (counts.of_checked, counts.solution_checked) == (1, 1)


def test_a_solution_formula_with_two_statements_is_compared_by_its_first(
    tmp_path: Path,
) -> None:
    """``a = 1/16,\\qquad b = 1/4``: the answer for ``a`` is compared with ``1/16`` only."""
    two = "$$\n64^{-2/3}=\\frac{1}{16},\\qquad 2^{-2}=\\frac{1}{4}\n$$"
    counts = AnswerCounts()
    lesson, _ = lesson_of(exercise(GOOD, two), tmp_path)
    assert lesson is not None and check_answers(lesson, counts) == []
    assert counts.solution_checked == 1
    wrong = answer("label: V\nvalue: 1/4\nof: 64^{-2/3}")
    found = checked(exercise(wrong, two), tmp_path)
    assert any(
        "the solution states 64^{-2/3} = \\frac{1}{16}, but the answer is 1/4" in e for e in found
    )


def bundled(name: str) -> Lesson:
    path = next(LESSONS.glob(name))
    lesson, errors = parse_lesson(path, path.name)
    assert lesson is not None and errors == []
    return lesson


def test_every_question_of_lesson_7_takes_answers_that_its_checks_accept() -> None:
    lesson = bundled("07-*.md")
    counts = AnswerCounts()
    assert check_answers(lesson, counts) == []
    exercises = list(lesson.exercises())
    assert all(e.answers for e in exercises)
    first, third, seventh = exercises[0].answers[0], exercises[2].answers[0], exercises[6].answers
    assert (first.of and first.of.text, first.value[0].text) == ("3^4", "81")
    assert (third.of and third.of.text, third.value[0].text) == ("64^{-2/3}", "1/16")
    assert [a.value[0].text for a in seventh] == ["undefined", "no-real", "-2", "5", "convencion"]
    assert counts.tests >= 40 and counts.of_checked >= 12 and counts.solution_checked >= 10


LESSON_8_FIELDS = {
    1: ["number"] * 4,
    2: ["number"] * 3,
    3: ["choice", "number", "number", "choice"],
    4: ["choice", "number", "number"],
    5: ["number", "set", "choice"],
    6: ["number"] * 2,
    7: ["number"] * 2,
    8: ["number"] * 4,
    9: ["number"] * 2,
    10: ["choice", "number", "number", "number", "number"],
    11: ["number"] * 4,
}
"""Lesson 8's answer fields, question by question: a question that loses one fails."""


@pytest.mark.parametrize("path", ["lessons/08-logaritmos.md", "en/08-logarithms.md"])
def test_every_question_of_lesson_8_takes_answers_that_its_checks_accept(path: str) -> None:
    lesson, errors = parse_lesson(BUNDLED / path, path)
    assert lesson is not None and errors == []
    counts = AnswerCounts()
    assert check_answers(lesson, counts) == []
    fields = {e.number: [a.kind for a in e.answers] for e in lesson.exercises()}
    assert fields == LESSON_8_FIELDS
    every = [a for e in lesson.exercises() for a in e.answers]
    assert all(a.tests and any(t.verdict == "correct" for t in a.tests) for a in every)
    assert all(any(t.verdict != "correct" for t in a.tests) for a in every)
    assert all(a.mistakes for a in every)
    numbers = [a for a in every if a.kind == "number"]
    assert all(a.of is not None for a in numbers)
    assert sum(a.approx for a in numbers) == 8
    assert counts.fields == 36 and counts.tests == 164
    assert counts.of_checked == len(numbers) and counts.solution_checked >= 15
    first = next(lesson.exercises()).answers
    assert [(a.of and a.of.text, a.value[0].text) for a in first] == [
        ("\\log_3 243", "5"),
        ("\\log_5\\tfrac{1}{25}", "-2"),
        ("\\log_{10} 100\\,000" if lesson.lang == "es" else "\\log_{10} 100{,}000", "5"),
        ("\\log_{1/3} 9", "-2"),
    ]


def test_the_page_holds_fields_hidden_until_the_module_runs_and_the_key_as_data() -> None:
    lesson = bundled("07-*.md")
    first = next(lesson.exercises())
    html = str(render_answers(first, "es", MathCoreRenderer()))
    assert html.startswith('<div class="answers" data-answers data-pagefind-ignore hidden>')
    assert '<label for="pregunta-1-1-input">' in html
    assert (
        'role="status"' in html
        and 'aria-describedby="pregunta-1-1-help pregunta-1-1-status"' in html
    )
    assert ">Comprobar</button>" in html
    data = re.search(r'<script type="application/json" data-answer-key>(.*?)</script>', html, re.S)
    assert data is not None and "<" not in data.group(1)
    keys = json.loads(data.group(1))
    assert [k["id"] for k in keys] == ["pregunta-1-1", "pregunta-1-2"]
    assert keys[0]["value"] == ["81"] and keys[0]["form"] == ["evaluated"]


def test_an_english_page_names_its_fields_in_english_as_its_anchors() -> None:
    first = next(bundled("07-*.md").exercises())
    html = str(render_answers(first, "en", MathCoreRenderer()))
    assert '<label for="question-1-1-input">' in html and "pregunta" not in html
    data = re.search(r'<script type="application/json" data-answer-key>(.*?)</script>', html, re.S)
    assert data is not None
    assert [k["id"] for k in json.loads(data.group(1))] == ["question-1-1", "question-1-2"]
