"""TeX that MathJax and LaTeX accept but math-core does not, rewritten before conversion.

Lectures written for Jupyter Book use plain-TeX and amsmath forms that math-core (the
converter in :mod:`pizarra.math.mathml`) refuses:

- ``\\cr`` ends a row, as ``\\\\`` does;
- ``\\begin{split}`` ... ``\\end{split}`` lines up one equation over several rows,
  which is what ``aligned`` draws inside a display;
- ``\\text{if $x > 0$}`` switches back to math inside text;
- ``\\begin{eqnarray}`` (and ``eqnarray*``), LaTeX's three columns right, centre, left
  (``a &=& b``), which is an ``array`` with columns ``rcl`` (unnumbered);
- a font switch given a group, ``z_\\rm{exact}``, which MathJax reads as
  ``z_\\mathrm{exact}`` (likewise ``\\bf``, ``\\it``, ``\\sf``, ``\\tt``);
- ``\\mbox{...}``, LaTeX's text box, which is ``\\text{...}``.

:func:`rewrite` turns these into forms math-core knows, and remembers where each piece
came from, so that an error in the rewritten TeX is reported at the author's column.
Everything else is copied unchanged; the work is linear in the formula's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)|.", re.DOTALL)
"""One TeX token: a control word, a control symbol or one character."""

_SPLIT = re.compile(r"\s*\{split\}")
"""What follows ``\\begin`` or ``\\end`` for amsmath's ``split``."""
_SWITCHES = {
    "\\rm": "\\mathrm",
    "\\bf": "\\mathbf",
    "\\it": "\\mathit",
    "\\sf": "\\mathsf",
    "\\tt": "\\mathtt",
}
"""Old font switches, as the command that takes the group after them."""
_GROUP = re.compile(r"\s*\{")
_MAYBE = re.compile(r"\\cr|split|\$|eqnarray|\\mbox|\\(?:rm|bf|it|sf|tt)\s*\{")
"""A formula none of these are in is copied whole (the common case, one search)."""
_EQNARRAY = re.compile(r"\s*\{eqnarray\*?\}")
"""What follows ``\\begin`` or ``\\end`` for LaTeX's ``eqnarray``."""

TEXT_COMMANDS = frozenset({"text", "textrm", "textnormal", "textsf", "textit", "textbf"})
"""Commands whose argument is text, in which MathJax lets ``$...$`` switch to math."""


@dataclass(frozen=True)
class Piece:
    """A run of the rewritten TeX and the offset in the author's TeX it stands for."""

    text: str
    source: int
    """Offset in the author's TeX where this piece starts."""
    verbatim: bool
    """Copied unchanged, so offsets inside it map one to one."""


@dataclass(frozen=True)
class Rewritten:
    """The TeX math-core is given, and the way back to the author's offsets."""

    tex: str
    pieces: tuple[Piece, ...]
    source_length: int
    """Length of the author's TeX: where an error past the end is placed."""

    def source_offset(self, offset: int) -> int:
        """The offset in the author's TeX for ``offset`` in :attr:`tex`."""
        start = 0
        for piece in self.pieces:
            end = start + len(piece.text)
            if offset < end:
                return piece.source + (offset - start) if piece.verbatim else piece.source
            start = end
        return self.source_length


def rewrite(tex: str) -> Rewritten:
    """``tex`` with ``\\cr``, ``split`` and math inside text in forms math-core accepts."""
    if not _MAYBE.search(tex):
        return Rewritten(tex, (Piece(tex, 0, True),), len(tex))
    pieces: list[Piece] = []
    copied = 0

    def replace(start: int, end: int, text: str) -> None:
        nonlocal copied
        if start > copied:
            pieces.append(Piece(tex[copied:start], copied, True))
        pieces.append(Piece(text, start, False))
        copied = end

    position = 0
    while position < len(tex):
        match = _TOKEN.match(tex, position)
        assert match is not None  # every character is a token
        token, position = match.group(), match.end()
        if token == "\\cr":
            replace(match.start(), position, "\\\\")
        elif token == "\\mbox":  # LaTeX's text box: text, as \\text is
            replace(match.start(), position, "\\text")
        elif token in _SWITCHES and _GROUP.match(tex, position):
            replace(match.start(), position, _SWITCHES[token])
        elif token in ("\\begin", "\\end"):
            split = _SPLIT.match(tex, position)
            eqnarray = _EQNARRAY.match(tex, position)
            if split is not None:
                position = split.end()
                replace(match.start(), position, token + "{aligned}")
            elif eqnarray is not None:
                position = eqnarray.end()
                columns = "{rcl}" if token == "\\begin" else ""
                replace(match.start(), position, token + "{array}" + columns)
        elif token[1:] in TEXT_COMMANDS:
            group_end = _group_end(tex, position)
            if group_end is not None and "$" in tex[position:group_end]:
                body = tex.index("{", position) + 1
                parts = _text_with_math(token, tex, body, group_end - 1)
                if parts is not None:
                    if match.start() > copied:
                        pieces.append(Piece(tex[copied : match.start()], copied, True))
                    pieces.extend(parts)
                    copied = position = group_end
    if not pieces:
        return Rewritten(tex, (Piece(tex, 0, True),), len(tex))
    if copied < len(tex):
        pieces.append(Piece(tex[copied:], copied, True))
    return Rewritten("".join(p.text for p in pieces), tuple(pieces), len(tex))


def _group_end(tex: str, position: int) -> int | None:
    """The offset just after the brace group opening at ``position`` (spaces allowed)."""
    while position < len(tex) and tex[position] == " ":
        position += 1
    if position >= len(tex) or tex[position] != "{":
        return None
    depth = 0
    for match in _TOKEN.finditer(tex, position):
        if match.group() == "{":
            depth += 1
        elif match.group() == "}":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


def _text_with_math(command: str, tex: str, start: int, end: int) -> list[Piece] | None:
    """``\\text{a $x$ b}`` as ``{\\text{a }{x}\\text{ b}}``; None if the dollars do not pair.

    ``tex[start:end]`` is the group's body. Only dollars at the group's own brace level
    switch to math, as in MathJax. The math keeps its offsets, for errors inside it.
    """
    dollars = []
    depth = 0
    for match in _TOKEN.finditer(tex, start, end):
        token = match.group()
        depth += (token == "{") - (token == "}")
        if token == "$" and depth == 0:
            dollars.append(match.start())
    if not dollars or len(dollars) % 2:
        return None
    pieces = [Piece("{", start, False)]
    bounds = [start - 1, *dollars, end]
    for index in range(len(bounds) - 1):
        left, right = bounds[index] + 1, bounds[index + 1]
        if index % 2:
            pieces += [Piece("{", left - 1, False), Piece(tex[left:right], left, True)]
            pieces.append(Piece("}", right, False))
        elif right > left:
            pieces.append(Piece(f"{command}{{{tex[left:right]}}}", left, False))
    pieces.append(Piece("}", end, False))
    return pieces
