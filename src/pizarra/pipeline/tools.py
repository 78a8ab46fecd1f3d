"""What a run is given (its tools) and what it gives back (its report)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pizarra.base.cache import Cache
from pizarra.base.errors import Diagnostic, Severity
from pizarra.check.claims import ClaimCounts
from pizarra.check.code_cells import CellOutcome, ResultCache
from pizarra.check.kernel.execute import CodeRunner
from pizarra.check.ledger import CellState, LessonLedger
from pizarra.check.verdicts import VerdictCache
from pizarra.math.mathml import MathRenderer
from pizarra.pipeline.lesson import LessonResult
from pizarra.source.model import Course, Lesson


@dataclass(frozen=True)
class Tools:
    """The edges a run talks to, injectable so tests can replace them."""

    math: MathRenderer
    """TeX -> MathML."""
    runner: CodeRunner
    """Runs code cells."""
    cache: ResultCache | None
    """Code cell results by hash; None disables caching."""
    verdicts: VerdictCache | None = None
    """Claim verdicts by hash; None disables caching."""
    store: Cache | None = None
    """Where whole lesson results are kept between runs; None disables that."""
    jobs: int | None = None
    """Worker processes for the lessons; None means one per CPU."""
    progress: Callable[[Lesson, LessonResult, int], None] | None = None
    """Told of each lesson as it is done, and of how many lessons the run checks (the
    command line's progress line on a terminal)."""


@dataclass
class Report:
    """What a run found and made."""

    course: Course | None = None
    """The loaded course (None when it could not be read)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Every problem, in source order."""
    claims: ClaimCounts = field(default_factory=ClaimCounts)
    """Numeric claims checked, assumed, unchecked and failed."""
    cells_run: int = 0
    """Code cells executed in this run."""
    cells_cached: int = 0
    """Code cells answered from the cache."""
    files: dict[str, bytes] = field(default_factory=dict)
    """The rendered site, path -> bytes (empty if verification failed)."""
    seconds: float = 0.0
    """Wall time of the run."""
    outcomes: dict[Path, list[CellOutcome]] = field(default_factory=dict)
    """Code-cell outcomes per lesson path, for ``--update-outputs``."""
    ledgers: dict[Path, LessonLedger] = field(default_factory=dict)
    """What verification decided, item by item, per lesson path (in course order)."""
    inputs: list[Path] = field(default_factory=list)
    """Every file of the course the run read (for the build manifest)."""
    rebuilt: list[str] = field(default_factory=list)
    """The lessons verified and rendered by this run (the others came from the cache)."""
    reusable: bool = False
    """True when every lesson's result can be kept as it is (its code cells confirmed)."""
    search_texts: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)
    """Each lesson page's bytes and what Pagefind reads of it, by path, as its lesson's
    result holds them (:attr:`~pizarra.pipeline.lesson.LessonResult.indexed`): an index
    made later (``serve``'s) does not read the pages again."""
    whole: Callable[[Lesson], Lesson] | None = None
    """When :attr:`course` holds outlines (``verify(outlines=True)``): gives a lesson of it
    its body back, for a page rendered later (``serve``'s pages rendered on request)."""

    def add(self, path: Path, result: LessonResult) -> None:
        """Count in one lesson's result."""
        self.diagnostics += result.diagnostics
        if result.ledger is not None:
            self.ledgers[path] = result.ledger
            self.claims += result.ledger.counts
        self.outcomes[path] = list(result.outcomes)
        if not result.cached:
            self.rebuilt.append(str(path))
        self.cells_cached += sum(1 for o in result.outcomes if o.cached)
        self.cells_run += sum(
            1 for o in result.outcomes if not o.cached and not o.result.missing_packages
        )

    def failed(self, strict: bool = False) -> bool:
        """Errors; under ``strict`` warnings and outputs not pinned by a block too."""
        return any(d.severity is Severity.ERROR or strict for d in self.diagnostics) or (
            strict and bool(self.unpinned())
        )

    def unpinned(self) -> list[Diagnostic]:
        """An error per cell whose page shows this run's output with no ``{output}`` block
        to pin it: ``--strict`` requires every output pinned."""
        return [
            Diagnostic(
                entry.pos,
                "the code cell prints output but no {output} block pins it",
                hint="run `pizarra check --update-outputs` to add it (--strict requires "
                "every output pinned)",
            )
            for ledger in self.ledgers.values()
            for entry in ledger.cells
            if entry.state is CellState.SHOWN
        ]
