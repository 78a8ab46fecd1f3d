"""Markdown that Jupyter and MathJax read one way and pizarra's parser another, written
the way both read alike (for ``pizarra import``).

- Setext headings (``Title`` over ``=====``) become ``#`` headings, so the title and
  the moving down of headings treat them alike.
- Blank lines just inside a display formula's own ``$$`` lines go: MathJax ignores
  them, while pizarra's parser (as CommonMark) would end the formula there.
- A line of a paragraph that starts with an amsmath ``\\begin{bmatrix}`` (inside a
  ``$...$`` formula written over several lines) joins the line before it: Jupyter reads
  it as part of the formula, while pizarra's parser would open an environment there
  that runs on to a later ``\\end{bmatrix}``, past the code cells in between.

Fences are told as CommonMark tells them, so a listing is never changed.
"""

from __future__ import annotations

import re

from mdit_py_plugins.amsmath import RE_OPEN

from pizarra.source.fences import closes, opening_fence
from pizarra.source.markdown import block_parser


def atx_headings(text: str) -> str:
    """``text`` with its top-level setext headings written with ``#``."""
    if "\n=" not in text and "\n-" not in text:
        return text
    lines = text.split("\n")
    tokens = block_parser().parse(text)
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or token.markup not in ("=", "-") or token.level:
            continue
        if token.map is None:
            continue
        first, end = token.map
        content = " ".join(tokens[index + 1].content.split())
        level = "#" if token.markup == "=" else "##"
        lines[first:end] = [f"{level} {content}"] + [""] * (end - first - 1)
    return "\n".join(lines)


def inline_environments(text: str) -> str:
    """``text`` with each top-level paragraph line that opens an amsmath environment
    joined to the line before it (a soft line break is a space, in a formula too)."""
    if "\\begin{" not in text:
        return text
    lines = text.split("\n")
    paragraphs = [
        t.map for t in block_parser().parse(text) if t.type == "paragraph_open" and not t.level
    ]
    for first, end in reversed([m for m in paragraphs if m is not None]):
        for line in range(end - 1, first, -1):
            if _OPENS.match(lines[line]):
                lines[line - 1] = f"{lines[line - 1].rstrip()} {lines[line].lstrip()}"
                del lines[line]
    return "\n".join(lines)


def tight_display_math(text: str) -> str:
    """``text`` without blank lines right after an opening ``$$`` line or right before
    a closing one (``$$`` or ``$$ (label)``)."""
    if "$$" not in text:
        return text
    kept: list[str] = []
    fence: str | None = None
    inside = False
    for line in text.split("\n"):
        if fence is not None:
            fence = None if closes(line, fence) else fence
            kept.append(line)
            continue
        opening = opening_fence(line) if not inside else None
        if opening is not None:
            fence = opening[0]
            kept.append(line)
            continue
        if inside and _BARE.match(line):
            while kept and not kept[-1].strip():
                kept.pop()
        if inside and not line.strip() and kept and kept[-1].strip() == "$$":
            continue
        if line.count("$$") % 2:
            inside = not inside
        kept.append(line)
    return "\n".join(kept)


_OPENS = re.compile(r"^ {0,3}" + RE_OPEN)
"""A line the amsmath rule would read as opening an environment."""

_BARE = re.compile(r"^\s*\$\$\s*(?:\([\w:.-]+\))?\s*$")
"""A line that is only ``$$``, maybe with the formula's label."""
