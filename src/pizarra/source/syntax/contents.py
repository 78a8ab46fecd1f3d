"""The ``{contents}`` directive: accepted; every lesson page already lists its sections."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.source.blocks import Block
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options

_OPTIONS = {"depth": "accepted", "local": "accepted", "backlinks": "accepted", "class": "accepted"}


def lower_contents(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    if body.content.strip():
        ctx.error(directive.pos, "{contents} takes no content", hint="leave its body empty")
    return None
