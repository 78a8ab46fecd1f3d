"""The pipeline, stage by stage: load, verify, render, check links, index for search, write.

``verify`` is what ``pizarra check`` runs; ``build`` is ``verify`` plus writing
the site, and writes nothing unless every check passed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from pizarra.base.cache import Cache
from pizarra.base.errors import Severity
from pizarra.check import links
from pizarra.check.code_cells import ResultCache
from pizarra.check.kernel.start import start_kernels_early
from pizarra.check.links import PageScans, check_links
from pizarra.check.verdicts import VerdictCache
from pizarra.pipeline import manifest
from pizarra.pipeline.crew import Crew, start_crew
from pizarra.pipeline.editions import edition_files, verify_editions
from pizarra.pipeline.fingerprint import code_fingerprint
from pizarra.pipeline.frame import SiteFrame, course_inputs, lesson_scans, render_site, site_frame
from pizarra.pipeline.indexing import Feed, start_index_site
from pizarra.pipeline.lesson import LessonResult
from pizarra.pipeline.lessons import KIND as LESSONS
from pizarra.pipeline.lessons import SEEN_ONCE, keepable, verify_lessons
from pizarra.pipeline.outlines import reparsed
from pizarra.pipeline.parsed import KIND as PARSED
from pizarra.pipeline.parsed import OUTLINES, ParseCache
from pizarra.pipeline.reading import load_course
from pizarra.pipeline.tools import Report, Tools
from pizarra.render.pages import lesson_path
from pizarra.site import search
from pizarra.site.sitemap import sitemap
from pizarra.site.write import StagedSite, ensure_replaceable
from pizarra.source.course import MANIFEST
from pizarra.source.model import Course, Lesson

WRITTEN = (
    LESSONS,
    SEEN_ONCE,
    search.KIND,
    links.KIND,
    links.CLEAN_KIND,
    manifest.KIND,
    PARSED,
    OUTLINES,
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
    a crew of workers (:mod:`pizarra.pipeline.crew`), a lesson whose result is kept is
    read as its outline only, and the report's course holds outlines.
    ``on_lesson`` is told of each lesson's result as it comes (in course order), and
    ``before_index`` is given the report, its files all there but the search index's,
    while Pagefind finishes the index. With ``later``, the cache writes that can wait
    (pickling new parses, committing the stores: 0.015 s of a server's 0.12 s rebuild)
    are appended to it instead of done: ``serve`` does them once the page has reloaded.
    """
    started = time.perf_counter()
    start_kernels_early(src, tools.runner)  # its imports overlap with the parse below
    report = Report()
    parsed = (
        ParseCache(tools.store, later=later is not None, outlines=outlines)
        if tools.store is not None
        else None
    )
    crew = start_crew(src, tools, parsed) if outlines else None
    if crew is not None and tools.store is not None:
        tools.store.prepare(WRITTEN)  # while its workers parse
    try:
        course, errors = load_course(src, parsed, crew)
        report.course = course
        if parsed is not None and outlines:
            report.whole = parsed.whole_after
        elif crew is not None:
            report.whole = partial(reparsed, root=src)
        report.diagnostics.extend(errors)
        if course is None:
            return _finish(report, started, tools, parsed, later)
        feed = Feed() if search else None
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
                parsed.whole if parsed is not None and outlines else None,
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
    feed: Feed | None,
    report: Report,
    crew: Crew | None = None,
    before_index: Callable[[Report], None] | None = None,
    on_lesson: Callable[[Lesson, LessonResult], None] | None = None,
    whole: Callable[[Lesson], Lesson] | None = None,
) -> None:
    """:func:`verify` once the course is loaded, into ``report``: ``feed`` gets each
    lesson page as soon as it is rendered, so Pagefind indexes while the other lessons
    are verified."""

    total = sum(1 for _ in course.lessons())

    def told(lesson: Lesson, result: LessonResult) -> None:
        if feed is not None:
            feed(lesson, result)
        if on_lesson is not None:
            on_lesson(lesson, result)
        if tools.progress is not None:
            tools.progress(lesson, result, total)

    frames: list[SiteFrame] = []  # made while a crew's workers start on their lessons

    def meanwhile() -> None:
        frames.append(site_frame(course))

    results = verify_lessons(
        course, tools, strict_claims, on_result=told, crew=crew, meanwhile=meanwhile, whole=whole
    )
    for lesson, result in zip(course.lessons(), results, strict=True):
        report.add(lesson.path, result)
        page = result.pages.get(lesson_path(lesson))
        if page is not None and result.indexed is not None:
            report.search_texts[lesson_path(lesson)] = (page, result.indexed)
    report.inputs = course_inputs(course, src)
    report.reusable = all(keepable(result) for result in results)
    editions = verify_editions(course, src, tools, strict_claims, report, whole)
    if report.failed():
        if not _manifest_failed(report):
            _check_rendered_links(course, results, frames, tools, report)
        return
    if feed is not None:
        feed.close()  # Pagefind writes the index while the site is rendered and checked
    files = render_site(course, results, frames[0] if frames else None)
    report.diagnostics += edition_files(editions, feed is not None, tools.store)
    files |= editions.files
    files |= sitemap(course)
    origins = {lesson_path(lesson): lesson.display_path for lesson in course.lessons()}
    sources = {lesson_path(lesson): lesson.source_text for lesson in course.lessons()}
    origins |= editions.origins
    sources |= editions.sources
    indexing = None
    if feed is not None:
        indexing = start_index_site(
            course, files, tools.store, feed.started, texts=report.search_texts
        )
    ready = lesson_scans(results, files) | editions.scans
    scans = PageScans(tools.store, code_fingerprint())
    report.diagnostics += check_links(files, origins, sources, scans, ready)
    report.files = files
    if before_index is not None:
        before_index(report)
    if indexing is not None:
        report.diagnostics += indexing()  # adds the index to files


def _manifest_failed(report: Report) -> bool:
    """``course.yaml`` itself has errors: the course's pages are not worth judging."""
    return any(
        d.severity is Severity.ERROR and d.pos.path.endswith(MANIFEST) for d in report.diagnostics
    )


def _check_rendered_links(
    course: Course,
    results: Sequence[LessonResult],
    frames: list[SiteFrame],
    tools: Tools,
    report: Report,
) -> None:
    """A failed run writes nothing, but the links of the original's pages that did render
    are checked in it too, so a broken link is not the next run's news; links into the
    lessons not rendered, and into the editions (rendered only when every check passed),
    wait until then."""
    files = render_site(course, results, frames[0] if frames else None)
    unrendered = tuple(
        lesson_path(lesson).removesuffix("index.html")
        for lesson, result in zip(course.lessons(), results, strict=True)
        if not result.pages
    ) + tuple(edition.site_dir for edition in course.editions if edition.site_dir)
    origins = {lesson_path(lesson): lesson.display_path for lesson in course.lessons()}
    sources = {lesson_path(lesson): lesson.source_text for lesson in course.lessons()}
    ready = lesson_scans(results, files)
    scans = PageScans(tools.store, code_fingerprint())
    report.diagnostics += check_links(files, origins, sources, scans, ready, unrendered)


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
