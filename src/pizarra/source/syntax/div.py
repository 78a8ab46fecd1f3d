"""``{div}``: a plain container, as mystmd has it; its body is shown in a ``<div>``.

Its ``:class:`` words are kept on the element, as ``{.class}`` attributes are; a word
that is not a class name (markup, quotes) is left out with a warning, so the page never
takes an attribute it was not meant to.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pizarra.source.blocks import Block
from pizarra.source.container import Container
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options

_OPTIONS = {
    "class": "classes of the <div>",
    "label": "a label for {ref}",
    "name": "a label for {ref}",
}
_CLASS = re.compile(r"-?[A-Za-z_][\w-]*")
MAX_CLASSES = 20


def lower_div(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    if directive.argument:
        ctx.error(
            directive.pos,
            f"a {{div}} takes no argument, not {directive.argument!r}",
            hint="write its text in its body, below the options",
        )
    words = body.options.get("class", "").split()
    kept = tuple(dict.fromkeys(w for w in words if _CLASS.fullmatch(w)))[:MAX_CLASSES]
    left = [w for w in words if w not in kept]
    if left:
        ctx.warn(
            directive.pos,
            "class(es) left out of the {div}: " + ", ".join(repr(w) for w in left[:5]),
            hint=f"a class is a name of letters, digits, - and _; at most {MAX_CLASSES}",
        )
    start = directive.body_pos.line - 1 + body.content_offset
    blocks = ctx.parse_nested(body.content, start, ctx)
    label = body.options.get("label") or body.options.get("name", "")
    anchor = ctx.add_target(label, "target", None, "", directive.pos) if label else ""
    return Container("div", "", blocks, directive.pos, anchor, classes=kept)
