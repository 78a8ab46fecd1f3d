"""The ``{math}`` directive: a display formula, numbered when it has a ``:label:``."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.source.blocks import Block, Equation, MathItem
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options
from pizarra.source.syntax.targets import LABEL

_OPTIONS = {
    "label": "a name for {eq}`name` references; the equation gets a number",
    "name": "the same as :label:",
    "nowrap": "accepted; the formula is typeset as written",
    "class": "accepted and ignored",
}


def lower_math(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    tex = body.content.strip("\n")
    pos = directive.body_pos.shifted(body.content_offset, col=directive.body_pos.col)
    if directive.argument:
        tex = directive.argument + ("\n" + tex if tex else "")
        pos = directive.pos
    if not tex.strip():
        ctx.error(directive.pos, "this {math} block is empty", hint="write the formula inside it")
        return None
    ctx.math.append(MathItem(tex, True, pos))
    label = body.options.get("label") or body.options.get("name") or ""
    if not label:
        return Equation(tex, None, "", directive.pos)
    if not LABEL.match(label):
        ctx.error(directive.pos, f"invalid label {label!r}", hint="e.g. :label: eq-euler")
        return Equation(tex, None, "", directive.pos)
    number = ctx.next_number("equation")
    anchor = ctx.add_target(label, "equation", number, "", directive.pos)
    return Equation(tex, number, anchor, directive.pos)
