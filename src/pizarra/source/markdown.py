"""The one markdown-it instance pizarra parses lessons with.

CommonMark with raw HTML off, pipe tables, YAML front matter, dollar math with MyST's
rules (spaces inside ``$ x $`` allowed, ``$$ ... $$ (label)`` numbered), colon fences
for directives, ``{name}`content``` roles and MyST's block syntax: ``(label)=``
targets, ``%`` comments and ``+++`` cell breaks. ``text_join`` is disabled so
that escaped characters stay separate ``text_special`` tokens: that is how an
escaped ``\\$`` is told apart from an unclosed math delimiter.
"""

from __future__ import annotations

from functools import cache

from markdown_it import MarkdownIt
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin


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
        MarkdownIt("commonmark", {"html": False, "typographer": False})
        .enable("table")
        .use(front_matter_plugin)
        .use(colon_fence_plugin)
        .use(
            dollarmath_plugin,
            allow_labels=True,
            allow_space=True,
            allow_digits=True,
            allow_blank_lines=False,
            double_inline=True,
        )
        .use(myst_role_plugin)
        .use(myst_block_plugin)
    )
    md.disable("text_join")
    md.disable(["html_block", "html_inline"])  # raw HTML is off: they could only say no
    return md
