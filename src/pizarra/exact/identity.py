"""Prove relations between expressions with letters, or give up.

A relation with letters is a claim about every value of its letters in their
declared domains. pizarra only says "checked" when sympy *proves* it; anything
else is "unchecked", never "failed": ``x = 7`` is an equation, and a lesson may
quote a student's wrong identity on purpose.

Expansion is the expensive step, so the number of terms it would produce is
estimated first and large expansions are skipped.
"""

from __future__ import annotations

import sympy

from pizarra.exact.real import MAX_TERMS, expanded_terms

MAX_SIMPLIFY_OPS = 60
"""Largest expression (in sympy operations) handed to ``simplify``."""

_NOT_FINITE = (sympy.zoo, sympy.nan, sympy.oo, -sympy.oo, sympy.I)


def proves(relation: str, left: sympy.Expr, right: sympy.Expr) -> bool:
    """True when ``left relation right`` holds for all values of the letters."""
    if any(side.has(*_NOT_FINITE) for side in (left, right)):
        return False
    difference = left - right
    try:
        if relation == "=":
            return _is_zero(difference)
        if relation == "\\ne":
            return difference.is_zero is False
        facts = {
            "<": difference.is_negative,
            "\\le": difference.is_nonpositive,
            ">": difference.is_positive,
            "\\ge": difference.is_nonnegative,
        }
        return facts.get(relation) is True
    except (TypeError, ValueError, NotImplementedError, RecursionError):
        return False


def _is_zero(difference: sympy.Expr) -> bool:
    if difference == 0 or difference.is_zero is True:
        return True
    if expanded_terms(difference) > MAX_TERMS:
        return False
    if sympy.expand(difference) == 0:
        return True
    if sympy.count_ops(difference) > MAX_SIMPLIFY_OPS:
        return False
    return bool(sympy.simplify(difference) == 0)
