"""What `serve` holds between rebuilds: the last good build, its errors, who waits for it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pizarra.check.code_cells import CellOutcome
from pizarra.check.ledger import LessonLedger
from pizarra.pipeline.tools import Report
from pizarra.site.search import FOLDER
from pizarra.source.model import Course, Lesson

SEARCH = f"{FOLDER}/"
"""The search index's files in the site."""


def search_file(path: str) -> bool:
    """A file of a search index: the original's (``pagefind/``) or a translated
    edition's (``en/pagefind/``)."""
    return path.startswith(SEARCH) or path.partition("/")[2].startswith(SEARCH)


@dataclass
class SiteState:
    """The last good build and what the last build said."""

    course: Course | None = None
    """The course of the last good build."""
    files: dict[str, bytes] = field(default_factory=dict)
    """Its files."""
    errors: str = ""
    """The last build's diagnostics, if it failed."""
    version: int = 0
    """Bumped after every build, good or bad: open pages watch it."""
    started: int = 0
    """Bumped when a rebuild starts: open pages reload then, and wait for it."""
    ledgers: dict[Path, LessonLedger] = field(default_factory=dict)
    """What the last good build verified, per lesson (for pages rendered on request)."""
    outcomes: dict[Path, list[CellOutcome]] = field(default_factory=dict)
    """What the last good build's code cells produced (their figures), per lesson."""
    served: int = 0
    """Bumped when a build is taken."""
    indexed: int = 0
    """The taken build whose search index ``files`` holds (:attr:`served` once it has
    its own)."""
    search_texts: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)
    """What Pagefind reads of the last good build's lesson pages (:attr:`Report.search_texts`)."""
    whole: Callable[[Lesson], Lesson] = lambda lesson: lesson
    """Gives a lesson of :attr:`course`, which holds outlines, its body (:attr:`Report.whole`)."""
    failed_course: Course | None = None
    """Before any build passed: the course the last (failed) build read, so its error
    page is the course's own, styled, as after a good build."""

    def accept(self, report: Report, strict: bool) -> bool:
        """Take the build if it passed (True), else keep serving the last good one.

        A build made without its search index keeps the last one until
        :meth:`add_index` brings the new one.
        """
        text = "\n".join(d.format() for d in report.diagnostics)
        passed = not report.failed(strict)
        if passed:
            index = {k: v for k, v in self.files.items() if search_file(k)}
            self.course, self.files, self.errors = report.course, {**index, **report.files}, ""
            self.ledgers = report.ledgers
            self.outcomes = report.outcomes
            self.search_texts = report.search_texts
            if report.whole is not None:
                self.whole = report.whole
            self.served += 1
        else:
            self.errors = text or "build failed"
            if self.course is None:
                self.failed_course = report.course
        self.version += 1
        return passed

    def add_index(self, index: dict[str, bytes], served: int) -> None:
        """The search index of taken build ``served``, unless another was taken since."""
        if self.served == served:
            kept = {k: v for k, v in self.files.items() if not search_file(k)}
            self.files = {**kept, **index}
            self.indexed = served
