"""``{prf:theorem}``, ``{prf:lemma}``, ``{prf:proof}``...: statements numbered per kind."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.base.i18n.strings import t
from pizarra.source.blocks import Block, Proof
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options
from pizarra.source.syntax.targets import LABEL

KINDS = (
    "algorithm",
    "assumption",
    "axiom",
    "conjecture",
    "corollary",
    "criterion",
    "definition",
    "example",
    "lemma",
    "observation",
    "property",
    "proposition",
    "remark",
    "theorem",
    "proof",
)
_OPTIONS = {
    "label": "a name for {ref}`name` references",
    "class": "accepted and ignored",
    "nonumber": "leave it without a number",
}


def lower_proof(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    kind = directive.name.split(":", 1)[1].lower()
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    numbered = kind != "proof" and "nonumber" not in body.options
    number = ctx.next_number(f"prf:{kind}") if numbered else None
    label = body.options.get("label", "")
    name = t(ctx.lang, f"prf_{kind}")
    title = f"{name} {number}" if number is not None else name
    if label and LABEL.match(label):
        anchor = ctx.add_target(label, kind, number, title, directive.pos)
    else:
        if label:
            ctx.error(directive.pos, f"invalid label {label!r}", hint="e.g. :label: neumann")
        anchor = ctx.unique_anchor(f"{kind}-{number}" if number is not None else kind)
    start = directive.body_pos.line - 1 + body.content_offset
    blocks = ctx.parse_nested(body.content, start, ctx)
    return Proof(kind, number, directive.argument, anchor, blocks, directive.pos)
