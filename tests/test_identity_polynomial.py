"""Identities: a nonzero expanded polynomial with rational coefficients is decided without
``simplify``, and the decision is the one ``simplify`` gives."""

from __future__ import annotations

import re

import pytest
import sympy

from pizarra.math.exact import identity
from pizarra.math.exact.identity import MAX_SIMPLIFY_OPS, _is_zero, rational_polynomial
from pizarra.math.exact.real import MAX_TERMS

x, y = sympy.symbols("x y", real=True)
n, k = sympy.symbols("n k", positive=True)
m = sympy.Symbol("m", integer=True)

DIFFERENCES = [
    # identities (zero), polynomial and not
    (x + 1) ** 2 - (x**2 + 2 * x + 1),
    (n + k) ** 3 - (n**3 + 3 * n**2 * k + 3 * n * k**2 + k**3),
    n ** (-2) - 1 / n**2,
    (x**2 - 1) / (x - 1) - (x + 1),
    sympy.sqrt(n**2) - n,
    2 ** (n + 1) - 2 * 2**n,
    sympy.log(n * k) - sympy.log(n) - sympy.log(k),
    # not identities (nonzero), polynomial and not
    k - 2,
    n - 1024,
    x**2 - x,
    (x + 1) ** 2 - (x**2 + 1),
    (x + y) ** 2 - (x**2 + y**2),
    m**2 - m,
    sympy.Rational(1, 3) * x - x / 3 + sympy.Rational(1, 10**20),
    sympy.sqrt(x**2) - x,
    2**n - n**2,
    x * sympy.sqrt(2) - sympy.sqrt(2 * x**2),
    (sympy.sqrt(3 + 2 * sympy.sqrt(2)) - 1 - sympy.sqrt(2)) * x,
]


def plain(value: object) -> str:
    """A selectable test id (mutation testing re-runs a test by it): ``x**2 - x`` -> ``x_2_-_x``."""
    return re.sub(r"[^A-Za-z0-9.\-]+", "_", str(value)).strip("_")


def simplify_decision(difference: sympy.Expr) -> bool:
    """The decision before the fast path: expand, then simplify."""
    if difference == 0 or difference.is_zero is True:
        return True
    if sympy.expand(difference) == 0:
        return True
    if sympy.count_ops(difference) > MAX_SIMPLIFY_OPS:
        return False
    return bool(sympy.simplify(difference) == 0)


@pytest.mark.parametrize("difference", DIFFERENCES, ids=plain)
def test_the_fast_path_agrees_with_simplify(difference: sympy.Expr) -> None:
    assert _is_zero(difference) == simplify_decision(difference)


def test_both_kinds_of_answer_are_covered() -> None:
    decisions = [simplify_decision(d) for d in DIFFERENCES]
    assert decisions.count(True) >= 6 and decisions.count(False) >= 8


@pytest.mark.parametrize(
    "difference", [k - 2, n - 1024, x**2 - x, (x + y) ** 2 - (x**2 + y**2), m**2 - m], ids=plain
)
def test_a_nonzero_rational_polynomial_never_reaches_simplify(
    difference: sympy.Expr, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> sympy.Expr:
        raise AssertionError("simplify was called")

    monkeypatch.setattr(identity.sympy, "simplify", refuse)
    assert _is_zero(difference) is False


def refuse_simplify(*args: object, **kwargs: object) -> sympy.Expr:
    raise AssertionError("simplify was called")


def test_a_long_difference_never_reaches_simplify(monkeypatch: pytest.MonkeyPatch) -> None:
    difference = sum(sympy.sqrt(x**2 + i) for i in range(1, 17)) - 1
    assert sympy.count_ops(difference) > MAX_SIMPLIFY_OPS
    monkeypatch.setattr(identity.sympy, "simplify", refuse_simplify)
    assert _is_zero(difference) is False


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        pytest.param(MAX_SIMPLIFY_OPS, True, id="at-the-bound"),
        pytest.param(MAX_SIMPLIFY_OPS + 1, False, id="above-it"),
    ],
)
def test_simplify_is_given_differences_up_to_the_bound(
    monkeypatch: pytest.MonkeyPatch, ops: int, expected: bool
) -> None:
    """(x^2 - 1)/(x - 1) - (x + 1): not 0 expanded, 0 simplified."""
    monkeypatch.setattr(identity.sympy, "count_ops", lambda expr: ops)
    assert _is_zero((x**2 - 1) / (x - 1) - (x + 1)) is expected


@pytest.mark.parametrize(
    ("terms", "difference", "expected"),
    [
        pytest.param(MAX_TERMS, (x + 1) ** 2 - (x**2 + 2 * x + 1), True, id="zero-at-the-bound"),
        pytest.param(MAX_TERMS + 1, (x + 1) ** 2 - (x**2 + 2 * x + 1), False, id="zero-above"),
        pytest.param(MAX_TERMS + 1, (x + 1) ** 2 - x**2, False, id="nonzero-above"),
    ],
)
def test_a_difference_is_expanded_up_to_the_bound(
    monkeypatch: pytest.MonkeyPatch, terms: int, difference: sympy.Expr, expected: bool
) -> None:
    """Above the bound nothing is expanded, and nothing is proved."""
    monkeypatch.setattr(identity, "expanded_terms", lambda expr: terms)
    assert _is_zero(difference) is expected


def test_a_difference_sympy_knows_is_zero_needs_no_expansion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(1 + sqrt 2)^2 - 3 - 2 sqrt 2 is kept as written, but sympy knows it is 0."""
    zero = x * ((1 + sympy.sqrt(2)) ** 2 - 3 - 2 * sympy.sqrt(2))
    assert zero != 0 and zero.is_zero is True
    monkeypatch.setattr(identity, "expanded_terms", lambda expr: MAX_TERMS + 1)
    assert _is_zero(zero) is True


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        (x**2 - 3 * x * y + sympy.Rational(1, 2), True),
        (sympy.Integer(7), True),
        (x * sympy.sqrt(2) - 1, False),
        (x - sympy.pi, False),
        (x - sympy.Float("0.5"), False),
        (1 / x + 1, False),
        (sympy.sin(x) - x, False),
        (2**n - 1, False),
        (x - sympy.I, False),
    ],
    ids=plain,
)
def test_what_counts_as_a_rational_polynomial(expression: sympy.Expr, expected: bool) -> None:
    assert rational_polynomial(sympy.expand(expression)) is expected
