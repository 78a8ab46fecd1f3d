"""Exact arithmetic in the real numbers, as the course teaches it.

Values are sympy rationals and real algebraic numbers built by pizarra's own
evaluator (no string is ever handed to sympy). Two choices differ from a
computer-algebra system's defaults:

* an odd root of a negative number is the *real* root: ``(-8)^{1/3} = -2``
  (a CAS's principal root would be the complex ``1 + i\\sqrt{3}``);
* an even root of a negative, or ``0`` to a negative power, has no real value.

Every operation is bounded (exponent size, root index, digits, radicals), so a
hostile formula is refused quickly instead of hanging the build.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import sympy
from sympy.polys.polyerrors import NotAlgebraic, PolynomialError

from pizarra.math.exact.intervals import interval_sign
from pizarra.math.exact.rational import MAX_BITS, MAX_EXPONENT, MAX_ROOT_INDEX, describe_integer

__all__ = ["MAX_BITS", "MAX_EXPONENT"]

MAX_IRRATIONAL_EXPONENT = 16
"""Largest |integer exponent| evaluated for an irrational base."""
MAX_RADICALS = 8
"""Most irrational radicals one value may contain (bounds exact zero tests)."""
MAX_DEGREE = 6
"""Largest algebraic degree (bound) for an exact zero test by minimal polynomial."""
MAX_DENEST_OPS = 40
"""Largest value (in sympy operations) whose nested square roots are denested."""
MAX_TERMS = 2_000
"""Most terms an expansion may produce before pizarra gives up on it."""

_T = sympy.Symbol("t")


class OutOfBounds(Exception):
    """The value is too large or too complex to decide within the bounds."""


class NotReal(Exception):
    """The expression has no value in the real numbers."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def rational(value: Fraction) -> sympy.Expr:
    """A sympy rational equal to ``value``."""
    return sympy.Rational(value.numerator, value.denominator)


def bounded(value: sympy.Expr) -> sympy.Expr:
    """``value`` itself, after checking that it stays within the bounds."""
    rationals = [value] if value.is_Rational else list(value.atoms(sympy.Rational))
    for number in rationals:
        if int(number.p).bit_length() + int(number.q).bit_length() > MAX_BITS:
            raise OutOfBounds("a number with too many digits")
    if not value.is_Rational:
        radicals = [p for p in value.atoms(sympy.Pow) if not p.exp.is_Integer]
        if len(radicals) > MAX_RADICALS:
            raise OutOfBounds("too many radicals to compare exactly")
    return value


def sign(value: sympy.Expr) -> int:
    """-1, 0 or 1: the exact sign of a real number built by pizarra.

    A value away from zero is decided by proven interval bounds. A value that may
    be zero is decided exactly: by expanding it (logs too), by denesting its
    square roots, and last by its minimal polynomial, only tried for a small
    algebraic degree because its cost grows very fast with the degree. A
    transcendental value that intervals cannot separate from zero is left
    undecided (``OutOfBounds``): equality of such numbers is not decidable here.
    """
    if value.is_Rational:
        return 1 if value.p > 0 else (-1 if value.p < 0 else 0)
    if value.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan, sympy.I):
        raise OutOfBounds("not a finite real number")
    decided = interval_sign(value)
    if decided is not None:
        return decided
    if expanded_terms(value) <= MAX_TERMS and sympy.expand(value) == 0:
        return 0
    if value.has(sympy.log) and sympy.expand_log(value, force=True) == 0:
        return 0
    if value.has(sympy.pi, sympy.E, sympy.exp, sympy.log, sympy.erf):
        raise OutOfBounds("equality of transcendental numbers is not decided")
    if sympy.count_ops(value) <= MAX_DENEST_OPS and sympy.expand(sympy.sqrtdenest(value)) == 0:
        return 0
    if degree_bound(value) > MAX_DEGREE:
        raise OutOfBounds("too complex to decide whether a difference is zero")
    try:
        if sympy.minimal_polynomial(value, _T) == _T:
            return 0
    except (NotImplementedError, ValueError, PolynomialError, NotAlgebraic) as error:
        raise OutOfBounds("could not decide whether a difference is zero") from error
    late = interval_sign(value, (4_000, 12_000))
    if late is not None:
        return late
    raise OutOfBounds("could not decide the sign of a difference")


def degree_bound(value: sympy.Expr) -> int:
    """An upper bound of the algebraic degree: the product of the root indices."""
    bound = 1
    for power in value.atoms(sympy.Pow):
        if power.exp.is_Rational and not power.exp.is_Integer:
            bound *= int(power.exp.q)
    return bound


def expanded_terms(expr: sympy.Expr) -> int:
    """An upper estimate of how many terms ``sympy.expand(expr)`` would have."""
    if expr.is_Add:
        return min(MAX_TERMS + 1, sum(expanded_terms(arg) for arg in expr.args))
    if expr.is_Mul:
        total = 1
        for arg in expr.args:
            total = min(MAX_TERMS + 1, total * expanded_terms(arg))
        return total
    if expr.is_Pow and expr.exp.is_Integer and expr.exp > 0:
        terms = expanded_terms(expr.base)
        return min(MAX_TERMS + 1, comb(terms + int(expr.exp) - 1, int(expr.exp)))
    return 1


def real_power(base: sympy.Expr, exponent: sympy.Expr) -> sympy.Expr:
    """``base^exponent`` for a rational exponent, with real-number semantics.

    ``0^0`` is the caller's business (it depends on the lesson's conventions): it is
    refused here, never given a value the lesson did not choose.
    """
    p, q = int(exponent.p), int(exponent.q)
    if q > MAX_ROOT_INDEX:
        raise OutOfBounds(f"a root of index above {MAX_ROOT_INDEX}")
    limit = MAX_EXPONENT if base.is_Rational else MAX_IRRATIONAL_EXPONENT
    if abs(p) > limit:
        raise OutOfBounds(f"an exponent above {limit}")
    direction = sign(base)
    if direction == 0:
        if p < 0:
            raise NotReal("0 to a negative power divides by zero")
        if p == 0:
            raise ValueError("0^0 has the value of the lesson's convention")
        return sympy.Integer(0)
    if direction < 0 and q % 2 == 0:
        raise NotReal("an even root of a negative number is not real")
    magnitude = -base if direction < 0 else base
    if magnitude.is_Rational:
        bits = int(magnitude.p).bit_length() + int(magnitude.q).bit_length()
        if bits * abs(p) > MAX_BITS * q:
            raise OutOfBounds("a power with too many digits")
    result = bounded(sympy.Pow(magnitude, sympy.Rational(p, q)))
    return -result if direction < 0 and p % 2 == 1 else result


def absolute(value: sympy.Expr) -> sympy.Expr:
    """|value|."""
    return -value if sign(value) < 0 else value


def holds(
    relation: str, left: sympy.Expr, right: sympy.Expr, unit: sympy.Expr | None = None
) -> bool:
    """Whether ``left relation right`` is true, decided exactly.

    ``\\approx`` needs ``unit``, one unit in the last digit the author wrote: the
    claim holds when |left - right| <= unit / 2 (the right side is the left side
    rounded to that digit).
    """
    if relation == "\\approx":
        if unit is None:
            raise OutOfBounds("\\approx needs a written decimal to round to")
        return sign(unit / 2 - absolute(bounded(left - right))) >= 0
    infinite = [side for side in (left, right) if side in (sympy.oo, -sympy.oo)]
    if infinite:
        if len(infinite) == 2:
            raise OutOfBounds("both sides are infinite")
        direction = -1 if right is sympy.oo or left is -sympy.oo else 1
    else:
        direction = sign(bounded(left - right))
    return {
        "=": direction == 0,
        "\\ne": direction != 0,
        "<": direction < 0,
        "\\le": direction <= 0,
        ">": direction > 0,
        "\\ge": direction >= 0,
    }[relation]


def describe(value: sympy.Expr) -> str:
    """A short exact rendering: ``262144``, ``1/8``, ``2**(1/3) (about 1.25992105)``."""
    if value.is_Integer:
        return describe_integer(int(value))
    if value.is_Rational:
        return f"{describe_integer(int(value.p))}/{describe_integer(int(value.q))}"
    try:
        text = sympy.sstr(value)
    except ValueError:
        return f"about {sympy.N(value, 10)}"
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} (about {sympy.N(value, 10)})"
