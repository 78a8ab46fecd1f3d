import re
from fractions import Fraction

import pytest

from pizarra.source.explorers.expr import (
    MAX_DEPTH,
    ExprError,
    evaluate,
    free_variables,
    parse_expr,
    to_text,
)

N = frozenset({"n"})


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("n", "n"),
        ("n^2", "(n^2)"),
        ("2*n^3", "(2 * (n^3))"),
        ("-n^2", "(-(n^2))"),
        ("(n+1)*(n-1)", "((n + 1) * (n - 1))"),
        ("n/2/2", "((n / 2) / 2)"),
        ("2^3^2", "(2^9)"),
        ("n^-1", "(n^-1)"),
        ("0.5*n", "((1/2) * n)"),
        ("  n ^ 2  ", "(n^2)"),
    ],
)
def test_parse_shapes(text: str, shape: str) -> None:
    assert to_text(parse_expr(text, N)) == shape


@pytest.mark.parametrize(
    ("text", "n", "value"),
    [
        ("n", 1024, Fraction(1024)),
        ("n^2", 1024, Fraction(1048576)),
        ("n^3", 1024, Fraction(1073741824)),
        ("1/n", 4, Fraction(1, 4)),
        ("n^-2", 2, Fraction(1, 4)),
        ("(n+1)*(n-1)", 3, Fraction(8)),
        ("2*(3+n)/5", 2, Fraction(2)),
        ("-n^2", 3, Fraction(-9)),
        ("(-n)^2", 3, Fraction(9)),
        ("n - 1 - 1", 5, Fraction(3)),
    ],
)
def test_evaluate_exactly(text: str, n: int, value: Fraction) -> None:
    assert evaluate(parse_expr(text, N), {"n": Fraction(n)}) == value


@pytest.mark.parametrize(
    ("text", "offset", "message"),
    [
        ("2n", 1, "unexpected 'n'"),
        ("n**2", 2, "expected a number"),
        ("m^2", 0, "unknown name 'm'"),
        ("n^n", 2, "exponent must be a constant"),
        ("n^0.5", 2, "exponent must be an integer"),
        ("n^100", 2, "exponent must be an integer"),
        ("(n+1", 4, "missing ')'"),
        ("n²", 1, "unexpected character"),
        ("__import__", 0, "unknown name"),
        ("open('x')", 5, "unexpected character"),
        ("n; 1", 1, "unexpected character ';'"),
        ("", 0, "found end of formula"),
        ("n +", 3, "found end of formula"),
    ],
)
def test_parse_errors_point_at_the_offending_column(text: str, offset: int, message: str) -> None:
    with pytest.raises(ExprError) as info:
        parse_expr(text, N)
    assert message in info.value.message
    assert info.value.offset == offset


def test_products_need_a_star_and_the_hint_says_so() -> None:
    with pytest.raises(ExprError) as info:
        parse_expr("2n", N)
    assert "2*n" in info.value.hint


def test_nesting_is_bounded() -> None:
    deep = "(" * (MAX_DEPTH + 1) + "n" + ")" * (MAX_DEPTH + 1)
    with pytest.raises(ExprError, match="nested deeper"):
        parse_expr(deep, N)
    with pytest.raises(ExprError, match="nested deeper"):
        parse_expr("-" * 100 + "n", N)


def test_length_is_bounded() -> None:
    with pytest.raises(ExprError, match="longer than"):
        parse_expr("n+" * 150 + "n", N)


def test_values_are_bounded() -> None:
    expr = parse_expr("((n^64)^64)^64", N)
    with pytest.raises(ExprError, match="too large"):
        evaluate(expr, {"n": Fraction(2**40)})


def test_division_by_zero_is_an_error_value() -> None:
    with pytest.raises(ExprError, match="division by zero"):
        evaluate(parse_expr("1/(n-2)", N), {"n": Fraction(2)})
    with pytest.raises(ExprError, match="division by zero"):
        evaluate(parse_expr("n^-1", N), {"n": Fraction(0)})


def test_free_variables() -> None:
    assert free_variables(parse_expr("2*n^2+1", N)) == {"n"}
    assert free_variables(parse_expr("2^10", N)) == frozenset()


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("log2(n)", "log2(n)"),
        ("ln(n)", "ln(n)"),
        ("log(n^2)", "log((n^2))"),
        ("2*log10(n)+1", "((2 * log10(n)) + 1)"),
        ("log2(log2(n))", "log2(log2(n))"),
        ("2^log2(8)", "(2^3)"),
    ],
)
def test_parse_logarithms(text: str, shape: str) -> None:
    assert to_text(parse_expr(text, N)) == shape


@pytest.mark.parametrize(
    ("text", "n", "value"),
    [
        ("log2(n)", 1024, Fraction(10)),
        ("log2(1/n)", 8, Fraction(-3)),
        ("log2(n/1024)", 1, Fraction(-10)),
        ("log10(n)", 1000, Fraction(3)),
        ("log10(n)", Fraction(1, 100), Fraction(-2)),
        ("ln(n)", 1, Fraction(0)),
        ("log(n)", 1, Fraction(0)),
        ("log2(n)+log2(n)", 16, Fraction(8)),
    ],
)
def test_rational_logarithms_are_exact(text: str, n: int | Fraction, value: Fraction) -> None:
    assert evaluate(parse_expr(text, N), {"n": Fraction(n)}) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("log2(n)", "log2(3) is not a rational number"),
        ("ln(n)", "ln(3) is not a rational number"),
        ("log2(n-3)", "log2 of 0 is not defined"),
        ("ln(-n)", "ln of -3 is not defined"),
    ],
)
def test_evaluate_refuses_irrational_and_undefined_logarithms(text: str, message: str) -> None:
    with pytest.raises(ExprError, match=re.escape(message)):
        evaluate(parse_expr(text, N), {"n": Fraction(3)})


@pytest.mark.parametrize(
    ("text", "offset", "message"),
    [
        ("log2 n", 0, "log2 needs its argument in parentheses"),
        ("sin(n)", 0, "unknown name 'sin'"),
        ("log2(n", 6, "missing ')'"),
        ("log2()", 5, "found ')'"),
        ("n^log2(n)", 2, "exponent must be a constant"),
        ("n^log2(3)", 2, "not a rational number"),
    ],
)
def test_logarithm_parse_errors(text: str, offset: int, message: str) -> None:
    with pytest.raises(ExprError) as info:
        parse_expr(text, N)
    assert message in info.value.message
    assert info.value.offset == offset
