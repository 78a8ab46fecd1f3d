"""Inline content: math, roles and stray ``$`` inside paragraphs, headings and cells.

markdown-it keeps line ranges for blocks only, so columns of inline items are
found by searching the source lines of their block, left to right.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.token import Token

from pizarra.errors import SourcePos
from pizarra.model import MathItem
from pizarra.syntax.context import LowerContext

RoleRule = Callable[[LowerContext, str, SourcePos, Token], None]
_LONE_DOLLAR = re.compile(r"\$(?=[^\s\d$])")


class Locator:
    """Finds successive snippets in a block's source lines and reports their position."""

    def __init__(self, ctx: LowerContext, line_range: list[int] | None):
        start, end = line_range if line_range else (0, 0)
        self._ctx = ctx
        self._start = start
        self._text = "".join(line + "\n" for line in ctx.lines[start:end])
        self._cursor = 0

    def find(self, needle: str) -> SourcePos:
        index = self._text.find(needle, self._cursor) if needle else -1
        if index < 0:
            return self._ctx.line_pos(self._start)
        self._cursor = index + len(needle)
        line = self._text.count("\n", 0, index)
        col = index - (self._text.rfind("\n", 0, index) + 1)
        return self._ctx.pos(self._start + line, col)


def lower_inline(ctx: LowerContext, token: Token, roles: dict[str, RoleRule]) -> None:
    """Collect math and roles from one ``inline`` token and report stray delimiters."""
    locate = Locator(ctx, token.map)
    for child in token.children or []:
        if child.type in ("math_inline", "math_inline_double"):
            fence = "$" if child.type == "math_inline" else "$$"
            pos = locate.find(fence + child.content)
            ctx.math.append(MathItem(child.content, child.type == "math_inline_double", pos))
            child.meta["pos"] = pos
        elif child.type == "myst_role":
            name = str(child.meta.get("name", ""))
            pos = locate.find("{" + name + "}")
            rule = roles.get(name)
            if rule is None:
                ctx.error(
                    pos,
                    f"unknown role {{{name}}}",
                    hint="roles: " + ", ".join("{" + r + "}" for r in sorted(roles)),
                )
            else:
                rule(ctx, child.content, pos, child)
        elif child.type == "text":
            if "$$" in child.content:
                ctx.error(
                    locate.find("$$"),
                    "unclosed $$: display math has no closing $$",
                    hint="close it with $$, or write \\$ for a literal dollar sign",
                )
            elif _LONE_DOLLAR.search(child.content):
                ctx.error(
                    locate.find("$"),
                    "unclosed $: inline math has no closing $",
                    hint="close it with $ (no space inside), or write \\$ for a dollar sign",
                )
            else:
                locate.find(child.content.split("\n", 1)[0])
