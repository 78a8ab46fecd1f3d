"""Judging what learners type: each answer type, each form, Spanish and English input."""

from __future__ import annotations

from typing import Any

import pytest

from pizarra.check.answers import judge
from tests.answers.corpus import fields

KEYS = fields()


def key_of(kind: str, value: list[str], lang: str) -> dict[str, Any]:
    return next(k for k in KEYS if k["type"] == kind and k["value"] == value and k["lang"] == lang)


def verdict(key: dict[str, Any], text: str) -> tuple[str, str, str]:
    got = judge(key, text)
    return got.verdict, got.code, got.feedback


EVALUATE_3_4 = key_of("number", ["81"], "es")
SIXTEENTH = key_of("number", ["1/16"], "es")
SIXTEENTH_EN = key_of("number", ["1/16"], "en")


@pytest.mark.parametrize(
    "text",
    ["81", "81.", "+81", "81,0", "162/2", "\\left(81\\right)", " 81 ", "\\,81", "(81)"],
)
def test_a_number_written_any_plain_way_is_correct(text: str) -> None:
    assert verdict(EVALUATE_3_4, text) == ("correct", "", "")


@pytest.mark.parametrize("text", ["3^4", "3**4", "3⁴", "3·3·3·3", "3×3×3×3", "9·9", "(3^2)^2"])
def test_evaluated_refuses_the_value_left_as_an_expression(text: str) -> None:
    assert verdict(EVALUATE_3_4, text) == ("incorrect", "form_evaluated", "")


def test_an_anticipated_mistake_gets_its_feedback() -> None:
    assert verdict(EVALUATE_3_4, "12") == ("incorrect", "", "multiplicaste")
    assert verdict(EVALUATE_3_4, "4·3") == ("incorrect", "", "multiplicaste")
    assert verdict(EVALUATE_3_4, "80") == ("incorrect", "", "")


@pytest.mark.parametrize(
    "text",
    ["1/16", "0,0625", "0.0625", "\\frac{1}{16}", "\\dfrac{1}{16}", "2/32", "{1}/{16}"],
)
def test_one_sixteenth_in_spanish(text: str) -> None:
    assert verdict(SIXTEENTH, text)[0] == "correct"


@pytest.mark.parametrize("text", ["2^-4", "2^(-4)", "4^-2", "64^{-2/3}", "1/2^4", "16^-1"])
def test_one_sixteenth_as_a_power_is_the_value_but_not_evaluated(text: str) -> None:
    assert verdict(SIXTEENTH, text) == ("incorrect", "form_evaluated", "")


def test_signs_from_phones_and_the_sign_mistake() -> None:
    assert verdict(SIXTEENTH, "−1/16") == ("incorrect", "", "signo")
    assert verdict(SIXTEENTH, "16") == ("incorrect", "", "recíproco")


def test_english_reads_the_decimal_point_and_refuses_a_thousands_comma() -> None:
    assert verdict(SIXTEENTH_EN, "0.0625")[0] == "correct"
    assert verdict(SIXTEENTH_EN, "0,0625") == ("unread", "one_value", "")
    assert verdict(SIXTEENTH_EN, "1,000") == ("unread", "ambiguous_comma", "")
    assert verdict(SIXTEENTH_EN, "2/32") == ("incorrect", "form_simplified", "")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("16.384", "ambiguous_point"),
        ("1/2x", "ambiguous_division"),
        ("2 3", "unreadable"),
        ("ochenta", "unknown_word"),
        ("\\unknown", "unknown_command"),
        ("x", "unknown_letter"),
        ("(" * 45 + "1" + ")" * 45, "too_long"),
        ("1" * 201, "too_long"),
        ("٨١", "unreadable"),
        ("81!", "unreadable"),
    ],
)
def test_what_cannot_be_read_says_why(text: str, code: str) -> None:
    assert verdict(SIXTEENTH, text) == ("unread", code, "")


@pytest.mark.parametrize("text", ["2^(1/2)", "sqrt 2", "0^0", "2^100001", "3^(1/65)"])
def test_what_is_not_exact_here_is_unchecked_never_correct(text: str) -> None:
    assert verdict(SIXTEENTH, text) == ("unchecked", "cannot_check", "")


def test_real_semantics_of_roots_and_zero() -> None:
    assert verdict(SIXTEENTH, "1/0") == ("incorrect", "input_undefined", "")
    assert verdict(SIXTEENTH, "sqrt(-9)") == ("incorrect", "input_no_real", "")
    minus_two = key_of("number", ["-2"], "en")
    assert verdict(minus_two, "(-8)^(1/3)")[0] == "correct"
    assert verdict(minus_two, "\\sqrt[3]{-8}")[0] == "correct"
    assert verdict(minus_two, "-\\sqrt{4}")[0] == "correct"


def test_words_for_undefined_and_no_real_value_are_localized() -> None:
    undefined = key_of("number", ["undefined"], "es")
    assert verdict(undefined, "No está definido.")[0] == "correct"
    assert verdict(undefined, "indefinido")[0] == "correct"
    assert verdict(undefined, "no real") == ("incorrect", "", "no es una raíz")
    assert verdict(undefined, "0") == ("incorrect", "", "cero")
    assert verdict(undefined, "1/0") == ("incorrect", "input_undefined", "")
    no_real = key_of("number", ["no-real"], "en")
    assert verdict(no_real, "No real value")[0] == "correct"
    assert verdict(no_real, "undefined") == ("incorrect", "", "not a division")
    assert verdict(no_real, "no definido") == ("unread", "unknown_word", "")


def test_forms_fraction_and_decimal() -> None:
    fraction = key_of("number", ["\\frac{3}{4}"], "es")
    assert verdict(fraction, "3/4")[0] == "correct"
    assert verdict(fraction, "6/8") == ("incorrect", "form_simplified", "")
    assert verdict(fraction, "0,75") == ("incorrect", "form_fraction", "")
    decimal = key_of("number", ["0,25"], "es")
    assert verdict(decimal, "0,25")[0] == "correct"
    assert verdict(decimal, "1/4") == ("incorrect", "form_decimal", "")


def test_an_approximation_is_judged_to_its_last_written_digit() -> None:
    approx = key_of("number", ["15,62"], "es")
    assert verdict(approx, "15,62")[0] == "correct"
    assert verdict(approx, "15,624")[0] == "correct"
    assert verdict(approx, "15,615")[0] == "correct"
    assert verdict(approx, "15,6") == ("incorrect", "more_digits", "")
    assert verdict(approx, "15,626") == ("incorrect", "", "redondeo")
    assert verdict(approx, "15,64") == ("incorrect", "", "")
    english = key_of("number", ["-921.03"], "en")
    assert verdict(english, "−921.03")[0] == "correct"
    assert verdict(english, "-921.0") == ("incorrect", "more_digits", "")


EXPRESSION = key_of("expression", ["1/x^2"], "es")


@pytest.mark.parametrize("text", ["1/x^2", "1/(x·x)", "x^2/x^4", "x/x^3", "1/x/x", "(1/x)^2"])
def test_an_equivalent_expression_is_correct(text: str) -> None:
    assert verdict(EXPRESSION, text) == ("correct", "", "")


@pytest.mark.parametrize(
    "text", ["x^-2", "x^(-2)", "x^{-2}", "x^3 x^-5", "x^3·x^(-5)", "(x^2)^(-1)"]
)
def test_an_equivalent_expression_with_a_negative_exponent_misses_the_form(text: str) -> None:
    assert verdict(EXPRESSION, text) == ("incorrect", "form_negative_exponents", "")


def test_an_expression_that_differs_is_not_correct() -> None:
    assert verdict(EXPRESSION, "x^2") == ("incorrect", "", "signo del exponente")
    assert verdict(EXPRESSION, "x^3x^5") == ("incorrect", "", "")
    assert verdict(EXPRESSION, "1/x^3") == ("incorrect", "", "")
    assert verdict(EXPRESSION, "y") == ("unread", "unreadable", "")  # "y" is "and" in Spanish
    assert verdict(EXPRESSION, "z") == ("unread", "unknown_letter", "")


def test_where_the_answer_may_be_undefined_it_is_unchecked_not_correct() -> None:
    # equal to 1/x^2 except at x = -1, where the answer is undefined
    assert verdict(EXPRESSION, "(x+1)/(x^3+x^2)") == ("unchecked", "cannot_check", "")
    # |x| / x^3 for a real x: outside the class
    assert verdict(EXPRESSION, "sqrt(x^2)/x^3") == ("unchecked", "cannot_check", "")
    real = key_of("expression", ["x^2+2*x*y+y^2"], "en")
    assert verdict(real, "(x+y)^3/(x+y)") == ("unchecked", "cannot_check", "")


def test_polynomials_rational_functions_and_rational_powers() -> None:
    square = key_of("expression", ["x^2+2*x*y+y^2"], "en")
    for text in ("(x+y)^2", "(y+x)(x+y)", "x^2+2xy+y^2", "y^2+x(2y+x)"):
        assert verdict(square, text)[0] == "correct", text
    assert verdict(square, "x^2+y^2") == ("incorrect", "", "cross term")
    root = key_of("expression", ["x^(1/2)"], "en")
    for text in ("sqrt(x)", "√x", "x^(2/4)", "(x^2)^(1/4)", "x/sqrt(x)", "x^0.5"):
        assert verdict(root, text)[0] == "correct", text
    assert verdict(root, "x^(1/3)")[0] == "incorrect"
    quotient = key_of("expression", ["1/(x+1)"], "es")
    for text in ("x/(x^2+x)", "2/(2x+2)", "(x+1)^-1", "1/(1+x)"):
        assert verdict(quotient, text)[0] == "correct", text
    laurent = key_of("expression", ["a^3 b^-2"], "en")
    assert verdict(laurent, "a^3/(b b)")[0] == "correct"
    assert verdict(laurent, "a^2/b^3")[0] == "incorrect"


def test_choice_of_one_and_of_several() -> None:
    one = key_of("choice", ["c"], "es")
    assert verdict(one, "c")[0] == "correct"
    assert verdict(one, "a") == ("incorrect", "", "convención")
    assert verdict(one, "") == ("unread", "choose", "")
    assert verdict(one, "a,c") == ("unread", "choose_one", "")
    assert verdict(one, "z") == ("unread", "unknown_option", "")
    several = key_of("choice", ["a", "c"], "en")
    assert verdict(several, "c,a")[0] == "correct"
    assert verdict(several, "a") == ("incorrect", "missing_items", "")
    assert verdict(several, "a,b") == ("incorrect", "", "b is")
    assert verdict(several, "a,b,c") == ("incorrect", "", "")


@pytest.mark.parametrize(
    "text", ["7, -7", "7; -7", "7 y -7", "x = 7, x = -7", "x=7 o x=-7", "±7", "\\pm 7", "-7, 7"]
)
def test_a_set_in_spanish(text: str) -> None:
    assert verdict(key_of("set", ["7", "-7"], "es"), text)[0] == "correct"


def test_sets_and_lists_that_are_not_right() -> None:
    spanish = key_of("set", ["7", "-7"], "es")
    assert verdict(spanish, "7") == ("incorrect", "", "falta la negativa")
    assert verdict(spanish, "7, -7, 0") == ("incorrect", "extra_items", "")
    assert verdict(spanish, "y = 7") == ("unread", "unreadable", "")
    english = key_of("set", ["1/2", "-3"], "en")
    assert verdict(english, "0.5, -3")[0] == "correct"
    assert verdict(english, "x = 1/2 or x = -3")[0] == "correct"
    assert verdict(english, "-3") == ("incorrect", "missing_items", "")
    ordered = key_of("list", ["2", "4", "8"], "es")
    assert verdict(ordered, "2, 4, 8")[0] == "correct"
    assert verdict(ordered, "8, 4, 2") == ("incorrect", "wrong_order", "")
    assert verdict(ordered, "2^1, 2^2, 2^3") == ("incorrect", "form_evaluated", "")


@pytest.mark.parametrize("text", ["[-2; 3)", "[-2, 3)", "-2 <= x < 3", "-2 ≤ x < 3", "3 > x >= -2"])
def test_an_interval_in_spanish(text: str) -> None:
    assert verdict(key_of("interval", ["[-2; 3)"], "es"), text)[0] == "correct"


def test_intervals_that_are_not_right() -> None:
    closed = key_of("interval", ["[-2; 3)"], "es")
    assert verdict(closed, "(-2; 3)") == ("incorrect", "", "incluido")
    assert verdict(closed, "[-2; 3]") == ("incorrect", "endpoints_closed", "")
    assert verdict(closed, "[-2,3)") == ("unread", "two_endpoints", "")  # 2,3 is a decimal
    ray = key_of("interval", ["(0, inf)"], "en")
    for text in ("(0, ∞)", "(0, \\infty)", "x > 0", "0 < x", "]0, inf["):
        assert verdict(ray, text)[0] == "correct", text
    assert verdict(ray, "(0, inf]") == ("incorrect", "closed_infinity", "")
    assert verdict(ray, "[0, inf)") == ("incorrect", "endpoints_closed", "")
    half = key_of("interval", ["(-inf; 1/2]"], "es")
    assert verdict(half, "x ≤ 0,5")[0] == "correct"
    assert verdict(half, "(-∞; 0,5]")[0] == "correct"
