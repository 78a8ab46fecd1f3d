"""Layout, units, identities and the final decision: the cases where a slip would certify
a falsehood (a negated relation read as the relation, a unit dropped from one side, an
identity proved where a side has no value, a ``\\pm`` judged by one sign)."""

from __future__ import annotations

import pytest
import sympy

from pizarra.check.claims import iter_claims
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.identity import proves
from pizarra.math.exact.lexer import lex
from pizarra.math.exact.parser import parse_side
from pizarra.math.exact.status import Status
from pizarra.math.exact.units import common_unit, scales_whole_side

C, U, F = Status.CHECKED, Status.UNCHECKED, Status.FAILED


def statuses(tex: str, **variables: str) -> list[Status]:
    return [verdict.status for verdict in iter_claims(tex, variables=variables)]


# -- layout: what a formula says, before it is judged ---------------------------------------


@pytest.mark.parametrize(
    "tex",
    [
        pytest.param("2 \\not< 3", id="not-lt"),
        pytest.param("2 \\not\\le 3", id="not-le"),
        pytest.param("3 \\not> 2", id="not-gt"),
        pytest.param("3 \\not\\ge 2", id="not-ge"),
        pytest.param("2 \\not\\approx 2", id="not-approx"),
        pytest.param("2 \\nless 3", id="nless"),
        pytest.param("3 \\ngeq 2", id="ngeq"),
        pytest.param("2 \\overset{!}{=} 3", id="overset-bang"),
        pytest.param("2 \\stackrel{\\text{def}}{=} 3", id="stackrel-def"),
        pytest.param("5 \\equiv 2 \\pmod 3", id="congruence"),
        pytest.param("5 = 2 \\mod 3", id="mod"),
        pytest.param("2 \\ll 3", id="much-less"),
        pytest.param("2 = 3 \\text{ is false}", id="words-after"),
        pytest.param("2 = \\underbrace{3}_{=2}", id="underbrace"),
        pytest.param("2 = \\color{red}{3}", id="color"),
        pytest.param("2 \\overset{?}{=} 3", id="to-solve"),
    ],
)
def test_a_relation_pizarra_does_not_read_is_never_checked(tex: str) -> None:
    """A negated or decorated relation is not the relation: never read as it."""
    assert C not in statuses(tex)


def test_labels_and_boxes() -> None:
    assert statuses("1 = 1 \\tag{2 = 3}") == [C]
    assert statuses("2 = 2 \\label{eq:3=4}") == [C]
    assert statuses("\\boxed{2 = 3}") == [F]
    assert statuses("2 = 3 \\\\ 2 = 2") == [F, C]


def test_a_ratio_is_a_division_between_numbers_only() -> None:
    assert statuses("16 : 4 = 4") == [C]
    assert statuses("16 : 4 = 5") == [F]
    assert statuses("2 : 3 : 4 = 1") == [F]


def test_negated_equality_is_inequality() -> None:
    assert statuses("2 \\not= 2") == [F]
    assert statuses("2 \\not= 3") == [C]


# -- units -------------------------------------------------------------------------------------


def sides(tex: str) -> tuple[list, list]:  # type: ignore[type-arg]
    left, right = tex.split("=")
    return lex(left), lex(right)


@pytest.mark.parametrize(
    ("tex", "kept"),
    [
        pytest.param("3\\text{ m} = 3\\text{ m}", ("3", "3"), id="same"),
        pytest.param("3\\,\\mathrm{m} = 3\\text{m}", ("3", "3"), id="spellings"),
        pytest.param("3\\text{ km h} = 3\\text{ km  h}", ("3", "3"), id="spaces"),
    ],
)
def test_a_common_unit_is_removed_from_both_sides(tex: str, kept: tuple[str, str]) -> None:
    found = common_unit(*sides(tex))
    assert found is not None
    assert tuple("".join(t.text for t in side).strip() for side in found) == kept


@pytest.mark.parametrize(
    "tex",
    [
        pytest.param("3\\text{ m} = 3\\text{ s}", id="different"),
        pytest.param("3\\text{ m} = 3\\text{ M}", id="case"),
        pytest.param("3\\text{ m} = 3", id="left-only"),
        pytest.param("3 = 3\\text{ m}", id="right-only"),
        pytest.param("3\\text{ m}^2 = 3\\text{ m}", id="power"),
        pytest.param("3\\text{ 100} = 3\\text{ 100}", id="digits"),
        pytest.param("3\\text{ m/s} = 3\\text{ m/s}", id="symbols"),
        pytest.param("\\text{ m} = \\text{ m}", id="unit-alone"),
        pytest.param(" = 3\\text{ m}", id="empty-side"),
    ],
)
def test_a_unit_that_does_not_cancel_is_kept(tex: str) -> None:
    found = common_unit(*sides(tex))
    assert found is None or not all(found), tex
    assert C not in statuses(tex)


def test_a_unit_inside_a_product_is_a_quantity() -> None:
    assert common_unit(*sides("3\\text{ m}\\cdot 2 = 6\\text{ m}")) is None
    assert statuses("3\\text{ m}\\cdot 2 = 6\\text{ m}") == [C]
    assert statuses("3\\text{ m}\\cdot 2 = 5\\text{ m}") == [F]


@pytest.mark.parametrize(
    ("tex", "whole"),
    [
        pytest.param("2 \\cdot 3", True, id="product"),
        pytest.param("-2 \\cdot 3", True, id="negated-product"),
        pytest.param("\\frac{1}{2}", True, id="fraction"),
        pytest.param("2^3", True, id="power"),
        pytest.param("2 + 3", False, id="sum"),
        pytest.param("2 - 3", False, id="difference"),
        pytest.param("-(2 + 3)", False, id="negated-sum"),
        pytest.param("5 \\pm 1", False, id="plus-minus"),
        pytest.param("\\pm 1", False, id="plus-minus-alone"),
    ],
)
def test_a_unit_scales_a_whole_side_only_without_a_top_level_sum(tex: str, whole: bool) -> None:
    node = parse_side(lex(tex))
    assert not isinstance(node, Unsupported)
    assert scales_whole_side(node) is whole


def test_a_unit_after_a_sum_is_never_checked() -> None:
    assert statuses("2 + 3\\text{ m} = 5\\text{ m}") == [U]
    assert statuses("2\\cdot 3\\text{ m} = 6\\text{ m}") == [C]
    assert statuses("2\\cdot 3\\text{ m} = 7\\text{ m}") == [F]


# -- identities --------------------------------------------------------------------------------

x = sympy.Symbol("x", positive=True)
r = sympy.Symbol("r", real=True)


@pytest.mark.parametrize(
    ("relation", "left", "right", "expected"),
    [
        pytest.param("=", x + x, 2 * x, True, id="eq"),
        pytest.param("=", x, x + 1, False, id="eq-false"),
        pytest.param("\\ne", x, x + 1, True, id="ne"),
        pytest.param("\\ne", x, x, False, id="ne-equal"),
        pytest.param("<", x, x + 1, True, id="lt"),
        pytest.param("<", x, x, False, id="lt-equal"),
        pytest.param("\\le", x, x, True, id="le-equal"),
        pytest.param("\\le", x + 1, x, False, id="le-false"),
        pytest.param(">", x + 1, x, True, id="gt"),
        pytest.param(">", x, x, False, id="gt-equal"),
        pytest.param("\\ge", x, x, True, id="ge-equal"),
        pytest.param("\\ge", x, x + 1, False, id="ge-false"),
        pytest.param("\\ge", r**2, 0, True, id="square-ge"),
        pytest.param(">", r**2, 0, False, id="square-gt-at-zero"),
        pytest.param("<", -(r**2), 1, True, id="negative-square"),
        pytest.param("\\approx", x, x, False, id="approx"),
        pytest.param("=", sympy.zoo, sympy.zoo, False, id="complex-infinity"),
        pytest.param("=", sympy.I * x, sympy.I * x, False, id="imaginary"),
        pytest.param("=", sympy.nan, sympy.nan, False, id="nan"),
        pytest.param("<", r, sympy.oo, False, id="infinity"),
    ],
)
def test_proves(relation: str, left: sympy.Expr, right: sympy.Expr, expected: bool) -> None:
    assert proves(relation, sympy.sympify(left), sympy.sympify(right)) is expected


@pytest.mark.parametrize(
    ("tex", "domain", "expected"),
    [
        pytest.param("\\frac{x}{x} = 1", "real", [U], id="zero-divisor"),
        pytest.param("\\frac{x}{x} = 1", "nonzero", [C], id="nonzero-divisor"),
        pytest.param("\\sqrt{x^2} = x", "real", [F], id="abs-not-identity"),
        pytest.param("\\sqrt{x^2} = x", "nonnegative", [C], id="nonnegative"),
        pytest.param("x^2 > 0", "real", [F], id="one-side-closed"),
        pytest.param("x^2 + 1 > 0", "real", [C], id="one-side-closed-true"),
        pytest.param("x^2 + 1 > x^2", "real", [C], id="always-true"),
        pytest.param("x + 1 > x + 1", "real", [F], id="strict-equal"),
        pytest.param("(x - 1)^2 > x - x", "real", [F], id="zero-at-one"),
        pytest.param("(x - 1)^2 > x - x", "integer", [F], id="zero-at-one-integer"),
        pytest.param("(2x - 1)^2 > x - x", "integer", [C], id="zero-off-the-integers"),
        pytest.param("x \\approx x", "real", [U], id="approx"),
        pytest.param("x + 1 \\pm 1 = x + 1", "real", [U], id="plus-minus"),
        pytest.param("x = 3", "real", [U], id="definition"),
        pytest.param("3 = x", "real", [U], id="condition"),
    ],
)
def test_identities_with_letters(tex: str, domain: str, expected: list[Status]) -> None:
    assert statuses(tex, x=domain) == expected


def test_an_undeclared_letter_is_never_judged() -> None:
    assert statuses("x + 1 = x + 1") == [U]
    assert statuses("x + 1 = x + 2") == [U]
    assert statuses("x + y = y + x", x="real") == [U]


# -- the decision ------------------------------------------------------------------------------


def test_sides_without_a_value() -> None:
    assert statuses("\\sqrt{-1} = \\sqrt{-1}") == [U]
    assert statuses("\\sqrt{-1} \\ne 2") == [U]
    assert statuses("2 \\ne \\sqrt{-1}") == [U]
    assert statuses("\\sqrt{-1} = 2") == [F]
    assert statuses("2 < \\frac{1}{0}") == [F]


def test_plus_minus_must_hold_for_both_signs() -> None:
    assert statuses("2 \\pm 1 > 0") == [C]
    assert statuses("2 \\mp 1 > 0") == [C]
    assert statuses("2 \\pm 1 > 2") == [F]
    assert statuses("2 \\pm 1 = 3") == [F]
    assert statuses("\\pm 1 = 1") == [F]
    [lower] = iter_claims("2 \\pm 1 > 2")
    assert lower.message.endswith("(with the lower sign of \\pm)")
    [upper] = iter_claims("2 \\pm 1 < 2")
    assert upper.message.endswith("(with the upper sign of \\pm)")
