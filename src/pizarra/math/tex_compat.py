"""TeX that MathJax and LaTeX accept but math-core does not, rewritten before conversion.

Lectures written for Jupyter Book use plain-TeX and amsmath forms that math-core (the
converter in :mod:`pizarra.math.mathml`) refuses:

- ``\\cr`` ends a row, as ``\\\\`` does;
- ``\\begin{split}`` ... ``\\end{split}`` lines up one equation over several rows,
  which is what ``aligned`` draws inside a display;
- ``\\text{if $x > 0$}`` switches back to math inside text;
- ``\\\\[4pt]`` ends a row with extra space (the space is dropped, the row ends);
- ``\\\\`` outside any environment breaks the formula into lines (``gathered``), and
  ``\\tag`` in a plain display formula numbers it (``gather*``);
- ``\\dots`` and ``\\ldots`` are one ellipsis character (``\\cdots`` between operators);
- ``\\color{#f00}`` and ``\\textcolor{#ff0000}{x}``: colours in hex;
- MathJax's ``eqnarray`` (an ``rcl`` array, unnumbered as in Jupyter) and ``_\\rm{x}``
  (a font switch as a subscript);
- KaTeX's ``alignat``, ``smallmatrix``, ``\\substack``, ``\\widetilde`` and the overlaps
  ``\\mathclap``, ``\\rlap``... (drawn as plain groups).
- ``\\mbox{...}`` and ``\\hbox{...}``, TeX's text boxes, which are ``\\text{...}``;
- ``\\`` at the end of a line, TeX's control space, which is ``\\ ``.

:func:`rewrite` turns these into forms math-core knows, and remembers where each piece
came from, so that an error in the rewritten TeX is reported at the author's column.
Everything else is copied unchanged; the work is linear in the formula's length.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)|.", re.DOTALL)
"""One TeX token: a control word, a control symbol or one character."""

_ENVIRONMENT = re.compile(r"\s*\{([A-Za-z]+\*?)\}")
"""The name after ``\\begin`` or ``\\end``."""

_COLUMNS = re.compile(r"\s*\{\s*\d+\s*\}")
"""``alignat``'s column count, which ``align`` does not take."""

RENAMED_ENVIRONMENTS = {
    "split": ("aligned", ""),
    "eqnarray": ("array", "{rcl}"),
    "eqnarray*": ("array", "{rcl}"),
    "alignat": ("align", ""),
    "alignat*": ("align*", ""),
    "alignedat": ("aligned", ""),
}
"""Environment -> (the one math-core knows, the argument its ``\\begin`` gets)."""

_ROW_SPACE = re.compile(
    r"\s*\[\s*[-+]?(?:\d+\.?\d*|\.\d+)\s*(?:pt|em|ex|mm|cm|in|mu|pc|bp|dd|px)\s*\]"
)
"""The extra space after a row end, ``[4pt]``."""

_HEX = re.compile(r"\s*\{\s*#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})\s*\}")
"""A colour in hex, ``{#ff0000}`` or ``{#f00}``."""

FONT_SWITCHES = {"rm": "mathrm", "bf": "mathbf", "it": "mathit", "sf": "mathsf", "tt": "mathtt"}
"""Old font switches and the commands that take an argument instead."""

RENAMED = {
    "widetilde": "\\tilde",
    "widecheck": "\\check",
    "dotsb": "\\cdots",
    "dotsm": "\\cdots",
    "dotsi": "\\cdots",
    "textnormal": "\\text",
    "textup": "\\text",
    "textmd": "\\text",
    "mathnormal": "",
    "pmb": "\\boldsymbol",
    "centerdot": "\\cdot",
    "varliminf": "\\mathop{\\underline{\\lim}}",
    "varlimsup": "\\mathop{\\overline{\\lim}}",
    "varinjlim": "\\mathop{\\underrightarrow{\\lim}}",
    "varprojlim": "\\mathop{\\underleftarrow{\\lim}}",
    "overlinesegment": "\\overline",
    "underlinesegment": "\\underline",
    "smash": "",
    "mbox": "\\text",
    "hbox": "\\text",
    "\n": "\\ ",
}
"""Commands math-core lacks, drawn by a near equivalent."""

OVERLAPS = frozenset({"mathclap", "mathrlap", "mathllap", "rlap", "llap", "clap"})
_STARRED_MATRIX = re.compile(r"\s*\{([pbBvV]?matrix)\*\}(?:\s*\[[lcr]\])?")
"""``matrix*`` and its bracketed kinds with a column alignment, drawn centred."""
_STARRED_END = re.compile(r"\s*\{([pbBvV]?matrix)\*\}")
"""Zero-width boxes: their content is drawn in place (a little wider than in TeX)."""

_ELLIPSES = frozenset({"dots", "ldots", "dotsc", "dotso", "mathellipsis"})
_OPERATORS = re.compile(r"(?:[-+=<>]|\\(?:cdot|times|pm|mp|le|ge|leq|geq|ne|neq|approx|equiv))\s*$")
"""What ends the TeX before a ``\\dots`` that sits between operators (drawn ``\\cdots``)."""

_TRIGGER = re.compile(
    r"\\cr|split|\$|\\\\|\\tag|dots|\\mathellipsis|color|eqnarray|alignat|smallmatrix"
    r"|\\substack|\\wide|\\(?:rm|bf|it|sf|tt)\b|lap\b|matrix\*|\\text(?:normal|up|md)"
    r"|\\mathnormal|\\pmb|\\centerdot|\\var(?:lim|inj|proj)|segment|\\smash|\\[mh]box|\\\n"
)
"""A cheap first look: formulas without any of these are given to math-core unchanged."""

TEXT_COMMANDS = frozenset({"text", "textrm", "textnormal", "textsf", "textit", "textbf"})
"""Commands whose argument is text, in which MathJax lets ``$...$`` switch to math."""


_Replace = Callable[[int, int, str], None]


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


def rewrite(tex: str, display: bool = True) -> Rewritten:
    """``tex`` with the forms listed above turned into ones math-core accepts."""
    if not _TRIGGER.search(tex):
        return Rewritten(tex, (Piece(tex, 0, True),), len(tex))
    pieces: list[Piece] = []
    copied = 0
    closers: dict[int, str] = {}
    """Offset of a group's ``}`` -> what replaces it (for rewrites that wrap a group)."""

    def replace(start: int, end: int, text: str) -> None:
        nonlocal copied
        if start > copied:
            pieces.append(Piece(tex[copied:start], copied, True))
        pieces.append(Piece(text, start, False))
        copied = end

    wrap = _wrapper(tex, display)
    if wrap:
        pieces.append(Piece(f"\\begin{{{wrap}}}", 0, False))
    position = 0
    while position < len(tex):
        match = _TOKEN.match(tex, position)
        assert match is not None  # every character is a token
        token, position = match.group(), match.end()
        name = token[1:]
        if token == "}" and match.start() in closers:
            replace(match.start(), position, closers.pop(match.start()))
        elif token == "\\cr":
            replace(match.start(), position, "\\\\")
        elif token == "\\\\":
            space = _ROW_SPACE.match(tex, position)
            if space is not None:
                position = space.end()
                replace(match.start(), position, "\\\\")
        elif token in ("\\begin", "\\end"):
            position = _environment(tex, match.start(), position, token, replace, closers)
        elif name in _ELLIPSES:
            between = _OPERATORS.search(tex[max(0, match.start() - 16) : match.start()])
            replace(match.start(), position, "\\cdots " if between is not None else "…")
        elif name in RENAMED:
            replace(match.start(), position, RENAMED[name])
        elif name in OVERLAPS:
            replace(match.start(), position, "")
        elif name in ("color", "textcolor", "colorbox"):
            position = _hex_colour(tex, match.start(), position, name, replace, closers)
        elif name == "substack":
            group_end = _group_end(tex, position)
            if group_end is not None:
                body = tex.index("{", position) + 1
                replace(match.start(), body, "{\\begin{subarray}{c}")
                closers[group_end - 1] = "\\end{subarray}}"
                position = body
        elif name in FONT_SWITCHES and _after_script(tex, match.start()):
            if _group_end(tex, position) is not None:
                replace(match.start(), position, "\\" + FONT_SWITCHES[name])
        elif name in TEXT_COMMANDS:
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
    if wrap:
        pieces.append(Piece(f"\\end{{{wrap}}}", len(tex), False))
    return Rewritten("".join(p.text for p in pieces), tuple(pieces), len(tex))


def _wrapper(tex: str, display: bool) -> str:
    """``gathered`` when ``\\\\`` breaks a formula outside any environment, ``gather*``
    when a display formula outside any environment has a ``\\tag``; else ""."""
    depth = 0
    breaks = tag = False
    for match in _TOKEN.finditer(tex):
        token = match.group()
        if token in ("{", "\\begin"):
            depth += 1
        elif token in ("}", "\\end"):
            depth -= 1
        elif depth == 0 and token == "\\\\":
            breaks = True
        elif depth == 0 and token == "\\tag":
            tag = True
    if tag and display:
        return "gather*"
    return "gathered" if breaks else ""


def _environment(
    tex: str, start: int, position: int, token: str, replace: _Replace, closers: dict[int, str]
) -> int:
    """``\\begin{eqnarray}`` and the others of :data:`RENAMED_ENVIRONMENTS`, and
    ``smallmatrix`` as a ``subarray`` with as many columns."""
    pattern = _STARRED_MATRIX if token == "\\begin" else _STARRED_END
    starred = pattern.match(tex, position)
    if starred is not None:
        replace(start, starred.end(), f"{token}{{{starred.group(1)}}}")
        return starred.end()
    env = _ENVIRONMENT.match(tex, position)
    if env is None:
        return position
    name = env.group(1)
    if name in RENAMED_ENVIRONMENTS:
        new, argument = RENAMED_ENVIRONMENTS[name]
        end = env.end()
        columns = _COLUMNS.match(tex, end) if token == "\\begin" and "align" in name else None
        if columns is not None:
            end = columns.end()
        replace(start, end, f"{token}{{{new}}}" + (argument if token == "\\begin" else ""))
        return end
    if name == "smallmatrix":
        if token == "\\end":
            replace(start, env.end(), "\\end{subarray}")
        else:
            close = tex.find("\\end{smallmatrix}", env.end())
            body = tex[env.end() : close if close >= 0 else len(tex)]
            count = 1 + max(row.count("&") for row in body.split("\\\\"))
            replace(start, env.end(), "\\begin{subarray}{" + "c" * count + "}")
        return env.end()
    return position


def _hex_colour(
    tex: str, start: int, position: int, name: str, replace: _Replace, closers: dict[int, str]
) -> int:
    """``\\color{#f00}`` -> ``\\color[HTML]{FF0000}``; ``\\textcolor{#f00}{x}`` ->
    ``{\\color[HTML]{FF0000}{x}}``."""
    colour = _HEX.match(tex, position)
    if colour is None or name == "colorbox":
        return position
    digits = colour.group(1).upper()
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    if name == "color":
        replace(start, colour.end(), f"\\color[HTML]{{{digits}}}")
        return colour.end()
    group_end = _group_end(tex, colour.end())
    if group_end is None:
        return position
    replace(start, colour.end(), f"{{\\color[HTML]{{{digits}}}")
    closers[group_end - 1] = "}}"
    return colour.end()


def _after_script(tex: str, start: int) -> bool:
    """True if the command at ``start`` is the argument of ``_`` or ``^``."""
    before = tex[max(0, start - 64) : start].rstrip()
    return before.endswith(("_", "^"))


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
