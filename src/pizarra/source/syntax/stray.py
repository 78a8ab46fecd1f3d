"""Text that would reach the page as written although the author meant something else.

MyST would have rendered it, or the author clearly meant markup: TeX outside dollars,
inline HTML tags and footnotes. pizarra says so at its position instead of printing
the characters (raw HTML stays refused, as a lesson's source is untrusted).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.syntax.context import LowerContext

_TEX = re.compile(r"\\[A-Za-z]{2,}|[_^]\{")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>\n]*)?/?>")
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
    tag = _HTML_TAG.search(text)
    if tag is not None:
        ctx.error(
            find(tag.group(0)),
            f"raw HTML is not allowed: {tag.group(0)}",
            hint="write it in Markdown (**bold**, *italic*, $x^2$); write &lt; as \\<",
        )
    footnote = _FOOTNOTE.search(text)
    if footnote is not None:
        ctx.error(
            find(footnote.group(0)),
            f"footnotes are not supported: {footnote.group(0)}",
            hint="say it in the sentence, in parentheses, or in a {note}",
        )
    tex = _TEX.search(text)
    if tex is not None:
        ctx.warn(
            find(tex.group(0)),
            "this looks like a formula outside $...$; it would show as plain text",
            hint="wrap the formula in $...$ (or write \\\\ for a literal backslash)",
        )
