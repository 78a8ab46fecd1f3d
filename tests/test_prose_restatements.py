"""Prose definitions: when a second definition of a name restates the first and when it
is an error. The points compared are x = 0, 1, -2, 3, 7 (and y = x + 2 for a second
parameter), so each case below differs from the first body at exactly one of them."""

from __future__ import annotations

import pytest

from pizarra.check.claims import claim_records
from pizarra.math.exact.context import Context
from pizarra.math.exact.judge import Status
from pizarra.math.exact.prose import definitions_in
from tests.test_prose_definitions import _lesson

C, U, F = Status.CHECKED, Status.UNCHECKED, Status.FAILED


def _problems(*texs: str) -> list[str]:
    _, problems = claim_records(_lesson(*texs))
    return [p.message for p in problems]


@pytest.mark.parametrize(
    "second",
    [
        pytest.param("g(t) = t + (t - 1)(t + 2)(t - 3)(t - 7)", id="differs-at-0"),
        pytest.param("g(t) = t + t(t - 2)(t + 2)(t - 3)(t - 7)", id="differs-at-1"),
        pytest.param("g(t) = t + t(t - 1)(t - 2)(t + 3)(t - 3)(t - 7)", id="differs-at-minus-2"),
        pytest.param("g(t) = t + t(t - 1)(t + 2)(t - 4)(t - 7)", id="differs-at-3"),
        pytest.param("g(t) = t + t(t - 1)(t + 2)(t - 3)(t - 8)", id="differs-at-7"),
        pytest.param("g(t) = t + 1", id="differs-everywhere"),
        pytest.param("g(x) = x + 1", id="same-letter"),
        pytest.param("g(x, y) = x + y", id="two-parameters"),
    ],
)
def test_a_body_that_differs_at_one_point_is_a_redefinition(second: str) -> None:
    [problem] = _problems("g(x) = x", second)
    assert problem.startswith("g is defined twice: at line 3 (g(x) = x) and at line 4")


@pytest.mark.parametrize(
    "second",
    [
        pytest.param("h(u, v) = u + v + (v - u - 3)", id="second-parameter-shifted-by-3"),
        pytest.param("h(u, v) = u + v + (v - u + 2)", id="second-parameter-below"),
    ],
)
def test_two_parameters_are_compared_at_distinct_points(second: str) -> None:
    assert len(_problems("h(x, y) = x + y", second)) == 1


@pytest.mark.parametrize(
    "texs",
    [
        pytest.param(("g(x) = \\frac{1}{2 x}", "g(x) = \\frac{1}{2x}"), id="undefined-at-0"),
        pytest.param(("g(x) = \\frac{1}{2x}", "g(x) = \\frac{1}{2 x}"), id="spaced-second"),
        pytest.param(("g(x) = 2x", "h(t) = g(t) + 1", "h(u) = g(u) + 1"), id="calls-a-function"),
        pytest.param(("h(x, y) = x - y", "h(a, b) = a - b"), id="two-parameters"),
    ],
)
def test_a_restatement_is_no_error(texs: tuple[str, ...]) -> None:
    records, problems = claim_records(_lesson(*texs))
    assert problems == []
    assert records[-1].reason.startswith("restates the definition of")


def test_a_definition_names_its_parameters() -> None:
    records, _ = claim_records(_lesson("h(x, y) = x - y", "h(5, 2) = 3", "h(5, 2) = 7"))
    assert [(r.status, r.reason) for r in records] == [
        (U, "defines h(x, y) from here on"),
        (C, ""),
        (F, records[2].reason),
    ]


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("\\mathrm{ReLU}(u) = u^2", [("ReLU", ("u",))], id="mathrm"),
        pytest.param("\\operatorname{soft plus}(u) = u", [("softplus", ("u",))], id="spaced-name"),
        pytest.param("g\\left(t\\right) = 3t", [("g", ("t",))], id="left-right"),
        pytest.param("\\alpha(x) = 2x", [("alpha", ("x",))], id="greek"),
        pytest.param("\\operatorname{f2}(u) = u", [], id="name-with-a-digit"),
        pytest.param("\\text{g}(x) = x", [], id="text"),
        pytest.param("\\foo(x) = x", [], id="unknown-command"),
    ],
)
def test_what_names_a_definition(tex: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    found = definitions_in(tex, Context(), frozenset())
    assert [(d.name, d.function.params) for d in found] == expected
