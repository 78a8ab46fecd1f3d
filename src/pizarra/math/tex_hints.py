"""What to do instead, for the TeX of KaTeX's support table that math-core cannot draw.

math-core's own message says what it did not understand; these hints say what an author
can write in its place (or why pizarra refuses it: a formula may not link or embed).
"""

from __future__ import annotations

import re

_SIZE = "a formula takes the size of the text around it: remove the size command"
_BOX = "math-core draws no background colours: colour the symbols with \\color{red}"
_LINK = "a formula may not link or embed: put the link or image in the text"
_CHEM = "chemistry (mhchem) is not supported: write it with \\mathrm{C_6H_5}, arrows as \\to"
_BOXES = "math-core has no TeX boxes: write the formula without it"
_SIZES = (
    "tiny",
    "sixptsize",
    "scriptsize",
    "footnotesize",
    "small",
    "normalsize",
    "large",
    "Large",
    "LARGE",
    "huge",
    "Huge",
)

COMMANDS = {
    **{size: _SIZE for size in _SIZES},
    "colorbox": _BOX,
    "fcolorbox": _BOX,
    "tag": "\\tag numbers a display formula: write it in $$...$$",
    **{name: _LINK for name in ("href", "url", "includegraphics")},
    **{f"html{kind}": _LINK for kind in ("Class", "Data", "Id", "Style")},
    "ce": _CHEM,
    "pu": _CHEM,
    "verb": "write code as \\texttt{...}",
    "char": "write the character itself",
    "textcircled": "write the circled character itself (ⓐ)",
    **{name: _BOXES for name in ("hbox", "vcenter", "raisebox", "rule", "mbox")},
    "above": "write the fraction as \\frac{a}{b}",
    "utilde": "write \\underset{\\sim}{AB}",
    "hspace": "give the space in braces with its unit: \\hspace{7ex}",
    "mskip": "give the space with its unit: \\mskip 10mu",
    "(": "inside \\text{...}, switch to math with $...$",
}
"""Command (no backslash) -> what to write instead."""

ENVIRONMENTS = {
    "CD": "commutative diagrams are not supported: draw the diagram as an image in a {figure}",
}
"""Environment -> what to write instead."""

_TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)|.", re.DOTALL)
_ENVIRONMENT = re.compile(r"\s*\{([A-Za-z]+\*?)\}")


def hint_at(tex: str, offset: int | None) -> str | None:
    """The hint for the command or environment where math-core stopped (``offset`` in the
    author's TeX), else for the first one of the formula that has a hint."""
    if offset is not None:
        found = _hint(tex, _TOKEN.match(tex, offset))
        if found is not None:
            return found
    return next((h for m in _TOKEN.finditer(tex) if (h := _hint(tex, m)) is not None), None)


def _hint(tex: str, match: re.Match[str] | None) -> str | None:
    if match is None or not match.group().startswith("\\"):
        return None
    name = match.group()[1:]
    if name == "begin":
        env = _ENVIRONMENT.match(tex, match.end())
        return ENVIRONMENTS.get(env.group(1)) if env is not None else None
    return COMMANDS.get(name)
