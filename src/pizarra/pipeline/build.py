"""The pipeline, stage by stage: load, verify, render, check links, index for search, write.

``verify`` is what ``pizarra check`` runs; ``build`` is ``verify`` plus writing
the site, and writes nothing unless every check passed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from pizarra.base.cache import Cache
from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.base.i18n.strings import t
from pizarra.check import links
from pizarra.check.claims import ClaimCounts
from pizarra.check.code_cells import CellOutcome, ResultCache
from pizarra.check.html_scan import PageScan
from pizarra.check.kernel.execute import CodeRunner
from pizarra.check.kernel.start import start_kernels_early
from pizarra.check.ledger import LessonLedger
from pizarra.check.links import PageScans, check_links
from pizarra.check.verdicts import VerdictCache
from pizarra.math.mathml import MathRenderer
from pizarra.pipeline import manifest
from pizarra.pipeline.crew import Crew, start_crew
from pizarra.pipeline.lessons import KIND as LESSONS
from pizarra.pipeline.lessons import LessonResult, keepable, verify_lessons
from pizarra.pipeline.parsed import KIND as PARSED
from pizarra.pipeline.parsed import ParseCache
from pizarra.render.asset_urls import fixed_assets
from pizarra.render.assets import site_assets
from pizarra.render.index_page import index_path, render_index_page
from pizarra.render.pages import lesson_path, render_course_page, render_status_page
from pizarra.site import search
from pizarra.site.search import IndexFeed, SearchIndexError, start_search_index
from pizarra.site.write import StagedSite, ensure_replaceable
from pizarra.source.course import MANIFEST, load_course
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
    inputs: list[Path] = field(default_factory=list)
    """Every file of the course the run read (for the build manifest)."""
    rebuilt: list[str] = field(default_factory=list)
    """The lessons verified and rendered by this run (the others came from the cache)."""
    reusable: bool = False
    """True when every lesson's result can be kept as it is (its code cells confirmed)."""

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
        return any(d.severity is Severity.ERROR or strict for d in self.diagnostics)


WRITTEN = (
    LESSONS,
    search.KIND,
    links.KIND,
    manifest.KIND,
    PARSED,
    VerdictCache.KIND,
    ResultCache.KIND,
)
"""The cache kinds a build writes (its crew's workers write the last three)."""


def verify(
    src: Path,
    tools: Tools,
    strict_claims: bool = False,
    search: bool = True,
    outlines: bool = False,
    before_index: Callable[[Report], None] | None = None,
    on_lesson: Callable[[Lesson, LessonResult], None] | None = None,
    later: list[Callable[[], None]] | None = None,
) -> Report:
    """Load the course, run every check, render every page and check its links.

    With ``strict_claims``, a statement pizarra cannot decide is an error. Without
    ``search`` the site has no search index (``serve`` makes it after the reload).
    With ``outlines``, a course none of whose lessons was parsed before is parsed by
    a crew of workers (:mod:`pizarra.pipeline.crew`), and the report's course holds outlines.
    ``on_lesson`` is told of each lesson's result as it comes (in course order), and
    ``before_index`` is given the report, its files all there but the search index's,
    while Pagefind finishes the index. With ``later``, the cache writes that can wait
    (pickling new parses, committing the stores: 0.015 s of a server's 0.12 s rebuild)
    are appended to it instead of done: ``serve`` does them once the page has reloaded.
    """
    started = time.perf_counter()
    start_kernels_early(src, tools.runner)  # its imports overlap with the parse below
    report = Report()
    parsed = ParseCache(tools.store, later=later is not None) if tools.store is not None else None
    crew = start_crew(src, tools, parsed) if outlines else None
    if crew is not None and tools.store is not None:
        tools.store.prepare(WRITTEN)  # while its workers parse
    try:
        course, errors = load_course(src, parsed, crew)
        report.course = course
        report.diagnostics.extend(errors)
        if course is None:
            return _finish(report, started, tools, parsed, later)
        feed = _Feed() if search else None
        try:
            _verify_course(
                course,
                src,
                tools,
                strict_claims,
                feed,
                report,
                crew,
                before_index,
                on_lesson,
            )
            return _finish(report, started, tools, parsed, later)
        finally:
            if feed is not None:
                feed.end()  # unless indexing took it: then this is never read
    finally:
        if crew is not None:
            crew.stop()


def _verify_course(
    course: Course,
    src: Path,
    tools: Tools,
    strict_claims: bool,
    feed: _Feed | None,
    report: Report,
    crew: Crew | None = None,
    before_index: Callable[[Report], None] | None = None,
    on_lesson: Callable[[Lesson, LessonResult], None] | None = None,
) -> None:
    """:func:`verify` once the course is loaded, into ``report``: ``feed`` gets each
    lesson page as soon as it is rendered, so Pagefind indexes while the other lessons
    are verified."""

    def told(lesson: Lesson, result: LessonResult) -> None:
        if feed is not None:
            feed(lesson, result)
        if on_lesson is not None:
            on_lesson(lesson, result)

    frames: list[SiteFrame] = []  # made while a crew's workers start on their lessons

    def meanwhile() -> None:
        frames.append(site_frame(course))

    results = verify_lessons(
        course, tools, strict_claims, on_result=told, crew=crew, meanwhile=meanwhile
    )
    for lesson, result in zip(course.lessons(), results, strict=True):
        report.add(lesson.path, result)
    report.inputs = course_inputs(course, src)
    report.reusable = all(keepable(result) for result in results)
    if report.failed():
        return
    if feed is not None:
        feed.close()  # Pagefind writes the index while the site is rendered and checked
    files = render_site(course, results, frames[0] if frames else None)
    origins = {lesson_path(lesson): lesson.display_path for lesson in course.lessons()}
    sources = {lesson_path(lesson): lesson.source_text for lesson in course.lessons()}
    indexing = None
    if feed is not None:
        indexing = start_index_site(course, files, tools.store, feed.started)
    ready = lesson_scans(results, files)
    report.diagnostics += check_links(files, origins, sources, PageScans(tools.store), ready)
    report.files = files
    if before_index is not None:
        before_index(report)
    if indexing is not None:
        report.diagnostics += indexing()  # adds the index to files


def build(
    src: Path,
    out: Path,
    tools: Tools,
    strict: bool = False,
    strict_claims: bool = False,
    outlines: bool = False,
) -> Report:
    """Verify, then replace ``out`` with the new site only if nothing failed.

    The site is written beside ``out`` as its lessons are done (by a thread of its
    own) and while Pagefind finishes the index, and takes the old one's place only
    once the index is added and nothing failed."""
    ensure_replaceable(out)
    staged: StagedSite | None = None

    def stage(lesson: Lesson, result: LessonResult) -> None:
        nonlocal staged
        if result.pages:
            staged = staged or StagedSite(out)
            staged.write_soon(result.pages)

    def write_early(report: Report) -> None:
        nonlocal staged
        if not report.failed(strict):
            staged = staged or StagedSite(out)
            staged.write(report.files)

    try:
        report = verify(
            src, tools, strict_claims, outlines=outlines, before_index=write_early, on_lesson=stage
        )
        if not report.failed(strict):
            staged = staged or StagedSite(out)
            staged.finish(report.files)
            staged = None
    finally:
        if staged is not None:
            staged.discard()
    return report


def index_site(
    course: Course, files: dict[str, bytes], store: Cache | None, background: bool = False
) -> list[Diagnostic]:
    """Add the search index of the lesson pages to ``files``; its failure, if any.
    ``background``: Pagefind runs at a lower CPU priority (``serve``, after a reload)."""
    return start_index_site(course, files, store, background=background)()


class _Feed:
    """Lesson pages for the search index as lessons are done: Pagefind is started at the
    first lesson this run verifies (a run that verifies none reuses the kept index)."""

    def __init__(self) -> None:
        self.pages: list[tuple[str, bytes]] = []
        self.started: IndexFeed | None = None

    def __call__(self, lesson: Lesson, result: LessonResult) -> None:
        path = lesson_path(lesson)
        if path in result.pages:
            self.pages.append((path, result.pages[path]))
        if self.started is None and not result.cached:
            self.started = IndexFeed()
            for given in self.pages:
                self.started.add(*given)
        elif self.started is not None and path in result.pages:
            self.started.add(path, result.pages[path])

    def close(self) -> None:
        """Every lesson page is given: Pagefind may write the index."""
        if self.started is not None:
            self.started.close()

    def end(self) -> None:
        if self.started is not None:
            self.started.end()


def start_index_site(
    course: Course,
    files: dict[str, bytes],
    store: Cache | None,
    feed: IndexFeed | None = None,
    background: bool = False,
) -> Callable[[], list[Diagnostic]]:
    """:func:`index_site`, with Pagefind indexing in the background until the returned
    function adds the index to ``files`` (unchanged until then) and says what failed;
    ``feed`` is Pagefind already given the lesson pages as they were rendered."""
    pages = [lesson_path(ln) for ln in course.lessons()]
    try:
        pending = start_search_index(files, pages, store, feed, background)
    except SearchIndexError as exc:
        failure = _index_failure(course, exc)
        return lambda: failure

    def finish() -> list[Diagnostic]:
        try:
            files.update(pending())
        except SearchIndexError as exc:
            return _index_failure(course, exc)
        return []

    return finish


def _index_failure(course: Course, exc: SearchIndexError) -> list[Diagnostic]:
    hint = "reinstall pizarra: the search index needs the pagefind-bin-extended package"
    return [Diagnostic(SourcePos(str(course.root), 1), str(exc), hint)]


def course_inputs(course: Course, src: Path) -> list[Path]:
    """The files a build of ``course`` read: manifest, lessons, images, bibliographies."""
    found = [src / MANIFEST] if src.is_dir() else []
    for lesson in course.lessons():
        found += [lesson.path, *(image.file for image in lesson.images()), *lesson.bibliography]
    return found


def render_site(
    course: Course, results: Sequence[LessonResult], frame: SiteFrame | None = None
) -> dict[str, bytes]:
    """Every page and asset of the site, in memory: the lesson pages come rendered, the
    rest from ``frame`` (:func:`site_frame`, made now if not given)."""
    frame = frame or site_frame(course)
    files = dict(frame.front)
    for result, images in zip(results, frame.images, strict=True):
        files |= result.pages
        files |= images
    return files | frame.back


@dataclass(frozen=True)
class SiteFrame:
    """What a site holds besides its lessons' pages, which depends on the course alone
    (outlines will do): a crew build makes it while its workers start on their lessons."""

    front: dict[str, bytes]
    """The course page, and the index page when there is one."""
    images: tuple[dict[str, bytes], ...]
    """The images each lesson shows, in course order."""
    back: dict[str, bytes]
    """The 404 page and the assets."""


def site_frame(course: Course) -> SiteFrame:
    """The :class:`SiteFrame` of ``course``."""
    index = index_path(course)
    front: dict[str, bytes] = {
        "index.html": render_course_page(
            course, index.removesuffix("index.html") if index else None
        ).encode()
    }
    if index is not None:
        front[index] = render_index_page(course).encode()
    lessons = list(course.lessons())
    images = tuple(
        {image.site_path: image.file.read_bytes() for image in lesson.images()}
        for lesson in lessons
    )
    back = {
        "404.html": render_status_page(
            course, 404, t(course.lang, "not_found_title"), "", "./"
        ).encode()
    }
    for name, data in {**_math_assets(_characters(lessons)), **fixed_assets()}.items():
        back[f"assets/{name}"] = data
    return SiteFrame(front, images, back)


def lesson_scans(results: Sequence[LessonResult], files: dict[str, bytes]) -> dict[str, PageScan]:
    """The lessons' own scans of their pages, for those ``files`` holds as rendered (a
    page another lesson's file replaced is read again by :func:`check_links`)."""
    return {
        path: scan
        for result in results
        for path, scan in result.scans.items()
        if files.get(path) is result.pages.get(path)
    }


_ASSETS: dict[str, dict[str, bytes]] = {}
_CHARACTERS: dict[str, frozenset[str]] = {}


def _characters(lessons: Sequence[Lesson]) -> str:
    """The characters of the lessons' texts (all the math font's subset needs of them),
    sorted. Each text's are kept until a build no longer has it: a server's rebuild
    reads only the changed lesson's, not all twenty (8 ms of a 0.1 s rebuild)."""
    kept = {
        text: _CHARACTERS.get(text) or frozenset(text)
        for text in (ln.source_text for ln in lessons)
    }
    _CHARACTERS.clear()
    _CHARACTERS.update(kept)
    return "".join(sorted(frozenset().union(*kept.values())))


def _math_assets(characters: str) -> dict[str, bytes]:
    """:func:`site_assets` for ``characters``, kept for the last set of them: a
    server's rebuilds seldom bring a new one."""
    if characters not in _ASSETS:
        _ASSETS.clear()
        _ASSETS[characters] = site_assets(characters)
    return _ASSETS[characters]


def _finish(
    report: Report,
    started: float,
    tools: Tools,
    parsed: ParseCache | None,
    later: list[Callable[[], None]] | None,
) -> Report:
    if later is None:
        _write_caches(tools, parsed)
    else:
        later.append(partial(_write_caches, tools, parsed))
    report.diagnostics.sort(key=lambda d: (d.pos, d.message))
    report.seconds = time.perf_counter() - started
    return report


def _write_caches(tools: Tools, parsed: ParseCache | None) -> None:
    """Keep the run's new parses, then commit every store once."""
    if parsed is not None:
        parsed.keep()
    for store in {id(s): s for s in _stores(tools)}.values():
        store.flush()


def _stores(tools: Tools) -> list[Cache]:
    """Every cache the tools write to, so a run commits them once at its end."""
    found = [tools.store] if tools.store is not None else []
    found += [c.store for c in (tools.cache, tools.verdicts) if c is not None]
    return found
