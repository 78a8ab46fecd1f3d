"""``{admonition} Title`` and the kinds with their own name: ``{tip}``, ``{warning}``..."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.source.blocks import Admonition, Block
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import split_options

KINDS = (
    "attention",
    "caution",
    "danger",
    "error",
    "hint",
    "important",
    "seealso",
    "tip",
    "warning",
)
_OPTIONS = {
    "class": "extra classes; `dropdown` makes the aside a disclosure",
    "name": "a label for {ref}",
}


def lower_admonition(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = split_options(directive.body, directive.body_pos, _OPTIONS)
    ctx.diagnostics.extend(errors)
    kind = directive.name
    if kind == "admonition" and not directive.argument:
        ctx.error(
            directive.pos,
            "an {admonition} needs a title",
            hint="write ```{admonition} Your title, or use {note}, {tip}, {warning}...",
        )
    start = directive.body_pos.line - 1 + body.content_offset
    blocks = ctx.parse_nested(body.content, start, ctx)
    label = body.options.get("name", "")
    if label:
        ctx.add_target(label, "target", None, directive.argument, directive.pos)
    dropdown = "dropdown" in body.options.get("class", "").split()
    return Admonition(kind, directive.argument, blocks, directive.pos, dropdown)
