"""``pizarra check`` for answer fields: keys, question tests, and the solution's own word.

For each field: its key must be buildable (:mod:`~pizarra.check.answers.keys`); its
own value must be judged correct and each anticipated mistake not correct; each
question test (``tests:``) must get the verdict and feedback its author expects,
else an error at the test's line. A number with ``of:`` is checked as a claim
(``of = value``, or ``\\approx``) by the claim checker, and against every statement
of the solution that starts with the same expression (``64^{-2/3} = \\frac{1}{16}``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from pizarra.base.errors import Diagnostic, Severity
from pizarra.base.i18n.strings import t
from pizarra.check.answers import judge
from pizarra.check.answers import number as number_type
from pizarra.check.answers.common import Judgement, Key
from pizarra.check.answers.keys import build_key
from pizarra.math.exact.context import Context
from pizarra.math.exact.judge import judge_formula
from pizarra.math.exact.statements import Link, split_links
from pizarra.math.exact.status import Status
from pizarra.source.answers.spec import AnswerSpec
from pizarra.source.blocks import Block, Equation, Exercise, Prose, walk
from pizarra.source.model import Lesson


@dataclass
class AnswerCounts:
    """What the check of a lesson's answers did."""

    fields: int = 0
    tests: int = 0
    of_checked: int = 0
    solution_checked: int = 0


def feedback_text(lang: str, judgement: Judgement) -> str:
    """What the page shows after the verdict's first words."""
    if judgement.feedback:
        return judgement.feedback
    return t(lang, f"answer_code_{judgement.code}") if judgement.code else ""


def lesson_keys(
    lesson: Lesson,
) -> Iterator[tuple[Exercise, AnswerSpec, Key | None, list[Diagnostic]]]:
    for exercise in lesson.exercises():
        for spec in exercise.answers:
            key, errors = build_key(spec, lesson.lang, exercise.number)
            yield exercise, spec, key, errors


def check_answers(lesson: Lesson, counts: AnswerCounts | None = None) -> list[Diagnostic]:
    """Every problem with the lesson's answer fields, at its line."""
    counts = counts if counts is not None else AnswerCounts()
    found: list[Diagnostic] = []
    for exercise, spec, key, errors in lesson_keys(lesson):
        counts.fields += 1
        found += errors
        if _only_math(spec.label):
            found.append(
                Diagnostic(
                    spec.pos,
                    "this field's label is only math, which may give it no accessible name",
                    "add words: label: Valor de $3^4$",
                    severity=Severity.WARNING,
                )
            )
        for option in spec.options:
            if _only_math(option.text):
                found.append(
                    Diagnostic(
                        option.pos,
                        "this option's text is only math, which may give it no accessible name",
                        "add words: text: $\\log_5 0$ (base 5, argumento 0)",
                        severity=Severity.WARNING,
                    )
                )
        if key is None:
            continue
        found += _own_values(lesson.lang, spec, key)
        for test in spec.tests:
            counts.tests += 1
            got = judge(key, test.input)
            text = feedback_text(lesson.lang, got)
            if got.verdict != test.verdict or (test.feedback is not None and text != test.feedback):
                said = f"{got.verdict}" + (f" ({text})" if text else "")
                expected = test.verdict + (
                    f" ({test.feedback})" if test.feedback is not None else ""
                )
                found.append(
                    Diagnostic(
                        test.pos,
                        f"question test: {test.input!r} should be {expected}; "
                        f"the checker says {said}",
                    )
                )
        if spec.kind == "number" and spec.of is not None:
            found += _of(lesson, exercise, spec, key, counts)
    return found


def _only_math(text: str) -> bool:
    """No letter outside ``$...$``: a label whose only words are math may have no name."""
    return not any(c.isalpha() for c in re.sub(r"\$[^$]*\$", "", text))


def _own_values(lang: str, spec: AnswerSpec, key: Key) -> list[Diagnostic]:
    found = []
    if spec.kind == "choice":
        own = ",".join(key["value"])
    elif spec.kind in ("set", "list"):
        own = "; ".join(key["value"])
    else:
        own = key["value"][0]
    got = judge(key, own)
    if got.verdict != "correct":
        text = feedback_text(lang, got)
        found.append(
            Diagnostic(spec.value[0].pos, f"the answer's own value is judged {got.verdict}: {text}")
        )
    for mistake in spec.mistakes:
        typed = (
            ",".join(a.text for a in mistake.answer)
            if spec.kind == "choice"
            else "; ".join(a.text for a in mistake.answer)
        )
        if judge(key, typed).verdict == "correct":
            found.append(
                Diagnostic(
                    mistake.pos,
                    "this anticipated mistake is judged correct",
                    "a mistake must differ from the answer",
                )
            )
    return found


def _tex(key: Key) -> str | None:
    """The key's number as TeX in the lesson's language (None for a special word)."""
    node, value = number_type.expected(key)
    if not isinstance(value, Fraction):
        return None
    places = number_type.decimals(node)
    if key["approx"] and places >= 0:
        sign, magnitude = ("-" if value < 0 else ""), abs(value)
        whole = int(magnitude)
        digits = str(int((magnitude - whole) * 10**places)).rjust(places, "0")
        mark = "{,}" if key["lang"].startswith("es") else "."
        return f"{sign}{whole}{mark}{digits}" if places else f"{sign}{whole}"
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def _of(
    lesson: Lesson, exercise: Exercise, spec: AnswerSpec, key: Key, counts: AnswerCounts
) -> list[Diagnostic]:
    assert spec.of is not None
    tex = _tex(key)
    if tex is None:
        return []
    relation = "\\approx" if key["approx"] else "="
    context = Context(lang=lesson.lang)
    found = []
    verdicts = judge_formula(f"{spec.of.text} {relation} {tex}", context)
    if verdicts and verdicts[0].status is Status.FAILED:
        found.append(
            Diagnostic(
                spec.of.pos,
                f"the answer is not the value of {spec.of.text}: {verdicts[0].message}",
                verdicts[0].hint,
            )
        )
    elif verdicts and verdicts[0].status is Status.CHECKED:
        counts.of_checked += 1
    else:
        reason = verdicts[0].message if verdicts else "no claim"
        found.append(
            Diagnostic(
                spec.of.pos,
                f"{spec.of.text} {relation} {tex} is not checked: {reason}",
                severity=Severity.WARNING,
            )
        )
    solution = exercise.solution.body if exercise.solution is not None else ()
    wanted = _plain(spec.of.text)
    for formula in _formulas(solution):
        links = split_links(formula, lesson.lang)
        if not links or _plain(links[0].left.source(formula)) != wanted:
            continue
        last = _chain_end(links)
        stated = last.right.source(formula)
        relation = "\\approx" if key["approx"] or last.relation == "\\approx" else "="
        result = judge_formula(f"{stated} {relation} {tex}", context)
        if result and result[0].status is Status.FAILED:
            found.append(
                Diagnostic(
                    spec.value[0].pos,
                    f"the solution states {spec.of.text} {last.relation} {stated}, "
                    f"but the answer is {key['value'][0]}",
                )
            )
        elif result and result[0].status is Status.CHECKED:
            counts.solution_checked += 1
    return found


def _chain_end(links: list[Link]) -> Link:
    """The last link of the statement ``links[0]`` starts: a formula may state several
    (``a \\approx 0{,}73,\\qquad b \\approx 0{,}27``), and only the first is the
    ``of:`` expression's."""
    last = links[0]
    for link in links[1:]:
        if link.left.start != last.right.start:
            break
        last = link
    return last


def _plain(tex: str) -> str:
    return "".join(tex.split())


def _formulas(blocks: tuple[Block, ...]) -> Iterator[str]:
    for block in walk(blocks):
        if isinstance(block, Equation):
            yield block.tex
        elif isinstance(block, Prose):
            for token in block.tokens:
                for inner in [token, *(token.children or [])]:
                    if inner.type.startswith("math"):
                        yield inner.content
