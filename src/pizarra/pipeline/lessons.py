"""Verify and render each lesson on its own: in parallel, and not at all when unchanged.

A lesson's checks and pages depend on its own source and on little else: the course
manifest, the outline of the other lessons (numbers, titles, slugs, labels), the
images it shows, pizarra's code, templates and CSS, and the Python running its cells.
:func:`lesson_key` hashes exactly that, and :func:`verify_lessons` keeps each
:class:`LessonResult` in the ``lessons`` kind of the cache: a lesson whose key is
unchanged is neither re-verified nor re-rendered. The others run in a pool of worker
processes, one lesson per task, or, in a first build, each in the worker of the crew
that parsed it (:mod:`pizarra.pipeline.crew`); results come back in course order, so the output
does not depend on which worker finished first. A worker also reads the ids and links of the
pages it rendered (:func:`~pizarra.check.html_scan.scan_page`), so link checking in the
main process only resolves them, and a cached lesson is not read again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.base.guard import guarded
from pizarra.base.i18n.numbers import format_integer
from pizarra.base.recent import Recent
from pizarra.check.claims import claim_records
from pizarra.check.code_cells import (
    CellOutcome,
    cell_figures,
    check_code_cells,
    run_code_cells,
)
from pizarra.check.html_scan import PageScan, scan_page
from pizarra.check.ledger import LessonLedger, lesson_ledger, strict_claim_errors
from pizarra.check.math import check_math
from pizarra.check.references import check_references
from pizarra.math.mathml import Remembering
from pizarra.pipeline import manifest
from pizarra.render.highlight import highlight
from pizarra.render.pages import (
    compile_templates,
    lesson_path,
    render_lesson_page,
    render_state_pages,
)
from pizarra.render.prose import fence_language
from pizarra.render.report_page import render_report_page, report_path
from pizarra.source.model import CodeCell, Course, Lesson, Prose, walk

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

    from pizarra.pipeline.build import Tools
    from pizarra.pipeline.crew import Crew

KIND = "lessons"
"""The cache kind of lesson results."""

FORMAT = 2
"""Bumped whenever :class:`LessonResult` changes shape."""


@dataclass(frozen=True)
class LessonResult:
    """What verifying and rendering one lesson produced."""

    diagnostics: tuple[Diagnostic, ...]
    """Its problems (errors and warnings)."""
    ledger: LessonLedger | None
    """What verification decided, item by item (None if checking it crashed)."""
    outcomes: tuple[CellOutcome, ...]
    """Its code cells' runs."""
    pages: dict[str, bytes]
    """Its files in the site: the lesson page, its report page, its figures' SVG
    files and its explorers' state pages (empty when the lesson has errors)."""
    scans: dict[str, PageScan] = field(default_factory=dict)
    """The ids and links of each HTML file of ``pages``, read where it was rendered."""
    cached: bool = False
    """True when the whole result came from the cache."""


def verify_lesson(course: Course, lesson: Lesson, tools: Tools, strict: bool) -> LessonResult:
    """Every check of one lesson, then its pages if it has no error.

    A bug in pizarra while checking or rendering becomes an internal-error diagnostic
    at the lesson (:mod:`pizarra.base.guard`), and the other lessons are still done.
    """
    found: list[Diagnostic] = []
    at = SourcePos(lesson.display_path, 1, 1)
    tools = replace(tools, math=Remembering(tools.math))  # checked, then rendered
    checked = guarded(
        partial(_check, course, lesson, tools, strict), None, at, "checking this lesson", found
    )
    if checked is None:
        return LessonResult(tuple(found), None, (), {})
    diagnostics, ledger, outcomes = checked
    pages: dict[str, bytes] = {}
    scans: dict[str, PageScan] = {}
    if not any(d.severity is Severity.ERROR for d in diagnostics):
        render = partial(_pages, course, lesson, tools, ledger, outcomes)
        pages = guarded(render, pages, at, "rendering this lesson", diagnostics)
        reading = partial(scan_pages, pages)
        scans = guarded(reading, scans, at, "reading the links of its pages", diagnostics)
    return LessonResult(tuple(diagnostics), ledger, tuple(outcomes), pages, scans)


def pay_first_use(lessons: Iterable[Lesson]) -> None:
    """What a process pays at the first of these lessons it verifies, paid now: the
    lexers of their code (Pygments compiles a lexer's rules when it first makes one,
    0.02 s for Python), the number formats of their languages (CLDR data, from
    Babel) and the templates. A crew worker pays it while the main process assembles
    the course: 0.04 s of its first lesson.

    Never raises: a failure here is met, and reported, where the lesson is verified."""
    with contextlib.suppress(Exception):
        compile_templates()
        languages: set[str] = set()
        for lesson in lessons:
            format_integer(0, lesson.lang)
            for block in walk(lesson.blocks):
                if isinstance(block, CodeCell):
                    languages.add(block.language)
                elif isinstance(block, Prose):
                    languages.update(fence_language(t) for t in block.tokens if t.type == "fence")
        for language in sorted(languages - {""}):
            highlight("", language)


def _check(
    course: Course, lesson: Lesson, tools: Tools, strict: bool
) -> tuple[list[Diagnostic], LessonLedger, list[CellOutcome]]:
    diagnostics = check_math(lesson, tools.math)
    records, found = claim_records(lesson, tools.verdicts)
    diagnostics += found
    outcomes = run_code_cells(lesson, tools.runner, tools.cache)
    ledger = lesson_ledger(course, lesson, records, outcomes)
    diagnostics += ledger.failures()
    if strict or lesson.strict_claims:
        diagnostics += strict_claim_errors(ledger)
    diagnostics += check_code_cells(lesson, outcomes)
    diagnostics += check_references(course, lesson)
    return diagnostics, ledger, list(outcomes)


def _pages(
    course: Course,
    lesson: Lesson,
    tools: Tools,
    ledger: LessonLedger,
    outcomes: Sequence[CellOutcome],
) -> dict[str, bytes]:
    """The lesson page, its report page, the SVG files of its figures beside it, and a
    page for each explorer state but the initial one (so links select states on any host)."""
    figures = cell_figures(outcomes)
    page = render_lesson_page(course, lesson, tools.math, ledger=ledger, figures=figures)
    folder = lesson_path(lesson).rpartition("/")[0]
    files = {f"{folder}/{f.name}": f.svg for shown in figures.values() for f in shown}
    states = {path: html.encode() for path, html in render_state_pages(course, lesson).items()}
    return {
        **files,
        **states,
        lesson_path(lesson): page.encode(),
        report_path(lesson): render_report_page(course, lesson, ledger).encode(),
    }


def scan_pages(pages: dict[str, bytes]) -> dict[str, PageScan]:
    """The ids and links of every HTML page of ``pages``: read by the worker that
    rendered them, in parallel with the other lessons, instead of by the main process."""
    return {path: scan_page(data) for path, data in pages.items() if path.endswith(".html")}


def verify_lessons(
    course: Course,
    tools: Tools,
    strict: bool = False,
    jobs: int | None = None,
    on_result: Callable[[Lesson, LessonResult], None] | None = None,
    crew: Crew | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> list[LessonResult]:
    """:func:`verify_lesson` for every lesson, from the cache when unchanged, in order.

    ``on_result`` is told of each lesson's result as soon as it and every lesson
    before it are done (in course order, whichever worker finishes first), so later
    stages can start on them while the rest is verified. The lessons a ``crew``
    parsed are verified by the worker that holds their body; ``meanwhile`` is then
    called once they have all been asked for, before their results are waited for."""
    lessons = list(course.lessons())
    store = tools.store
    shared = _course_part(course)
    keys = [lesson_key(course, lesson, strict, shared) for lesson in lessons] if store else []
    results: list[LessonResult | None] = [None] * len(lessons)
    if store is not None:
        for index, key in enumerate(keys):
            results[index] = _MEMORY.get(key) or _load(store.get(KIND, key))
    todo = [i for i, result in enumerate(results) if result is None]
    told = 0

    def tell() -> None:
        nonlocal told
        while told < len(results) and (result := results[told]) is not None:
            if on_result is not None:
                on_result(lessons[told], result)
            told += 1

    tell()
    jobs = jobs if jobs is not None else tools.jobs
    workers = min(len(todo), jobs if jobs is not None else cpu_count())
    if crew is not None:
        held = {lessons[i].path: i for i in todo if crew.holds(lessons[i].path)}
        for path, done in crew.verify(course, strict, list(held), meanwhile):
            index = held[path]
            results[index] = done or _verify_again(course, lessons[index], tools, strict)
            tell()
        for index in todo:
            if lessons[index].path not in held:  # parsed here: its worker died first
                results[index] = verify_lesson(course, lessons[index], tools, strict)
                tell()
    elif workers > 1:
        _STATE[:] = [(course, tools, strict)]
        try:
            with ProcessPoolExecutor(
                workers,
                mp_context=_fork_context(),
                initializer=end_with_parent,
                initargs=(os.getpid(),),
            ) as pool:
                for index, done in zip(todo, pool.map(_verify_nth, todo), strict=True):
                    results[index] = done
                    tell()
        finally:
            _STATE.clear()
    else:
        for index in todo:
            results[index] = verify_lesson(course, lessons[index], tools, strict)
            tell()
    if store is not None:
        for index in todo:
            result = results[index]
            if result is not None and keepable(result):
                store.put(KIND, keys[index], pickle.dumps((FORMAT, result)))
                _remember(keys[index], _as_cached(result), lessons[index])
        for key, result, lesson in zip(keys, results, lessons, strict=True):
            if result is not None and result.cached:
                _remember(key, result, lesson)
    return [r for r in results if r is not None]


def _verify_again(course: Course, lesson: Lesson, tools: Tools, strict: bool) -> LessonResult:
    """:func:`verify_lesson` here for a lesson whose crew worker died: ``lesson`` is an
    outline, so its file is parsed again first."""
    from pizarra.pipeline.crew import with_bodies
    from pizarra.source.course import parse_lesson_file

    parsed, found = parse_lesson_file(lesson.path, course.root)
    if parsed is None:
        return LessonResult(tuple(found), None, (), {})
    course = with_bodies(course, {lesson.path: parsed})
    whole = next(ln for ln in course.lessons() if ln.path == lesson.path)
    return verify_lesson(course, whole, tools, strict)


def lesson_key(course: Course, lesson: Lesson, strict: bool, shared: str | None = None) -> str:
    """A digest of everything the lesson's result depends on (``shared`` is what every
    lesson of the course depends on, :func:`_course_part`, when already computed)."""
    digest = hashlib.sha256()
    for part in (
        str(FORMAT),
        str(strict),
        str(lesson.path),
        lesson.display_path,
        lesson.source_text,
        shared if shared is not None else _course_part(course),
        *(_file_digest(image.file) for image in lesson.images()),
        *(_file_digest(bib) for bib in lesson.bibliography),
    ):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


MEMORY = 64
"""Lesson results kept in memory."""

VERSIONS = 2
"""Results of one lesson file kept in memory: of its current text and the one before."""

_MEMORY: Recent[str, LessonResult] = Recent(MEMORY, per_group=VERSIONS)

_STATE: list[tuple[Course, Tools, bool]] = []
"""The course, tools and strictness of the pool's run, inherited by forked workers
(nothing but the lesson's index is pickled on the way in)."""


def _verify_nth(index: int) -> LessonResult:
    course, tools, strict = _STATE[0]
    lesson = list(course.lessons())[index]
    result = verify_lesson(course, lesson, tools, strict)
    if tools.store is not None:
        tools.store.flush()
    return result


def keepable(result: LessonResult) -> bool:
    """Results worth keeping: every code cell's output confirmed by two runs (a failure
    may be transient, and a cell seen once may print something else next time)."""
    return all(o.result.ok and o.confirmed for o in result.outcomes)


def _load(raw: bytes | None) -> LessonResult | None:
    if raw is None:
        return None
    try:
        version, result = pickle.loads(raw)
    except Exception:
        return None
    if version != FORMAT or not isinstance(result, LessonResult):
        return None
    return _as_cached(result)


def _as_cached(result: LessonResult) -> LessonResult:
    outcomes = tuple(replace(o, cached=True) for o in result.outcomes)
    return replace(result, outcomes=outcomes, cached=True)


def _remember(key: str, result: LessonResult, lesson: Lesson) -> LessonResult:
    """Keep a result in memory too: a server rebuilds the same course again and again."""
    return _MEMORY.put(key, result, group=lesson.path)


def _course_part(course: Course) -> str:
    """What every lesson's result depends on: pizarra, Python, the course around it."""
    return "\0".join(
        (manifest.code_fingerprint(), sys.version, _manifest(course), _outline(course))
    )


def _manifest(course: Course) -> str:
    path = Path(course.root) / "course.yaml"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def _outline(course: Course) -> str:
    """What a lesson's checks and pages can see of the other lessons."""
    parts = []
    for entry in course.entries:
        lesson = entry.lesson
        seen: Sequence[object] = (entry.number, entry.title, entry.summary)
        if lesson is not None:
            seen = (*seen, lesson.slug, lesson.lang, lesson.targets, lesson.sections)
        parts.append(repr(seen))
    return "\n".join(parts)


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: a signal the kernel sends a process when its parent dies."""


def end_with_parent(parent: int) -> None:
    """A worker ends when pizarra does, even killed: otherwise it would wait forever for
    a lesson to verify, or to hand back its result."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):  # not Linux: no such call
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # pizarra ended before the signal was asked for
        os._exit(1)


def _fork_context() -> BaseContext:
    """Fork: workers inherit the parsed course and the tools instead of unpickling them."""
    import multiprocessing

    return multiprocessing.get_context("fork")
