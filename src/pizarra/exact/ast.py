"""The expression tree of one side of a claim.

Every node keeps the offsets of the TeX it came from, so a message can quote the
exact subexpression (``\\sqrt{-9}``) that has no real value.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias


@dataclass(frozen=True)
class Num:
    """A literal number: integer, decimal or thousands-grouped integer."""

    value: Fraction
    """Its exact value."""
    start: int
    """Offset of its first character in the formula."""
    end: int
    """Offset just past it."""


@dataclass(frozen=True)
class Sym:
    """A letter, possibly with a subscript name (``d_k``, ``N_old``)."""

    name: str
    """The name used for front-matter ``variables``."""
    start: int
    """Offset of its first character."""
    end: int
    """Offset just past it (and its subscript)."""


@dataclass(frozen=True)
class Neg:
    """Unary minus."""

    operand: Node
    """What is negated."""
    start: int
    """Offset of the minus sign."""
    end: int
    """Offset just past the operand."""


@dataclass(frozen=True)
class BinOp:
    """A sum, difference, product (written or implicit) or quotient."""

    op: Literal["+", "-", "*", "/"]
    """The operation."""
    left: Node
    """Left operand."""
    right: Node
    """Right operand."""
    start: int
    """Offset of the left operand."""
    end: int
    """Offset just past the right operand."""


@dataclass(frozen=True)
class Pow:
    """``base^{exponent}``."""

    base: Node
    """The base."""
    exponent: Node
    """The exponent."""
    start: int
    """Offset of the base."""
    end: int
    """Offset just past the exponent."""


@dataclass(frozen=True)
class Root:
    """``\\sqrt{radicand}`` or ``\\sqrt[index]{radicand}``."""

    radicand: Node
    """What is under the radical."""
    index: Node | None
    """The root's index; None for a square root."""
    start: int
    """Offset of ``\\sqrt``."""
    end: int
    """Offset just past the radicand."""


@dataclass(frozen=True)
class Abs:
    """``|x|``."""

    operand: Node
    """What is inside the bars."""
    start: int
    """Offset of the opening bar."""
    end: int
    """Offset just past the closing bar."""


Node: TypeAlias = Num | Sym | Neg | BinOp | Pow | Root | Abs


def has_letters(node: Node) -> bool:
    """True when the expression mentions a letter (so it is not closed)."""
    match node:
        case Num():
            return False
        case Sym():
            return True
        case Neg(operand=inner) | Abs(operand=inner):
            return has_letters(inner)
        case BinOp(left=left, right=right):
            return has_letters(left) or has_letters(right)
        case Pow(base=base, exponent=exponent):
            return has_letters(base) or has_letters(exponent)
        case Root(radicand=radicand, index=index):
            return has_letters(radicand) or (index is not None and has_letters(index))
