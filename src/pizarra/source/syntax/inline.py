"""Inline content: math, roles and stray ``$`` inside paragraphs, headings and cells.

markdown-it keeps line ranges for blocks only, so columns of inline items are
found by searching the source lines of their block, left to right.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.base.suggest import did_you_mean
from pizarra.source.blocks import MathItem
from pizarra.source.syntax.context import LowerContext
from pizarra.source.syntax.extension_blocks import check_attrs, check_nested_footnote
from pizarra.source.syntax.local_files import lower_image, lower_lesson_link
from pizarra.source.syntax.raw_html import check_target, lower_html
from pizarra.source.syntax.ref import lower_link
from pizarra.source.syntax.stray import check_stray_text
from pizarra.source.syntax.substitution import expand_inline
from pizarra.source.syntax.wiki_links import wiki_link

RoleRule = Callable[[LowerContext, str, SourcePos, Token], None]
_LONE_DOLLAR = re.compile(r"\$(?=[^\s\d$])")
WINDOW = 65_536
"""How far past the previous match a snippet is looked for."""


class Locator:
    """Finds successive snippets in a block's source lines and reports their position.

    Line starts are computed once per block and looked up by bisection, and each
    search starts at the previous match and looks at most :data:`WINDOW` characters
    ahead, so locating every child of a block costs time linear in its size.
    """

    def __init__(self, ctx: LowerContext, line_range: list[int] | None):
        start, end = line_range if line_range else (0, 0)
        self._ctx = ctx
        self._start = start
        lines = ctx.lines[start:end]
        self._text = "".join(line + "\n" for line in lines)
        self._line_starts = list(accumulate((len(line) + 1 for line in lines), initial=0))
        self._cursor = 0

    def find(self, needle: str, opening: bool = False) -> SourcePos:
        """Where ``needle`` is next; with ``opening``, the ``[`` of the link it ends."""
        end = self._cursor + WINDOW + len(needle)
        index = self._text.find(needle, self._cursor, end) if needle else -1
        if index < 0:
            return self._ctx.line_pos(self._start)
        start = self._cursor
        self._cursor = index + len(needle)
        return self._pos(_opening_bracket(self._text, start, index) if opening else index)

    def skip(self, needle: str) -> None:
        """Move past the next ``needle``, as :meth:`find` does, without its position: the
        text between a block's items is only passed over."""
        index = self._text.find(needle, self._cursor, self._cursor + WINDOW + len(needle))
        if needle and index >= 0:
            self._cursor = index + len(needle)

    def _pos(self, index: int) -> SourcePos:
        line = bisect_right(self._line_starts, index) - 1
        return self._ctx.pos(self._start + line, index - self._line_starts[line])


def _opening_bracket(text: str, start: int, close: int) -> int:
    """The ``[`` that the ``]`` at ``close`` ends (brackets in the link text are balanced)."""
    depth = 0
    for index in range(close - 1, start - 1, -1):
        if text[index] in "[]" and index > 0 and text[index - 1] == "\\":
            continue
        if text[index] == "]":
            depth += 1
        elif text[index] == "[":
            if depth == 0:
                return index
            depth -= 1
    return close


def lower_inline(ctx: LowerContext, token: Token, roles: dict[str, RoleRule]) -> None:
    """Collect math and roles from one ``inline`` token and report stray delimiters."""
    expand_inline(ctx, token, Locator(ctx, token.map).find)
    check_stray_text(ctx, token, lambda needle: Locator(ctx, token.map).find(needle))
    locate = Locator(ctx, token.map)
    html_refused = in_link = False
    children = token.children or []
    for at, child in enumerate(children):
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
                    hint=did_you_mean(
                        name,
                        roles,
                        "roles: " + ", ".join("{" + r + "}" for r in sorted(roles)),
                        lambda r: "`{" + r + "}`",
                    ),
                )
            else:
                rule(ctx, child.content, pos, child)
        elif child.type == "link_open":
            href = str(child.attrGet("href") or "")
            wiki_link(children, at)
            pos = locate.find("](" + href, opening=True)
            if check_target(ctx, child, pos) and not lower_lesson_link(ctx, child, pos):
                following = children[at + 1] if at + 1 < len(children) else None
                lower_link(
                    ctx, child, pos, following is not None and following.type == "link_close"
                )
        elif child.type == "image":
            pos = locate.find("](" + str(child.attrGet("src") or ""), opening=True)
            if check_target(ctx, child, pos):
                lower_image(ctx, child, pos)
        elif child.type == "footnote_ref":
            check_nested_footnote(ctx, child, locate.find("^"))
        elif child.type == "html_inline":
            # One refusal per block: a tag's closing tag says nothing new.
            html_refused = lower_html(ctx, child, locate.find(child.content), html_refused)
        elif child.type == "text_special" and child.markup in ("\\(", "\\["):
            ctx.warn(
                locate.find(child.markup),
                f"{child.markup} does not start math in MyST",
                hint="write inline math as $...$ and display math as $$...$$",
            )
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
                    hint="close it with $, or write \\$ for a dollar sign",
                )
            elif not in_link:  # a link's text comes before its target, found already
                locate.skip(child.content.split("\n", 1)[0])
        if child.meta.get("insecure_attrs"):
            check_attrs(ctx, child, locate.find("{"))
        if child.type in ("link_open", "link_close"):
            in_link = child.type == "link_open"
