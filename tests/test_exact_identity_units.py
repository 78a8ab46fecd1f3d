"""Relations with letters (identity.py): counterexamples at the roots of a polynomial
difference, only in the letter's domain; the order the points are tried in; a point that
cannot be decided; and the bounds of the proofs, at and above them."""

from __future__ import annotations

import pytest
import sympy

from pizarra.check.claims import iter_claims
from pizarra.math.exact import identity
from pizarra.math.exact.evaluate import Context
from pizarra.math.exact.judge import Status, Verdict
from pizarra.math.exact.real import OutOfBounds, holds

C, U, F = Status.CHECKED, Status.UNCHECKED, Status.FAILED
x, y = sympy.symbols("x y", real=True)


def verdict(tex: str, **variables: str) -> Verdict:
    [found] = iter_claims(tex, variables=variables)
    return found


@pytest.mark.parametrize(
    ("tex", "domain", "where"),
    [
        pytest.param("x^2 \\ne 2", "positive", "x = sqrt(2) (", id="positive"),
        pytest.param("x^2 \\ne 2", "nonnegative", "x = sqrt(2) (", id="nonnegative"),
        pytest.param("x^3 \\ne 2x", "nonnegative", "x = 0:", id="nonnegative-zero-first"),
        pytest.param("x^2 \\ne 2", "nonzero", "x = -sqrt(2) (", id="nonzero"),
        pytest.param("x^2 \\ne 25", "integer", "x = -5:", id="integer"),
        pytest.param("x^2 \\ne 49", "positive_integer", "x = 7:", id="positive-integer"),
        pytest.param("3x \\ne 1", "real", "x = 1/3:", id="degree-one"),
        pytest.param("x^4 \\ne 2", "real", "x = -2**(1/4) (", id="degree-four"),
    ],
)
def test_a_root_in_the_domain_is_the_counterexample(tex: str, domain: str, where: str) -> None:
    """None of these roots is a sample point: only the roots of the difference refute them."""
    found = verdict(tex, x=domain)
    assert found.status is F
    assert found.message.startswith(f"{tex} is false for {where}")


@pytest.mark.parametrize(
    ("tex", "domain"),
    [
        pytest.param("x^3 + 2x \\ne 2x^2", "positive", id="zero-not-positive"),
        pytest.param("x^3 + 2x \\ne 2x^2", "nonzero", id="zero-not-nonzero"),
        pytest.param("x^3 + 2x \\ne 2x^2", "positive_integer", id="zero-not-positive-integer"),
        pytest.param("x^2 \\ne 2", "integer", id="irrational-not-integer"),
        pytest.param("x^2 \\ne 2", "positive_integer", id="irrational-not-positive-integer"),
    ],
)
def test_a_root_outside_the_domain_never_fails_a_true_claim(tex: str, domain: str) -> None:
    """Each is true for every value of the domain; the difference's only real roots
    (0, or +-sqrt 2) lie outside it, so they are no counterexample."""
    found = verdict(tex, x=domain)
    assert (found.status, found.message) == (U, "not proved for every value of its letters")


def test_a_root_without_radicals_is_not_tried() -> None:
    """x^3 - 3x + 1 has three real roots that sympy writes only as CRootOf."""
    found = verdict("x^3 - 3x + 1 \\ne 0", x="real")
    assert (found.status, found.message) == (U, "not proved for every value of its letters")


def test_every_letter_moves_early_in_the_points_tried() -> None:
    """a = 3 is the sixth real sample: with b still at its first, it comes early."""
    found = verdict("a^2 < 5 + b^2", a="real", b="real")
    assert found.status is F
    assert found.message.startswith("a^2 < 5 + b^2 is false for a = 3, b = 0:")


def test_a_point_that_cannot_be_decided_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search goes on after a point out of bounds (the first root, t = -7, here)."""
    calls: list[str] = []

    def first_out_of_bounds(relation: str, left: sympy.Expr, right: sympy.Expr) -> bool:
        calls.append(relation)
        if len(calls) == 1:
            raise OutOfBounds("not decided")
        return holds(relation, left, right)

    monkeypatch.setattr(identity, "holds", first_out_of_bounds)
    found = verdict("t^2 < 49", t="real")
    assert found.status is F
    assert found.message.startswith("t^2 < 49 is false for t = 7:")


@pytest.mark.parametrize(
    "error", [TypeError, ValueError, NotImplementedError, RecursionError], ids=lambda e: e.__name__
)
def test_an_error_inside_a_proof_is_no_proof(
    monkeypatch: pytest.MonkeyPatch, error: type[Exception]
) -> None:
    """y^2 + 4 >= 4y is proved by factoring; when factoring fails it is not proved."""

    def failing(*args: object, **kwargs: object) -> sympy.Expr:
        raise error("inside sympy")

    monkeypatch.setattr(identity.sympy, "factor", failing)
    assert identity.proves("\\ge", y**2 + 4, 4 * y) is False
    assert verdict("y^2 + 4 \\ge 4y", y="real").status is U


def test_a_difference_that_is_no_polynomial_is_not_factored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> sympy.Expr:
        raise AssertionError("factor was called")

    monkeypatch.setattr(identity.sympy, "factor", refuse)
    assert identity.proves(">", sympy.sqrt(x**2 + 1), x) is False


@pytest.mark.parametrize(
    ("terms", "proved"),
    [
        pytest.param(identity.MAX_FACTOR_TERMS, True, id="at-the-bound"),
        pytest.param(identity.MAX_FACTOR_TERMS + 1, False, id="above-it"),
    ],
)
def test_an_order_is_factored_up_to_the_bound(
    monkeypatch: pytest.MonkeyPatch, terms: int, proved: bool
) -> None:
    monkeypatch.setattr(identity, "expanded_terms", lambda expr: terms)
    assert identity.proves("\\ge", y**2 + 4, 4 * y) is proved


@pytest.mark.parametrize(
    ("terms", "roots"),
    [
        pytest.param(identity.MAX_FACTOR_TERMS, 2, id="at-the-bound"),
        pytest.param(identity.MAX_FACTOR_TERMS + 1, 0, id="above-it"),
    ],
)
def test_roots_are_sought_up_to_the_bound(
    monkeypatch: pytest.MonkeyPatch, terms: int, roots: int
) -> None:
    monkeypatch.setattr(identity, "expanded_terms", lambda expr: terms)
    context = Context(domains={"x": "real"})
    assert len(identity._roots((x**2, sympy.Integer(2)), ["x"], context)) == roots


def test_a_large_false_identity_is_never_checked() -> None:
    """Its expansion is estimated above MAX_TERMS, so it is not expanded: a sample refutes it."""
    letters = dict.fromkeys("abcde", "real")
    found = verdict("(a+b+c+d+e)^{13} = (a+b+c+d+e+1)^{13}", **letters)
    assert found.status is F
    assert found.message.endswith("the left side is 0, the right side is 1")


def test_a_long_false_identity_is_never_checked() -> None:
    """Its difference has more operations than simplify is given, and its samples have too
    many radicals to compare exactly: it stays unchecked."""
    left = " + ".join(f"\\sqrt{{x^2+{k}}}" for k in range(1, 17))
    difference = sum(sympy.sqrt(x**2 + k) for k in range(1, 17)) - 1
    assert sympy.count_ops(difference) > identity.MAX_SIMPLIFY_OPS
    found = verdict(f"{left} = 1", x="real")
    assert (found.status, found.message) == (U, "not proved for every value of its letters")
