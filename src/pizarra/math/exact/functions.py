"""The built-in functions of claims: logs, exp, binomials, factorials, floor, max...

Each works on closed exact values (sympy rationals, algebraic and symbolic
constants) and either returns an exact value, raises :class:`NotReal` when the
real numbers give none (``\\log 0``), or raises ``ValueError`` (a short reason)
when the arguments are outside what pizarra decides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import sympy

from pizarra.math.exact.real import MAX_BITS, NotReal, OutOfBounds, sign
from pizarra.math.exact.vocabulary import BUILTINS

__all__ = ["BUILTINS", "call_builtin", "logarithm"]

MAX_FACTORIAL = 3_000
"""Largest n whose n! is computed."""
MAX_BINOMIAL = 20_000
"""Largest n whose binomial coefficients are computed."""
MAX_LOG_DENOMINATOR = 64
"""Largest denominator of a rational logarithm found exactly (``\\log_8 4 = 2/3``)."""


_BASES = {"10": sympy.Integer(10), "2": sympy.Integer(2), "e": sympy.E}


def call_builtin(name: str, args: Sequence[sympy.Expr], log_base: str) -> sympy.Expr:
    """``name(*args)``, exactly; see the module docstring for failures."""
    if name in ("max", "min"):
        best = args[0]
        for arg in args[1:]:
            direction = sign(arg - best)
            if (direction > 0) == (name == "max") and direction != 0:
                best = arg
        return best
    if len(args) != (2 if name == "binom" else 1) and name != "log":
        raise ValueError(f"{name} takes a different number of arguments")
    match name:
        case "log":
            base = args[1] if len(args) > 1 else _BASES[log_base]
            return logarithm(args[0], base)
        case "ln":
            return logarithm(args[0], sympy.E)
        case "lg":
            raise ValueError("\\lg has no agreed base: write \\log_2 or \\log_{10}")
        case "exp":
            return sympy.exp(args[0])
        case "binom":
            return _binomial(args[0], args[1])
        case "factorial":
            return _factorial(args[0])
        case "floor" | "ceil":
            return _round(args[0], name)
        case "percent":
            return args[0] / 100
    raise ValueError(f"unknown function {name}")


def logarithm(value: sympy.Expr, base: sympy.Expr) -> sympy.Expr:
    """``log_base value`` in the reals: a rational when there is one, else symbolic."""
    if sign(value) <= 0:
        raise NotReal("the logarithm of a number that is not positive is not defined in the reals")
    if sign(base) <= 0 or sign(base - 1) == 0:
        raise NotReal("a logarithm's base must be positive and not 1")
    if value.is_Rational and base.is_Rational:
        exact = _rational_log(_fraction(value), _fraction(base))
        if exact is not None:
            return sympy.Rational(exact.numerator, exact.denominator)
    if base is sympy.E:
        return sympy.log(value)
    return sympy.log(value) / sympy.log(base)


def _rational_log(value: Fraction, base: Fraction) -> Fraction | None:
    """The rational p/q with base^p = value^q (q <= 64), if there is one."""
    if value == 1:
        return Fraction(0)
    estimate = _ln(value) / _ln(base)
    candidate = Fraction(estimate).limit_denominator(MAX_LOG_DENOMINATOR)
    p, q = candidate.numerator, candidate.denominator
    if _bits(value) * q > MAX_BITS or _bits(base) * abs(p) > MAX_BITS:
        return None
    return candidate if base**p == value**q else None


def _fraction(value: sympy.Expr) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def _bits(value: Fraction) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def _ln(value: Fraction) -> float:
    return math.log(value.numerator) - math.log(value.denominator)


def _integer(value: sympy.Expr, what: str) -> int:
    if not value.is_Integer:
        raise ValueError(f"{what} of a number that is not whole")
    return int(value)


def _binomial(n_value: sympy.Expr, k_value: sympy.Expr) -> sympy.Expr:
    n, k = _integer(n_value, "a binomial coefficient"), _integer(k_value, "a binomial coefficient")
    if n < 0 or k < 0:
        raise ValueError("a binomial coefficient with a negative argument")
    if n > MAX_BINOMIAL:
        raise OutOfBounds(f"a binomial coefficient above n = {MAX_BINOMIAL}")
    return sympy.Integer(math.comb(n, k))


def _factorial(value: sympy.Expr) -> sympy.Expr:
    n = _integer(value, "a factorial")
    if n < 0:
        raise NotReal("the factorial of a negative number is not defined")
    if n > MAX_FACTORIAL:
        raise OutOfBounds(f"a factorial above {MAX_FACTORIAL}!")
    return sympy.Integer(math.factorial(n))


def _round(value: sympy.Expr, name: str) -> sympy.Expr:
    """Floor or ceiling, proved: the guess ``n`` must satisfy n <= value < n + 1."""
    if value.is_Rational:
        floor = int(value.p) // int(value.q)
    else:
        try:
            floor = math.floor(float(sympy.N(value, 30)))
        except (OverflowError, ValueError) as error:
            raise OutOfBounds("a floor or ceiling of a huge number") from error
        while sign(value - floor) < 0:
            floor -= 1
        while sign(value - (floor + 1)) >= 0:
            floor += 1
    if name == "floor" or sign(value - floor) == 0:
        return sympy.Integer(floor)
    return sympy.Integer(floor + 1)
