"""Quantities: powers and roots of units, the unit \\approx rounds in, and why a side is
not read."""

from __future__ import annotations

import pytest

from pizarra.check.claims import iter_claims
from pizarra.math.exact.status import Status

C, U, F = Status.CHECKED, Status.UNCHECKED, Status.FAILED
EXPONENT = "a power of a quantity needs a numeric exponent"
INDEX = "a root of a quantity needs a numeric index"


def _verdict(tex: str) -> tuple[Status, str]:
    [verdict] = iter_claims(tex)
    return verdict.status, verdict.message


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("2\\text{ m}^{2} \\approx 20000\\text{ cm}^{2}", C, id="area-approx"),
        pytest.param("2\\text{ m}^{2} \\approx 20001\\text{ cm}^{2}", F, id="area-approx-false"),
        pytest.param("\\frac{1}{3}\\text{ m}^{2} \\approx 3333.3\\text{ cm}^{2}", C, id="third"),
        pytest.param("\\frac{1}{3}\\text{ m}^{2} \\approx 3333.2\\text{ cm}^{2}", F, id="third-f"),
        pytest.param("4\\text{ m}^{-1} = 0.004\\text{ mm}^{-1}", C, id="per-metre"),
        pytest.param("4\\text{ m}^{-1} = 4\\text{ mm}^{-1}", F, id="per-metre-false"),
        pytest.param("\\sqrt[1]{4\\text{ m}} = 4\\text{ m}", C, id="first-root"),
        pytest.param("\\sqrt[1]{4\\text{ m}} = 4\\text{ km}", F, id="first-root-false"),
        pytest.param("\\sqrt{4\\text{ m}^{2}} = 2\\text{ m}", C, id="square-root"),
        pytest.param("\\sqrt{4\\text{ m}^{2}} = 2\\text{ m}^{2}", F, id="square-root-false"),
    ],
)
def test_powers_and_roots(tex: str, expected: Status) -> None:
    assert _verdict(tex)[0] is expected


def test_a_half_power_is_never_rounded_in_a_unit_it_does_not_have() -> None:
    # 1 cm^{1/2} is 0.1 m^{1/2}: rounding in cm^{0.5} would need that factor, which a
    # unit's square root does not have as a written scale; the claim stays unchecked.
    assert _verdict("\\sqrt{1\\text{ cm}} \\approx 1.1\\text{ cm}^{0.5}") == (
        U,
        "\\approx with units needs a number and a unit on the right",
    )


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        pytest.param("1\\text{ m}^{-(1+1)} = 1\\text{ m}^{-2}", EXPONENT, id="negated-sum"),
        pytest.param("1\\text{ m}^{1/2} = 1\\text{ m}^{1/2}", EXPONENT, id="fraction"),
        pytest.param("\\sqrt[1+1]{4\\text{ m}^2} = 2\\text{ m}", INDEX, id="index-sum"),
        pytest.param("\\sqrt[0]{4\\text{ m}^2} = 2\\text{ m}", INDEX, id="index-zero"),
        # units that do not cancel keep a side without a value unchecked, with its reason
        pytest.param("\\frac{1}{0}\\text{ m} = 1\\text{ km}", "division by zero", id="over-zero"),
        pytest.param("0^0\\text{ m} = 0\\text{ km}", "a side has no value", id="zero-to-zero"),
    ],
)
def test_what_is_not_read_says_why(tex: str, reason: str) -> None:
    assert _verdict(tex) == (U, reason)


def test_a_failure_names_the_unit_of_the_right_side() -> None:
    status, message = _verdict("1\\text{ s} < 999\\text{ ms}")
    assert status is F
    assert message.endswith("(in ms: left side is 1000, right side is 999)")
    status, message = _verdict("2\\text{ m}^{2} = 200\\text{ cm}^{2}")
    assert status is F
    assert "(in cm: left side is 20000, right side is 200)" in message


@pytest.mark.parametrize(
    ("tex", "shown"),
    [
        pytest.param(
            "5\\text{ cm} \\times 2\\text{ cm} = 10\\text{ cm}",
            "(the left side is in meter^2, the right side in meter)",
            id="area-length",
        ),
        pytest.param(
            "\\frac{2\\text{ m}}{1\\text{ s}} = 3\\text{ m}",
            "(the left side is in meter second^-1, the right side in meter)",
            id="speed-length",
        ),
        pytest.param(
            "\\frac{2\\text{ m}}{1\\text{ m}} = 3",
            "(in no unit: left side is 2, right side is 3)",
            id="units-cancel",
        ),
    ],
)
def test_a_failure_shows_the_base_units(tex: str, shown: str) -> None:
    status, message = _verdict(tex)
    assert status is F
    assert message.endswith(shown), message


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("3\\text{ km} - 1\\text{ m} = 2999\\text{ m}", C, id="difference"),
        pytest.param("3\\text{ km} - 1\\text{ m} = 2\\text{ km}", F, id="difference-false"),
        pytest.param("-1\\text{ m} < 1\\text{ km}", C, id="negative"),
        pytest.param("-1\\text{ m} > -1\\text{ km}", C, id="negatives"),
        pytest.param("-1\\text{ m} < -1\\text{ km}", F, id="negatives-false"),
        pytest.param("|-2\\text{ m}| = 0.002\\text{ km}", C, id="absolute"),
        pytest.param("|-2\\text{ m}| = -0.002\\text{ km}", F, id="absolute-false"),
    ],
)
def test_signs_and_differences(tex: str, expected: Status) -> None:
    assert _verdict(tex)[0] is expected


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        # 3 m - 1 m is a length: it is not the number 2 (read as dimensionless, it would be)
        pytest.param("3\\text{ m} - 1\\text{ m} = 2", "a unit on one side only", id="difference"),
        pytest.param(
            "3\\text{ m} - 1\\text{ s} = 2\\text{ m}",
            "a sum of quantities of different dimensions is not decided",
            id="mixed-difference",
        ),
        pytest.param(
            "2^{1\\text{ m}} = 2\\text{ m}", "a unit in an exponent is not decided", id="exponent"
        ),
        pytest.param(
            "\\ln(2\\text{ m}) = 1\\text{ m}",
            "a unit inside a function, a sum or a series is not decided",
            id="function",
        ),
        # the lower sign gives 0 m: neither side's \pm is judged by its upper sign alone
        pytest.param(
            "1\\text{ m} \\pm 1\\text{ m} = 0.002\\text{ km}",
            "\\pm with units is not decided",
            id="plus-minus-left",
        ),
        pytest.param(
            "0.002\\text{ km} = 1\\text{ m} \\pm 1\\text{ m}",
            "\\pm with units is not decided",
            id="plus-minus-right",
        ),
        pytest.param(
            "5\\text{ m} \\ll 5\\text{ km}",
            "\\ll between quantities is not decided",
            id="much-less",
        ),
    ],
)
def test_what_is_not_decided_says_why(tex: str, reason: str) -> None:
    [verdict] = iter_claims(tex)
    assert (verdict.status, verdict.message, verdict.hint) == (U, reason, "")


def test_an_unread_side_has_no_hint() -> None:
    [verdict] = iter_claims("1\\text{ KB} = 1000\\text{ B}")
    assert (verdict.status, verdict.hint) == (U, "")


@pytest.mark.parametrize(
    "tex",
    [
        "x\\text{ m} = 1\\text{ km}",
        "1\\text{ km} = x\\text{ m}",
        "x\\text{ m} = x\\text{ km}",
        "x\\text{ m} + 1\\text{ m} > 1\\text{ mm}",
    ],
    ids=["left", "right", "both", "sum"],
)
def test_a_quantity_with_letters_is_not_decided(tex: str) -> None:
    [verdict] = iter_claims(tex, variables={"x": "positive"})
    assert (verdict.status, verdict.message, verdict.hint) == (
        U,
        "a quantity with letters is not decided",
        "",
    )


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        ("1\\text{ km} = \\frac{1}{0}\\text{ m}", "division by zero"),
        ("1\\text{ km} = 0^0\\text{ m}", "a side has no value"),
        (
            "\\sqrt{1\\text{ cm}} \\approx 1.1\\text{ cm}^{0.5}",
            "\\approx with units needs a number and a unit on the right",
        ),
        (
            "1\\text{ m} \\approx 1\\text{ m} + 1\\text{ cm}",
            "\\approx with units needs a number and a unit on the right",
        ),
    ],
    ids=["right-over-zero", "right-zero-to-zero", "approx-half-power", "approx-sum"],
)
def test_an_unchecked_quantity_has_no_hint(tex: str, reason: str) -> None:
    [verdict] = iter_claims(tex)
    assert (verdict.status, verdict.message, verdict.hint) == (U, reason, "")


def test_a_failure_quotes_the_claim() -> None:
    [verdict] = iter_claims("1\\text{ s} = 999\\text{ ms}")
    assert verdict.message == (
        "claim is false: 1\\text{ s} = 999\\text{ ms} (in ms: left side is 1000, right side is 999)"
    )


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        # different units on the two sides, so each side's units are read
        pytest.param("\\log_{2}(8)\\text{ min} = 180\\text{ s}", C, id="after-a-subscript"),
        pytest.param("\\log_{2}(8)\\text{ min} = 181\\text{ s}", F, id="after-a-subscript-false"),
        pytest.param("\\log_{{2}}(8)\\text{ min} = 180\\text{ s}", C, id="after-nested-braces"),
    ],
)
def test_a_unit_after_a_subscript_is_read(tex: str, expected: Status) -> None:
    assert _verdict(tex)[0] is expected


def test_a_unit_right_after_a_letter_subscript_is_read() -> None:
    # read as a unit, so the claim is a quantity with a letter, not a number with words
    assert _verdict("x_{1}\\text{ min} = 60\\text{ s}") == (
        U,
        "a quantity with letters is not decided",
    )


def test_a_unit_word_inside_a_subscript_is_not_a_unit() -> None:
    # inside the subscript, even after a nested group: text, not a unit in a function
    assert _verdict("\\log_{{2}\\text{ s}}(8) = 3") == (
        U,
        "words or a unit (\\text{ s}) next to a number",
    )


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        # a unit word in a letter's subscript names the letter: t_s is a letter
        pytest.param(
            "t_{\\text{s}} = 2\\text{ s}", "a quantity with letters is not decided", id="t-s"
        ),
        pytest.param(
            "x_1\\text{ min} = 60\\text{ s}", "a quantity with letters is not decided", id="x-1"
        ),
        # a word before a parenthesis names a function, never a unit (g is not grams)
        pytest.param(
            "\\text{g}(0) = 0",
            "function application g(...) of a function pizarra does not know",
            id="text-g",
        ),
        pytest.param(
            "\\mathrm{g}\\left(0\\right) = 0",
            "words or a unit (\\mathrm{g}) next to a number",
            id="mathrm-g-left",
        ),
        pytest.param(
            "2 = \\text{g}(",
            "function application g(...) of a function pizarra does not know",
            id="text-g-at-the-end",
        ),
    ],
)
def test_words_that_are_not_units(tex: str, reason: str) -> None:
    assert _verdict(tex) == (U, reason)


@pytest.mark.parametrize(
    "tex",
    [
        "\\operatorname{ReLU}(1)\\text{ s} = 1000\\text{ ms}",  # a unit after a function's value
        "3\\mathrm{\\mu s} = 0.003\\text{ ms}",  # a spelling of two words
    ],
    ids=["after-a-function", "two-words"],
)
def test_units_beside_functions_and_spaces_are_read(tex: str) -> None:
    assert _verdict(tex)[0] is C
