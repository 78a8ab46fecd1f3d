"""The evaluator: undefined values, the root-index guard, 0^0, domains, its bound."""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import pytest
import sympy

from pizarra.check.claims import iter_claims
from pizarra.math.exact.ast import Neg, Node, Num
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.evaluate import (
    DOMAINS,
    MAX_SERIES_TERMS,
    MAX_SYMBOLIC_EXPONENT,
    Context,
    Outcome,
    Undefined,
    ZeroToTheZero,
    evaluate,
)
from pizarra.math.exact.judge import Status
from pizarra.math.exact.lexer import lex
from pizarra.math.exact.parser import parse_side
from pizarra.math.exact.real import MAX_EXPONENT


def value(tex: str, context: Context | None = None) -> Outcome:
    node = parse_side(lex(tex))
    assert not isinstance(node, Unsupported), node
    return evaluate(node, context or Context())


def statuses(tex: str, **variables: str) -> list[Status]:
    return [verdict.status for verdict in iter_claims(tex, variables=variables)]


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("2+3\\cdot4", 14, id="precedence"),
        pytest.param("7-10", -3, id="minus"),
        pytest.param("-2^2", -4, id="negated-power"),
        pytest.param("\\frac{3}{4}/\\frac{1}{2}", sympy.Rational(3, 2), id="division"),
        pytest.param("|3-5|", 2, id="absolute"),
        pytest.param("\\sqrt{2}\\cdot\\sqrt{8}", 4, id="roots"),
        pytest.param("\\sqrt[3]{-27}", -3, id="odd-root"),
        pytest.param("(-8)^{2/3}", 4, id="rational-power"),
        pytest.param("|1-\\sqrt{2}|", sympy.sqrt(2) - 1, id="absolute-irrational"),
    ],
)
def test_values(tex: str, expected: object) -> None:
    assert value(tex) == expected


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        pytest.param("\\frac{1}{2-2}", "division by zero", id="closed-zero-denominator"),
        pytest.param("\\frac{1}{\\sqrt{2}-\\sqrt{2}}", "division by zero", id="irrational-zero"),
        pytest.param("\\frac{x}{0}", "division by zero", id="letter-over-zero"),
        pytest.param("\\frac{1}{\\ln 8 - 3\\ln 2}", "division by zero", id="log-zero"),
        pytest.param(
            "\\frac{0}{\\sqrt{3+2\\sqrt{2}}-1-\\sqrt{2}}", "division by zero", id="radical-zero"
        ),
        pytest.param("\\sqrt{-4}", "an even root of a negative number is not real", id="even-root"),
        pytest.param("0^{-2}", "0 to a negative power divides by zero", id="zero-negative-power"),
    ],
)
def test_undefined_values(tex: str, reason: str) -> None:
    """The reason is shown in the failure's hint, so it is read whole."""
    outcome = value(tex)
    assert isinstance(outcome, Undefined)
    assert outcome.reason == reason
    assert (outcome.start, outcome.end) == (0, len(tex))


def test_undefined_points_at_its_subexpression() -> None:
    outcome = value("1+\\sqrt{-4}")
    assert isinstance(outcome, Undefined)
    assert (outcome.start, outcome.end) == (2, 11)


@pytest.mark.parametrize(
    "tex",
    [
        pytest.param("\\sqrt[0]{8}", id="zero-index"),
        pytest.param("\\sqrt[-2]{4}", id="negative-index"),
        pytest.param("\\sqrt[1/2]{8}", id="fraction-below-one"),
        pytest.param("\\sqrt[3/2]{8}", id="fraction-above-one"),
        pytest.param("\\sqrt[2.5]{8}", id="decimal-index"),
    ],
)
def test_root_index_must_be_a_positive_integer(tex: str) -> None:
    outcome = value(tex)
    assert isinstance(outcome, Unsupported)
    assert "root index" in outcome.reason
    assert statuses(f"{tex} = 4") == [Status.UNCHECKED]


def test_root_index_is_read_by_its_value() -> None:
    assert value("\\sqrt[\\sqrt{4}]{9}") == 3
    assert value("\\sqrt[6/2]{8}") == 2


def test_first_degree_root_is_the_number_itself() -> None:
    assert value("\\sqrt[1]{8}") == 8
    assert statuses("\\sqrt[1]{8} = 8") == [Status.CHECKED]
    assert statuses("\\sqrt[1]{8} = 2") == [Status.FAILED]


def test_root_with_a_letter_index_or_radicand() -> None:
    n, x = sympy.Symbol("n", positive=True), sympy.Symbol("x", nonnegative=True)
    declared = Context(domains={"n": "positive", "x": "nonnegative"})
    assert value("\\sqrt[n]{8}", declared) == sympy.Pow(8, 1 / n)
    assert value("\\sqrt[3]{x}", declared) == sympy.Pow(x, sympy.Rational(1, 3))


@pytest.mark.parametrize(
    "tex", ["\\sqrt[n]{8}", "\\sqrt[3]{x}", "\\sqrt{x}", "x^0", "x^{-1}", "x^{1/2}", "2/x"]
)
def test_an_expression_undefined_somewhere_is_not_read(tex: str) -> None:
    """sympy's x^{1/3} is complex for a negative x, and x^0, 1/x or \\sqrt{x} have no value
    somewhere on the reals: none of them may enter a proof."""
    assert isinstance(value(tex), Unsupported)


def test_an_irrational_exponent_is_decided_by_proven_bounds() -> None:
    assert value("2^{\\sqrt{2}}") == 2 ** sympy.sqrt(2)
    assert statuses("2^{\\sqrt{2}} > 2.66") == [Status.CHECKED]
    assert statuses("2^{\\sqrt{2}} < 2.66") == [Status.FAILED]
    assert statuses("2^{\\sqrt{2}} = 2.66") == [Status.FAILED]
    assert statuses("2^{\\sqrt{2}} < 2^{\\sqrt{2}}") == [Status.FAILED]


@pytest.mark.parametrize("tex", ["0^0", "(1-1)^{0}", "(\\sqrt{2}-\\sqrt{2})^0"])
def test_zero_to_the_zero_follows_the_convention(tex: str) -> None:
    assert isinstance(value(tex), ZeroToTheZero)
    assert value(tex, Context(zero_to_the_zero=Fraction(1))) == 1
    assert value(tex, Context(zero_to_the_zero=Fraction(0))) == 0
    undefined = value(tex, Context(zero_to_the_zero="undefined"))
    assert isinstance(undefined, Undefined)
    assert "0^0 undefined" in undefined.reason


def test_a_nonzero_base_to_the_zero_is_one() -> None:
    assert value("5^0") == 1
    assert value("(\\sqrt{2}-1)^0") == 1


def test_largest_exponent_on_an_expression_with_letters() -> None:
    x = sympy.Symbol("x", real=True)
    top = MAX_SYMBOLIC_EXPONENT
    assert value(f"x^{{{top - 1}}}") == x ** (top - 1)
    assert value(f"x^{{{top}}}") == x**top
    nonzero = Context(domains={"x": "nonzero"})
    assert value(f"x^{{{-top}}}", nonzero) == sympy.Symbol("x", real=True, nonzero=True) ** -top
    for exponent in (top + 1, -top - 1):
        outcome = value(f"x^{{{exponent}}}")
        assert outcome == Unsupported("too large: a large exponent on an expression with letters")


def test_an_out_of_bounds_value_is_unsupported() -> None:
    outcome = value(f"2^{{{MAX_EXPONENT + 1}}}")
    assert isinstance(outcome, Unsupported)
    assert "too large" in outcome.reason


# -- domains: each one changes what can be proved ---------------------------------------


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_every_domain_gives_a_real_letter(domain: str) -> None:
    symbol = value("x", Context(domains={"x": domain}))
    assert isinstance(symbol, sympy.Symbol)
    assert symbol.is_real is True


@pytest.mark.parametrize(
    ("domain", "facts"),
    [
        pytest.param("real", {}, id="real"),
        pytest.param("positive", {"positive": True, "nonnegative": True}, id="positive"),
        pytest.param("nonnegative", {"nonnegative": True, "positive": None}, id="nonnegative"),
        pytest.param("nonzero", {"nonzero": True, "positive": None}, id="nonzero"),
        pytest.param("integer", {"integer": True, "positive": None}, id="integer"),
        pytest.param("positive_integer", {"integer": True, "positive": True}, id="pos-integer"),
    ],
)
def test_domain_assumptions(domain: str, facts: dict[str, bool | None]) -> None:
    symbol = value("x", Context(domains={"x": domain}))
    assert isinstance(symbol, sympy.Symbol)
    for fact, expected in facts.items():
        assert getattr(symbol, f"is_{fact}") is expected, fact


def test_an_undeclared_or_unknown_domain_is_real() -> None:
    for context in (Context(), Context(domains={"x": "prime"})):
        symbol = value("x", context)
        assert isinstance(symbol, sympy.Symbol)
        assert symbol.is_real is True and symbol.is_positive is None


A, C = Status.ASSUMED, Status.CHECKED
"""A lone declared letter against a number only restates its domain: proved, but
*assumed*; anything else the domain proves is *checked*."""


@pytest.mark.parametrize(
    ("tex", "proved", "checked_in", "not_checked_in"),
    [
        pytest.param(
            "x > 0", A, ["positive", "positive_integer"], ["real", "nonnegative"], id="gt0"
        ),
        pytest.param("x \\ge 0", A, ["nonnegative", "positive"], ["real", "nonzero"], id="ge0"),
        pytest.param("x \\ne 0", A, ["nonzero", "positive"], ["real", "nonnegative"], id="ne0"),
        pytest.param("x^2 > 0", C, ["nonzero"], ["real", "nonnegative", "integer"], id="square"),
        pytest.param("|x| = x", C, ["nonnegative", "positive"], ["real", "nonzero"], id="abs"),
        pytest.param("x \\ge 1", A, ["positive_integer"], ["positive", "integer"], id="ge1"),
        pytest.param("(-1)^{2x} = 1", C, ["integer", "positive_integer"], ["real"], id="parity"),
    ],
)
def test_domains_decide_identities(
    tex: str, proved: Status, checked_in: list[str], not_checked_in: list[str]
) -> None:
    for domain in checked_in:
        assert statuses(tex, x=domain) == [proved], domain
    for domain in not_checked_in:
        [status] = statuses(tex, x=domain)
        assert status not in (Status.CHECKED, Status.ASSUMED), domain


def test_a_false_identity_is_never_checked_in_any_domain() -> None:
    for domain in DOMAINS:
        for tex in ("x < 0", "x + 1 = x", "x^2 < 0", "|x| < 0", "x \\ne x"):
            assert Status.CHECKED not in statuses(tex, x=domain), (tex, domain)


@pytest.mark.parametrize(
    ("tex", "status", "message"),
    [
        pytest.param(
            "\\infty + 1 = 2",
            Status.UNCHECKED,
            "arithmetic with \\infty is not decided",
            id="infinity",
        ),
        pytest.param(
            "(-2)^{\\sqrt{2}} = 1",
            Status.UNCHECKED,
            "an irrational power of a number that is not positive",
            id="irrational-power",
        ),
        pytest.param(
            "\\sqrt[0]{8} = 2",
            Status.UNCHECKED,
            "a root index that is not a positive integer",
            id="root-index",
        ),
        pytest.param(
            "\\sum_{i=1}^{2.5} i = 3",
            Status.UNCHECKED,
            "a sum or product whose bounds are not whole numbers",
            id="series-bounds",
        ),
        pytest.param(
            f"\\sum_{{i=1}}^{{{MAX_SERIES_TERMS + 1}}} i = 1",
            Status.UNCHECKED,
            f"too large: more than {MAX_SERIES_TERMS} terms",
            id="series-terms",
        ),
        pytest.param(
            f"2^{{{MAX_EXPONENT + 1}}} = 1",
            Status.UNCHECKED,
            f"too large: an exponent above {MAX_EXPONENT}",
            id="exponent",
        ),
        pytest.param(
            "-\\infty + 1 < 5",
            Status.UNCHECKED,
            "arithmetic with \\infty is not decided",
            id="minus-infinity",
        ),
        pytest.param(
            "2^{66000} \\cdot 2^{66000} \\cdot 2^{66000} \\cdot 2^{66000} > 1",
            Status.UNCHECKED,
            "too large: a number with too many digits",
            id="product-digits",
        ),
        pytest.param(
            "\\sqrt{2}+\\sqrt{3}+\\sqrt{5}+\\sqrt{7}+\\sqrt{11}+\\sqrt{13}+\\sqrt{17}"
            "+\\sqrt{19}+\\sqrt{23} > 1",
            Status.UNCHECKED,
            "too large: too many radicals to compare exactly",
            id="sum-radicals",
        ),
        pytest.param("g(2, 3) = 5", Status.UNCHECKED, "g takes 1 argument(s)", id="arity"),
        pytest.param(
            "\\binom{5}{-1} = 0",
            Status.UNCHECKED,
            "a binomial coefficient with a negative argument",
            id="binomial",
        ),
        pytest.param(
            "\\sqrt{-4} = 2",
            Status.FAILED,
            "\\sqrt{-4} is not defined in the real numbers: \\sqrt{-4} = 2",
            id="root",
        ),
        pytest.param(
            "1 + \\frac{1}{0} = 2",
            Status.FAILED,
            "\\frac{1}{0} is not defined in the real numbers: 1 + \\frac{1}{0} = 2",
            id="division",
        ),
    ],
)
def test_reasons_are_exact(tex: str, status: Status, message: str) -> None:
    [verdict] = iter_claims(tex, functions={"g": "x^2+1"})
    assert (verdict.status, verdict.message) == (status, message)


def test_series_bounds_at_the_limit() -> None:
    top = MAX_SERIES_TERMS
    assert statuses(f"\\sum_{{i=1}}^{{{top}}} 1 = {top}") == [Status.CHECKED]
    assert statuses(f"\\sum_{{i=2}}^{{{top + 1}}} 1 = {top}") == [Status.CHECKED]
    assert statuses(f"\\sum_{{i=1}}^{{{top + 1}}} 1 = {top + 1}") == [Status.UNCHECKED]
    assert statuses("\\sum_{i=1}^{0} i = 0") == [Status.CHECKED]
    assert statuses("\\prod_{i=1}^{0} i = 0") == [Status.FAILED]


def test_a_series_restores_an_outer_index() -> None:
    assert statuses("\\sum_{i=1}^{2} \\sum_{i=1}^{3} i = 12") == [Status.CHECKED]
    assert statuses("\\sum_{i=1}^{2} \\left(i + \\sum_{j=1}^{i} j\\right) = 7") == [Status.CHECKED]
    assert statuses("\\sum_{i=1}^{2} \\left(\\sum_{i=1}^{3} i + i\\right) = 15") == [Status.CHECKED]


def test_lesson_functions_call_depth() -> None:
    def verdict(tex: str, body: str) -> list[Status]:
        return [v.status for v in iter_claims(tex, functions={"h": body})]

    assert verdict("h(1) = 2", "x + 1") == [Status.CHECKED]
    assert verdict("h(1) = 3", "x + 1") == [Status.FAILED]
    [deep] = iter_claims("h(1) = 1", functions={"h": "h(x) + 1"})
    assert (deep.status, deep.message) == (
        Status.UNCHECKED,
        "too large: functions call each other too deeply",
    )


def test_zero_to_an_irrational_power_is_unsupported() -> None:
    outcome = value("0^{\\sqrt{2}}")
    assert isinstance(outcome, Unsupported)
    assert outcome.reason == "an irrational power of a number that is not positive"


def test_undefined_zero_to_the_zero_names_the_power() -> None:
    [verdict] = iter_claims("1 + 0^0 = 2", conventions={"zero_to_the_zero": "undefined"})
    assert verdict.message == "0^0 is not defined in the real numbers: 1 + 0^0 = 2"
    assert verdict.hint.startswith("the lesson leaves 0^0 undefined; ")


def test_lesson_functions_nest_to_their_depth_limit() -> None:
    names = "abcdefghijk"

    def chain(length: int) -> dict[str, str]:
        bodies = {names[i]: f"{names[i + 1]}(x) + 1" for i in range(length - 1)}
        bodies[names[length - 1]] = "x"
        return bodies

    assert [v.status for v in iter_claims("a(0) = 7", functions=chain(8))] == [Status.CHECKED]
    [deep] = iter_claims("a(0) = 8", functions=chain(9))
    assert deep.message == "too large: functions call each other too deeply"


def test_a_lesson_function_reads_the_lesson_conventions() -> None:
    found = iter_claims("h(0) = 1", conventions={"zero_to_the_zero": "1"}, functions={"h": "x^0"})
    assert [v.status for v in found] == [Status.CHECKED]


@pytest.mark.parametrize(
    ("tex", "conventions", "domain", "expected"),
    [
        pytest.param("\\exp(x) > 0", {}, "real", Status.CHECKED, id="exp"),
        pytest.param("\\exp(x)\\exp(x) = \\exp(2x)", {}, "real", Status.CHECKED, id="exp-sum"),
        pytest.param("\\log(x) = \\ln(x)", {"log": "e"}, "positive", Status.CHECKED, id="log-e"),
        pytest.param("\\log(x) = \\ln(x)", {}, "positive", Status.FAILED, id="log-10"),
        pytest.param("\\log(10x) = 1 + \\log(x)", {}, "positive", Status.CHECKED, id="log-default"),
        pytest.param("\\log_{e}(x) = \\ln(x)", {}, "positive", Status.CHECKED, id="log-base-e"),
        pytest.param("\\ln(x) = \\ln(x)", {}, "real", Status.UNCHECKED, id="ln-of-any-real"),
        pytest.param("\\log_{0}(x) = 0", {}, "positive", Status.UNCHECKED, id="base-zero"),
        pytest.param("\\log_{-2}(x) = 0", {}, "positive", Status.UNCHECKED, id="base-negative"),
    ],
)
def test_logs_and_exp_of_letters(
    tex: str, conventions: dict[str, str], domain: str, expected: Status
) -> None:
    """Kept only where defined for every value of the letter, in the lesson's base."""
    verdicts = iter_claims(tex, conventions, {"x": domain})
    assert [v.status for v in verdicts] == [expected]


@pytest.mark.parametrize(
    ("tex", "domain", "expected"),
    [
        pytest.param("x^{-1/2} = x^{-1/2}", "positive", Status.CHECKED, id="negative-positive"),
        pytest.param("x^{-1/2} = x^{-1/2}", "nonnegative", Status.UNCHECKED, id="negative-zero"),
        pytest.param("x^{1/2} = \\sqrt{x}", "nonnegative", Status.CHECKED, id="half-zero"),
        pytest.param("x^{1/2} = \\sqrt{x}", "real", Status.UNCHECKED, id="half-real"),
    ],
)
def test_fractional_powers_of_letters(tex: str, domain: str, expected: Status) -> None:
    """``x^{-1/2}`` needs x > 0; ``x^{1/2}`` needs x >= 0."""
    assert statuses(tex, x=domain) == [expected]


@pytest.mark.parametrize("body", ["x \\pm 1", "\\mp x", "2(x \\pm 1)"])
def test_a_definition_with_plus_minus_is_refused(body: str) -> None:
    """``g(x) = x \\pm 1`` is two values: no claim about g may take one of them."""
    with pytest.raises(ValueError, match="pm: a function has one value"):
        iter_claims("g(2) = 3", functions={"g(x)": body})


def test_a_series_frees_its_index() -> None:
    """After the sum, ``i`` is the declared letter again, not the last value of the index."""
    assert statuses("\\sum_{i=1}^{3} i + i = 6 + i", i="real") == [Status.CHECKED]


# -- survivors of the complete mutation run ------------------------------------------------


def test_the_default_choice_is_the_upper_sign() -> None:
    """Without ``choice``, ``evaluate`` takes the upper sign of ``\\pm`` (lower of ``\\mp``)."""
    assert value("1 \\pm 3") == 4
    assert value("1 \\mp 3") == -2


@pytest.mark.parametrize("convention", ["1 \\pm 1", "\\pm 1", "2 \\mp 1"])
def test_a_convention_with_plus_minus_is_refused(convention: str) -> None:
    """``zero_to_the_zero: "1 \\pm 1"`` is two values: no ``0^0 = 2`` may be checked by it."""
    with pytest.raises(ValueError, match="zero_to_the_zero must be a number"):
        iter_claims("0^0 = 2", conventions={"zero_to_the_zero": convention})


def test_nesting_too_deep_for_the_evaluator_is_unsupported() -> None:
    node: Node = Num(Fraction(1), 0, 1)
    for _ in range(5 * sys.getrecursionlimit()):
        node = Neg(node, 0, 1)
    assert evaluate(node, Context()) == Unsupported("too large: nested too deeply")


@pytest.mark.parametrize(
    ("tex", "status"),
    [
        pytest.param("\\frac{0}{\\ln 8 - 3\\ln 2} = 0", Status.FAILED, id="log-zero"),
        pytest.param(
            "\\frac{0}{\\sqrt{3+2\\sqrt{2}} - 1 - \\sqrt{2}} = 0", Status.FAILED, id="radical-zero"
        ),
        pytest.param(
            "\\frac{0}{\\ln 2 + \\ln 3 - \\ln 6} = 0", Status.UNCHECKED, id="undecided-zero"
        ),
    ],
)
def test_a_division_by_a_hidden_zero_is_never_checked(tex: str, status: Status) -> None:
    """0 divided by a zero sympy does not simplify is no number: never ``= 0``."""
    [verdict] = iter_claims(tex)
    assert verdict.status is status


def test_a_division_by_one() -> None:
    assert value("\\frac{3}{1}") == 3
    assert statuses("\\frac{3}{1} = 3") == [Status.CHECKED]


def test_a_product_past_the_digit_bound_is_unsupported() -> None:
    """Each factor is within the bound, the product is not: every closed result is bounded."""
    factor = "2^{66000}"
    assert value(" \\cdot ".join([factor] * 3)) == sympy.Integer(2) ** 198000
    outcome = value(" \\cdot ".join([factor] * 4))
    assert outcome == Unsupported("too large: a number with too many digits")


def test_radicals_beside_a_letter_are_not_bounded() -> None:
    """The radical bound is for exact comparisons of numbers; with a letter, sympy decides."""
    primes = list(sympy.primerange(2, 29))
    assert len(primes) == 9
    tex = "x + " + " + ".join(f"\\sqrt{{{p}}}" for p in primes)
    x = sympy.Symbol("x", real=True)
    assert value(tex) == x + sum(sympy.sqrt(p) for p in primes)
    assert statuses(f"{tex} = {tex}", x="real") == [Status.CHECKED]


@pytest.mark.parametrize(
    "infinite",
    [
        pytest.param(sympy.oo, id="infinity"),
        pytest.param(-sympy.oo, id="minus-infinity"),
        pytest.param(sympy.zoo, id="complex-infinity"),
        pytest.param(sympy.nan, id="nan"),
    ],
)
def test_an_infinite_value_is_refused_in_arithmetic(infinite: sympy.Expr) -> None:
    node = parse_side(lex("x + 1"))
    assert not isinstance(node, Unsupported)
    outcome = evaluate(node, Context(), {"x": infinite})
    assert outcome == Unsupported("arithmetic with \\infty is not decided")


def test_the_absolute_value_of_a_number_a_hair_below_zero() -> None:
    """|sqrt2 - r| for r a hair above sqrt2 is exactly r - sqrt2, and never sqrt2 - r."""
    digits = 200
    r = f"\\frac{{{math.isqrt(2 * 10 ** (2 * digits)) + 1}}}{{1{'0' * digits}}}"
    assert statuses(f"|\\sqrt{{2}} - {r}| = {r} - \\sqrt{{2}}") == [Status.CHECKED]
    assert statuses(f"|\\sqrt{{2}} - {r}| = \\sqrt{{2}} - {r}") == [Status.FAILED]


DIVISION_WITH_LETTERS = "a division by an expression that can be zero"


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        pytest.param("\\frac{1}{x}", DIVISION_WITH_LETTERS, id="division"),
        pytest.param("\\frac{1}{x-1}", DIVISION_WITH_LETTERS, id="shifted"),
        pytest.param("x^{-1}", "a power not defined for every value of its letters", id="inverse"),
        pytest.param("x^{1/2}", "a power not defined for every value of its letters", id="root"),
    ],
)
def test_why_an_expression_with_letters_has_no_value(tex: str, reason: str) -> None:
    assert value(tex) == Unsupported(reason)


def test_a_log_difference_a_hair_from_zero_is_never_checked_equal() -> None:
    """ln 6 and ln 2 + ln 3 + 10^-5000 differ past every interval precision: unchecked."""
    assert statuses("\\ln 6 = \\ln 2 + \\ln 3 + 10^{-5000}") == [Status.UNCHECKED]
    assert statuses("\\ln 6 \\ne \\ln 2 + \\ln 3 + 10^{-5000}") == [Status.UNCHECKED]


def test_a_log_zero_shown_by_expanding_logs_is_equal_not_greater() -> None:
    """ln(u^2) = 2 ln(u) for u = sqrt2 - r a hair above 0, where sympy cannot tell u > 0."""
    digits = 200
    r = f"\\frac{{{math.isqrt(2 * 10 ** (2 * digits))}}}{{1{'0' * digits}}}"
    u = f"\\sqrt{{2}} - {r}"
    assert statuses(f"\\ln(({u})^2) = 2\\ln({u})") == [Status.CHECKED]
    assert statuses(f"\\ln(({u})^2) > 2\\ln({u})") == [Status.FAILED]
    assert statuses(f"\\ln(({u})^2) < 2\\ln({u})") == [Status.FAILED]
