"""The ``{epigraph}`` directive: a quotation set apart at the start of a lesson or section."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.source.blocks import Block, Epigraph
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options


def lower_epigraph(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, {})
    ctx.diagnostics.extend(errors)
    start = directive.body_pos.line - 1 + body.content_offset
    return Epigraph(ctx.parse_nested(body.content, start, ctx), directive.pos)
