"""Heading links between a book's notebooks, pointed at the lesson that has the heading.

A notebook's author links to a heading by Jupyter's id (``#Many-ways-to-compute-a-series``),
and sometimes the heading is in another notebook of the book: the link is broken in
Jupyter and in Jupyter Book alike, but the book says where the reader was meant to go.
Once every lesson of a book is imported, a link to an id that is no heading of its own
lesson, and that names a heading of exactly one other lesson, becomes a link to that
lesson's heading, with a note; ``[text](other.md#Jupyter-Id)`` gets the lesson's id too.
A link that matches no heading, or headings of several lessons, is left as written, so the
link check reports it where the author can see both candidates.
"""

from __future__ import annotations

import posixpath
import re

from pizarra.base.yaml_compose import safe_load
from pizarra.source.fences import closes, opening_fence
from pizarra.source.jupyter_anchors import jupyter_anchors

_LINK = re.compile(r"\]\(((?:[^()\s#]+\.md)?)#([^()\s]{1,300})\)")
_TITLE = re.compile(r"---\ntitle: (.{1,300})\n")
"""The title an imported lesson's front matter starts with (the importer writes it so)."""
_LABEL = re.compile(r"^\(([^()\s]+)\)=\s*$", re.MULTILINE)


def link_across_lessons(lessons: dict[str, str], notes: list[str]) -> dict[str, str]:
    """``lessons`` (course path -> lesson text) with heading links made to resolve."""
    ids = {path: _ids(text) for path, text in lessons.items()}
    owners: dict[str, set[str]] = {}
    for path, anchors in ids.items():
        for key in anchors:
            owners.setdefault(key, set()).add(path)
    return {path: _pointed(path, text, ids, owners, notes) for path, text in lessons.items()}


def _pointed(
    path: str,
    text: str,
    ids: dict[str, dict[str, str]],
    owners: dict[str, set[str]],
    notes: list[str],
) -> str:
    """The lesson ``text`` at ``path`` with its heading links resolved (see the module)."""
    own = set(ids[path]) | set(_LABEL.findall(text))

    def link(match: re.Match[str]) -> str:
        target, fragment = match.group(1), match.group(2)
        if target:
            other = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
            slug = ids.get(other, {}).get(fragment)
            if slug is None or slug == fragment:
                return match.group(0)
            notes.append(f"{path}: the link to {target}#{fragment} points to #{slug}")
            return f"]({target}#{slug})" if slug else f"]({target})"
        found = owners.get(fragment, set()) - {path}
        if fragment in own or len(found) != 1:
            return match.group(0)
        (other,) = found
        relative = posixpath.relpath(other, posixpath.dirname(path) or ".")
        notes.append(f"{path}: the link to #{fragment} names a heading of {other}: it points there")
        slug = ids[other][fragment]
        return f"]({relative}#{slug})" if slug else f"]({relative})"

    return "".join(
        _LINK.sub(link, chunk) if prose else chunk for prose, chunk in prose_chunks(text)
    )


def _ids(text: str) -> dict[str, str]:
    """Jupyter's id and the lesson's id of each heading -> the lesson's id; the Jupyter id
    of the notebook's title (the page's heading now) -> "" (the page itself)."""
    anchors = jupyter_anchors([chunk for prose, chunk in prose_chunks(text) if prose])
    match = _TITLE.match(text)
    title = safe_load(match.group(1)) if match else None  # as the importer dumped it
    page = {" ".join(title.split()).replace(" ", "-"): ""} if isinstance(title, str) else {}
    return {**page, **{slug: slug for slug in anchors.values()}, **anchors}


def prose_chunks(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into prose (True) and code cells, outputs and plain code fences (False).
    The closing line of a directive that holds prose (```` ```{image} ````) ends it: it
    opens no code fence."""
    chunks: list[tuple[bool, str]] = []
    kept: list[str] = []
    fence = ""
    directives: list[str] = []
    for line in text.splitlines(keepends=True):
        if fence:
            kept.append(line)
            if closes(line, fence):
                chunks.append((False, "".join(kept)))
                kept, fence = [], ""
            continue
        if directives and closes(line, directives[-1]):
            directives.pop()
            kept.append(line)
            continue
        opened = opening_fence(line)
        if opened is not None and opened[0][0] != ":" and _holds_prose(opened[1]):
            directives.append(opened[0])
        elif opened is not None and opened[0][0] != ":":
            chunks.append((True, "".join(kept)))
            kept, fence = [line], opened[0]
            continue
        kept.append(line)
    chunks.append((not fence, "".join(kept)))
    return chunks


def _holds_prose(info: str) -> bool:
    """A directive fence other than a code cell or an output holds Markdown."""
    name = info.split(None, 1)[0] if info else ""
    return name.startswith("{") and name not in ("{code-cell}", "{output}")
