"""Text that would reach the page as written although the author meant something else.

MyST would have rendered it, or the author clearly meant markup: TeX outside dollars
and footnote references with no definition. pizarra says so at its position instead
of printing the characters.
(Raw HTML is decided on markdown-it's tokens, in :mod:`pizarra.source.syntax.raw_html`.)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.syntax.context import LowerContext

_TEX = re.compile(r"\\[A-Za-z]{2,}|[_^]\{")
_FOOTNOTE = re.compile(r"\[\^[^\]\s]+\]")


def check_stray_text(ctx: LowerContext, token: Token, find: Callable[[str], SourcePos]) -> None:
    """One report per kind and block; ``find`` locates a snippet in the block's source."""
    runs, run = [], ""
    for child in token.children or []:
        if child.type in ("text", "text_special"):
            run += child.content
        else:
            runs.append(run)
            run = ""
    runs.append(run)
    text = "\n".join(runs)
    footnote = _FOOTNOTE.search(text)
    if footnote is not None:
        ctx.error(
            find(footnote.group(0)),
            f"footnote {footnote.group(0)} has no definition"
            + (" in this directive" if ctx.depth > 0 else ""),
            hint=(
                "footnotes inside a directive are not supported; move it out"
                if ctx.depth > 0
                else f"define it on a line of its own: {footnote.group(0)}: the note's text"
            ),
        )
    tex = _TEX.search(text)
    if tex is not None:
        ctx.warn(
            find(tex.group(0)),
            "this looks like a formula outside $...$; it would show as plain text",
            hint="wrap the formula in $...$ (or write \\\\ for a literal backslash)",
        )
