"""``{sub}``, ``{sup}``, ``{kbd}`` and ``{abbr}`` (and ``{subscript}``, ``{superscript}``):
MyST's roles for small inline markup; ``{math}`` is inline math, checked like ``$...$``.

Each records the element and its text in the role token's meta; the renderer writes the
element with the text escaped. ``{abbr}`CSS (Cascading Style Sheets)``` takes its
expansion from the parentheses at the end, as MyST does.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import MathItem
from pizarra.source.syntax.context import LowerContext

TAGS = {
    "sub": "sub",
    "subscript": "sub",
    "sup": "sup",
    "superscript": "sup",
    "kbd": "kbd",
    "abbr": "abbr",
}
_ABBR = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$", re.DOTALL)


def lower_text_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    name = str(token.meta.get("name", ""))
    text, title = content, ""
    if name == "abbr":
        match = _ABBR.match(content)
        if match is None or not match.group(1):
            ctx.error(
                pos,
                f"{{abbr}} needs its expansion in parentheses, not {content!r}",
                hint="write {abbr}`CSS (Cascading Style Sheets)`",
            )
            return
        text, title = match.group(1), match.group(2).strip()
    if not text.strip():
        ctx.error(pos, f"{{{name}}} has no text", hint=f"write {{{name}}}`text`")
        return
    token.meta["element"] = (TAGS[name], text, title)


def lower_math_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    """``{math}`x^2```: the same formula as ``$x^2$``."""
    ctx.math.append(MathItem(content, False, pos))
    token.meta["math"] = content
