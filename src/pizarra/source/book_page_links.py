"""Links to a book's pages written without the file's extension, made lesson links.

mystmd (and Jupyter Book 1, for ``.md`` and ``.ipynb``) resolves ``[A](../../a)`` or
``[x](../numpy/numpy-basics)`` to the page of that file, with or without its extension;
pizarra reads a relative path without one as a file of the site, which these are not. Once
every lesson of a book is imported, such a target (with a ``/``, relative to the lesson, or
from the book's root with a leading ``/``) that names a lesson of the book gets ``.md``, so
it is a lesson link, with a note; so does a bare name with a heading
(``[x](numpy-basics#arrays)``). A bare name alone (``[x](numpy-basics)``) is left as
written: pizarra already reads it as a label or a lesson's name. A target naming no lesson
is left too, for the link check to report, and so is code (a cell, a fence, a span).
"""

from __future__ import annotations

import posixpath
import re

from pizarra.source.book_anchors import prose_chunks

_LINK = re.compile(r"\]\(([^()\s#]{1,300})(#[^()\s]{0,300})?\)")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:|^//", re.IGNORECASE)


def link_pages(lessons: dict[str, str], notes: list[str]) -> dict[str, str]:
    """``lessons`` (course path -> lesson text) with extensionless page links made ``.md``."""
    return {path: _linked(path, text, lessons, notes) for path, text in lessons.items()}


def _linked(path: str, text: str, lessons: dict[str, str], notes: list[str]) -> str:
    folder = posixpath.dirname(path)

    def link(match: re.Match[str]) -> str:
        target, fragment = match.group(1), match.group(2) or ""
        before = match.string[match.string.rfind("\n", 0, match.start()) + 1 : match.start()]
        if before.count("`") % 2:  # inside a code span
            return match.group(0)
        if not ("/" in target or fragment) or _SCHEME.match(target) or target.endswith("/"):
            return match.group(0)
        if posixpath.splitext(target)[1] in (".md", ".ipynb"):
            return match.group(0)
        named = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
        lesson = posixpath.normpath(named) + ".md"
        if lesson not in lessons:
            return match.group(0)
        written = target + ".md"
        if target.startswith("/"):
            written = posixpath.relpath(lesson, folder or ".")
        notes.append(f"{path}: the link to {target} names the lesson {lesson}: written {written}")
        return f"]({written}{fragment})"

    return "".join(
        _LINK.sub(link, chunk) if prose else chunk for prose, chunk in prose_chunks(text)
    )
