"""What verification did for one lesson, item by item: the record behind "verified".

The checks report problems as diagnostics; a ledger also keeps what *passed* and
what could not be decided, so ``pizarra check --claims`` and the lesson's
verification report page can show readers exactly what was checked and why the
rest was not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.check.claims import ClaimCounts, ClaimRecord, failure_diagnostics
from pizarra.check.code_cells import CellOutcome
from pizarra.math.exact.judge import Status
from pizarra.source.blocks import CodeCell
from pizarra.source.model import Course, Lesson

STRICT_CLAIMS_HINT = (
    "rewrite the statement in notation pizarra decides (`pizarra help authoring`, §6), "
    "or write it as text if it is not a claim"
)


class CellState(StrEnum):
    """What verification did with a code cell, so a report never says more than that."""

    COMPARED = "compared"
    """It ran, and what it printed equals the ``{output}`` block the page shows."""
    RAN = "ran"
    """It ran without errors; the page shows no output for it."""
    SHOWN = "shown"
    """It ran without errors and has no ``{output}`` block: the page shows what this
    run printed, which nothing pins or compares."""
    NOT_COMPARED = "not_compared"
    """``:nondeterministic:``: it ran, and its block is shown as written, not compared."""
    NOT_RUN = "not_run"
    """``skip-execution``: it never runs; whatever it shows is as written."""
    HIDDEN = "hidden"
    """``remove-cell``: it runs unseen, and can change what later cells print."""


@dataclass(frozen=True)
class CellEntry:
    """One code cell as verification saw it."""

    pos: SourcePos
    """Where the cell starts."""
    state: CellState
    """What was done with it."""
    cached: bool
    """True when the result came from the cache of an identical earlier run."""

    @property
    def compared(self) -> bool:
        """True when its printed output was compared with the lesson's ``{output}`` block."""
        return self.state is CellState.COMPARED

    @property
    def ran(self) -> bool:
        """True when the cell was run (or its confirmed run was taken from the cache)."""
        return self.state is not CellState.NOT_RUN


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
    """Every code cell that was run, and every ``skip-execution`` cell."""
    references: tuple[ReferenceEntry, ...]
    """Every lesson and citation reference."""

    @property
    def cells_run(self) -> int:
        """How many code cells were run (``skip-execution`` cells are not)."""
        return sum(cell.ran for cell in self.cells)

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
    ran = {o.cell.pos: o for o in outcomes if not o.result.missing_packages}
    cells = tuple(
        CellEntry(cell.pos, _state(cell, ran[cell.pos]), ran[cell.pos].cached) if cell.pos in ran
        else CellEntry(cell.pos, CellState.NOT_RUN, cached=False)
        for cell in lesson.code_cells()
        if cell.pos in ran or not cell.runs
    )  # fmt: skip
    keys = {source.key for source in lesson.sources}
    references = [
        ReferenceEntry(ref.pos, "lesson", str(ref.number), course.entry(ref.number) is not None)
        for ref in lesson.lesson_refs
    ] + [ReferenceEntry(c.pos, "cite", c.key, c.key in keys) for c in lesson.citations]
    references.sort(key=lambda r: (r.pos.line, r.pos.col))
    return LessonLedger(tuple(claims), cells, tuple(references))


def _state(cell: CodeCell, outcome: CellOutcome) -> CellState:
    if "remove-cell" in cell.tags:
        return CellState.HIDDEN
    if cell.output is None:
        shows = outcome.result.ok and outcome.result.stdout and "remove-output" not in cell.tags
        return CellState.SHOWN if shows else CellState.RAN
    return CellState.NOT_COMPARED if cell.nondeterministic else CellState.COMPARED


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
