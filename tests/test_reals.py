"""Irrational explorer values: enclosed rigorously, then correctly rounded."""

from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pytest

from pizarra.source.explorers.expr import ExprError, parse_expr
from pizarra.source.explorers.reals import enclose, rounded, rounded_growth, sign

N = frozenset({"n"})


def oracle(name: str, x: Fraction, decimals: int) -> Fraction:
    """Python's decimal module: ln and log10 are correctly rounded at 80 digits."""
    with localcontext() as ctx:
        ctx.prec = 80
        value = Decimal(x.numerator) / Decimal(x.denominator)
        if name in ("ln", "log"):
            result = value.ln()
        elif name == "log10":
            result = value.log10()
        else:
            result = value.ln() / Decimal(2).ln()
        step = Decimal(1).scaleb(-decimals)
        return Fraction(result.quantize(step, rounding=ROUND_HALF_UP))


def value_of(text: str, n: Fraction, decimals: int) -> Fraction:
    return rounded(parse_expr(text, N), {"n": n}, decimals)


ARGUMENTS = [Fraction(k) for k in (2, 3, 5, 7, 10, 1000, 1023, 1025, 50257, 2**40 + 1)] + [
    Fraction(1, 3),
    Fraction(22, 7),
    Fraction(10**30 + 7, 10**29),
]


@pytest.mark.parametrize("name", ["log2", "ln", "log", "log10"])
@pytest.mark.parametrize("decimals", [0, 2, 6, 15])
def test_logarithms_are_correctly_rounded(name: str, decimals: int) -> None:
    for x in ARGUMENTS:
        assert value_of(f"{name}(n)", x, decimals) == oracle(name, x, decimals), x


def test_random_arguments_agree_with_the_oracle() -> None:
    rng = random.Random(8)
    for _ in range(300):
        x = Fraction(rng.randint(1, 10**12), rng.randint(1, 10**6))
        name = rng.choice(["log2", "ln", "log10"])
        decimals = rng.randint(0, 12)
        assert value_of(f"{name}(n)", x, decimals) == oracle(name, x, decimals), (name, x)


def test_the_enclosure_contains_the_true_value_and_is_narrow() -> None:
    for x in ARGUMENTS:
        box = enclose(parse_expr("ln(n)", N), {"n": x}, 64)
        truth = oracle("ln", x, 40)
        assert box.lo <= truth <= box.hi
        assert box.hi - box.lo < Fraction(1, 2**56)


def test_rational_results_stay_exact() -> None:
    assert value_of("log2(n)", Fraction(1024), 2) == 10
    assert value_of("ln(n)/ln(n)", Fraction(3), 2) == 1
    assert value_of("n/3", Fraction(1), 2) == Fraction(1, 3)
    assert value_of("log2(n)-ln(n)/ln(2)", Fraction(3), 6) == 0


def test_a_value_on_a_rounding_boundary_is_still_decided() -> None:
    # ln(8)/ln(2) is exactly 3; as intervals it straddles 3 and rounds the same either side.
    assert value_of("ln(n^3)/ln(n)", Fraction(2), 0) == 3
    assert value_of("log10(n)/2+ln(n)-ln(n)", Fraction(10), 1) == Fraction(1, 2)


def test_growth_ratio_is_correctly_rounded() -> None:
    expr = parse_expr("ln(n)", N)
    growth = rounded_growth(expr, {"n": Fraction(3)}, {"n": Fraction(2)}, 6)
    assert growth == oracle("log2", Fraction(3), 6)


def test_sign_and_undefined_values() -> None:
    assert sign(parse_expr("ln(n)", N), {"n": Fraction(1, 2)}) == -1
    assert sign(parse_expr("log2(n)-1", N), {"n": Fraction(2)}) == 0
    with pytest.raises(ExprError, match="ln of 0 is not defined"):
        value_of("ln(n-1)", Fraction(1), 2)
    with pytest.raises(ExprError, match="division by zero"):
        value_of("1/log2(n)", Fraction(1), 2)


def test_work_is_bounded() -> None:
    with pytest.raises(ExprError, match="too large"):
        value_of("ln(((n^64)^64)^64)", Fraction(2**40), 2)
