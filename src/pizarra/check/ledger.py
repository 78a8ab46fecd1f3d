"""What verification did for one lesson, item by item: the record behind "verified".

The checks report problems as diagnostics; a ledger also keeps what *passed* and
what could not be decided, so ``pizarra check --claims`` and the lesson's
verification report page can show readers exactly what was checked and why the
rest was not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.check.claims import ClaimCounts, ClaimRecord, failure_diagnostics
from pizarra.check.code_cells import CellOutcome
from pizarra.math.exact.judge import Status
from pizarra.source.model import Course, Lesson

STRICT_CLAIMS_HINT = (
    "rewrite the statement in notation pizarra decides (see docs/authoring.md), "
    "or write it as text if it is not a claim"
)


@dataclass(frozen=True)
class CellEntry:
    """One code cell as verification saw it."""

    pos: SourcePos
    """Where the cell starts."""
    compared: bool
    """True when its printed output was compared with the lesson's ``{output}`` block."""
    cached: bool
    """True when the result came from the cache of an identical earlier run."""


@dataclass(frozen=True)
class ReferenceEntry:
    """One reference in the lesson that had to resolve."""

    pos: SourcePos
    """Where the reference is written."""
    kind: str
    """``lesson`` for a ``{lesson}`` role, ``cite`` for a ``{cite}`` role."""
    target: str
    """The lesson number or the source id it names."""
    resolved: bool
    """True when the target exists."""


@dataclass(frozen=True)
class LessonLedger:
    """Everything verification decided about one lesson, in source order."""

    claims: tuple[ClaimRecord, ...]
    """Every math statement with its status and, when not checked, the reason."""
    cells: tuple[CellEntry, ...]
    """Every code cell that was run."""
    references: tuple[ReferenceEntry, ...]
    """Every lesson and citation reference."""

    @property
    def counts(self) -> ClaimCounts:
        """Claims by outcome."""
        return ClaimCounts.of(self.claims)

    def unchecked(self) -> list[ClaimRecord]:
        return [r for r in self.claims if r.status is Status.UNCHECKED]

    def failures(self) -> list[Diagnostic]:
        """One error per false claim, at its line."""
        return failure_diagnostics(self.claims)


def lesson_ledger(
    course: Course,
    lesson: Lesson,
    claims: Sequence[ClaimRecord],
    outcomes: Sequence[CellOutcome],
) -> LessonLedger:
    """The ledger of ``lesson`` from the records and outcomes its checks produced."""
    cells = tuple(
        CellEntry(
            pos=o.cell.pos,
            compared=o.cell.output is not None and not o.cell.nondeterministic,
            cached=o.cached,
        )
        for o in outcomes
        if not o.result.missing_packages
    )
    keys = {source.key for source in lesson.sources}
    references = [
        ReferenceEntry(ref.pos, "lesson", str(ref.number), course.entry(ref.number) is not None)
        for ref in lesson.lesson_refs
    ] + [ReferenceEntry(c.pos, "cite", c.key, c.key in keys) for c in lesson.citations]
    references.sort(key=lambda r: (r.pos.line, r.pos.col))
    return LessonLedger(tuple(claims), cells, tuple(references))


def strict_claim_errors(ledger: LessonLedger) -> list[Diagnostic]:
    """With ``--strict-claims``: every statement pizarra could not decide is an error."""
    return [
        Diagnostic(
            r.pos,
            f"claim not checked: {r.claim} ({r.reason or 'not decided'})",
            STRICT_CLAIMS_HINT,
            severity=Severity.ERROR,
        )
        for r in ledger.unchecked()
    ]


def claim_lines(ledger: LessonLedger) -> list[str]:
    """``file:line:col: status: claim [-- reason]``, one line per statement, for the CLI."""
    lines = []
    for r in ledger.claims:
        reason = f" -- {r.reason}" if r.reason and r.status is not Status.FAILED else ""
        lines.append(f"{r.pos}: {r.status.value}: {r.claim}{reason}")
    return lines
