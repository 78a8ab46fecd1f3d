"""The judge: every relation false and true, equal pairs, undefined sides, its bound."""

from __future__ import annotations

from fractions import Fraction
from typing import NoReturn

import pytest

from pizarra.math.exact import decide
from pizarra.math.exact.evaluate import Context
from pizarra.math.exact.judge import MAX_TEX, SPANISH_GROUPING_HINT, Status, Verdict, judge_formula
from pizarra.math.exact.real import OutOfBounds

C, U, F = Status.CHECKED, Status.UNCHECKED, Status.FAILED


def judge(tex: str, context: Context | None = None) -> list[Verdict]:
    return judge_formula(tex, context or Context())


def statuses(tex: str, context: Context | None = None) -> list[Status]:
    return [verdict.status for verdict in judge(tex, context)]


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("3 \\le 2", F, id="false-le"),
        pytest.param("\\sqrt{5} \\le 2", F, id="false-le-irrational"),
        pytest.param("2 \\le 2", C, id="equal-le"),
        pytest.param("1 \\le 2", C, id="true-le"),
        pytest.param("2 \\ge 3", F, id="false-ge"),
        pytest.param("2 \\ge 2", C, id="equal-ge"),
        pytest.param("3 \\ge 2", C, id="true-ge"),
        pytest.param("2 < 2", F, id="equal-lt"),
        pytest.param("\\sqrt{2} < \\sqrt{2}", F, id="equal-lt-irrational"),
        pytest.param("\\frac{1}{2} < 0.5", F, id="equal-lt-spellings"),
        pytest.param("3 < 2", F, id="false-lt"),
        pytest.param("1 < 2", C, id="true-lt"),
        pytest.param("2 > 2", F, id="equal-gt"),
        pytest.param("\\sqrt{8} > 2\\sqrt{2}", F, id="equal-gt-irrational"),
        pytest.param("1 > 2", F, id="false-gt"),
        pytest.param("3 > 2", C, id="true-gt"),
        pytest.param("2 \\ne 2", F, id="equal-ne"),
        pytest.param("\\sqrt{4} \\neq 2", F, id="equal-neq"),
        pytest.param("3 \\ne 2", C, id="true-ne"),
        pytest.param("3 = 2", F, id="false-eq"),
        pytest.param("\\sqrt{2} = 1.4142135623730950488", F, id="false-eq-hair"),
        pytest.param("2 = 2", C, id="true-eq"),
    ],
)
def test_each_relation(tex: str, expected: Status) -> None:
    assert statuses(tex) == [expected]


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("\\sqrt{2} > 1.41421356237309504880", C, id="gt-below"),
        pytest.param("\\sqrt{2} < 1.41421356237309504880", F, id="lt-below"),
        pytest.param("\\sqrt{2} \\le 1.41421356237309504880", F, id="le-below"),
        pytest.param("\\sqrt{2} < 1.41421356237309504881", C, id="lt-above"),
        pytest.param("\\sqrt{2} > 1.41421356237309504881", F, id="gt-above"),
        pytest.param("\\sqrt{2} \\ge 1.41421356237309504881", F, id="ge-above"),
        pytest.param("\\sqrt{2} - 1.41421356237309504880 > 0", C, id="diff-positive"),
        pytest.param("\\sqrt{2} - 1.41421356237309504881 \\ge 0", F, id="diff-negative"),
    ],
)
def test_a_hair_from_equality(tex: str, expected: Status) -> None:
    assert statuses(tex) == [expected]


def test_a_failure_names_both_values() -> None:
    [verdict] = judge("512^2 = 262{,}145")
    assert verdict.status is F
    assert "left side is 262144, right side is 262145" in verdict.message
    assert "fix the number" in verdict.hint
    assert verdict.claim == "512^2 = 262{,}145"
    assert verdict.offset == 6


def test_a_checked_claim_has_no_message() -> None:
    [verdict] = judge("2+2=4")
    assert (verdict.status, verdict.message, verdict.hint, verdict.offset) == (C, "", "", 3)


def test_an_unsupported_side_is_unchecked_with_its_reason() -> None:
    for tex in ("a\\cdots a = 2", "2 = a\\cdots a"):
        [verdict] = judge(tex)
        assert verdict.status is U
        assert "\\cdots" in verdict.message
        assert verdict.hint == ""


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("\\sqrt{-9} = 3", F, id="left-undefined"),
        pytest.param("3 = \\sqrt{-9}", F, id="right-undefined"),
        pytest.param("\\sqrt{-9} \\ne 3", U, id="ne-undefined"),
        pytest.param("\\sqrt{-9} = \\sqrt{-9}", U, id="both-undefined"),
        pytest.param("\\sqrt{-9} < \\frac{1}{0}", U, id="both-undefined-lt"),
        pytest.param("\\sqrt{-x^2-1} = x", U, id="undefined-with-letters"),
    ],
)
def test_a_side_without_a_real_value(tex: str, expected: Status) -> None:
    [verdict] = judge(tex)
    assert verdict.status is expected
    if expected is F:
        assert "is not defined in the real numbers" in verdict.message
        assert "even root" in verdict.hint


def test_zero_to_the_zero_fails_on_either_side_without_a_convention() -> None:
    for tex in ("0^0 = 1", "1 = 0^0"):
        [verdict] = judge(tex)
        assert verdict.status is F
        assert verdict.message.startswith("0^0 has no value")
        assert "zero_to_the_zero" in verdict.hint
    assert statuses("0^0 = 1", Context(zero_to_the_zero=Fraction(1))) == [C]
    assert statuses("0^0 = 0", Context(zero_to_the_zero=Fraction(1))) == [F]


def test_unsupported_wins_over_zero_to_the_zero() -> None:
    assert statuses("0^0 = a\\cdots a") == [U]


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("(a+b)^2 = a^2+2ab+b^2", C, id="proved"),
        pytest.param("(a+b)^2 = a^2+b^2", U, id="not-proved"),
        pytest.param("x = 7", U, id="equation"),
        pytest.param("x \\approx x", U, id="approx-with-letters"),
        pytest.param("x^2 + 1 > 0", C, id="proved-inequality"),
        pytest.param("x^2 + 1 < 0", U, id="false-inequality"),
        pytest.param("2 = x - x + 2", C, id="letters-on-one-side"),
    ],
)
def test_claims_with_declared_letters(tex: str, expected: Status) -> None:
    declared = Context(domains={"a": "real", "b": "real", "x": "real"})
    [status] = statuses(tex, declared)
    if expected is U:
        assert status is not C
    else:
        assert status is expected
    assert statuses(tex) == [U], "undeclared letters are never decided"


def test_too_large_a_comparison_is_unchecked() -> None:
    [verdict] = judge(
        "\\sqrt{2}+\\sqrt{3}+\\sqrt{5}+\\sqrt{7}+\\sqrt{11}+\\sqrt{13}+\\sqrt{17}"
        "+\\sqrt{19} = \\sqrt{23}"
    )
    assert verdict.status is U
    assert "radicals" in verdict.message
    assert verdict.hint == ""


def test_approx_failure_explains_the_tolerance() -> None:
    [verdict] = judge("\\sqrt{2} \\approx 1.5")
    assert verdict.status is F
    assert verdict.message == (
        "claim is false: \\sqrt{2} \\approx 1.5 (left side is sqrt(2) (about 1.414213562), "
        "right side is 3/2; \\approx allows a difference of half of 1/10 (the last written digit))"
    )
    [equal] = judge("\\sqrt{2} = 1.41")
    assert equal.message == (
        "claim is false: \\sqrt{2} = 1.41 (left side is sqrt(2) (about 1.414213562), "
        "right side is 141/100)"
    )


def test_longest_formula() -> None:
    body = "1=1"
    at = body + " " * (MAX_TEX - len(body))
    assert statuses(at) == [C]
    [verdict] = judge(at + " ")
    assert verdict == Verdict(at[:40] + "...", U, "too large: formula too long", "", 0)


def test_the_same_side_is_read_once_per_formula() -> None:
    assert statuses("2^{10} = 1024 = 2^{10}") == [C, C]
    assert statuses("1024 = 2^{10} \\ne 1024") == [C, F]


@pytest.mark.parametrize(
    "tex",
    [
        pytest.param("\\sqrt{4} \\ne -2, 2", id="comma"),
        pytest.param("\\sqrt{4} \\ne -2; 2", id="semicolon"),
        pytest.param("\\sqrt{4} \\ne -2 \\text{ or } 2", id="or"),
        pytest.param("\\sqrt{4} \\ne -2 \\text{ and } 2", id="and"),
        pytest.param("2 < 3 \\text{ or } 1", id="order"),
        pytest.param("\\sqrt{4} \\ne -2, \\frac{4}{2}.", id="fraction-then-period"),
    ],
)
def test_a_list_of_values_is_not_judged_by_its_first(tex: str) -> None:
    [verdict] = judge(tex)
    assert verdict.status is U
    assert "a list of values" in verdict.message


def test_separators_that_start_a_new_statement_still_split() -> None:
    assert statuses("2 = 2, \\quad 3 = 3") == [C, C]
    assert statuses("2 = 2, 3 = 4") == [C, F]
    assert statuses("2^{10} = 1024, \\text{ so } 2^{11} = 2048") == [C, C]
    assert statuses("2 = 2.") == [C]
    assert statuses("\\max(1, 2) = 2") == [C]


def test_digits_in_a_subscript_are_a_name_not_a_numeral() -> None:
    assert statuses("a_{1,2} = 3") == [U]
    assert statuses("2 + a_{1,2} = 3") == [U]
    # a subscript at the very start of a formula
    assert statuses("_{1{,}5} + 1 = 2") == [U]


@pytest.mark.parametrize("lang", ["es", "es-ES"])
def test_a_spanish_grouping_slip_gets_its_hint(lang: str) -> None:
    """``262{,}144`` in Spanish is 262.144: the failure says how to group thousands."""
    [verdict] = judge("262{,}144 = 262144", Context(lang=lang))
    assert verdict.status is F
    assert verdict.hint == SPANISH_GROUPING_HINT
    [plain] = judge("262{,}5 = 262", Context(lang=lang))
    assert plain.status is F
    assert plain.hint != SPANISH_GROUPING_HINT


@pytest.mark.parametrize(
    ("tex", "message"),
    [
        pytest.param("\\infty = \\infty", "both sides are infinite", id="infinities"),
        pytest.param(
            "\\sqrt{2} \\approx \\pi", "\\approx needs a written decimal to round to", id="approx"
        ),
    ],
)
def test_why_a_comparison_is_not_made(tex: str, message: str) -> None:
    [verdict] = judge(tex)
    assert (verdict.status, verdict.message, verdict.hint) == (U, message, "")


# -- plain fractions are decided without the general path ---------------------------------


def no_general_path(*args: object) -> NoReturn:
    raise AssertionError("a claim between plain fractions reached the general path")


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("\\frac{1}{2} + \\frac{1}{3} = \\frac{5}{6}", C, id="equal"),
        pytest.param("\\frac{1}{2} + \\frac{1}{3} = \\frac{4}{5}", F, id="not-equal"),
        pytest.param("|{-2^{3}}| \\cdot 25\\% \\le 2", C, id="power-abs-percent"),
        pytest.param("\\frac{1}{3} \\approx 0.33", C, id="approx-unit-right"),
        pytest.param("0.33 \\approx \\frac{1}{3}", C, id="approx-unit-left"),
        pytest.param("\\frac{1}{3} \\approx 0.35", F, id="approx-false"),
    ],
)
def test_plain_fractions_are_decided_without_sympy(
    monkeypatch: pytest.MonkeyPatch, tex: str, expected: Status
) -> None:
    """The judge's own exact path (no sympy) decides them; the general path is not reached."""
    monkeypatch.setattr(decide, "decide", no_general_path)
    assert statuses(tex) == [expected]


def test_an_approximation_between_fractions_explains_the_tolerance() -> None:
    [verdict] = judge("\\frac{1}{3} \\approx 0.35")
    assert verdict.message == (
        "claim is false: \\frac{1}{3} \\approx 0.35 (left side is 1/3, right side is 7/20; "
        "\\approx allows a difference of half of 1/100 (the last written digit))"
    )
    assert verdict.hint != ""


@pytest.mark.parametrize(
    "error",
    [
        pytest.param(ZeroDivisionError, id="arithmetic"),
        pytest.param(ValueError, id="value"),
        pytest.param(TypeError, id="type"),
        pytest.param(RecursionError, id="recursion"),
        pytest.param(NotImplementedError, id="not-implemented"),
        pytest.param(OutOfBounds, id="out-of-bounds"),
    ],
)
def test_an_error_of_the_general_path_leaves_the_claim_unchecked(
    monkeypatch: pytest.MonkeyPatch, error: type[Exception]
) -> None:
    def failing(*args: object) -> NoReturn:
        raise error("inside sympy")

    monkeypatch.setattr(decide, "decide", failing)
    [verdict] = judge("\\sqrt{2} < 2")
    assert (verdict.status, verdict.message, verdict.hint) == (U, "too complex to decide", "")


def test_an_ambiguous_numeral_fails_with_its_own_verdict() -> None:
    """The failure names the numeral, says why, and how to write it."""
    ambiguous, claim = judge("x = 1,500")
    assert ambiguous == Verdict(
        "1,500",
        F,
        "1,500 is ambiguous in English: ',' between digits",
        "write numbers as 0.25 and 65{,}536 in this lesson's language",
        4,
    )
    assert (claim.status, claim.message) == (U, "1,500 is an ambiguous numeral")


def test_a_unit_after_a_sum_says_where_to_write_it() -> None:
    [verdict] = judge("2 + 3 \\text{ cm} = 5 \\text{ cm}")
    assert (verdict.status, verdict.message, verdict.hint) == (
        U,
        "a unit after a sum: write it after parentheses",
        "",
    )


def test_a_unit_after_a_sum_on_the_right_is_not_read() -> None:
    [verdict] = judge("5 \\text{ cm} = 2 + 3 \\text{ cm}")
    message = "a unit after a sum: write it after parentheses"
    assert (verdict.status, verdict.message) == (U, message)
