"""The ``{explorer}`` directive: hands its YAML body to the explorer kind named in it."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Block, Explorer
from pizarra.source.syntax.context import Directive, LowerContext, template_id

ELEMENT_SUFFIXES = (
    *("-label", "-hint", "-select", "-range", "-title", "-desc", "-caption"),
    *("-label-2", "-hint-2", "-range-2"),
)
"""The ids an explorer gives its parts, after its own (see explorers/*.html): a second
parameter's slider, label and hint take ``-2`` after theirs (explorers/states.py)."""


def lower_explorer(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    from pizarra.source.explorers import parse_explorer

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
    ids = [spec.id, *(spec.id + suffix for suffix in ELEMENT_SUFFIXES)]
    taken = next((i for i in ids if i in ctx.anchors or template_id(i)), None)
    if taken is not None:
        ctx.error(
            _id_pos(directive),
            f"the explorer's id {spec.id!r} gives an element the id {taken!r}, "
            "already used in this page",
            hint="give the explorer another `id:`",
        )
        return None
    ctx.anchors.update(ids)
    return Explorer(kind, spec, directive.pos)


def _id_pos(directive: Directive) -> SourcePos:
    """The ``id:`` line of the declaration, or its fence."""
    for offset, line in enumerate(directive.body.split("\n")):
        if line.startswith("id:"):
            return directive.body_pos.shifted(offset, 1)
    return directive.pos
