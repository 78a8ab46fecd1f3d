"""The ``{any}`` role of Sphinx: ``{any}`target``` or ``{any}`text <target>``` names a
label or a lesson, whichever the course has.

It is recorded as a :class:`~pizarra.source.blocks.Ref` of kind ``any``; the check
(:mod:`pizarra.check.xref`) resolves it as ``{ref}`` first and as ``{doc}`` after, in
Sphinx's order, so a name that is both goes to the label, with a warning.
"""

from __future__ import annotations

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Ref
from pizarra.source.syntax.context import LowerContext
from pizarra.source.syntax.ref import DOC, split_text_label
from pizarra.source.syntax.targets import LABEL


def lower_any_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    text, target = split_text_label(content)
    if not (LABEL.match(target) or DOC.match(target)):
        ctx.error(
            pos,
            f"{{any}} needs a label or a lesson's file name, not {content!r}",
            hint="write {any}`text <label>` or {any}`text <other_lesson>`",
        )
        return
    ref = Ref("any", target, text, pos)
    token.meta["ref"] = ref
    ctx.refs.append(ref)
