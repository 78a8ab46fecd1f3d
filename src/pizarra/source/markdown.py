"""The one markdown-it instance pizarra parses lessons with.

CommonMark with pipe tables, YAML front matter, dollar math with MyST's
rules (spaces inside ``$ x $`` and blank lines inside ``$$ ... $$`` allowed,
``$$ ... $$ (label)`` numbered), colon fences
for directives, ``{name}`content``` roles and MyST's block syntax: ``(label)=``
targets, ``%`` comments and ``+++`` cell breaks; and the extensions of
:mod:`pizarra.source.extensions` (footnotes, definition and task lists...).
``text_join`` is disabled so that escaped characters stay separate ``text_special``
tokens: that is how an escaped ``\\$`` is told apart from an unclosed math delimiter.

Raw HTML is parsed, so that CommonMark's own rules say what is HTML, and every link is
kept as a link: the lowering refuses both (:mod:`pizarra.source.syntax.raw_html`) at
their position instead of leaving them as text on the page.
"""

from __future__ import annotations

from functools import cache

from markdown_it import MarkdownIt
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from pizarra.source.extensions import bounded_display_math, extensions_plugin


@cache
def parser() -> MarkdownIt:
    """The shared parser (building one costs ~1 ms; it is reused for nested directives)."""
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
    md.validateLink = _every_link  # type: ignore[method-assign]
    return md


def _every_link(url: str) -> bool:
    """Keep ``javascript:`` and ``data:`` links as links, so they are refused, not shown."""
    return True
