"""``{admonition} Title`` and the kinds with their own name: ``{tip}``, ``{warning}``...

As in MyST, only ``{admonition}`` has a title; ``{tip} Some text`` starts the tip's body.
"""

from __future__ import annotations

from collections.abc import Callable

from pizarra.source.blocks import Admonition, Block
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options

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
ICON = "`false` hides the icon; pizarra's asides draw none, so there is nothing to hide"
_OPTIONS = {
    "class": "extra classes; `dropdown` makes the aside a disclosure",
    "name": "a label for {ref}",
    "icon": ICON,
}


def lower_admonition(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    check_icon(ctx, directive, body.options)
    kind = directive.name
    if kind == "admonition" and not directive.argument:
        ctx.error(
            directive.pos,
            "an {admonition} needs a title",
            hint="write ```{admonition} Your title, or use {note}, {tip}, {warning}...",
        )
    start = directive.body_pos.line - 1 + body.content_offset
    blocks = ctx.parse_nested(body.content, start, ctx)
    title = directive.argument
    if kind != "admonition":
        title, blocks = "", argument_as_body(ctx, directive) + blocks
    label = body.options.get("name", "")
    if label:
        ctx.add_target(label, "target", None, title, directive.pos)
    dropdown = "dropdown" in body.options.get("class", "").split()
    return Admonition(kind, title, blocks, directive.pos, dropdown)


def check_icon(ctx: LowerContext, directive: Directive, options: dict[str, str]) -> None:
    """mystmd's ``icon=false`` is accepted: the aside has no icon to hide."""
    if options.get("icon", "false").lower() not in ("true", "false", ""):
        ctx.error(
            directive.pos,
            f"option :icon: is true or false, not {options['icon']!r}",
            hint="write icon=false (or :icon: false) to show no icon",
        )


def argument_as_body(ctx: LowerContext, directive: Directive) -> tuple[Block, ...]:
    """Text after a named admonition's name is the start of its body, as in MyST
    (only ``{admonition}`` takes a title)."""
    if not directive.argument:
        return ()
    return ctx.parse_nested(directive.argument + "\n", directive.pos.line - 1, ctx)
