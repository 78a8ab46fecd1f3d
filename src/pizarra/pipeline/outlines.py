"""Lessons without their bodies (outlines) and back: what a crew's workers hand over."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from pizarra.source.lesson_file import read_lesson_file
from pizarra.source.model import Course, Lesson


def outline(lesson: Lesson) -> Lesson:
    """``lesson`` without its body: its blocks and formulas go, its images stay (without
    captions), so what the course, its page and its other lessons read is unchanged."""
    images = tuple(replace(image, caption=()) for image in lesson.images())
    return replace(lesson, blocks=images, math=(), inline_images=())


def filled(shown: Lesson, parsed: Lesson) -> Lesson:
    """The outline ``shown`` (as the course holds it, or as :func:`textless` sent it) with
    the body and the source text of ``parsed`` back."""
    return replace(
        shown,
        blocks=parsed.blocks,
        math=parsed.math,
        source_text=parsed.source_text,
        inline_images=parsed.inline_images,
    )


def textless(course: Course) -> Course:
    """``course`` as its workers are sent it: without the lessons' source text.

    A worker reads the text of the lessons it parsed only, and has it (:func:`filled`).
    The others' text was nine tenths of the request: 0.55 MB for 20 lessons, more than
    the pipe holds, so sending it waited until the first worker had paid its first-use
    costs and read it, and the second worker was asked that much later."""
    entries = tuple(
        replace(entry, lesson=replace(entry.lesson, source_text=""))
        if entry.lesson is not None
        else entry
        for entry in course.entries
    )
    return replace(course, entries=entries)


def with_bodies(course: Course, mine: dict[Path, Lesson]) -> Course:
    """``course`` with the bodies of the lessons this worker parsed."""
    return with_each(course, lambda ln: filled(ln, mine[ln.path]) if ln.path in mine else ln)


def with_each(course: Course, change: Callable[[Lesson], Lesson]) -> Course:
    """``course`` with ``change(lesson)`` in place of each of its lessons."""
    entries = tuple(
        replace(entry, lesson=change(entry.lesson)) if entry.lesson is not None else entry
        for entry in course.entries
    )
    return replace(course, entries=entries)


def reparsed(lesson: Lesson, root: Path | None) -> Lesson:
    """The outline ``lesson`` with its body again, parsed from its text: for a crew's
    outlines when no parse is kept anywhere (a run without a cache)."""
    parsed, _ = read_lesson_file(lesson.path, root, lesson.source_text)
    return filled(lesson, parsed) if parsed is not None else lesson
