"""Links to a notebook's own headings, as Jupyter writes them, pointed at the lesson's.

Jupyter gives each heading of a notebook the id of its text with spaces turned into
``-`` (``## Floating Point numbers`` is ``#Floating-Point-numbers``), and authors link
to those ids. A lesson's heading ids are its own (``#floating-point-numbers``, see
:func:`pizarra.source.syntax.context.slugify`), so ``pizarra import`` rewrites each
link to a heading of the same notebook to the lesson's id, with a note. A link to an id
that is no heading of the notebook is left as written (the link check reports it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pizarra.source.syntax.context import slugify

_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_LINK = re.compile(r"\]\(#([^()\s]{1,300})\)")
_INLINE = re.compile(r"!?\[([^\[\]]*)\]\([^()]*\)|[*_`]|<[^<>]*>")


def jupyter_anchors(markdown: Sequence[str]) -> dict[str, str]:
    """Jupyter's id of each heading in the notebook's markdown -> the lesson's id."""
    anchors: dict[str, str] = {}
    for text in markdown:
        for match in _HEADING.finditer(text):
            plain = " ".join(_INLINE.sub(lambda m: m.group(1) or "", match.group(1)).split())
            slug = slugify(plain)
            if slug:
                anchors.setdefault(plain.replace(" ", "-"), slug)
    return anchors


def point_links(text: str, anchors: dict[str, str], cell: int, notes: list[str]) -> str:
    """``text`` with its links to Jupyter heading ids (``](#A-B)``) made the lesson's."""

    def link(match: re.Match[str]) -> str:
        target = anchors.get(match.group(1))
        if target is None or target == match.group(1):
            return match.group(0)
        notes.append(f"cell {cell}: the link to #{match.group(1)} points to #{target}")
        return f"](#{target})"

    return _LINK.sub(link, text) if anchors else text
