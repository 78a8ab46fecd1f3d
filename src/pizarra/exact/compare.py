"""Decide a relation between two closed values, and the precision ``\\approx`` rounds to."""

from __future__ import annotations

from fractions import Fraction

import sympy

from pizarra.exact.ast import BinOp, Call, Neg, Node, Num, Pow
from pizarra.exact.real import OutOfBounds, describe, holds
from pizarra.exact.status import CHECKED, FIX_HINT, Decision, Status


def compare(
    claim: str, relation: str, left: sympy.Expr, right: sympy.Expr, unit: Fraction | None
) -> Decision:
    """Checked when ``left relation right`` holds, failed with both values when not."""
    exact_unit = None if unit is None else sympy.Rational(unit.numerator, unit.denominator)
    try:
        true = holds(relation, left, right, exact_unit)
    except OutOfBounds as error:
        return Status.UNCHECKED, str(error), ""
    if true:
        return CHECKED
    values = f"left side is {describe(left)}, right side is {describe(right)}"
    if relation == "\\approx" and unit is not None:
        values += f"; \\approx allows a difference of half of {unit} (the last written digit)"
    return Status.FAILED, f"claim is false: {claim} ({values})", FIX_HINT


def written_unit(node: Node) -> Fraction | None:
    """One unit in the last digit of a written approximation, or None if it is not one.

    ``3{,}14`` -> 1/100; ``1000`` or ``10^{3}`` (orders of magnitude) -> 1000;
    ``2{,}5 \\times 10^{6}`` -> 100000; ``33\\%`` -> 1/100.
    """
    match node:
        case Num(unit=unit):
            return unit
        case Neg(operand=inner):
            return written_unit(inner)
        case Pow(base=Num(value=ten), exponent=exponent) if ten == 10:
            power = _integer(exponent)
            return None if power is None else Fraction(10) ** power
        case BinOp(op="*", left=Num(unit=unit), right=Pow() as scale):
            magnitude = written_unit(scale)
            return None if magnitude is None else unit * magnitude
        case Call(name="percent", args=(inner,)):
            inner_unit = written_unit(inner)
            return None if inner_unit is None else inner_unit / 100
    return None


def _integer(node: Node) -> int | None:
    if isinstance(node, Num) and node.value.denominator == 1:
        return int(node.value)
    if isinstance(node, Neg) and isinstance(node.operand, Num):
        inner = node.operand.value
        return -int(inner) if inner.denominator == 1 else None
    return None
