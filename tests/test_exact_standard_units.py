"""Standard functions: the exact values and the refusals that the corpus does not reach."""

from __future__ import annotations

import pytest
import sympy

from pizarra.check.claims import iter_claims
from pizarra.math.exact.standard import MAX_LIST, call_standard, is_symbolic
from pizarra.math.exact.status import Status

C, U, F = Status.CHECKED, Status.UNCHECKED, Status.FAILED


def _verdict(tex: str, **variables: str) -> tuple[Status, str]:
    [verdict] = iter_claims(tex, variables=variables)
    return verdict.status, verdict.message


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("\\operatorname{LSE}(x, x) = x + \\ln 2", C, id="lse-identity"),
        pytest.param("\\operatorname{LSE}(x, x) = x + \\ln 3", F, id="lse-identity-false"),
        pytest.param("\\tanh(-x) = -\\tanh(x)", C, id="tanh-odd"),
        pytest.param("\\tanh(-x) = \\tanh(x)", F, id="tanh-even-false"),
        pytest.param("\\operatorname{ReLU}(x) = x", F, id="relu-false-at-a-point"),
        pytest.param("\\operatorname{ReLU}(x^2) = x^2", U, id="relu-not-proved"),
        pytest.param("\\operatorname{erf}(-x) = -\\operatorname{erf}(x)", U, id="erf-not-proved"),
    ],
)
def test_with_letters(tex: str, expected: Status) -> None:
    assert _verdict(tex, x="real")[0] is expected


def test_which_functions_keep_letters() -> None:
    assert [is_symbolic(n) for n in ("sigmoid", "tanh", "logsumexp", "relu", "erf", "Phi")] == [
        True, True, True, False, False, False,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("\\operatorname{softmax}(5)_1 = 1", C, id="one-number"),
        pytest.param("\\operatorname{softmax}(5)_1 = 0.9", F, id="one-number-false"),
        pytest.param("\\operatorname{softmax}(0, \\ln 3)_2 = \\frac{3}{4}", C, id="second"),
        pytest.param("\\operatorname{softmax}(0, \\ln 3)_2 = \\frac{1}{4}", F, id="second-false"),
        pytest.param("\\operatorname{LSE}(2) = 2", C, id="lse-one"),
        pytest.param("\\operatorname{LSE}(2) = 3", F, id="lse-one-false"),
    ],
)
def test_softmax_and_lse_values(tex: str, expected: Status) -> None:
    assert _verdict(tex)[0] is expected


COMPONENT = "a softmax component that is not one of its numbers"


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        pytest.param(
            "\\operatorname{softmax}(0) = 1",
            "softmax gives a vector: write one component, softmax(z)_i",
            id="no-component",
        ),
        pytest.param("\\operatorname{softmax}(0, 0)_3 = 1", COMPONENT, id="past-the-end"),
        pytest.param("\\operatorname{softmax}(0, 0)_0 = 1", COMPONENT, id="zero"),
        pytest.param("\\operatorname{softmax}(0, 0)_{1.5} = \\frac{1}{2}", COMPONENT, id="half"),
        pytest.param("\\operatorname{ReLU}(1, 2) = 1", "ReLU takes one argument", id="relu-two"),
    ],
)
def test_refusals_say_why(tex: str, reason: str) -> None:
    assert _verdict(tex) == (U, reason)


def test_the_list_bound() -> None:
    ones = [sympy.Integer(1)] * MAX_LIST
    assert call_standard("softmax", [sympy.Integer(1), *ones]) == sympy.Rational(1, MAX_LIST)
    assert call_standard("logsumexp", ones) == sympy.log(MAX_LIST * sympy.E)
    with pytest.raises(ValueError, match=f"^softmax of more than {MAX_LIST} numbers$"):
        call_standard("softmax", [sympy.Integer(1), *ones, sympy.Integer(1)])
    with pytest.raises(ValueError, match=f"^log-sum-exp of 1 to {MAX_LIST} numbers is decided$"):
        call_standard("logsumexp", [*ones, sympy.Integer(1)])
    with pytest.raises(ValueError, match=r"^log-sum-exp of 1 to"):
        call_standard("logsumexp", [])


@pytest.mark.parametrize(
    "tex",
    [
        "\\operatorname{erf}(-0.5) = -\\operatorname{erf}(0.5)",
        "\\operatorname{erf}(0.5) = -\\operatorname{erf}(-0.5)",
        "\\operatorname{erf}(0.5) + \\operatorname{erf}(-0.5) = 0",
        # sympy itself would write erf(sqrt(3) - 1) as -erf(1 - sqrt(3)): one form for both
        "\\operatorname{erf}(\\sqrt{3} - 1) = -\\operatorname{erf}(1 - \\sqrt{3})",
        "\\operatorname{erf}(1 - \\sqrt{3}) = -\\operatorname{erf}(\\sqrt{3} - 1)",
    ],
    ids=["negative-first", "positive-first", "sum", "root-positive", "root-negative"],
)
def test_erf_is_odd_exactly(tex: str) -> None:
    assert _verdict(tex)[0] is C


def test_functions_of_letters_that_are_not_computed() -> None:
    x = sympy.Symbol("x")
    for name in ("relu", "erf", "Phi", "sign"):
        with pytest.raises(ValueError, match=f"^{name} of an expression with letters$"):
            call_standard(name, [x])


def test_relu_of_a_hidden_zero_is_exactly_zero() -> None:
    hidden = "\\ln 8 - 3\\ln 2"  # zero, though sympy does not simplify it
    assert _verdict(f"\\operatorname{{ReLU}}({hidden}) = 0")[0] is C
    status, message = _verdict(f"\\operatorname{{ReLU}}({hidden}) = 1")
    assert status is F and "(left side is 0, right side is 1)" in message
    status, message = _verdict(f"0^{{\\operatorname{{ReLU}}({hidden})}} = 1")
    assert status is F and "has no value unless the lesson declares a convention" in message
