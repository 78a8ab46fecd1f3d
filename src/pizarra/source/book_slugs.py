"""Distinct URL slugs for a book's lessons that share a file name.

A lesson's URL is its file name by default (:func:`pizarra.source.lower.default_slug`), and
books often name a section's landing page after its folder (``core/numpy.md`` beside
``core/numpy/numpy.md``): two lessons would take one URL, which pizarra refuses. mystmd
tells their pages apart; so the import gives each lesson of such a group the slug of its
folder and name (``core-numpy``, ``numpy-numpy``), or of its whole path, or a number when
those are taken too, written as ``slug:`` in its front matter, with a note. Links between
them name files, so they still resolve.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import PurePosixPath

from pizarra.source.lower import default_slug
from pizarra.source.syntax.context import slugify

_LESSON_LINE = re.compile(r"^lesson: .*\n", re.MULTILINE)


def distinct_slugs(lessons: dict[str, str], notes: list[str]) -> dict[str, str]:
    """``lessons`` (course path -> lesson text, in the toc's order), those whose default
    slug another lesson has too given a ``slug:`` of their own."""
    slugs = {path: default_slug(PurePosixPath(path)) for path in lessons}
    counts = Counter(slugs.values())
    taken = {slug for slug in slugs.values() if counts[slug] == 1}
    out = dict(lessons)
    for path, text in lessons.items():
        if counts[slugs[path]] < 2:
            continue
        slug = _free(PurePosixPath(path), taken)
        taken.add(slug)
        if slug == slugs[path]:  # the one lesson of the group at the book's root
            continue
        out[path] = _with_slug(text, slug)
        notes.append(
            f"{path}: its URL slug {slugs[path]!r} is another lesson's too: set `slug: {slug}`"
        )
    return out


def _free(path: PurePosixPath, taken: set[str]) -> str:
    """The first slug not taken of: folder and name, the whole path, the path numbered."""
    name = default_slug(path)
    folder = slugify(path.parent.name)
    whole = slugify("-".join((*path.parent.parts, name))) or name
    for slug in (f"{folder}-{name}" if folder else name, whole):
        if slug not in taken:
            return slug
    number = 2
    while f"{whole}-{number}" in taken:
        number += 1
    return f"{whole}-{number}"


def _with_slug(text: str, slug: str) -> str:
    """The lesson's front matter (as the importer writes it) with ``slug:`` after
    ``lesson:``."""
    end = text.find("\n---\n", 4)
    head, rest = text[: end + 1], text[end + 1 :]
    return _LESSON_LINE.sub(lambda m: m.group(0) + f"slug: {slug}\n", head, count=1) + rest
