"""Built-in functions, proven interval signs and written precision, at their edges."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from pizarra.check.claims import iter_claims
from pizarra.math.exact.compare import compare, written_unit
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.functions import (
    MAX_BINOMIAL,
    MAX_FACTORIAL,
    MAX_LOG_DENOMINATOR,
    call_builtin,
    logarithm,
)
from pizarra.math.exact.intervals import interval_sign
from pizarra.math.exact.lexer import lex
from pizarra.math.exact.parser import parse_side
from pizarra.math.exact.real import MAX_BITS, NotReal, OutOfBounds
from pizarra.math.exact.status import Status

R = sympy.Rational
PI_DIGITS = "314159265358979323846264338327950288419716939937510582097494459230781640628620899"


def below_pi(digits: int) -> sympy.Expr:
    return R(int(PI_DIGITS[: digits + 1]), 10**digits)


# -- interval signs ----------------------------------------------------------------------


@pytest.mark.parametrize("digits", [5, 18, 40, 75])
def test_interval_sign_a_hair_from_pi(digits: int) -> None:
    assert interval_sign(sympy.pi - below_pi(digits)) == 1
    assert interval_sign(below_pi(digits) - sympy.pi) == -1
    above = below_pi(digits) + R(1, 10**digits)
    assert interval_sign(sympy.pi - above) == -1
    assert interval_sign(above - sympy.pi) == 1


def test_interval_sign_gives_up_on_a_zero() -> None:
    zero = sympy.Add(sympy.pi, -sympy.pi, evaluate=False)
    assert interval_sign(zero) is None
    assert interval_sign(sympy.log(8) - 3 * sympy.log(2)) is None


def test_interval_sign_gives_up_beyond_its_precisions() -> None:
    tiny = sympy.pi - below_pi(75)
    assert interval_sign(tiny, (64,)) is None
    assert interval_sign(tiny) == 1


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(sympy.E - R(2718, 1000), 1, id="e"),
        pytest.param(sympy.exp(3) - 20, 1, id="exp"),
        pytest.param(sympy.log(2) - R(693, 1000), 1, id="log"),
        pytest.param(R(6931, 10000) - sympy.log(2), -1, id="log-above"),
        pytest.param(sympy.Abs(3 - sympy.pi) - R(1, 7), -1, id="abs"),
        pytest.param(sympy.sqrt(2) - R(14142, 10000), 1, id="sqrt"),
        pytest.param((sympy.pi - 3) ** -2 - 49, 1, id="negative-power"),
        pytest.param(sympy.pi**sympy.E - sympy.E**sympy.pi, -1, id="pi-e"),
    ],
)
def test_interval_sign_of_each_construct(value: sympy.Expr, expected: int) -> None:
    assert interval_sign(value) == expected


def test_interval_sign_refuses_what_it_cannot_enclose() -> None:
    x = sympy.Symbol("x")
    assert interval_sign(x + 1) is None
    assert interval_sign(sympy.log(sympy.Add(sympy.pi, -sympy.pi, evaluate=False))) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(sympy.Abs(sympy.pi - 4, evaluate=False), 1, id="abs-of-negative"),
        pytest.param(sympy.Abs(4 - sympy.pi, evaluate=False), 1, id="abs-of-positive"),
        pytest.param(sympy.Abs(sympy.pi - 4, evaluate=False) - 1, -1, id="abs-minus-one"),
        pytest.param(-sympy.Abs(sympy.E - 3, evaluate=False), -1, id="minus-abs"),
    ],
)
def test_interval_sign_of_an_absolute_value_sympy_kept(value: sympy.Expr, expected: int) -> None:
    """An ``Abs`` sympy leaves unevaluated is enclosed by the absolute value of its argument."""
    assert isinstance(value.atoms(sympy.Abs).pop(), sympy.Abs)
    assert interval_sign(value) == expected


def test_interval_sign_of_the_log_of_a_number_below_one() -> None:
    """log(pi/4) is negative: a log's argument need only be positive, not above 1."""
    assert interval_sign(sympy.log(sympy.pi / 4)) == -1
    assert interval_sign(sympy.log(sympy.pi / 4) + R(1, 4)) == 1


def test_interval_sign_of_a_log_whose_argument_may_be_zero() -> None:
    """An enclosure [0, b] of a log's argument proves nothing: the argument may be 0.

    (log 8 - 3 log 2)^2 is exactly 0, enclosed in [0, tiny]; its log has no value,
    so it must get no sign (an enclosure [-inf, log tiny] would say negative).
    """
    zero = (sympy.log(8) - 3 * sympy.log(2)) ** 2
    assert interval_sign(sympy.log(zero)) is None
    assert interval_sign(sympy.log(zero) + 1) is None


# -- functions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "base", "expected"),
    [
        pytest.param(81, 3, 4, id="log3-81"),
        pytest.param(R(1, 8), 2, -3, id="log2-eighth"),
        pytest.param(4, 8, R(2, 3), id="log8-4"),
        pytest.param(1, 7, 0, id="log-1"),
        pytest.param(R(1, 1000), 10, -3, id="log10-thousandth"),
    ],
)
def test_rational_logarithms_are_exact(value: object, base: int, expected: object) -> None:
    assert logarithm(sympy.sympify(value), sympy.Integer(base)) == expected


def test_an_irrational_logarithm_stays_symbolic() -> None:
    value = logarithm(sympy.Integer(10), sympy.Integer(2))
    assert not value.is_Rational
    assert interval_sign(value - R(332, 100)) == 1
    assert interval_sign(value - R(333, 100)) == -1


def test_largest_denominator_of_an_exact_logarithm() -> None:
    two = sympy.Integer(2)
    q = MAX_LOG_DENOMINATOR
    assert logarithm(two, two**q) == R(1, q)
    assert not logarithm(two, two ** (q + 1)).is_Rational


@pytest.mark.parametrize(
    ("value", "base"),
    [
        pytest.param(0, 2, id="log-of-zero"),
        pytest.param(-1, 2, id="log-of-negative"),
        pytest.param(5, 1, id="base-one"),
        pytest.param(5, 0, id="base-zero"),
        pytest.param(5, -2, id="negative-base"),
    ],
)
def test_logarithm_outside_its_domain(value: int, base: int) -> None:
    with pytest.raises(NotReal):
        logarithm(sympy.Integer(value), sympy.Integer(base))


def test_factorial_bounds() -> None:
    assert call_builtin("factorial", [sympy.Integer(0)], "10") == 1
    assert call_builtin("factorial", [sympy.Integer(5)], "10") == 120
    assert call_builtin("factorial", [sympy.Integer(MAX_FACTORIAL)], "10") > 0
    with pytest.raises(OutOfBounds):
        call_builtin("factorial", [sympy.Integer(MAX_FACTORIAL + 1)], "10")
    with pytest.raises(NotReal):
        call_builtin("factorial", [sympy.Integer(-1)], "10")
    with pytest.raises(ValueError, match="not whole"):
        call_builtin("factorial", [R(1, 2)], "10")


def test_binomial_bounds() -> None:
    n = sympy.Integer(MAX_BINOMIAL)
    assert call_builtin("binom", [sympy.Integer(5), sympy.Integer(2)], "10") == 10
    assert call_builtin("binom", [sympy.Integer(3), sympy.Integer(5)], "10") == 0
    assert call_builtin("binom", [n, sympy.Integer(1)], "10") == MAX_BINOMIAL
    with pytest.raises(OutOfBounds):
        call_builtin("binom", [n + 1, sympy.Integer(1)], "10")
    with pytest.raises(ValueError, match="negative"):
        call_builtin("binom", [sympy.Integer(5), sympy.Integer(-1)], "10")
    with pytest.raises(OutOfBounds, match=f"^a binomial coefficient above n = {MAX_BINOMIAL}$"):
        call_builtin("binom", [n + 1, sympy.Integer(1)], "10")


def test_binomial_of_zero() -> None:
    assert call_builtin("binom", [sympy.Integer(0), sympy.Integer(0)], "10") == 1
    assert call_builtin("binom", [sympy.Integer(0), sympy.Integer(2)], "10") == 0
    with pytest.raises(ValueError, match="negative"):
        call_builtin("binom", [sympy.Integer(-1), sympy.Integer(0)], "10")


@pytest.mark.parametrize(
    "args", [pytest.param((R(5, 2), R(1)), id="n"), pytest.param((R(5), R(1, 2)), id="k")]
)
def test_binomial_of_a_fraction_says_which_function(args: tuple[sympy.Expr, sympy.Expr]) -> None:
    message = "^a binomial coefficient of a number that is not whole$"
    with pytest.raises(ValueError, match=message):
        call_builtin("binom", list(args), "10")


@pytest.mark.parametrize(
    ("value", "floor", "ceil"),
    [
        pytest.param(R(27, 10), 2, 3, id="positive"),
        pytest.param(R(-5, 2), -3, -2, id="negative"),
        pytest.param(R(4), 4, 4, id="integer"),
        pytest.param(sympy.sqrt(2), 1, 2, id="irrational"),
        pytest.param(-sympy.pi, -4, -3, id="negative-pi"),
        pytest.param(sympy.sqrt(2) ** 2 * 2, 4, 4, id="hidden-integer"),
        pytest.param(10**20 + sympy.sqrt(2) - sympy.sqrt(2), 10**20, 10**20, id="huge"),
    ],
)
def test_floor_and_ceiling(value: sympy.Expr, floor: int, ceil: int) -> None:
    assert call_builtin("floor", [value], "10") == floor
    assert call_builtin("ceil", [value], "10") == ceil


def test_floor_a_hair_below_an_integer() -> None:
    value = 3 - (sympy.pi - below_pi(30))
    assert call_builtin("floor", [value], "10") == 2
    assert call_builtin("ceil", [value], "10") == 3
    assert call_builtin("floor", [6 - value], "10") == 3


@pytest.mark.parametrize(
    ("value", "floor"),
    [
        # the float estimate is one too high, then corrected downwards
        pytest.param(-5 - sympy.pi / 10**20, -6, id="below-a-negative-integer"),
        # the float estimate is one too low (floats are 16 apart there)
        pytest.param(10**17 + sympy.sqrt(2), 10**17 + 1, id="above-a-huge-integer"),
        # exactly an integer, though sympy does not show it
        pytest.param(
            10**17 + (sympy.sqrt(2) + 1) * (sympy.sqrt(2) - 1), 10**17 + 1, id="hidden-huge"
        ),
    ],
)
def test_floor_corrects_its_estimate(value: sympy.Expr, floor: int) -> None:
    assert not value.is_Rational
    assert call_builtin("floor", [value], "10") == floor


def test_max_and_min() -> None:
    args = [R(3), -sympy.sqrt(2), sympy.pi]
    assert call_builtin("max", args, "10") == sympy.pi
    assert call_builtin("min", args, "10") == -sympy.sqrt(2)
    assert call_builtin("max", [R(2), R(2)], "10") == 2


def test_default_log_base_and_percent() -> None:
    assert call_builtin("log", [sympy.Integer(1000)], "10") == 3
    assert call_builtin("log", [sympy.Integer(8)], "2") == 3
    assert call_builtin("log", [sympy.E**2], "e") == 2
    assert call_builtin("percent", [sympy.Integer(25)], "10") == R(1, 4)
    with pytest.raises(ValueError, match="agreed base"):
        call_builtin("lg", [sympy.Integer(8)], "10")


# -- comparing, and the precision of an approximation -----------------------------------


def unit_of(tex: str, lang: str = "en") -> Fraction | None:
    node = parse_side(lex(tex, lang))
    assert not isinstance(node, Unsupported), node
    return written_unit(node)


@pytest.mark.parametrize(
    ("tex", "unit"),
    [
        pytest.param("3.14", Fraction(1, 100), id="decimal"),
        pytest.param("-0.5", Fraction(1, 10), id="negative"),
        pytest.param("7", Fraction(1), id="digit"),
        pytest.param("1000", Fraction(1000), id="order-of-magnitude"),
        pytest.param("10^{3}", Fraction(1000), id="power-of-ten"),
        pytest.param("10^{-2}", Fraction(1, 100), id="negative-power-of-ten"),
        pytest.param("2.5\\times10^{6}", Fraction(100_000), id="scientific"),
        pytest.param("33\\%", Fraction(1, 100), id="percent"),
        pytest.param("\\frac{1}{3}", None, id="fraction"),
        pytest.param("\\sqrt{2}", None, id="root"),
    ],
)
def test_written_unit(tex: str, unit: Fraction | None) -> None:
    assert unit_of(tex) == unit


def test_written_unit_in_spanish() -> None:
    assert unit_of("3{,}14", "es") == Fraction(1, 100)


@pytest.mark.parametrize(
    ("left", "right", "unit", "expected"),
    [
        pytest.param(sympy.sqrt(2), R(1414, 1000), Fraction(1, 1000), Status.CHECKED, id="in"),
        pytest.param(sympy.sqrt(2), R(1415, 1000), Fraction(1, 1000), Status.FAILED, id="out"),
        pytest.param(R(2, 3), R(67, 100), Fraction(1, 100), Status.CHECKED, id="rounded-up"),
        pytest.param(R(2, 3), R(66, 100), Fraction(1, 100), Status.FAILED, id="cut"),
        pytest.param(R(1), R(15, 10), Fraction(1), Status.CHECKED, id="exactly-half"),
        pytest.param(R(1), R(1501, 1000), Fraction(1), Status.FAILED, id="past-half"),
    ],
)
def test_approx_by_written_precision(
    left: sympy.Expr, right: sympy.Expr, unit: Fraction, expected: Status
) -> None:
    status, message, _ = compare("claim", "\\approx", left, right, unit)
    assert status is expected
    if expected is Status.FAILED:
        assert "half of" in message


def test_approx_without_a_written_unit_is_unchecked() -> None:
    status, _, _ = compare("claim", "\\approx", R(1, 3), R(33, 100), None)
    assert status is Status.UNCHECKED


def test_compare_infinity() -> None:
    assert compare("c", "<", R(1), sympy.oo, None)[0] is Status.CHECKED
    assert compare("c", ">", R(1), sympy.oo, None)[0] is Status.FAILED
    assert compare("c", "<", -sympy.oo, R(1), None)[0] is Status.CHECKED
    assert compare("c", "=", R(10) ** 100, sympy.oo, None)[0] is Status.FAILED
    assert compare("c", "=", sympy.oo, sympy.oo, None)[0] is Status.UNCHECKED


def test_an_equal_transcendental_pair_is_never_strictly_ordered() -> None:
    for relation in ("<", ">", "\\ne"):
        status, _, _ = compare("c", relation, sympy.log(8), 3 * sympy.log(2), None)
        assert status is not Status.CHECKED, relation
    assert compare("c", "\\le", sympy.pi, sympy.pi, None)[0] is Status.CHECKED


@pytest.mark.parametrize(
    "tex",
    [
        pytest.param("10^{-0.5}", id="negative-decimal-exponent"),
        pytest.param("10^{-\\frac{1}{2}}", id="negative-fraction-exponent"),
        pytest.param("10^{\\sqrt{2}}", id="root-exponent"),
        pytest.param("10^{0.5}", id="decimal-exponent"),
    ],
)
def test_a_power_of_ten_with_a_fractional_exponent_has_no_written_unit(tex: str) -> None:
    assert unit_of(tex) is None


def test_an_approximation_to_a_fractional_power_of_ten_is_not_checked() -> None:
    from pizarra.check.claims import iter_claims

    [verdict] = iter_claims("0.5 \\approx 10^{-0.5}")
    assert verdict.status is not Status.CHECKED


def test_floor_of_a_number_too_large_for_a_float() -> None:
    huge = sympy.Integer(10) ** 400 + sympy.sqrt(2)
    with pytest.raises(OutOfBounds, match=r"^a floor or ceiling of a huge number$"):
        call_builtin("floor", [huge], "10")


def test_exact_logarithm_at_the_size_bounds() -> None:
    """The exact search runs while base^p and value^q stay within MAX_BITS, and not past it."""
    base, p = 65535, 12500  # both sizes exactly at the bound
    assert (base**p).bit_length() == MAX_BITS and base.bit_length() * p == MAX_BITS
    assert logarithm(sympy.Integer(base) ** p, sympy.Integer(base)) == p
    half = MAX_BITS // 2  # 2 has two bits
    assert logarithm(sympy.Integer(2) ** half, sympy.Integer(2)) == half
    beyond = logarithm(sympy.Integer(2) ** (half + 1), sympy.Integer(2))
    assert not beyond.is_Rational
    # log_{2^199962} 2^3174 = 1/63: the base fits, value^63 would not
    m, q = MAX_BITS // 63, 63
    assert (m + 1) * q > MAX_BITS >= m * q + 1
    root = logarithm(sympy.Integer(2) ** m, sympy.Integer(2) ** (m * q))
    assert not root.is_Rational


@pytest.mark.parametrize(
    ("tex", "message", "hint"),
    [
        pytest.param(
            "1 + \\log(0) = 1",
            "\\log(0) is not defined in the real numbers: 1 + \\log(0) = 1",
            "the logarithm of a number that is not positive is not defined in the reals; ",
            id="log-zero",
        ),
        pytest.param(
            "\\log_{1}(8) + 1 = 3",
            "\\log_{1}(8) is not defined in the real numbers: \\log_{1}(8) + 1 = 3",
            "a logarithm's base must be positive and not 1; ",
            id="log-base-one",
        ),
        pytest.param(
            "(-1)! = 1",
            "(-1)! is not defined in the real numbers: (-1)! = 1",
            "the factorial of a negative number is not defined; ",
            id="negative-factorial",
        ),
        pytest.param("(1.5)! = 1", "a factorial of a number that is not whole", "", id="fraction"),
        pytest.param("3001! = 1", "too large: a factorial above 3000!", "", id="large-factorial"),
        pytest.param(
            "\\lg 8 = 3", "\\lg has no agreed base: write \\log_2 or \\log_{10}", "", id="lg"
        ),
        pytest.param(
            "\\sqrt{2} = 1",
            "claim is false: \\sqrt{2} = 1 (left side is sqrt(2) (about 1.414213562), "
            "right side is 1)",
            "fix",
            id="irrational-value",
        ),
    ],
)
def test_builtin_messages(tex: str, message: str, hint: str) -> None:
    """What a reader is told: the subexpression, the function's own reason, the value."""
    [verdict] = iter_claims(tex)
    assert verdict.message == message
    assert verdict.hint.startswith(hint)


def test_builtin_arity_and_name_errors() -> None:
    with pytest.raises(ValueError, match=r"^exp takes a different number of arguments$"):
        call_builtin("exp", [sympy.Integer(1), sympy.Integer(2)], "10")
    with pytest.raises(ValueError, match=r"^unknown function sin$"):
        call_builtin("sin", [sympy.Integer(1)], "10")


HIDDEN_ZERO = sympy.log(2) + sympy.log(3) - sympy.log(6)
"""Exactly 0, though sympy keeps it as a sum: its enclosures straddle zero at any precision."""


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(HIDDEN_ZERO**2, id="square"),
        pytest.param(-(HIDDEN_ZERO**2), id="negated-square"),
        pytest.param((HIDDEN_ZERO**2 + HIDDEN_ZERO**4) ** -1, id="inverse-touching-zero"),
        pytest.param((-(HIDDEN_ZERO**2) - HIDDEN_ZERO**4) ** -1, id="inverse-touching-zero-below"),
        pytest.param((HIDDEN_ZERO**2 + HIDDEN_ZERO**4) ** R(1, 2), id="root-touching-zero"),
        pytest.param((HIDDEN_ZERO**2 + HIDDEN_ZERO**4) ** R(-1, 2), id="negative-root"),
        pytest.param((HIDDEN_ZERO**2 + HIDDEN_ZERO**4) ** R(1, 2) + 1, id="root-plus-one"),
    ],
)
def test_an_enclosure_that_touches_zero_proves_no_sign(value: sympy.Expr) -> None:
    """[0, b] holds zero: no sign, and no inverse or fractional power of it."""
    assert interval_sign(value) is None


def test_an_inverse_near_one_has_a_sign() -> None:
    near_one = HIDDEN_ZERO + 1
    assert interval_sign(near_one**-1 - R(1, 2)) == 1
    assert interval_sign(R(1, 2) - near_one**-3) == -1
