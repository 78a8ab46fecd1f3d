"""Real-number decisions at their edges: tiny signs, hidden zeros, every bound."""

from __future__ import annotations

import math

import pytest
import sympy

from pizarra.math.exact import real
from pizarra.math.exact.real import (
    MAX_BITS,
    MAX_DEGREE,
    MAX_DENEST_OPS,
    MAX_EXPONENT,
    MAX_IRRATIONAL_EXPONENT,
    MAX_RADICALS,
    MAX_ROOT_INDEX,
    MAX_TERMS,
    NotReal,
    OutOfBounds,
    absolute,
    bounded,
    degree_bound,
    expanded_terms,
    holds,
    real_power,
    sign,
)

R = sympy.Rational
HIDDEN = sympy.sqrt(3 + 2 * sympy.sqrt(2)) - 1 - sympy.sqrt(2)
"""Zero, though neither expansion nor sympy's automatic simplification shows it."""
EVEN_ROOT = "an even root of a negative number is not real"
ZERO_DIVIDES = "0 to a negative power divides by zero"
LONG = sum((1 + sympy.sqrt(2)) ** k for k in range(2, 12))
"""A long factor: too many operations to denest, so only the minimal polynomial is left."""


def below_sqrt2(digits: int) -> sympy.Expr:
    """sqrt(2) cut to ``digits`` decimals (a hair below it)."""
    return R(math.isqrt(2 * 10 ** (2 * digits)), 10**digits)


@pytest.mark.parametrize("digits", [19, 25, 44, 60, 500, 1000])
def test_sign_of_a_tiny_positive_difference(digits: int) -> None:
    assert sign(sympy.sqrt(2) - below_sqrt2(digits)) == 1
    assert sign(below_sqrt2(digits) - sympy.sqrt(2)) == -1


@pytest.mark.parametrize("digits", [19, 25, 44, 60, 500, 1000])
def test_sign_of_a_tiny_negative_difference(digits: int) -> None:
    above = below_sqrt2(digits) + R(1, 10**digits)
    assert sign(sympy.sqrt(2) - above) == -1
    assert sign(above - sympy.sqrt(2)) == 1


def test_a_sign_too_close_to_zero_is_not_decided() -> None:
    with pytest.raises(OutOfBounds, match=r"^could not decide the sign of a difference$"):
        sign(sympy.sqrt(2) - below_sqrt2(5000))


def test_sign_of_rationals_and_far_values() -> None:
    assert [sign(R(-1, 3)), sign(R(0)), sign(R(1, 10**40))] == [-1, 0, 1]
    assert sign(sympy.sqrt(2) - 1) == 1
    assert sign(1 - sympy.sqrt(2)) == -1
    assert sign(sympy.sqrt(2) - R(1, 10**25) - sympy.sqrt(2) + R(1, 10**25)) == 0


def test_a_zero_shown_only_by_the_minimal_polynomial(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[sympy.Expr] = []
    minimal = sympy.minimal_polynomial

    def spy(value: sympy.Expr, symbol: sympy.Symbol) -> sympy.Expr:
        calls.append(value)
        return minimal(value, symbol)

    monkeypatch.setattr(real.sympy, "minimal_polynomial", spy)
    value = HIDDEN * LONG
    assert sympy.expand(value) != 0
    assert sign(value) == 0
    assert calls, "the zero was decided before the minimal polynomial"


@pytest.mark.parametrize(
    "hair",
    [R(1, 10**30), -R(1, 10**30), R(1, 10**70), -R(1, 10**70), R(1, 10**900), -R(1, 10**900)],
)
def test_a_hair_from_a_hidden_zero_keeps_its_sign(hair: sympy.Expr) -> None:
    assert sign(HIDDEN * LONG + hair) == (1 if hair > 0 else -1)
    assert sign(HIDDEN + hair) == (1 if hair > 0 else -1)


def test_simple_hidden_zeros() -> None:
    assert sign(HIDDEN) == 0
    assert sign(sympy.sqrt(5 + 2 * sympy.sqrt(6)) - sympy.sqrt(2) - sympy.sqrt(3)) == 0


def test_a_zero_of_too_high_degree_is_not_decided() -> None:
    cube = sympy.Pow(2, R(1, 3), evaluate=False)
    value = HIDDEN * LONG * cube
    assert degree_bound(value) > MAX_DEGREE
    with pytest.raises(OutOfBounds, match="too complex"):
        sign(value)


def test_degree_bound_multiplies_root_indices() -> None:
    assert degree_bound(R(5)) == 1
    assert degree_bound(sympy.sqrt(2) + sympy.cbrt(3)) == 6
    assert degree_bound(sympy.sqrt(2) ** 3) == 2


def test_expanded_terms_estimate() -> None:
    x, y = sympy.symbols("x y")
    assert expanded_terms(x) == 1
    assert expanded_terms(x + y + 1) == 3
    assert expanded_terms((x + y) * (x + 1 + y)) == 6
    assert expanded_terms((x + y) ** 3) == 4
    assert expanded_terms((x + y) ** 100) == 101
    assert expanded_terms((x + y + 1) ** 100) == MAX_TERMS + 1
    assert expanded_terms((x + y + 1) ** 40 * (x + 1) ** 40) == MAX_TERMS + 1
    assert expanded_terms(sympy.Add(*sympy.symbols("a0:3000"))) == MAX_TERMS + 1


@pytest.mark.parametrize(
    ("relation", "below", "equal", "above"),
    [
        pytest.param("=", False, True, False, id="eq"),
        pytest.param("\\ne", True, False, True, id="ne"),
        pytest.param("<", True, False, False, id="lt"),
        pytest.param("\\le", True, True, False, id="le"),
        pytest.param(">", False, False, True, id="gt"),
        pytest.param("\\ge", False, True, True, id="ge"),
    ],
)
def test_holds_for_every_relation_and_direction(
    relation: str, below: bool, equal: bool, above: bool
) -> None:
    root2 = sympy.sqrt(2)
    assert holds(relation, root2, below_sqrt2(30) + R(1, 10**30)) is below
    assert holds(relation, root2, root2) is equal
    assert holds(relation, root2, below_sqrt2(30)) is above
    assert holds(relation, R(1), R(2)) is below
    assert holds(relation, R(2), R(2)) is equal
    assert holds(relation, R(3), R(2)) is above


def test_absolute() -> None:
    assert absolute(R(-3)) == 3
    assert absolute(R(3)) == 3
    assert absolute(1 - sympy.sqrt(2)) == sympy.sqrt(2) - 1


# -- bounds: at, below and above each limit ------------------------------------------


def test_max_exponent_for_a_rational_base() -> None:
    one = sympy.Integer(1)
    q = MAX_ROOT_INDEX
    assert real_power(one, R(MAX_EXPONENT - 1, q)) == 1
    assert real_power(one, R(MAX_EXPONENT, q)) == 1
    with pytest.raises(OutOfBounds, match="an exponent above"):
        real_power(one, R(MAX_EXPONENT + 1, q))
    with pytest.raises(OutOfBounds, match="an exponent above"):
        real_power(one, R(-MAX_EXPONENT - 1, q))


def test_max_exponent_for_an_irrational_base() -> None:
    root2 = sympy.sqrt(2)
    top = MAX_IRRATIONAL_EXPONENT
    assert real_power(root2, R(top - 1)) == root2 ** (top - 1)
    assert real_power(root2, R(top)) == 2 ** (top // 2)
    assert real_power(root2, R(-top)) == R(1, 2 ** (top // 2))
    with pytest.raises(OutOfBounds, match="an exponent above"):
        real_power(root2, R(top + 1))
    with pytest.raises(OutOfBounds, match="an exponent above"):
        real_power(root2, R(-top - 1))


def test_max_root_index() -> None:
    two = sympy.Integer(2)
    assert real_power(two ** (MAX_ROOT_INDEX - 1), R(1, MAX_ROOT_INDEX - 1)) == 2
    assert real_power(two**MAX_ROOT_INDEX, R(1, MAX_ROOT_INDEX)) == 2
    with pytest.raises(OutOfBounds, match="root of index"):
        real_power(two, R(1, MAX_ROOT_INDEX + 1))


def test_max_bits_of_a_power() -> None:
    two = sympy.Integer(2)
    bits = 3  # numerator 2 and denominator 1
    largest = MAX_BITS // bits
    assert real_power(two, R(largest)) == two**largest
    with pytest.raises(OutOfBounds, match="too many digits"):
        real_power(two, R(largest + 1))


def test_max_bits_of_a_power_at_equality() -> None:
    """4 is 4 bits (3 and 1): 4^(MAX_BITS/4) is exactly at the bound and is computed."""
    four = sympy.Integer(4)
    at = MAX_BITS // 4
    assert at * 4 == MAX_BITS
    assert real_power(four, R(at)) == 2 ** (2 * at)
    with pytest.raises(OutOfBounds, match=r"^a power with too many digits$"):
        real_power(four, R(at + 1))


def test_max_bits_of_any_rational() -> None:
    at = sympy.Integer(2) ** (MAX_BITS - 2)
    assert bounded(at) == at
    assert bounded(1 / at) == 1 / at
    with pytest.raises(OutOfBounds, match=r"^a number with too many digits$"):
        bounded(1 / (at * 2))
    with pytest.raises(OutOfBounds, match="too many digits"):
        bounded(at * 2)
    with pytest.raises(OutOfBounds, match="too many digits"):
        bounded(sympy.sqrt(2) + at * 2)


def test_max_radicals() -> None:
    primes = list(sympy.primerange(2, 100))
    at = sympy.Add(*[sympy.sqrt(p) for p in primes[:MAX_RADICALS]])
    assert bounded(at) == at
    below = sympy.Add(*[sympy.sqrt(p) for p in primes[: MAX_RADICALS - 1]])
    assert bounded(below) == below
    with pytest.raises(OutOfBounds, match=r"^too many radicals to compare exactly$"):
        bounded(at + sympy.sqrt(primes[MAX_RADICALS]))


# -- real roots ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "exponent", "value"),
    [
        pytest.param(-8, R(1, 3), -2, id="odd-root-of-negative"),
        pytest.param(-8, R(2, 3), 4, id="even-power-of-odd-root"),
        pytest.param(-8, R(-1, 3), R(-1, 2), id="negative-odd-root"),
        pytest.param(-2, R(3), -8, id="odd-power"),
        pytest.param(-2, R(2), 4, id="even-power"),
        pytest.param(0, R(1, 2), 0, id="root-of-zero"),
        pytest.param(R(1, 4), R(1, 2), R(1, 2), id="root-of-fraction"),
    ],
)
def test_real_power_values(base: object, exponent: sympy.Expr, value: object) -> None:
    assert real_power(sympy.sympify(base), exponent) == value


@pytest.mark.parametrize(
    ("base", "exponent", "reason"),
    [
        pytest.param(-4, R(1, 2), EVEN_ROOT, id="even-root"),
        pytest.param(-4, R(3, 2), EVEN_ROOT, id="even-root-power"),
        pytest.param(0, R(-1, 2), ZERO_DIVIDES, id="zero-negative-root"),
        pytest.param(0, R(-1), ZERO_DIVIDES, id="zero-to-minus-one"),
    ],
)
def test_real_power_without_value(base: int, exponent: sympy.Expr, reason: str) -> None:
    """The reason is shown in the failure's hint, so it is read whole."""
    with pytest.raises(NotReal) as raised:
        real_power(sympy.Integer(base), exponent)
    assert raised.value.reason == reason


def test_real_power_refuses_zero_to_the_zero() -> None:
    """0^0 has the value of the lesson's convention; real_power never makes one up."""
    with pytest.raises(ValueError, match=r"^0\^0 has the value of the lesson's convention$"):
        real_power(sympy.Integer(0), sympy.Integer(0))
    with pytest.raises(ValueError, match=r"^0\^0 has the value of the lesson's convention$"):
        real_power(HIDDEN, sympy.Integer(0))
    assert real_power(sympy.Integer(0), R(1, 3)) == 0


def test_real_power_of_a_negative_irrational_base() -> None:
    assert real_power(-sympy.sqrt(2), R(2)) == 2
    assert real_power(-sympy.sqrt(2), R(3)) == -2 * sympy.sqrt(2)
    with pytest.raises(NotReal):
        real_power(-sympy.sqrt(2), R(1, 2))


def test_transcendental_zeros() -> None:
    assert sign(sympy.log(8) - 3 * sympy.log(2)) == 0
    assert sign(sympy.log(8) - 3 * sympy.log(2) + R(1, 10**30)) == 1
    assert sign(sympy.log(8) - 3 * sympy.log(2) - R(1, 10**30)) == -1


def test_a_transcendental_number_too_close_to_a_rational_is_not_decided() -> None:
    pi_cut = R(int(str(sympy.pi.evalf(2010)).replace(".", "")[:2001]), 10**2000)
    with pytest.raises(OutOfBounds, match="transcendental"):
        sign(sympy.pi - pi_cut)
    with pytest.raises(OutOfBounds, match="not a finite real number"):
        sign(sympy.oo - 1)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(sympy.oo, id="infinity"),
        pytest.param(-sympy.oo, id="minus-infinity"),
        pytest.param(sympy.zoo, id="complex-infinity"),
        pytest.param(sympy.nan, id="nan"),
        pytest.param(sympy.I, id="imaginary"),
        pytest.param(sympy.sqrt(2) + sympy.I, id="complex"),
        pytest.param(sympy.pi - sympy.oo * sympy.I, id="imaginary-infinity"),
    ],
)
def test_sign_refuses_what_is_not_a_finite_real(value: sympy.Expr) -> None:
    """Each kind of non-finite or non-real value is refused, and the reason is read whole."""
    with pytest.raises(OutOfBounds, match=r"^not a finite real number$"):
        sign(value)


def test_describe_shortens_past_sixty_characters() -> None:
    """A failure shows the exact value, cut at 60 characters, and ten digits of it."""
    radicals = 2 * sympy.sqrt(2) + 7 * sympy.sqrt(3) + 11 * sympy.sqrt(5) + 13 * sympy.sqrt(7)
    sixty = radicals + 7 * sympy.sqrt(11)
    assert real.describe(sixty) == (
        "2*sqrt(2) + 7*sqrt(3) + 7*sqrt(11) + 11*sqrt(5) + 13*sqrt(7) (about 97.16067111)"
    )
    sixty_one = radicals + 17 * sympy.sqrt(11)
    assert real.describe(sixty_one) == (
        "2*sqrt(2) + 7*sqrt(3) + 11*sqrt(5) + 13*sqrt(7) + 17*sqrt... (about 130.3269190)"
    )


def test_describe_a_value_too_long_to_print() -> None:
    """Past sympy's limit on printed digits, only ten digits of the value are shown."""
    assert real.describe(sympy.Integer(10) ** 5000 * sympy.sqrt(2)) == "about 1.414213562E+5000"


# -- each exact zero test of sign, at its bound and never mistaken -----------------------


def decided(value: sympy.Expr) -> int | None:
    """sign(value), or None when it is left undecided."""
    try:
        return sign(value)
    except OutOfBounds:
        return None


def test_the_expansion_zero_test_at_its_term_bound() -> None:
    """Expanded at MAX_TERMS estimated terms (three square roots: nothing later proves it)."""
    four = (1 + sympy.sqrt(2) + sympy.sqrt(3) + sympy.sqrt(5)) ** 20
    two = (1 + sympy.sqrt(2)) ** 220
    at = four - sympy.expand(four) + two - sympy.expand(two)
    assert expanded_terms(at) == MAX_TERMS
    assert sign(at) == 0
    three = (1 + sympy.sqrt(2)) ** 221
    above = four - sympy.expand(four) + three - sympy.expand(three)
    assert expanded_terms(above) == MAX_TERMS + 1
    with pytest.raises(OutOfBounds, match=r"^too complex to decide whether a difference is zero$"):
        sign(above)


LOG_ZERO = sympy.log((1 + sympy.sqrt(2)) ** 2) - 2 * sympy.log(1 + sympy.sqrt(2))
"""Zero, though intervals cannot show it (an enclosure of it holds 0)."""


def test_a_value_that_expands_to_one_is_not_zero() -> None:
    """1 + |z|^(2/3) for a zero z: intervals cannot enclose it; expanded, it is 1, not 0."""
    one = 1 + sympy.Pow(LOG_ZERO**2, R(1, 3))
    assert sympy.expand(one) == 1
    assert sympy.expand_log(one, force=True) == 1
    assert decided(one) in (1, None)


def test_a_log_zero_shown_only_by_expanding_logs_with_force() -> None:
    """ln(u^2) - 2 ln(u) for u = sqrt2 - r, a hair above 0: sympy cannot tell that u > 0,
    so only ``expand_log(..., force=True)`` shows the zero."""
    u = sympy.sqrt(2) - below_sqrt2(200)
    zero = sympy.log(u**2) - 2 * sympy.log(u)
    assert u.is_positive is None
    assert sympy.expand(zero) != 0
    assert sign(zero) == 0
    assert decided(zero + R(1, 10**5000)) in (1, None)


def test_a_log_value_a_hair_from_zero_is_not_decided() -> None:
    """ln 6 - ln 2 - ln 3 + 10^-5000: past every precision, and expanding logs does not
    show a zero, so it stays undecided (never 0)."""
    value = sympy.log(6) - sympy.log(2) - sympy.log(3) + R(1, 10**5000)
    with pytest.raises(OutOfBounds, match=r"^equality of transcendental numbers is not decided$"):
        sign(value)


@pytest.mark.parametrize(
    "constant",
    [
        pytest.param(sympy.E, id="e"),
        pytest.param(sympy.exp(2), id="exp"),
        pytest.param(sympy.pi, id="pi"),
        pytest.param(sympy.log(3), id="log"),
    ],
)
def test_a_transcendental_a_hair_from_a_rational_is_not_decided(constant: sympy.Expr) -> None:
    digits = 4000  # past the 12,000 bits of the last interval try
    cut = R(int(sympy.N(constant, digits + 20) * 10**digits), 10**digits)
    assert real.interval_sign(constant - cut, (12_000,)) is None
    with pytest.raises(OutOfBounds, match=r"^equality of transcendental numbers is not decided$"):
        sign(constant - cut)


def test_the_denesting_zero_test_at_its_size_bound() -> None:
    """A zero shown by denesting, with too many radicals for the minimal polynomial."""
    denests = sympy.sqrt(5 + 2 * sympy.sqrt(6)) - sympy.sqrt(2) - sympy.sqrt(3)
    radicals = sum(sympy.sqrt(p) for p in sympy.primerange(7, 40))
    at = denests * (1 + radicals)
    assert sympy.count_ops(at) == MAX_DENEST_OPS
    assert degree_bound(at) > MAX_DEGREE
    assert sign(at) == 0
    above = denests * (R(1, 2) + radicals)
    assert sympy.count_ops(above) == MAX_DENEST_OPS + 1
    with pytest.raises(OutOfBounds, match=r"^too complex to decide whether a difference is zero$"):
        sign(above)


def test_a_zero_of_degree_at_the_bound_is_decided() -> None:
    """cbrt(7 + 5 sqrt2) = 1 + sqrt2: degree bound 3 * 2 = MAX_DEGREE, shown by the
    minimal polynomial only (no expansion or square-root denesting shows it)."""
    zero = sympy.Pow(7 + 5 * sympy.sqrt(2), R(1, 3)) - 1 - sympy.sqrt(2)
    assert degree_bound(zero) == MAX_DEGREE
    assert sympy.expand(sympy.sqrtdenest(zero)) != 0
    assert sign(zero) == 0
    assert sign(zero + R(1, 10**900)) == 1


def test_a_value_without_a_minimal_polynomial_is_not_decided() -> None:
    """|z| L + z L for a hidden zero z: sympy finds no minimal polynomial of an ``Abs``."""
    value = sympy.Abs(HIDDEN, evaluate=False) * LONG + HIDDEN * LONG
    with pytest.raises(OutOfBounds, match=r"^could not decide whether a difference is zero$"):
        sign(value)


@pytest.mark.parametrize(
    "error",
    [
        pytest.param(NotImplementedError, id="not-implemented"),
        pytest.param(ValueError, id="value-error"),
        pytest.param(sympy.polys.polyerrors.PolynomialError, id="polynomial-error"),
        pytest.param(sympy.polys.polyerrors.NotAlgebraic, id="not-algebraic"),
    ],
)
def test_a_failing_minimal_polynomial_leaves_the_sign_undecided(
    monkeypatch: pytest.MonkeyPatch, error: type[Exception]
) -> None:
    def failing(value: sympy.Expr, symbol: sympy.Symbol) -> sympy.Expr:
        raise error("no minimal polynomial")

    monkeypatch.setattr(real.sympy, "minimal_polynomial", failing)
    with pytest.raises(OutOfBounds, match=r"^could not decide whether a difference is zero$"):
        sign(HIDDEN * LONG)


def test_the_last_interval_try_at_its_precision() -> None:
    """After every exact test, intervals are tried up to 12,000 bits: a difference of
    2^-11997 is decided there, one of 2^-11999 is not (12,001 bits would)."""
    cut = 13_000
    hair = R(math.isqrt(2 << (2 * cut)), 1 << cut)  # sqrt2 a hair (< 2^-13000) above it
    assert sign(sympy.sqrt(2) - hair - R(1, 2**11997)) == -1
    with pytest.raises(OutOfBounds, match=r"^could not decide the sign of a difference$"):
        sign(sympy.sqrt(2) - hair - R(1, 2**11999))
