"""``(label)=`` targets: a name for the heading (or the place) that follows.

Before a heading the label becomes the heading's id and ``{ref}`label``` shows the
heading's text; anywhere else it marks the place with an empty anchor, and a
reference to it must give its own text.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from pizarra.base.i18n.strings import t
from pizarra.source.blocks import Block, Equation, Exercise, Image, Proof
from pizarra.source.syntax.context import LowerContext

LABEL = re.compile(r"^[A-Za-z0-9_][\w.:-]{0,100}$")


def lower_target(ctx: LowerContext, token: Token, following: Token) -> None:
    """Register the label of a ``myst_target`` token; ``following`` is the next block token."""
    label = token.content.strip()
    pos = ctx.line_pos(token.map[0] if token.map else 0)
    if not LABEL.match(label):
        ctx.error(
            pos,
            f"({label})= is not a valid label",
            hint="labels are letters, digits and _ - . : (e.g. (la_neumann)=)",
        )
        return
    if following.type == "heading_open":
        following.meta["label"] = label
        token.meta["anchor"] = ""
        return
    token.meta["anchor"] = ctx.add_target(label, "target", None, "", pos)


def name_block(ctx: LowerContext, label: str, block: Block) -> None:
    """``(label)=`` right before a numbered block: ``{ref}`label``` shows its name."""
    if isinstance(block, Proof):
        name = t(ctx.lang, f"prf_{block.kind}")
        ctx.adopt(label, block.kind, block.number, f"{name} {block.number or ''}".strip())
    elif isinstance(block, Exercise):
        ctx.adopt(label, "exercise", block.number, t(ctx.lang, "exercise_n", n=block.number))
    elif isinstance(block, Image) and block.alt:
        ctx.adopt(label, "figure", None, block.alt)
    elif isinstance(block, Equation) and block.number is not None:
        ctx.adopt(label, "target", None, f"({block.number})")
