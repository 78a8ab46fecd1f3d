"""The site around the lesson pages: course and index pages, images, 404 page, assets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pizarra.base.i18n.strings import t
from pizarra.check.html_scan import PageScan
from pizarra.pipeline.lesson import LessonResult
from pizarra.render.asset_urls import fixed_assets
from pizarra.render.assets import site_assets
from pizarra.render.index_page import index_path, render_index_page
from pizarra.render.pages import render_course_page, render_status_page
from pizarra.source.course import MANIFEST
from pizarra.source.model import Course, Lesson


def course_inputs(course: Course, src: Path) -> list[Path]:
    """The files a build of ``course`` read: manifest, lessons, images, bibliographies."""
    found = [src / MANIFEST] if src.is_dir() else []
    for lesson in course.lessons():
        found += [lesson.path, *(image.file for image in lesson.images()), *lesson.read_files()]
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
