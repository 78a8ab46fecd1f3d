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

import hashlib
import os
import pickle
import sys
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pizarra.base.errors import Severity
from pizarra.base.recent import Recent
from pizarra.pipeline import fingerprint
from pizarra.pipeline.lesson import LessonResult, confirm_lesson, verify_lesson
from pizarra.pipeline.outlines import with_bodies, with_each
from pizarra.pipeline.reading import parse_lesson_file
from pizarra.pipeline.workers import cpu_count, end_with_parent, fork_context
from pizarra.source.model import Course, Lesson

if TYPE_CHECKING:
    from pizarra.pipeline.crew import Crew
    from pizarra.pipeline.tools import Tools

KIND = "lessons"
"""The cache kind of lesson results."""

SEEN_ONCE = "lessons-once"
"""The cache kind of lesson results whose only doubt is their cells' outputs, each seen
once (a first build's): the next build runs the cells again to confirm them
(:func:`~pizarra.pipeline.lesson.confirm_lesson`) instead of verifying it all again."""

FORMAT = 4
"""Bumped whenever :class:`LessonResult` changes shape, or how it is stored."""

PACKING = 1
"""zlib's fastest level. A result is mostly its pages' HTML, which it shrinks to a
sixth (341 KB to 55 KB for a lesson of the benchmark, in 1.9 ms): at its default
budget the ``lessons`` kind held 196 results of a 200-lesson course, and each build
after an edit verified the lessons pruned from it again."""


def verify_lessons(
    course: Course,
    tools: Tools,
    strict: bool = False,
    jobs: int | None = None,
    on_result: Callable[[Lesson, LessonResult], None] | None = None,
    crew: Crew | None = None,
    meanwhile: Callable[[], None] | None = None,
    whole: Callable[[Lesson], Lesson] | None = None,
) -> list[LessonResult]:
    """:func:`verify_lesson` for every lesson, from the cache when unchanged, in order.

    ``on_result`` is told of each lesson's result as soon as it and every lesson
    before it are done (in course order, whichever worker finishes first), so later
    stages can start on them while the rest is verified. The lessons a ``crew``
    parsed are verified by the worker that holds their body; ``meanwhile`` is then
    called once they have all been asked for, before their results are waited for.
    When the course holds outlines read from a parse cache, ``whole`` gives a lesson
    its body (:meth:`~pizarra.pipeline.parsed.ParseCache.whole`): only the lessons
    verified again are given one."""
    lessons = list(course.lessons())
    store = tools.store
    shared = _course_part(course)
    keys = [lesson_key(course, lesson, strict, shared) for lesson in lessons] if store else []
    results: list[LessonResult | None] = [None] * len(lessons)
    if store is not None:
        _MEMORY.at_least(len(lessons) + MEMORY)  # every lesson of a served course
        for index, key in enumerate(keys):
            kept = _MEMORY.get(key)
            if kept is None and (kept := _load(store.get(KIND, key))) is not None:
                _remember(key, kept, lessons[index])
            results[index] = kept
    todo = [i for i, result in enumerate(results) if result is None]
    seen: dict[int, LessonResult] = {}
    if store is not None and crew is None and todo:
        found = store.get_many(SEEN_ONCE, [keys[i] for i in todo])
        seen = {i: r for i in todo if (r := _load(found.get(keys[i]), cached=False))}
    jobs = jobs if jobs is not None else tools.jobs
    workers = min(len(todo), jobs if jobs is not None else cpu_count())
    pooled = crew is None and workers > 1
    if whole is not None and todo and not pooled:  # a pool's workers fill their own
        wanted = {id(lessons[i]) for i in todo}
        course = with_each(course, lambda ln: whole(ln) if id(ln) in wanted else ln)
        lessons = list(course.lessons())
    told = 0

    def tell() -> None:
        nonlocal told
        while told < len(results) and (result := results[told]) is not None:
            if on_result is not None:
                on_result(lessons[told], result)
            told += 1

    tell()
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
    elif pooled:
        _STATE[:] = [(course, tools, strict, whole, seen)]
        try:
            with ProcessPoolExecutor(
                workers,
                mp_context=fork_context(),
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
            results[index] = _verify(course, lessons[index], tools, strict, seen.get(index))
            tell()
    if store is not None:
        for index in todo:
            result = results[index]
            if result is not None and keepable(result):
                store.put(KIND, keys[index], _pack(result))
                _remember(keys[index], _as_cached(result), lessons[index])
            elif result is not None and _seen_once(result):
                store.put(SEEN_ONCE, keys[index], _pack(result))
        for key, result, lesson in zip(keys, results, lessons, strict=True):
            if result is not None and result.cached:
                _remember(key, result, lesson)
    return [r for r in results if r is not None]


def _verify_again(course: Course, lesson: Lesson, tools: Tools, strict: bool) -> LessonResult:
    """:func:`verify_lesson` here for a lesson whose crew worker died: ``lesson`` is an
    outline, so its file is parsed again first."""

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
        *(_file_digest(bib) for bib in lesson.read_files()),
    ):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


MEMORY = 64
"""Lesson results kept in memory beyond one a lesson of the course (other versions)."""

VERSIONS = 2
"""Results of one lesson file kept in memory: of its current text and the one before."""

_MEMORY: Recent[str, LessonResult] = Recent(MEMORY, per_group=VERSIONS)

_STATE: list[
    tuple[Course, Tools, bool, Callable[[Lesson], Lesson] | None, dict[int, LessonResult]]
] = []
"""The course, tools, strictness, body giver and results seen once of the pool's run,
inherited by forked workers (nothing but the lesson's index is pickled on the way in)."""


def _verify_nth(index: int) -> LessonResult:
    """Verify the ``index``-th lesson, given its body here when the course holds its
    outline: the bodies of a first rebuild's 200 lessons are then never all held by the
    main process, nor copied into each worker."""
    course, tools, strict, whole, seen = _STATE[0]
    lesson = list(course.lessons())[index]
    if whole is not None:
        shown, lesson = lesson, whole(lesson)
        course = with_each(course, lambda ln: lesson if ln is shown else ln)
    result = _verify(course, lesson, tools, strict, seen.get(index))
    if tools.store is not None:
        tools.store.flush()
    return result


def _verify(
    course: Course, lesson: Lesson, tools: Tools, strict: bool, seen: LessonResult | None
) -> LessonResult:
    """:func:`verify_lesson`, or :func:`confirm_lesson` of a result ``seen`` once."""
    if seen is None:
        return verify_lesson(course, lesson, tools, strict)
    return confirm_lesson(course, lesson, tools, strict, seen)


def _seen_once(result: LessonResult) -> bool:
    """A result whose every cell ran without error, some seen once only, and which has
    no error and its pages: worth confirming rather than verifying again."""
    return (
        bool(result.pages)
        and all(o.result.ok for o in result.outcomes)
        and not any(d.severity is Severity.ERROR for d in result.diagnostics)
    )


def keepable(result: LessonResult) -> bool:
    """Results worth keeping: every code cell's output confirmed by two runs (a failure
    may be transient, and a cell seen once may print something else next time)."""
    return all(o.result.ok and o.confirmed for o in result.outcomes)


def _pack(result: LessonResult) -> bytes:
    return zlib.compress(pickle.dumps((FORMAT, result), pickle.HIGHEST_PROTOCOL), PACKING)


def _load(raw: bytes | None, cached: bool = True) -> LessonResult | None:
    if raw is None:
        return None
    try:
        version, result = pickle.loads(zlib.decompress(raw))
    except Exception:
        return None
    if version != FORMAT or not isinstance(result, LessonResult):
        return None
    return _as_cached(result) if cached else result


def _as_cached(result: LessonResult) -> LessonResult:
    outcomes = tuple(replace(o, cached=True) for o in result.outcomes)
    return replace(result, outcomes=outcomes, cached=True)


def _remember(key: str, result: LessonResult, lesson: Lesson) -> LessonResult:
    """Keep a result in memory too: a server rebuilds the same course again and again."""
    return _MEMORY.put(key, result, group=lesson.path)


def _course_part(course: Course) -> str:
    """A digest of what every lesson's result depends on: pizarra, Python, the course
    around it. Hashed once, not into each lesson's key: the outline of 200 lessons is
    1 MB of text, and hashing it into every key took 1.1 s of a one-line edit."""
    whole = "\0".join(
        (fingerprint.code_fingerprint(), sys.version, _manifest(course), _outline(course))
    )
    return hashlib.sha256(whole.encode("utf-8", "surrogatepass")).hexdigest()


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
            targets, sections = _placeless(lesson.targets), _placeless(lesson.sections)
            seen = (*seen, lesson.slug, lesson.lang, targets, sections)
        parts.append(repr(seen))
    parts.append(repr((course.site_dir, course.alternates, sorted(course.behind.items()))))
    return "\n".join(parts)


def _placeless(items: Sequence[object]) -> tuple[tuple[object, ...], ...]:
    """Each of ``items`` (dataclasses) without its ``pos``. Another lesson reads a heading's
    or a label's title, number and anchor, never its line: with the line in the key, a
    line added above a heading made all 200 lessons of a course be verified again."""
    return tuple(
        tuple(getattr(item, f.name) for f in fields(item) if f.name != "pos")  # type: ignore[arg-type]
        for item in items
    )


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"
