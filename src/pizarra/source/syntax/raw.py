"""``{raw} format``: content for another output format, dropped; raw HTML is refused.

A lesson's source is untrusted, so ``{raw} html`` is an error rather than markup
on the page; ``{raw} latex`` or ``{raw} jupyter`` concern other outputs and have
nothing to show on a web page.
"""

from __future__ import annotations

from collections.abc import Callable

from pizarra.source.blocks import Block
from pizarra.source.syntax.context import Directive, LowerContext


def lower_raw(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    target = directive.argument.strip().lower()
    if not target:
        ctx.error(directive.pos, "{raw} needs an output format", hint="e.g. ```{raw} latex")
    elif target in ("html", "html5", "xhtml"):
        ctx.error(
            directive.pos,
            "raw HTML is not allowed in a lesson",
            hint="write it in Markdown, or use a directive such as {figure} or {admonition}",
        )
    return None
