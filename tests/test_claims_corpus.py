"""The claims corpus: lessons in Spanish and English whose every claim has an expected verdict.

Each line of a corpus lesson that holds claims ends with its expectation, an HTML
comment ``<!-- expect: c f -->`` (or a TeX comment ``% expect: c`` inside display
math): one letter per claim on that line, in order (c checked, u unchecked, f
failed; nothing for a line that must stay silent). A false case is a line that
expects ``f``: it must fail at its own line, and nothing on it may be checked.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest

from pizarra.check.claims import ClaimRecord, claim_records
from pizarra.math.exact.context import Context
from pizarra.math.exact.judge import Status
from pizarra.math.exact.prose import definitions_in
from pizarra.source.blocks import MathItem
from pizarra.source.lower import parse_lesson
from pizarra.source.model import Lesson

CORPUS = Path(__file__).parent / "fixtures" / "claims" / "corpus"
LETTERS = {"c": Status.CHECKED, "a": Status.ASSUMED, "u": Status.UNCHECKED, "f": Status.FAILED}
_EXPECT = re.compile(r"(?:<!--|%)\s*expect:([ acuf]*?)\s*(?:-->|$)")


@dataclass(frozen=True)
class Case:
    """One line of a corpus lesson and the verdicts expected on it."""

    path: Path
    line: int
    expected: tuple[Status, ...]


def _cases() -> list[Case]:
    cases = []
    for path in sorted(CORPUS.glob("*/*.md")):
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = _EXPECT.search(text)
            if match is not None:
                expected = tuple(LETTERS[word] for word in match.group(1).split())
                cases.append(Case(path, number, expected))
    return cases


def _case_id(case: Case) -> str:
    index = sum(1 for c in CASES if c.path == case.path and c.line <= case.line)
    return f"{case.path.parent.name}-{case.path.stem}-{index:03d}"


CASES = _cases()


@cache
def _lesson(path: Path) -> Lesson:
    lesson, errors = parse_lesson(path, path.name)
    assert lesson is not None and not errors, [e.format() for e in errors]
    return lesson


def _on_line(case: Case) -> list[ClaimRecord]:
    """The claims on the case's line, judged afresh for each case.

    Only the parsed lesson is shared between cases: every case runs the claim checker
    on its own formulas, so mutation testing sees which cases reach which code.
    """
    lesson = _lesson(case.path)
    near = tuple(
        item
        for item in lesson.math
        if item.pos.line <= case.line <= item.pos.line + item.tex.count("\n") + 1
        or (item.pos.line < case.line and item in _defining(case.path))
    )
    records, problems = claim_records(replace(lesson, math=near))
    assert not problems, [p.format() for p in problems]
    return [r for r in records if r.pos.line == case.line]


@cache
def _defining(path: Path) -> tuple[MathItem, ...]:
    """The formulas of a corpus lesson that define a function in prose: a case after one
    is judged with it in scope."""
    lesson = _lesson(path)
    context = Context(domains=dict(lesson.variables), lang=lesson.lang)
    fixed = frozenset(lesson.functions)
    return tuple(item for item in lesson.math if definitions_in(item.tex, context, fixed))


@pytest.mark.parametrize("case", [pytest.param(c, id=_case_id(c)) for c in CASES])
def test_case(case: Case) -> None:
    found = _on_line(case)
    assert tuple(r.status for r in found) == case.expected, [(r.claim, r.reason) for r in found]


def test_no_false_case_is_checked_and_each_fails_at_its_line() -> None:
    """Every claim expected to fail fails, at its own line; none is reported checked."""
    checked, missed = [], []
    for case in CASES:
        found = _on_line(case)
        for index, expected in enumerate(case.expected):
            if expected is Status.FAILED:
                status = found[index].status if index < len(found) else None
                if status is Status.CHECKED:
                    checked.append((case.path.name, case.line))
                elif status is not Status.FAILED:
                    missed.append((case.path.name, case.line))
    assert (checked, missed) == ([], [])


def test_every_judged_line_has_an_expectation() -> None:
    annotated = {(case.path, case.line) for case in CASES}
    for path in {case.path for case in CASES}:
        records, _ = claim_records(_lesson(path))
        stray = [r for r in records if (path, r.pos.line) not in annotated]
        assert stray == [], path.name


def test_corpus_size_and_languages() -> None:
    families = Counter(case.path.stem for case in CASES)
    languages = Counter(case.path.parent.name for case in CASES)
    assert len(CASES) >= 200
    assert set(languages) == {"es", "en"}
    assert all(
        any(Status.FAILED in c.expected for c in CASES if c.path.stem == family)
        for family in families
        if family not in ("silent", "text", "logs-base-e")
    )
