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
    unit: Fraction = Fraction(1)
    """One unit in its last significant written digit (``\\approx`` rounds to half of it)."""


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


@dataclass(frozen=True)
class Const:
    """A named constant: ``e``, ``\\pi`` or ``\\infty``."""

    name: Literal["e", "pi", "oo"]
    """Which constant."""
    start: int
    """Offset of its first character."""
    end: int
    """Offset just past it."""


@dataclass(frozen=True)
class Call:
    """A function applied to arguments: built-in (``log``, ``binom``...) or the lesson's own."""

    name: str
    """``log``, ``ln``, ``exp``, ``binom``, ``factorial``, ``floor``, ``ceil``, ``max``,
    ``min``, ``percent``, or the name of a function the lesson defines."""
    args: tuple[Node, ...]
    """The arguments; for ``log`` the argument, then the base if written."""
    start: int
    """Offset of the function's name."""
    end: int
    """Offset just past its last argument."""


@dataclass(frozen=True)
class Series:
    """``\\sum_{i=a}^{b} body`` or ``\\prod_{i=a}^{b} body``."""

    kind: Literal["sum", "prod"]
    """Sum or product."""
    index: str
    """The bound letter."""
    lower: Node
    """First value of the index."""
    upper: Node
    """Last value of the index."""
    body: Node
    """The term."""
    start: int
    """Offset of ``\\sum`` or ``\\prod``."""
    end: int
    """Offset just past the body."""


@dataclass(frozen=True)
class PlusMinus:
    """``a \\pm b`` (or ``\\pm b``): a pair of values, ``a + b`` and ``a - b``."""

    left: Node | None
    """What ``\\pm`` follows; None for a leading ``\\pm``."""
    right: Node
    """What is added and subtracted."""
    flip: bool
    """True for ``\\mp`` (minus first)."""
    start: int
    """Offset of the left operand, or of the sign."""
    end: int
    """Offset just past the right operand."""


Node: TypeAlias = Num | Sym | Neg | BinOp | Pow | Root | Abs | Const | Call | Series | PlusMinus


def children(node: Node) -> tuple[Node, ...]:
    """The direct subexpressions of ``node``."""
    match node:
        case Num() | Sym() | Const():
            return ()
        case Neg(operand=inner) | Abs(operand=inner):
            return (inner,)
        case BinOp(left=left, right=right):
            return (left, right)
        case Pow(base=base, exponent=exponent):
            return (base, exponent)
        case Root(radicand=radicand, index=index):
            return (radicand,) if index is None else (radicand, index)
        case Call(args=args):
            return args
        case Series(lower=lower, upper=upper, body=body):
            return (lower, upper, body)
        case PlusMinus(left=left, right=right):
            return (right,) if left is None else (left, right)


def letters(node: Node, bound: frozenset[str] = frozenset()) -> frozenset[str]:
    """The free letters of the expression (a sum's index is bound inside its body)."""
    if isinstance(node, Sym):
        return frozenset() if node.name in bound else frozenset({node.name})
    if isinstance(node, Series):
        inner = letters(node.body, bound | {node.index})
        return inner | letters(node.lower, bound) | letters(node.upper, bound)
    found: frozenset[str] = frozenset()
    for child in children(node):
        found |= letters(child, bound)
    return found


def has_letters(node: Node) -> bool:
    """True when the expression mentions a free letter (so it is not closed)."""
    return bool(letters(node))


def has_plus_minus(node: Node) -> bool:
    """True when the expression stands for a pair of values."""
    return isinstance(node, PlusMinus) or any(has_plus_minus(c) for c in children(node))
