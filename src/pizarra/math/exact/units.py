"""The same unit on both sides of a claim: ``1024 \\times 4\\text{ bytes} = 4096\\text{ bytes}``.

A unit is never dropped from one side only. When *both* sides end with the same
unit word and each side before it is a product (no ``+`` or ``-`` at its top,
so the unit multiplies the whole side), the unit is a common positive factor:
the claim holds exactly when it holds for the numbers, and pizarra compares
those. Different units (``1\\text{ MB} = 1024\\text{ KB}``), a unit on one side
only, or a word elsewhere in a side leave the claim unchecked.
"""

from __future__ import annotations

from collections.abc import Sequence

from pizarra.math.exact.ast import BinOp, Neg, Node, PlusMinus
from pizarra.math.exact.lexer import Kind, Token, text_words


def common_unit(
    left: Sequence[Token], right: Sequence[Token]
) -> tuple[Sequence[Token], Sequence[Token]] | None:
    """Both sides without their shared final unit word; None if they do not share one."""
    if not left or not right:
        return None
    units = [_unit(side) for side in (left, right)]
    if units[0] is None or units[0] != units[1]:
        return None
    if any(t.kind is Kind.TEXT for t in (*left[:-1], *right[:-1])):
        return None
    return left[:-1], right[:-1]


def _unit(tokens: Sequence[Token]) -> str | None:
    last = tokens[-1]
    if last.kind is not Kind.TEXT:
        return None
    words = " ".join(text_words(last).split())
    return words if words and words.replace(" ", "").isalpha() else None


def scales_whole_side(node: Node) -> bool:
    """True when a unit written after ``node`` multiplies all of it (no top-level sum)."""
    if isinstance(node, Neg):
        return scales_whole_side(node.operand)
    if isinstance(node, PlusMinus):
        return False
    return not (isinstance(node, BinOp) and node.op in ("+", "-"))
