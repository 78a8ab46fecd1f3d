"""Relations with letters: identities over the declared domains, proved or refuted.

A relation whose letters are all declared under ``variables:`` is a claim about
every value of them. pizarra says "checked" only when sympy *proves* it, and
"failed" only with a concrete counterexample from the domains, evaluated
exactly (``false for a = 1, b = 2: the left side is 9, the right side is 5``).
Anything else is unchecked, and so is every relation with an undeclared letter,
a lone letter on the left (``n = 1024``, ``y = 2x + 1`` define), or an equation
written ``\\overset{?}{=}``. A relation one of whose sides has no letters
(``t^2 \\ge 1``, ``2^k \\ge 1000``) is a claim about every value too: refuted by a
value of the domain, or left unchecked.

The points tried are exact rationals chosen where identities break: zero, negative
values (``(t^6)^{1/2} = t^3`` fails for t = -1), values between -1 and 1 (where
powers shrink) and large ones (``t^2 < 49`` fails for t = 10). They are tried in an
order that moves every letter early (not the first letter last), small ones first.

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
from pizarra.math.exact.real import (
    MAX_TERMS,
    OutOfBounds,
    describe,
    expanded_terms,
    holds,
    sign,
)
from pizarra.math.exact.status import CHECKED, Decision, Status

MAX_SIMPLIFY_OPS = 60
"""Largest expression (in sympy operations) handed to ``simplify``."""
MAX_FACTOR_TERMS = 60
"""Largest polynomial difference (in expanded terms) factored to prove an order."""
MAX_ROOT_DEGREE = 4
"""Highest degree of a polynomial difference whose roots are tried as counterexamples."""
MAX_POINTS = 40
"""Most test points tried when looking for a counterexample."""

_HALF = sympy.Rational(1, 2)
SAMPLES = {
    "real": (0, 1, -1, 2, -2, 3, _HALF, -_HALF, sympy.Rational(-3, 2), 10, -10, 1000, -1000),
    "positive": (1, 2, 3, _HALF, 5, sympy.Rational(7, 3), sympy.Rational(1, 10), 10, 1000),
    "nonnegative": (0, 1, 2, 3, _HALF, sympy.Rational(1, 10), 10, 1000),
    "nonzero": (1, -1, 2, -2, 3, _HALF, -_HALF, 10, -10, 1000, -1000),
    "integer": (0, 1, -1, 2, -2, 3, -3, 10, -10, 1000, -1000),
    "positive_integer": (1, 2, 3, 4, 5, 10, 1000),
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
    roots = _roots(values, sorted(free), context)
    counterexample = _counterexample(relation, left, right, sorted(free), context, roots)
    if counterexample is not None:
        return Status.FAILED, f"{claim} is false for {counterexample}", HINT
    return Status.UNCHECKED, "not proved for every value of its letters", ""


def _counterexample(
    relation: str,
    left: Node,
    right: Node,
    names: list[str],
    context: Context,
    first: tuple[dict[str, sympy.Expr], ...] = (),
) -> str | None:
    for point in (*first, *_points(names, context)):
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


def _roots(
    values: tuple[object, object], names: list[str], context: Context
) -> tuple[dict[str, sympy.Expr], ...]:
    """The real roots of ``left - right`` when it is a polynomial in one letter of
    degree at most :data:`MAX_ROOT_DEGREE`, written with radicals and in the letter's
    domain: where ``x^2 \\ne 2`` or ``(x - \\frac{1}{3})^2 > 0`` fail. Each root is only a
    candidate: the counterexample is still the exact evaluation of both sides there."""
    left, right = values
    if len(names) != 1 or not isinstance(left, sympy.Expr) or not isinstance(right, sympy.Expr):
        return ()
    difference = left - right
    if expanded_terms(difference) > MAX_FACTOR_TERMS:
        return ()
    expanded = sympy.expand(difference)
    (symbol,) = expanded.free_symbols or (None,)
    if symbol is None or not rational_polynomial(expanded):
        return ()
    polynomial = sympy.Poly(expanded, symbol)
    if not 0 < polynomial.degree() <= MAX_ROOT_DEGREE:
        return ()
    domain = context.domains[names[0]]
    found = []
    for root in sympy.real_roots(polynomial):
        if root.has(sympy.CRootOf) or not _in_domain(root, domain):
            continue
        found.append({names[0]: root})
    return tuple(found)


def _in_domain(value: sympy.Expr, domain: str) -> bool:
    sign_of = sign(value)
    integer = value.is_Integer is True
    return {
        "real": True,
        "positive": sign_of > 0,
        "nonnegative": sign_of >= 0,
        "nonzero": sign_of != 0,
        "integer": integer,
        "positive_integer": integer and sign_of > 0,
    }.get(domain, False)


def _points(names: list[str], context: Context) -> Iterator[dict[str, sympy.Expr]]:
    """Up to :data:`MAX_POINTS` points, those made of each domain's first samples first."""
    choices = [SAMPLES.get(context.domains[name], SAMPLES["real"]) for name in names]
    indexes = sorted(
        product(*(range(len(choice)) for choice in choices)), key=lambda i: (max(i), sum(i))
    )
    for at in indexes[:MAX_POINTS]:
        values = (choice[i] for choice, i in zip(choices, at, strict=True))
        yield {
            name: sympy.Integer(v) if isinstance(v, int) else v
            for name, v in zip(names, values, strict=True)
        }


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
        if _order_holds(relation, difference):
            return True
        if expanded_terms(difference) > MAX_FACTOR_TERMS or not rational_polynomial(
            sympy.expand(difference)
        ):
            return False
        return _order_holds(relation, sympy.factor(difference))
    except (TypeError, ValueError, NotImplementedError, RecursionError):
        return False


def _order_holds(relation: str, difference: sympy.Expr) -> bool:
    """True when the assumptions of the letters prove the sign ``relation`` needs.

    Applied to the factored difference too, this proves ``y^2 + 4 \\ge 4y``: the
    difference factors as ``(y - 2)^2``, a square of a real number."""
    facts = {
        "<": difference.is_negative,
        "\\le": difference.is_nonpositive,
        ">": difference.is_positive,
        "\\ge": difference.is_nonnegative,
    }
    return facts.get(relation) is True


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
