"""Front-matter definitions (definitions.py): names, the length bound, what a body may use,
its parameters, and the source that keys the verdict cache."""

from __future__ import annotations

import pytest

from pizarra.check.claims import iter_claims
from pizarra.math.exact.definitions import MAX_DEFINITION, Function, parse_definition
from pizarra.math.exact.evaluate import Context
from pizarra.math.exact.judge import Status


def status(tex: str, functions: dict[str, str]) -> Status:
    [verdict] = iter_claims(tex, functions=functions)
    return verdict.status


def function(key: str, body: str) -> Function:
    parsed = parse_definition(key, body)
    assert not isinstance(parsed, str), parsed
    return parsed[1]


def test_only_a_greek_letter_is_written_with_a_backslash() -> None:
    assert parse_definition("\\foo", "x") == (
        "'\\\\foo': only Greek letters are written with a backslash"
    )
    assert parse_definition("\\phi(t)", "2t") == ("phi", function("\\phi(t)", "2t"))


@pytest.mark.parametrize(
    ("length", "accepted"),
    [
        pytest.param(MAX_DEFINITION, True, id="at-the-bound"),
        pytest.param(MAX_DEFINITION + 1, False, id="above-it"),
    ],
)
def test_a_definition_is_read_up_to_its_length_bound(length: int, accepted: bool) -> None:
    body = "x".ljust(length)
    parsed = parse_definition("g", body)
    if accepted:
        assert parsed == ("g", Function(("x",), function("g", "x").body, body))
    else:
        assert parsed == f"the definition of g is longer than {MAX_DEFINITION} characters"


@pytest.mark.parametrize(
    ("tex", "functions"),
    [
        pytest.param("g(0) = \\frac{3}{2}", {"g": "\\sigma(x) + 1"}, id="standard-function"),
        pytest.param("h(1) = 2", {"h(e)": "2e"}, id="parameter-named-e"),
        pytest.param("g(2) = 6", {"g(a)": "a(a+1)"}, id="parameter-before-a-parenthesis"),
    ],
)
def test_a_body_reads_standard_functions_and_its_parameters(
    tex: str, functions: dict[str, str]
) -> None:
    """A named parameter is a number in the body: ``e`` is not Euler's number and
    ``a(a+1)`` is a product, not an application."""
    assert status(tex, functions) is Status.CHECKED


def test_every_letter_that_is_not_a_parameter_is_named() -> None:
    assert parse_definition("g(x)", "x + y + z") == (
        "the definition of g uses letters that are not parameters: y, z"
    )


def test_the_verdict_cache_tells_two_definitions_apart() -> None:
    """A cached verdict of ``g(3) = 10`` must not serve a lesson where g is another function."""
    square, cube = function("g", "x^2 + 1"), function("g", "x^3 + 1")
    assert (square.source, cube.source) == ("x^2 + 1", "x^3 + 1")
    first = Context(functions={"g": square}).fingerprint()
    assert first != Context(functions={"g": cube}).fingerprint()
