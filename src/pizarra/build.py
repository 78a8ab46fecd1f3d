"""The pipeline, stage by stage: load, verify, render, check links, index for search, write.

``verify`` is what ``pizarra check`` runs; ``build`` is ``verify`` plus writing
the site, and writes nothing unless every check passed.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path

from pizarra.assets import site_assets
from pizarra.check.claims import ClaimCounts, claim_records
from pizarra.check.code_cells import (
    CellOutcome,
    ResultCache,
    cell_figures,
    check_code_cells,
    run_code_cells,
)
from pizarra.check.ledger import LessonLedger, lesson_ledger, strict_claim_errors
from pizarra.check.links import check_links
from pizarra.check.math import check_math
from pizarra.check.references import check_references
from pizarra.check.verdicts import VerdictCache
from pizarra.course import load_course
from pizarra.errors import Diagnostic, Severity, SourcePos
from pizarra.execute import CodeRunner
from pizarra.explorers import explorer_assets
from pizarra.guard import guarded
from pizarra.i18n.strings import t
from pizarra.mathml import MathRenderer
from pizarra.model import Course, Lesson
from pizarra.render import (
    Figures,
    lesson_path,
    render_course_page,
    render_lesson_page,
    render_status_page,
)
from pizarra.report_page import render_report_page, report_path
from pizarra.search import SearchIndexError, search_index
from pizarra.site import ensure_replaceable, write_site

SITE_STATIC = ("pizarra.css", "theme.js", "site.js", "favicon.svg")
"""Files of ``static/`` every site ships in ``assets/``."""


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


@dataclass
class Report:
    """What a run found and made."""

    course: Course | None = None
    """The loaded course (None when it could not be read)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Every problem, in source order."""
    claims: ClaimCounts = field(default_factory=ClaimCounts)
    """Numeric claims checked, unchecked and failed."""
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

    def failed(self, strict: bool = False) -> bool:
        return any(d.severity is Severity.ERROR or strict for d in self.diagnostics)


def verify(src: Path, tools: Tools, strict_claims: bool = False) -> Report:
    """Load the course, run every check, render every page and check its links.

    With ``strict_claims``, a statement pizarra cannot decide is an error.
    """
    started = time.perf_counter()
    report = Report()
    course, errors = load_course(src)
    report.course = course
    report.diagnostics.extend(errors)
    if course is None:
        return _finish(report, started)
    for lesson in course.lessons():
        check = partial(_check_lesson, course, lesson, tools, report, strict_claims)
        at = SourcePos(lesson.display_path, 1, 1)
        guarded(check, None, at, "checking this lesson", report.diagnostics)
    if report.failed():
        return _finish(report, started)
    files = render_site(course, tools.math, report.ledgers, report.diagnostics, report.outcomes)
    if report.failed():
        return _finish(report, started)
    origins = {lesson_path(lesson): lesson.display_path for lesson in course.lessons()}
    sources = {lesson_path(lesson): lesson.source_text for lesson in course.lessons()}
    report.diagnostics += check_links(files, origins, sources)
    try:
        files.update(search_index(files, [lesson_path(lesson) for lesson in course.lessons()]))
    except SearchIndexError as exc:
        hint = "reinstall pizarra: the search index needs the pagefind-bin-extended package"
        report.diagnostics.append(Diagnostic(SourcePos(str(course.root), 1), str(exc), hint))
    report.files = files
    return _finish(report, started)


def _check_lesson(
    course: Course, lesson: Lesson, tools: Tools, report: Report, strict_claims: bool
) -> None:
    report.diagnostics += check_math(lesson, tools.math)
    records, found = claim_records(lesson, tools.verdicts)
    report.diagnostics += found
    outcomes = run_code_cells(lesson, tools.runner, tools.cache)
    ledger = lesson_ledger(course, lesson, records, outcomes)
    report.ledgers[lesson.path] = ledger
    report.claims += ledger.counts
    report.diagnostics += ledger.failures()
    if strict_claims or lesson.strict_claims:
        report.diagnostics += strict_claim_errors(ledger)
    report.outcomes[lesson.path] = list(outcomes)
    report.cells_cached += sum(1 for o in outcomes if o.cached)
    report.cells_run += sum(1 for o in outcomes if not o.cached)
    report.diagnostics += check_code_cells(lesson, outcomes)
    report.diagnostics += check_references(course, lesson)


def build(
    src: Path, out: Path, tools: Tools, strict: bool = False, strict_claims: bool = False
) -> Report:
    """Verify, then replace ``out`` with the new site only if nothing failed."""
    ensure_replaceable(out)
    report = verify(src, tools, strict_claims)
    if not report.failed(strict):
        write_site(report.files, out)
    return report


def render_site(
    course: Course,
    math: MathRenderer,
    ledgers: Mapping[Path, LessonLedger],
    found: list[Diagnostic] | None = None,
    outcomes: Mapping[Path, list[CellOutcome]] | None = None,
) -> dict[str, bytes]:
    """Every page and asset of the site, in memory; a lesson whose pages fail to
    render is left out, with an internal-error diagnostic added to ``found``."""
    found = [] if found is None else found
    files: dict[str, bytes] = {"index.html": render_course_page(course).encode()}
    all_tex = ""
    for lesson in course.lessons():
        at = SourcePos(lesson.display_path, 1, 1)
        figures = cell_figures((outcomes or {}).get(lesson.path, []))
        pages = partial(_lesson_pages, course, lesson, math, ledgers[lesson.path], figures)
        none: dict[str, bytes] = {}
        files |= guarded(pages, none, at, "rendering this lesson", found)
        all_tex += lesson.source_text
        for image in lesson.images():
            files[image.site_path] = image.file.read_bytes()
    files["404.html"] = render_status_page(
        course, 404, t(course.lang, "not_found_title"), "", "/"
    ).encode()
    static = resources.files("pizarra") / "static"
    for name in SITE_STATIC:
        files[f"assets/{name}"] = (static / name).read_bytes()
    for name, data in {**site_assets(all_tex), **explorer_assets()}.items():
        files[f"assets/{name}"] = data
    return files


def _lesson_pages(
    course: Course,
    lesson: Lesson,
    math: MathRenderer,
    ledger: LessonLedger,
    figures: Figures,
) -> dict[str, bytes]:
    """The lesson page, its report page, and the SVG files of its figures beside it."""
    page = render_lesson_page(course, lesson, math, ledger=ledger, figures=figures)
    folder = lesson_path(lesson).rpartition("/")[0]
    files = {f"{folder}/{f.name}": f.svg for shown in figures.values() for f in shown}
    return {
        **files,
        lesson_path(lesson): page.encode(),
        report_path(lesson): render_report_page(course, lesson, ledger).encode(),
    }


def _finish(report: Report, started: float) -> Report:
    report.diagnostics.sort(key=lambda d: (d.pos, d.message))
    report.seconds = time.perf_counter() - started
    return report
