"""Decide a relation between two closed values."""

from __future__ import annotations

from fractions import Fraction

import sympy

from pizarra.math.exact.rational import written_unit
from pizarra.math.exact.real import OutOfBounds, describe, holds
from pizarra.math.exact.status import CHECKED, FIX_HINT, Decision, Status

__all__ = ["compare", "written_unit"]


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
