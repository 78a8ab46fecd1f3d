"""Exact real arithmetic: real roots, undefined values, signs, bounds."""

from __future__ import annotations

import pytest
import sympy

from pizarra.math.exact.real import (
    NotReal,
    OutOfBounds,
    describe,
    holds,
    real_power,
    sign,
)

R = sympy.Rational


@pytest.mark.parametrize(
    ("base", "exponent", "value"),
    [
        (-8, R(1, 3), -2),
        (-27, R(2, 3), 9),
        (-32, R(-3, 5), R(-1, 8)),
        (64, R(-2, 3), R(1, 16)),
        (0, R(5), 0),
        (R(1, 2), R(-3), 8),
    ],
)
def test_real_power_takes_real_roots(base: int, exponent: sympy.Expr, value: object) -> None:
    assert real_power(sympy.sympify(base), exponent) == value


def test_real_power_of_irrational_base() -> None:
    assert real_power(sympy.sqrt(2), R(4)) == 4
    assert real_power(-sympy.sqrt(2), R(1, 3)) == -(2 ** R(1, 6))


@pytest.mark.parametrize(
    ("base", "exponent", "reason"),
    [(-9, R(1, 2), "even root"), (-16, R(3, 4), "even root"), (0, R(-3), "divides by zero")],
)
def test_real_power_without_real_value(base: int, exponent: sympy.Expr, reason: str) -> None:
    with pytest.raises(NotReal, match=reason):
        real_power(sympy.Integer(base), exponent)


@pytest.mark.parametrize(
    ("base", "exponent"),
    [(2, R(265536)), (9999, R(99999)), (2, R(1, 1000)), (sympy.sqrt(2) + 1, R(100))],
)
def test_real_power_refuses_work_beyond_the_bounds(base: object, exponent: sympy.Expr) -> None:
    with pytest.raises(OutOfBounds):
        real_power(sympy.sympify(base), exponent)


def test_sign_is_exact_for_nearly_equal_numbers() -> None:
    close = sympy.sqrt(2) - R(14142135623730950488, 10**19)
    assert sign(close) == 1
    hidden_zero = sympy.sqrt(5 + 2 * sympy.sqrt(6)) - sympy.sqrt(2) - sympy.sqrt(3)
    assert sign(hidden_zero) == 0
    assert sign(R(-1, 3)) == -1


def test_relations() -> None:
    assert holds("=", R(1, 2), R(2, 4))
    assert holds("\\ne", R(25), R(13))
    assert holds("<", sympy.sqrt(2), R(3, 2))
    assert not holds(">", sympy.sqrt(2), R(3, 2))
    assert holds("\\le", R(2), R(2)) and holds("\\ge", R(2), R(2))


def test_approx_allows_half_a_unit_of_the_written_digit() -> None:
    assert holds("\\approx", R(1000), R(1005), R(10))
    assert not holds("\\approx", R(1000), R(1006), R(10))
    assert holds("\\approx", sympy.sqrt(2), R(1414, 1000), R(1, 1000))
    assert not holds("\\approx", sympy.sqrt(2), R(1415, 1000), R(1, 1000))
    assert holds("\\approx", R(0), R(0), R(1))
    with pytest.raises(OutOfBounds):
        holds("\\approx", R(1), R(1))


def test_compound_interest_powers_are_within_the_bounds() -> None:
    assert real_power(R(21, 20), R(5000)) == R(21, 20) ** 5000


def test_describe() -> None:
    assert describe(sympy.Integer(262144)) == "262144"
    assert describe(R(-1, 8)) == "-1/8"
    assert describe(2 ** R(1, 3)).startswith("2**(1/3) (about 1.25992")
    assert describe(sympy.Integer(10) ** 50).endswith("(51 digits)")
