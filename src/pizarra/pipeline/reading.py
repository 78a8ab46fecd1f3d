"""Lesson files read for a run: from its parse cache when unchanged, else from the crew
worker that parsed them, else parsed here."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pizarra.base.errors import Diagnostic, display_path
from pizarra.pipeline.parsed import ParseCache
from pizarra.source import course
from pizarra.source.lesson_file import clean_bytes, read_lesson_file
from pizarra.source.model import Course, Lesson

if TYPE_CHECKING:
    from pizarra.pipeline.crew import Crew


def load_course(
    src: Path, parsed: ParseCache | None = None, crew: Crew | None = None
) -> tuple[Course | None, list[Diagnostic]]:
    """:func:`pizarra.source.course.load_course`, with lessons found unchanged in
    ``parsed`` not parsed again; those a ``crew`` parses are only outlines
    (:mod:`pizarra.pipeline.crew`)."""
    return course.load_course(src, partial(_obtain, parsed=parsed, crew=crew))


def parse_lesson_file(
    path: Path, root: Path | None = None, parsed: ParseCache | None = None
) -> tuple[Lesson | None, list[Diagnostic]]:
    """:func:`~pizarra.source.lesson_file.read_lesson_file`, from ``parsed`` when the
    file and what it names are unchanged (and kept there when read clean)."""
    if parsed is None:
        return read_lesson_file(path, root)
    raw = clean_bytes(path)
    if raw is None:
        return read_lesson_file(path, root)
    shown = display_path(path)
    kept = parsed.get(path, shown, root, raw)
    if kept is not None:
        return kept, []
    lesson, found = read_lesson_file(path, root, raw.decode("utf-8"))
    if lesson is not None and not found:
        parsed.put(path, shown, root, raw, lesson)
    return lesson, found


def kept_parse(path: Path, root: Path, parsed: ParseCache) -> bool:
    """True when ``parsed`` keeps a parse of the lesson file ``path`` as it is now."""
    raw = clean_bytes(path)
    return raw is not None and parsed.holds(path, display_path(path), root, raw)


def _obtain(
    path: Path, root: Path | None, parsed: ParseCache | None, crew: Crew | None
) -> tuple[Lesson | None, list[Diagnostic]]:
    """The lesson at ``path``: its outline from the ``crew`` worker that parsed it, else
    read here."""
    done = crew.parsed(path) if crew is not None else None
    if done is None:
        return parse_lesson_file(path, root, parsed)
    if parsed is not None and done[0] is not None:
        parsed.crew_outline(done[0], root)
    return done
