"""What the MyST extensions leave in the tokens that lowering must record or refuse.

Top-level amsmath environments are display formulas (checked like ``$$``); a footnote
defined and never referenced, a footnote inside a directive's body (numbered apart from
the page's, so its number and id would repeat) and an ``{#id}`` or ``{key=value}``
attribute are errors at their position.
"""

from __future__ import annotations

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import MathItem
from pizarra.source.syntax.context import LowerContext


def lower_extension_block(ctx: LowerContext, token: Token) -> None:
    """Record or refuse one block token of an extension (others pass untouched)."""
    pos = ctx.line_pos(token.map[0]) if token.map else SourcePos(ctx.path, 1, 1)
    if token.type == "amsmath":
        ctx.math.append(MathItem(token.content.strip("\n"), True, pos))
        token.meta["pos"] = pos
    elif token.type == "footnote_unused":
        ctx.error(
            pos,
            f"footnote [^{token.meta['label']}] is defined but never referenced",
            hint=f"refer to it with [^{token.meta['label']}] in the text, or delete it",
        )
    check_attrs(ctx, token, pos)


def check_attrs(ctx: LowerContext, token: Token, pos: SourcePos) -> None:
    """``{#id}`` and ``{key=value}`` are refused; ``{.class}`` is kept."""
    refused = token.meta.get("insecure_attrs")
    if not refused:
        return
    shown = " ".join(f"#{v}" if k == "id" else f"{k}={v}" for k, v in refused.items())
    ctx.error(
        pos,
        f"attributes are not supported here: {{{shown}}}",
        hint="only {.class} is; for a target to refer to, write (label)= before the block",
    )


def check_nested_footnote(ctx: LowerContext, child: Token, pos: SourcePos) -> None:
    """A footnote inside a directive's body is numbered on its own: refused."""
    if ctx.depth > 0:
        ctx.error(
            pos,
            "a footnote inside a directive is not supported",
            hint="put the footnote reference in the text outside the directive",
        )
