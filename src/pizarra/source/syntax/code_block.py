"""``{code-block} python`` (and ``{code}``, ``{sourcecode}``): code shown, never run.

Sphinx's directive for a listing, as lectures use it for code that must not execute
(a shell session, an example with deliberate errors). It renders as an ordinary fenced
block with the same highlighting, under its ``:caption:`` and with the id its ``:name:``
gives, its lines numbered or emphasised as ``:linenos:``, ``:lineno-start:`` and
``:emphasize-lines:`` say (:mod:`pizarra.source.code_lines`); the other display options
are accepted and ignored. Options may also come as a YAML block between ``---`` lines.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Block, Prose
from pizarra.source.code_lines import OPTIONS as LINE_OPTIONS
from pizarra.source.code_lines import read_code_lines
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.highlighting import check_highlighting
from pizarra.source.syntax.options import directive_options
from pizarra.source.syntax.targets import LABEL

NAMES = ("code-block", "code", "sourcecode")
_OPTIONS = {
    "name": "a label for {ref}",
    "caption": "a caption shown above the code",
    "class": "accepted and ignored",
    **LINE_OPTIONS,
    "dedent": "accepted and ignored",
    "force": "accepted and ignored",
}


def lower_code_block(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    label = body.options.get("name", "")
    caption = body.options.get("caption", "")
    fence = Token("fence", "code", 0)
    fence.meta["caption"] = caption
    if label and LABEL.match(label):
        fence.meta["anchor"] = ctx.add_target(label, "target", None, caption, directive.pos)
    elif label:
        ctx.error(directive.pos, f"invalid :name: {label!r}", hint="e.g. :name: listing-1")
    fence.info = directive.argument.strip()
    fence.content = body.content.lstrip("\n")
    count = len(fence.content.splitlines())
    at = partial(_option_pos, directive, body.content_offset)
    fence.meta["lines"], errors = read_code_lines(body.options, at, count)
    ctx.diagnostics.extend(errors)
    fence.markup = "```"
    fence.map = directive.token.map
    check_highlighting(
        ctx, fence.info.split(maxsplit=1)[0] if fence.info else "", fence.content, directive.pos
    )
    return Prose((fence,), directive.pos)


def _option_pos(directive: Directive, offset: int, name: str) -> SourcePos:
    """Where the option ``name`` is written (``:name: value`` or YAML ``name: value``)."""
    lines = directive.body.splitlines()[:offset]
    index = next((i for i, line in enumerate(lines) if line.lstrip(":").startswith(name + ":")), 0)
    return directive.body_pos.shifted(index, col=directive.body_pos.col)
