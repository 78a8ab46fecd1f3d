"""The exact value of a learner's answer without letters: a rational, or why there is none.

Real-number semantics, as the claims have (``(-8)^{1/3} = -2``); exact powers and
roots come from :func:`pizarra.math.exact.rational.exact_power` with its bounds. A
value pizarra cannot compute exactly (``2^{1/2}``, a huge power, ``0^0``) is
:data:`UNCHECKABLE`, never a guess. ``answers.js`` mirrors this module (``value``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypeAlias

from pizarra.check.answers.reader import Bin, Letter, Neg, Node, Num, Pow
from pizarra.math.exact.rational import MAX_BITS, MAX_EXPONENT, MAX_ROOT_INDEX, exact_power

UNDEFINED = "undefined"
"""A division by zero, or zero to a negative power."""
NO_REAL = "no-real"
"""An even root of a negative number."""
UNCHECKABLE = "uncheckable"
"""Not decided exactly here (irrational, too large, ``0^0``)."""
LETTER = "letter"
"""A letter where a number was asked."""

Value: TypeAlias = Fraction | str
"""A rational, or one of the four reasons above."""


def value(node: Node) -> Value:
    """The exact value of ``node``; the first reason met, left to right, otherwise."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Letter):
        return LETTER
    if isinstance(node, Neg):
        inner = value(node.operand)
        return -inner if isinstance(inner, Fraction) else inner
    if isinstance(node, Bin):
        left = value(node.left)
        if not isinstance(left, Fraction):
            return left
        right = value(node.right)
        if not isinstance(right, Fraction):
            return right
        return arithmetic(node.op, left, right)
    if isinstance(node, Pow):
        base = value(node.base)
        if not isinstance(base, Fraction):
            return base
        exponent = value(node.exponent)
        if not isinstance(exponent, Fraction):
            return exponent
        return power(base, exponent)
    radicand = value(node.radicand)
    if not isinstance(radicand, Fraction):
        return radicand
    index = Fraction(2) if node.index is None else value(node.index)
    if not isinstance(index, Fraction):
        return index
    if index.denominator != 1 or index < 2:
        return UNCHECKABLE
    return power(radicand, 1 / index)


def arithmetic(op: str, left: Fraction, right: Fraction) -> Value:
    """``left op right``, bounded in size."""
    if op == "/" and right == 0:
        return UNDEFINED
    result = (
        {"+": left + right, "-": left - right, "*": left * right}[op] if op != "/" else left / right
    )
    return bounded(result)


def bounded(number: Fraction) -> Value:
    """``number``, or :data:`UNCHECKABLE` when it is larger than the claims allow."""
    if number.numerator.bit_length() + number.denominator.bit_length() > MAX_BITS:
        return UNCHECKABLE
    return number


def power(base: Fraction, exponent: Fraction) -> Value:
    """``base^exponent`` in the real numbers, when it is rational."""
    if base == 0:
        if exponent > 0:
            return Fraction(0)
        return UNDEFINED if exponent < 0 else UNCHECKABLE
    if base < 0 and exponent.denominator % 2 == 0:
        return NO_REAL if exponent.denominator <= MAX_ROOT_INDEX else UNCHECKABLE
    if abs(exponent.numerator) > MAX_EXPONENT:
        return UNCHECKABLE
    result = exact_power(base, exponent)
    return UNCHECKABLE if result is None else result
