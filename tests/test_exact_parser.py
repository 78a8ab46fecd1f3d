"""Lexing and parsing one side of a claim."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pizarra.math.exact.ast import Abs, BinOp, Call, Neg, Num, Pow, Root, Sym, has_letters
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.lexer import Kind, lex
from pizarra.math.exact.parser import parse_number, parse_side


def test_lexer_keeps_numbers_text_and_environments_whole() -> None:
    tokens = lex(r"\begin{aligned} N_{\text{old}} &= 2{,}048\,\cdot 0.5 \end{aligned}")
    assert [(t.kind, t.text) for t in tokens] == [
        (Kind.BEGIN, "aligned"),
        (Kind.LETTER, "N"),
        (Kind.CHAR, "_"),
        (Kind.CHAR, "{"),
        (Kind.TEXT, r"\text{old}"),
        (Kind.CHAR, "}"),
        (Kind.CHAR, "&"),
        (Kind.CHAR, "="),
        (Kind.NUMBER, "2{,}048"),
        (Kind.COMMAND, r"\cdot"),
        (Kind.NUMBER, "0.5"),
        (Kind.END, "aligned"),
    ]


def test_lexer_offsets_point_into_the_source() -> None:
    tex = r"  \sqrt{-9} = 3"
    assert [tex[t.start : t.end] for t in lex(tex)] == [r"\sqrt", "{", "-", "9", "}", "=", "3"]


def test_lexer_reads_unicode_operators() -> None:
    assert [t.text for t in lex("−5×2≠3")] == ["-", "5", r"\times", "2", r"\ne", "3"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("262{,}144", Fraction(262144)),
        ("1{,}048{,}576", Fraction(1048576)),
        ("0.125", Fraction(1, 8)),
        ("7", Fraction(7)),
        ("0{,}5", None),
        ("12{,}34", None),
        ("1234{,}567", None),
    ],
)
def test_numbers_use_thousands_groups(text: str, value: Fraction | None) -> None:
    assert parse_number(text) == value


def _parse(tex: str) -> object:
    return parse_side(lex(tex))


def test_precedence_powers_products_sums() -> None:
    node = _parse("1+2\\cdot3^2")
    assert isinstance(node, BinOp) and node.op == "+"
    assert isinstance(node.right, BinOp) and node.right.op == "*"
    assert isinstance(node.right.right, Pow)


def test_unary_minus_applies_after_the_power() -> None:
    node = _parse("-2^2")
    assert isinstance(node, Neg) and isinstance(node.operand, Pow)


def test_division_before_an_implicit_product_is_ambiguous() -> None:
    for tex in ("C/n^2d_k", "6/2(1+2)", "1/2x"):
        node = parse_side(lex(tex))
        assert isinstance(node, Unsupported) and "ambiguous" in node.reason, tex
    node = _parse("C/n^2 \\cdot d_k")
    assert isinstance(node, BinOp) and node.op == "*"
    assert isinstance(node.left, BinOp) and node.left.op == "/"


def test_subscripts_with_text_name_the_symbol() -> None:
    node = _parse(r"N_{\text{old}}")
    assert isinstance(node, Sym) and node.name == "N_old"


def test_roots_fractions_and_absolute_values() -> None:
    tex = r"\left|\sqrt[3]{-8}\right|+\frac12"
    node = _parse(tex)
    assert isinstance(node, BinOp)
    assert isinstance(node.left, Abs) and isinstance(node.left.operand, Root)
    one = tex.index("12")
    half = BinOp(
        "/", Num(Fraction(1), one, one + 1), Num(Fraction(2), one + 1, one + 2), one - 5, one + 2
    )
    assert node.right == half


def test_spans_of_brackets_include_them() -> None:
    tex = r"\left(\sqrt[3]{64}\right)^2"
    node = _parse(tex)
    assert isinstance(node, Pow)
    assert tex[node.base.start : node.base.end] == r"\left(\sqrt[3]{64}\right)"


def test_letters_are_detected() -> None:
    with_letters, closed = _parse("2x+1"), _parse("2(3+1)")
    assert not isinstance(with_letters, Unsupported) and has_letters(with_letters)
    assert not isinstance(closed, Unsupported) and not has_letters(closed)


@pytest.mark.parametrize(
    "tex",
    [
        r"a\cdots a",
        r"\underbrace{a}_{m}",
        "f(n)",
        "O(n^2)",
        r"\sin x",
        "2^10",
        r"2\frac{1}{2}",
        "2 3",
        r"4\text{ veces }2",
        "(" * 50 + "1" + ")" * 50,
        "1+" * 200 + "1",
        "(1+2",
        "",
    ],
)
def test_outside_the_subset_is_unsupported(tex: str) -> None:
    assert isinstance(_parse(tex), Unsupported)


def test_a_double_factorial_is_ambiguous() -> None:
    node = _parse("3!!")
    assert isinstance(node, Unsupported) and "double factorial" in node.reason


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        ("(2)_3", "a subscript on something other than a letter"),
        ("2^3^2", "a double script"),
        ("2^3_1", "a double script"),
        ("2^3!", "a factorial after a power is ambiguous"),
    ],
)
def test_what_follows_an_atom_says_why_it_is_unsupported(tex: str, reason: str) -> None:
    node = _parse(tex)
    assert isinstance(node, Unsupported) and node.reason == reason


@pytest.mark.parametrize(("tex", "name"), [("3!", "factorial"), ("50\\%", "percent")])
def test_what_follows_an_atom_applies_to_it(tex: str, name: str) -> None:
    node = _parse(tex)
    assert isinstance(node, Call) and node.name == name and isinstance(node.args[0], Num)


@pytest.mark.parametrize(
    ("tex", "value"),
    [
        pytest.param(r"\left|2|-3|\right|", 6, id="bars-inside-left-right"),
        pytest.param(r"\left|-2|-3|\right|", 6, id="negative-product-inside-left-right"),
        pytest.param(r"\left|0|0|\right|", 0, id="zero-inside-left-right"),
        pytest.param(r"|\left(2|3|\right)|", 6, id="bars-inside-parentheses-inside-bars"),
        pytest.param(r"\left| |2| - 3 \right|", 1, id="bars-first-inside-left-right"),
    ],
)
def test_bare_bars_pair_up_inside_left_right(tex: str, value: int) -> None:
    """``\\right`` closes its group, so bare bars inside it read as they do outside."""
    from pizarra.math.exact.rational import rational_value

    node = _parse(tex)
    assert not isinstance(node, Unsupported), node
    assert rational_value(node) == value


@pytest.mark.parametrize(
    "tex",
    [
        pytest.param(r"\left|2|3\right|", id="a-bar-left-open"),
        pytest.param(r"\left|2|3|4\right|", id="a-number-right-after-a-pair"),
    ],
)
def test_an_unpaired_bare_bar_inside_left_right_is_unsupported(tex: str) -> None:
    assert isinstance(_parse(tex), Unsupported)
