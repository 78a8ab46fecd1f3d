"""A lesson file -> its :class:`~pizarra.source.model.Lesson`, every problem a diagnostic."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from pizarra.base.errors import Diagnostic, SourcePos, display_path
from pizarra.base.guard import guarded
from pizarra.source.lower import MAX_SOURCE_BYTES, parse_lesson
from pizarra.source.model import Lesson

LessonReader = Callable[[Path, Path | None], tuple[Lesson | None, list[Diagnostic]]]
"""A lesson file and its course folder (None for a lone file) -> the lesson, or why not."""


def read_lesson_file(
    path: Path, root: Path | None = None, text: str | None = None
) -> tuple[Lesson | None, list[Diagnostic]]:
    """:func:`~pizarra.source.lower.parse_lesson`, with any bug in it reported at the file
    instead of raised; ``text`` is the file's text when the caller has read it already."""
    shown = display_path(path)
    errors: list[Diagnostic] = []
    none: tuple[Lesson | None, list[Diagnostic]] = (None, [])
    lesson, found = guarded(
        partial(parse_lesson, path, shown, text, root=root),
        none,
        SourcePos(shown, 1, 1),
        "reading this lesson",
        errors,
    )
    return lesson, found + errors


def clean_bytes(path: Path) -> bytes | None:
    """The file's bytes if :func:`~pizarra.source.lower.parse_lesson` would read them
    without complaint."""
    try:
        raw = path.read_bytes()
        raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return raw if len(raw) <= MAX_SOURCE_BYTES else None
