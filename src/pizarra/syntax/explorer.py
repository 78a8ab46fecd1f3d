"""The ``{explorer}`` directive: hands its YAML body to the explorer kind named in it."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.model import Block, Explorer
from pizarra.syntax.context import Directive, LowerContext


def lower_explorer(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    from pizarra.explorers import parse_explorer

    kind = directive.argument.strip()
    if not kind:
        ctx.error(
            directive.pos,
            "{explorer} needs the explorer kind after its name",
            hint="write :::{explorer} growth",
        )
        return None
    spec, errors = parse_explorer(kind, directive.body, directive.pos, ctx.lang)
    ctx.diagnostics.extend(errors)
    if spec is None:
        return None
    return Explorer(kind, spec, directive.pos)
