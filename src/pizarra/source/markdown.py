"""The one markdown-it instance pizarra parses lessons with.

CommonMark with pipe tables, YAML front matter, dollar math with MyST's
rules (spaces inside ``$ x $`` and blank lines inside ``$$ ... $$`` allowed,
``$$ ... $$ (label)`` numbered), colon fences
for directives, ``{name}`content``` roles and MyST's block syntax: ``(label)=``
targets, ``%`` comments and ``+++`` cell breaks; and the extensions of
:mod:`pizarra.source.extensions` (footnotes, definition and task lists...).
``text_join`` is disabled so that escaped characters stay separate ``text_special``
tokens: that is how an escaped ``\\$`` is told apart from an unclosed math delimiter.
Its work is counted against a :class:`~pizarra.source.parse_budget.Budget` when the
caller passes one.

Raw HTML is parsed, so that CommonMark's own rules say what is HTML, and every link is
kept as a link: the lowering refuses both (:mod:`pizarra.source.syntax.raw_html`) at
their position instead of leaving them as text on the page.
"""

from __future__ import annotations

import re
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from pizarra.source.extensions import bounded_display_math, extensions_plugin
from pizarra.source.parse_budget import add_budget


@cache
def parser() -> MarkdownIt:
    """The shared parser (building one costs ~1 ms; it is reused for nested directives)."""
    return _configured()


@cache
def block_parser() -> MarkdownIt:
    """:func:`parser` without its inline pass: the blocks of a text (fences, directives,
    paragraphs), in time linear in its length, for tools that rewrite a text as text."""
    md = _configured()
    md.core.ruler.disable("inline")
    return md


def _configured() -> MarkdownIt:
    md = (
        MarkdownIt("commonmark", {"html": True, "typographer": False})
        .enable("table")
        .use(front_matter_plugin)
        .use(colon_fence_plugin)
        .use(
            dollarmath_plugin,
            allow_labels=True,
            allow_space=True,
            allow_digits=True,
            allow_blank_lines=True,
            double_inline=True,
        )
        .use(myst_role_plugin)
        .use(myst_block_plugin)
        .use(extensions_plugin)
        .use(bounded_display_math)
    )
    md.disable("text_join")
    md.inline.ruler.at("myst_role", _myst_role)
    add_budget(md)
    md.validateLink = _every_link  # type: ignore[method-assign]
    return md


_ROLE_NAME = re.compile(r"\{([a-zA-Z0-9\_\-\+\:]+)\}")


def _myst_role(state: StateInline, silent: bool) -> bool:
    """mdit-py-plugins' ``myst_role`` rule, reading ``src`` in place: the plugin copies the
    rest of the paragraph at every place an inline rule is tried (30 µs a time in a
    1.5 MB paragraph, quadratic in all)."""
    if state.src[state.pos] != "{":
        return False
    match = _ROLE_NAME.match(state.src, state.pos)
    if not match:
        return False
    start = pos = match.end()
    while pos < len(state.src) and state.src[pos] == "`":
        pos += 1
    ticks = pos - start
    if not ticks or pos >= len(state.src):
        return False
    close = state.src.find("`" * ticks, pos + 1)
    if close < 0:
        return False
    if not silent:
        token = state.push("myst_role", "", 0)
        token.meta = {"name": match.group(1)}
        token.content = state.src[pos:close].replace("\n", " ")
    state.pos = close + ticks
    return True


def _every_link(url: str) -> bool:
    """Keep ``javascript:`` and ``data:`` links as links, so they are refused, not shown."""
    return True
