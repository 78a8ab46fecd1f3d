"""decide.py: the verdicts and messages of judgements of size, sides without a value and
\\pm, and the relations with letters decided before sympy's identity path."""

from __future__ import annotations

from typing import NoReturn

import pytest

from pizarra.check.claims import iter_claims
from pizarra.math.exact import identity
from pizarra.math.exact.judge import Status

C, U, F = Status.CHECKED, Status.UNCHECKED, Status.FAILED
JUDGEMENT = "is a judgement of size, not a relation pizarra decides"


def decided(tex: str, **variables: str) -> tuple[Status, str, str]:
    [verdict] = iter_claims(tex, variables=variables)
    return verdict.status, verdict.message, verdict.hint


@pytest.mark.parametrize(
    ("tex", "relation"),
    [
        pytest.param("1 \\ll 3", "\\ll", id="ll-true"),
        pytest.param("3 \\gg 1", "\\gg", id="gg-true"),
        pytest.param("1 \\lessapprox 3", "\\lessapprox", id="no-strict-relation"),
        pytest.param("5 \\lessapprox 3", "\\lessapprox", id="no-strict-relation-false"),
    ],
)
def test_a_judgement_of_size_is_never_checked(tex: str, relation: str) -> None:
    assert decided(tex) == (U, f"{relation} {JUDGEMENT}", "")


@pytest.mark.parametrize(
    ("tex", "message", "hint"),
    [
        pytest.param(
            "5 \\ll 3",
            "claim is false: 5 \\ll 3 (left side is 5, right side is 3) (so \\ll is false too)",
            "fix the number, or write the relation as text if it is not a claim",
            id="false-order",
        ),
        pytest.param(
            "\\sqrt{-1} \\gg 1",
            "\\sqrt{-1} is not defined in the real numbers: \\sqrt{-1} \\gg 1 "
            "(so \\gg is false too)",
            "an even root of a negative number is not real; "
            "fix the number, or write the relation as text if it is not a claim",
            id="undefined-side",
        ),
        pytest.param(
            "0^0 \\ll 1",
            "0^0 has no value unless the lesson declares a convention: 0^0 \\ll 1 "
            "(so \\ll is false too)",
            'declare a convention in the front matter, e.g. conventions: {zero_to_the_zero: "1"}',
            id="zero-to-the-zero",
        ),
    ],
)
def test_a_judgement_fails_with_its_order_and_says_so(tex: str, message: str, hint: str) -> None:
    assert decided(tex) == (F, message, hint)


@pytest.mark.parametrize(
    ("tex", "sign"),
    [
        pytest.param("1 \\pm 1 = 2", "lower", id="lower"),
        pytest.param("2 \\pm 1 = 1", "upper", id="upper"),
    ],
)
def test_a_claim_with_pm_names_the_sign_it_fails_with(tex: str, sign: str) -> None:
    status, message, _ = decided(tex)
    assert status is F
    assert message.startswith(f"claim is false: {tex} (left side is ")
    assert message.endswith(f" (with the {sign} sign of \\pm)")


@pytest.mark.parametrize(
    ("tex", "message"),
    [
        pytest.param("\\sqrt{-1} = \\sqrt{-2}", "a side has no real value", id="both-undefined"),
        pytest.param("\\sqrt{-1} \\ne 2", "a side has no real value", id="undefined-ne"),
        pytest.param("\\infty + 1 > 5", "arithmetic with \\infty is not decided", id="no-value"),
        pytest.param("x \\overset{?}{=} 3", "an equation to solve, not a claim", id="to-solve"),
    ],
)
def test_what_has_no_verdict_is_unchecked_without_a_hint(tex: str, message: str) -> None:
    assert decided(tex, x="real") == (U, message, "")


def no_identity_path(*args: object) -> NoReturn:
    raise AssertionError("the relation reached sympy's identity path")


@pytest.mark.parametrize(
    ("tex", "variables", "expected"),
    [
        pytest.param("x y = y x", {}, (U, "letters not declared under variables: x, y", ""),
                     id="undeclared"),
        pytest.param("x \\approx 2x", {"x": "real"},
                     (U, "an approximation or \\pm with letters is not decided", ""),
                     id="approximation"),
        pytest.param("x^2 x^3 = x^5", {"x": "real"}, (C, "", ""), id="products-and-powers"),
        pytest.param("x = 2y", {"x": "real", "y": "real"},
                     (U, "defines or states a value of x", ""), id="defines-left"),
        pytest.param("2 = x", {"x": "real"}, (U, "defines or states a value of x", ""),
                     id="defines-right"),
    ],
)  # fmt: skip
def test_what_needs_no_algebra_never_reaches_the_identity_path(
    monkeypatch: pytest.MonkeyPatch,
    tex: str,
    variables: dict[str, str],
    expected: tuple[Status, str, str],
) -> None:
    """Declined relations, identities of products and powers, and definitions are decided
    without sympy's identity path (the general path finds the same, a fifth of a second
    later)."""
    monkeypatch.setattr(identity, "judge_identity", no_identity_path)
    assert decided(tex, **variables) == expected
