"""The translated editions of a course, each verified, rendered and indexed as a tree of
its own and then placed in its folder of the site (``en/``); their parity with the
original is checked here, where both lessons are at hand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pizarra.base.cache import Cache
from pizarra.base.errors import Diagnostic
from pizarra.check.html_scan import PageScan
from pizarra.check.translation import check_translation
from pizarra.pipeline.frame import course_inputs, lesson_scans, render_site
from pizarra.pipeline.indexing import start_index_site
from pizarra.pipeline.lesson import LessonResult
from pizarra.pipeline.lessons import keepable, verify_lessons
from pizarra.pipeline.reading import parse_lesson_file
from pizarra.pipeline.tools import Report, Tools
from pizarra.render.pages import lesson_path
from pizarra.site.search import FOLDER
from pizarra.source.blocks import Image
from pizarra.source.model import Course, Lesson


@dataclass
class Editions:
    """The editions' results, then their files in the site."""

    results: list[tuple[Course, list[LessonResult]]] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    scans: dict[str, PageScan] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)


def verify_editions(
    course: Course,
    src: Path,
    tools: Tools,
    strict: bool,
    report: Report,
    whole: Callable[[Lesson], Lesson] | None = None,
) -> Editions:
    """Verify every lesson of every edition of ``course``, and its parity with its
    original, into ``report`` (``whole`` gives an outline its body, as for
    :func:`~pizarra.pipeline.lessons.verify_lessons`)."""
    done = Editions()
    for edition in course.editions:
        results = verify_lessons(edition, tools, strict, whole=whole)
        for lesson, result in zip(edition.lessons(), results, strict=True):
            report.add(lesson.path, result)
        report.inputs += [p for p in course_inputs(edition, src) if p not in report.inputs]
        report.reusable = report.reusable and all(keepable(r) for r in results)
        report.diagnostics += parity(course, edition, whole)
        done.results.append((edition, results))
    return done


def parity(
    course: Course, edition: Course, whole: Callable[[Lesson], Lesson] | None = None
) -> list[Diagnostic]:
    """Every difference of mathematics between the edition's lessons and their originals,
    and a warning for each translation behind its original."""
    found: list[Diagnostic] = []
    for translation in edition.lessons():
        entry = course.entry(translation.number)
        if entry is None or entry.lesson is None:
            continue
        if whole is not None:
            translation = whole(translation)
        original = _whole(whole(entry.lesson) if whole else entry.lesson, course.root)
        if original is None:
            continue
        found += check_translation(original, translation, translation.number in edition.behind)
    return found


def _whole(lesson: Lesson, root: Path) -> Lesson | None:
    """``lesson`` with its body: a crew's outline (images only, no text) is parsed again."""
    if lesson.source_text and (lesson.math or any(not isinstance(b, Image) for b in lesson.blocks)):
        return lesson
    parsed, _ = parse_lesson_file(lesson.path, root)
    return parsed


def index_editions(
    course: Course, files: dict[str, bytes], store: Cache | None, background: bool = False
) -> list[Diagnostic]:
    """Add to ``files`` (a built site) the search index of each edition, in its folder."""
    found: list[Diagnostic] = []
    for edition in course.editions:
        prefix = edition.site_dir
        tree = {k.removeprefix(prefix): v for k, v in files.items() if k.startswith(prefix)}
        found += start_index_site(edition, tree, store, background=background)()
        files |= {prefix + k: v for k, v in tree.items() if k.startswith(FOLDER + "/")}
    return found


def edition_files(done: Editions, search: bool, store: Cache | None) -> list[Diagnostic]:
    """Render each edition's tree, index it for search, and place it in its folder."""
    found: list[Diagnostic] = []
    for edition, results in done.results:
        tree = render_site(edition, results)
        if search:
            found += start_index_site(edition, tree, store)()
        prefix = edition.site_dir
        done.files |= {prefix + path: data for path, data in tree.items()}
        done.scans |= {prefix + path: scan for path, scan in lesson_scans(results, tree).items()}
        for lesson in edition.lessons():
            done.origins[prefix + lesson_path(lesson)] = lesson.display_path
            done.sources[prefix + lesson_path(lesson)] = lesson.source_text
    return found
