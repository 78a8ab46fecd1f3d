"""The ``{note}`` directive: an aside titled "Note"; text after ``{note}`` starts its body,
as in MyST (a note with a title of its own is ``{admonition} Title`` with ``:class: note``)."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.source.blocks import Block, Note
from pizarra.source.syntax.admonition import ICON, argument_as_body, check_icon
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options

_OPTIONS = {"name": "a label for {ref}", "class": "accepted and ignored", "icon": ICON}


def lower_note(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    check_icon(ctx, directive, body.options)
    if body.options.get("name"):
        ctx.add_target(body.options["name"], "target", None, "", directive.pos)
    start = directive.body_pos.line - 1 + body.content_offset
    blocks = argument_as_body(ctx, directive) + ctx.parse_nested(body.content, start, ctx)
    return Note(blocks, "", directive.pos)
