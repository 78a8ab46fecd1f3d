"""The parity check: a translation says the same mathematics as its original.

A translation keeps, in order, its original's formulas (as mathematics), the numbers of
its prose and tables, its code cells' numbers and their outputs' numbers, its explorers'
declarations but their words, its questions, its sources and references
(:mod:`pizarra.check.translation_items`). Its words may differ freely. Each difference
is an error at the translation's place naming the original's line and value: "the
original has 67.108.864 here (line 120)". A translation whose original changed since
its ``original_digest`` gets a warning naming the original's changed paragraphs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from difflib import SequenceMatcher

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.check.translation_items import (
    Item,
    code_items,
    exercise_items,
    explorer_items,
    formula_items,
    prose_number_items,
    reference_items,
)
from pizarra.source.model import Lesson
from pizarra.source.translations import changed_paragraphs, source_digest

KINDS: tuple[tuple[str, Callable[[Lesson], list[Item]], str], ...] = (
    (
        "formula",
        formula_items,
        "keep the formula as the original writes it (its numbers in this language's style)",
    ),
    (
        "number",
        prose_number_items,
        "keep the original's numbers; write them in this language's style",
    ),
    ("code", code_items, "keep the cell's numbers, and print the same numbers as the original"),
    ("explorer", explorer_items, "translate the explorer's labels, hints and summary only"),
    ("question", exercise_items, "keep every question, and its solution"),
    ("reference", reference_items, "keep the original's sources and cite them in the same order"),
)

MAX_REPORTED = 20
"""Differences reported per kind and lesson: past that, one error says how many more."""


def check_translation(original: Lesson, translation: Lesson, behind: bool) -> list[Diagnostic]:
    """Every difference of ``translation`` from ``original``, and whether it is behind."""
    found: list[Diagnostic] = []
    for kind, items_of, hint in KINDS:
        found += _differences(kind, items_of(original), items_of(translation), translation, hint)
    if behind:
        found.append(_behind(original, translation))
    return found


def _differences(
    kind: str, theirs: Sequence[Item], ours: Sequence[Item], translation: Lesson, hint: str
) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    rest = 0
    end = SourcePos(translation.display_path, translation.source_text.count("\n") + 1, 1)
    for a0, a1, b0, b1 in _changes([i.key for i in theirs], [i.key for i in ours]):
        pairs = max(a1 - a0, b1 - b0)
        for k in range(pairs):
            if len(found) >= MAX_REPORTED:
                rest += pairs - k
                break
            original = theirs[a0 + k] if a0 + k < a1 else None
            here = ours[b0 + k] if b0 + k < b1 else None
            at = here.pos if here else (ours[b1].pos if b1 < len(ours) else end)
            if original is not None and here is not None:
                message = (
                    f"this {kind} differs from the original's: the original has {original.reads} "
                    f"here (line {original.pos.line}), the translation {here.reads}"
                )
            elif original is not None:
                message = (
                    f"a {kind} of the original is missing here: the original has "
                    f"{original.reads} (line {original.pos.line})"
                )
            else:
                assert here is not None
                message = f"this {kind} is not in the original: {here.reads}"
            found.append(Diagnostic(at, message, hint=hint))
    if rest:
        found.append(
            Diagnostic(found[-1].pos, f"and {rest} more differences of this kind", hint=hint)
        )
    return found


MAX_ALIGNED = 2000
"""Items of each side aligned item by item past their common start and end: aligning is
quadratic in the worst case, so a larger difference is reported as one replaced run."""


def _changes(theirs: list[object], ours: list[object]) -> list[tuple[int, int, int, int]]:
    """The runs that differ, ``theirs[a0:a1]`` against ``ours[b0:b1]``: the common start
    and end are skipped in linear time (a translation in step, or edited in one place,
    costs no alignment), and what is left between is aligned with difflib."""
    start = 0
    while start < min(len(theirs), len(ours)) and theirs[start] == ours[start]:
        start += 1
    end = 0
    while (
        end < min(len(theirs), len(ours)) - start
        and theirs[len(theirs) - 1 - end] == ours[len(ours) - 1 - end]
    ):
        end += 1
    a1, b1 = len(theirs) - end, len(ours) - end
    if start == a1 and start == b1:
        return []
    if max(a1 - start, b1 - start) > MAX_ALIGNED:
        return [(start, a1, start, b1)]
    matcher = SequenceMatcher(None, theirs[start:a1], ours[start:b1], autojunk=False)
    return [
        (start + i0, start + i1, start + j0, start + j1)
        for op, i0, i1, j0, j1 in matcher.get_opcodes()
        if op != "equal"
    ]


def _behind(original: Lesson, translation: Lesson) -> Diagnostic:
    at = SourcePos(translation.display_path, 1, 1)
    if not translation.original_digest:
        return Diagnostic(
            at,
            f"translation not yet in step with its original {original.display_path}",
            hint="once it says what the original says, run `pizarra translate --sync` on it",
            severity=Severity.WARNING,
        )
    lines = changed_paragraphs(original, translation.original_blocks)
    shown = ", ".join(str(n) for n in lines[:12]) + (", ..." if len(lines) > 12 else "")
    where = (
        f"the paragraphs at lines {shown}" if len(lines) > 1 else f"the paragraph at line {shown}"
    )
    detail = f"changed or new in the original since: {where}" if lines else ""
    return Diagnostic(
        at,
        f"translation behind its original {original.display_path} since "
        f"{translation.original_synced or 'its last sync'} (version {translation.original_digest}; "
        f"now {source_digest(original.source_text)})",
        hint="bring the translation in step, then run `pizarra translate --sync` on it",
        detail=detail,
        severity=Severity.WARNING,
    )
