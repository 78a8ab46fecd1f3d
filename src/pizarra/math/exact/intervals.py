"""Proven bounds on real values: interval arithmetic with outward rounding.

A comparison that involves a transcendental number (``\\pi < \\frac{22}{7}``,
``e^{3} > 20``) is decided by enclosing the difference in an interval that
provably contains it (mpmath's interval context rounds every bound outward) and
raising the precision until the interval excludes zero. Equality of two
transcendental numbers is never decided this way: an interval around zero
proves nothing, so the caller reports it as unchecked.
"""

from __future__ import annotations

from typing import Any

import sympy
from mpmath import iv

PRECISIONS = (64, 160, 400, 1200)
"""Working precisions (bits) tried in turn before giving up on a sign."""


class _NoEnclosure(Exception):
    """The expression holds something intervals are not computed for."""


def interval_sign(value: sympy.Expr, precisions: tuple[int, ...] = PRECISIONS) -> int | None:
    """-1 or 1 when proven bounds exclude zero; None when they do not (or cannot be had)."""
    saved = iv.prec
    try:
        for bits in precisions:
            iv.prec = bits
            enclosure = _enclose(value)
            if enclosure.a > 0:
                return 1
            if enclosure.b < 0:
                return -1
    except (_NoEnclosure, ValueError, ZeroDivisionError, OverflowError):
        return None
    finally:
        iv.prec = saved
    return None


def _enclose(expr: sympy.Expr) -> Any:
    if expr.is_Rational:
        return iv.mpf(int(expr.p)) / iv.mpf(int(expr.q))
    if expr is sympy.pi:
        return iv.pi
    if expr is sympy.E:
        return iv.e
    if expr.is_Add:
        total = iv.mpf(0)
        for arg in expr.args:
            total += _enclose(arg)
        return total
    if expr.is_Mul:
        product = iv.mpf(1)
        for arg in expr.args:
            product *= _enclose(arg)
        return product
    if isinstance(expr, sympy.exp):
        return iv.exp(_enclose(expr.args[0]))
    if isinstance(expr, sympy.log):
        inner = _enclose(expr.args[0])
        if not inner.a > 0:
            raise _NoEnclosure
        return iv.log(inner)
    if isinstance(expr, sympy.Abs):
        return abs(_enclose(expr.args[0]))
    if isinstance(expr, sympy.erf):
        return _erf(_enclose(expr.args[0]))
    if expr.is_Pow:
        return _power(expr)
    raise _NoEnclosure


MAX_ERF_ARGUMENT = 8
"""Largest |x| whose erf is enclosed (its series needs about 3 x^2 terms)."""


def _erf(x: Any) -> Any:
    """An enclosure of erf over the interval ``x``, from its Taylor series

    erf x = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1)),

    cut where the terms decrease in size for every x of the interval (from n + 1 > x^2
    on), so the rest is at most the first term left out, in size (an alternating series):
    the partial sum plus or minus that term holds erf x for every x in ``x``."""
    bound = abs(x).b
    if not bound <= MAX_ERF_ARGUMENT:
        raise _NoEnclosure
    decreasing = int(float(bound.b) ** 2) + 1
    total = iv.mpf(0)
    term = x  # x^(2n+1) / n!
    n = 0
    while True:
        total += term / (2 * n + 1) * (1 if n % 2 == 0 else -1)
        term = term * x * x / (n + 1)
        n += 1
        if n > decreasing:
            rest = bound ** (2 * n + 1) / (iv.factorial(n) * (2 * n + 1))
            if rest.b < iv.mpf(2) ** (-iv.prec - 4) or n > 4 * iv.prec:
                break
    rest = abs(rest).b
    return 2 / iv.sqrt(iv.pi) * (total + iv.mpf([-rest, rest]))


def _power(expr: sympy.Expr) -> Any:
    base, exponent = expr.args
    if exponent.is_Integer:
        enclosure = _enclose(base)
        if int(exponent) < 0 and enclosure.a <= 0 <= enclosure.b:
            raise _NoEnclosure
        return enclosure ** int(exponent)
    inner = _enclose(base)
    if not inner.a > 0:
        raise _NoEnclosure
    return iv.exp(iv.log(inner) * _enclose(exponent))
