"""Relations with letters: identities over the declared domains, proved or refuted.

A relation whose letters are all declared under ``variables:`` is a claim about
every value of them. pizarra says "checked" only when sympy *proves* it, and
"failed" only with a concrete counterexample from the domains, evaluated
exactly (``false for a = 1, b = 2: the left side is 9, the right side is 5``).
Anything else is unchecked, and so is every relation with an undeclared letter,
a lone letter on the left (``n = 1024``, ``y = 2x + 1`` define), a relation one of
whose sides has no letters (``n^2 = 1024^2``, ``2^k \\ge 1000``: a condition on the
letters, i.e. an equation or inequation to solve, refuted by nothing), or an
equation written ``\\overset{?}{=}``.

Expansion is the expensive step, so the number of terms it would produce is
estimated first and large expansions are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

import sympy

from pizarra.math.exact.ast import Node
from pizarra.math.exact.declined import declined_identity, unproved
from pizarra.math.exact.evaluate import Context, evaluate
from pizarra.math.exact.real import MAX_TERMS, OutOfBounds, describe, expanded_terms, holds
from pizarra.math.exact.status import CHECKED, Decision, Status

MAX_SIMPLIFY_OPS = 60
"""Largest expression (in sympy operations) handed to ``simplify``."""
MAX_POINTS = 40
"""Most test points tried when looking for a counterexample."""

SAMPLES = {
    "real": (0, 1, -1, 2, -2, 3, sympy.Rational(1, 2), sympy.Rational(-3, 2)),
    "positive": (1, 2, 3, sympy.Rational(1, 2), 5, sympy.Rational(7, 3)),
    "nonnegative": (0, 1, 2, 3, sympy.Rational(1, 2)),
    "nonzero": (1, -1, 2, -2, 3, sympy.Rational(1, 2)),
    "integer": (0, 1, -1, 2, -2, 3),
    "positive_integer": (1, 2, 3, 4, 5),
}
"""Exact points of each domain tried, small ones first (they make readable messages)."""

HINT = (
    "if this is an equation to solve (a condition, not an identity), write it with "
    "\\overset{?}{=}; otherwise fix the formula"
)
_NOT_FINITE = (sympy.zoo, sympy.nan, sympy.oo, -sympy.oo, sympy.I)


def judge_identity(
    claim: str, relation: str, left: Node, right: Node, free: frozenset[str], context: Context
) -> Decision:
    """The verdict of a relation with letters (see the module docstring)."""
    declined = declined_identity(relation, left, right, free, context)
    if declined is not None:
        return declined
    values = evaluate(left, context), evaluate(right, context)
    if all(isinstance(v, sympy.Expr) for v in values) and proves(relation, *values):
        return CHECKED
    reason = unproved(left, right)
    if reason is not None:
        return reason
    counterexample = _counterexample(relation, left, right, sorted(free), context)
    if counterexample is not None:
        return Status.FAILED, f"{claim} is false for {counterexample}", HINT
    return Status.UNCHECKED, "not proved for every value of its letters", ""


def _counterexample(
    relation: str, left: Node, right: Node, names: list[str], context: Context
) -> str | None:
    for point in _points(names, context):
        sides = evaluate(left, context, point), evaluate(right, context, point)
        if not all(isinstance(v, sympy.Expr) and not v.free_symbols for v in sides):
            continue
        try:
            if holds(relation, sides[0], sides[1]):
                continue
        except OutOfBounds:
            continue
        where = ", ".join(f"{name} = {describe(value)}" for name, value in point.items())
        return (
            f"{where}: the left side is {describe(sides[0])}, "
            f"the right side is {describe(sides[1])}"
        )
    return None


def _points(names: list[str], context: Context) -> Iterator[dict[str, sympy.Expr]]:
    choices = [SAMPLES.get(context.domains[name], SAMPLES["real"]) for name in names]
    for count, values in enumerate(product(*choices)):
        if count >= MAX_POINTS:
            return
        yield {name: sympy.sympify(value) for name, value in zip(names, values, strict=True)}


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
    expanded = sympy.expand(difference)
    if expanded == 0:
        return True
    if rational_polynomial(expanded):
        return False
    if sympy.count_ops(difference) > MAX_SIMPLIFY_OPS:
        return False
    return bool(sympy.simplify(difference) == 0)


def rational_polynomial(expanded: sympy.Expr) -> bool:
    """True when ``expanded`` (an expanded expression) is a polynomial in its letters with
    rational coefficients.

    Expanded, such a polynomial is in canonical form: if it is not 0 it is not the zero
    polynomial, and no rewriting can make it 0, so ``simplify`` (tens of milliseconds,
    and its first call imports half of sympy) would only confirm that. It is skipped.
    """
    for node in sympy.preorder_traversal(expanded):
        if node.is_Add or node.is_Mul or node.is_Symbol or node.is_Rational:
            continue
        if node.is_Pow and node.base.is_Symbol and node.exp.is_Integer and node.exp > 0:
            continue
        return False
    return True
