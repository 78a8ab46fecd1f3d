"""Splitting a formula into statements and links."""

from __future__ import annotations

import pytest

from pizarra.exact.statements import split_links


def _claims(tex: str) -> list[str]:
    return [link.source(tex) for link in split_links(tex)]


@pytest.mark.parametrize(
    ("tex", "claims"),
    [
        ("a=b=c", ["a = b", "b = c"]),
        (
            r"2^{-3}=\frac{1}{2^3}=\frac{1}{8},",
            [r"2^{-3} = \frac{1}{2^3}", r"\frac{1}{2^3} = \frac{1}{8}"],
        ),
        (
            r"a^0=1 \qquad\text{y}\qquad a^{-p}=\frac{1}{a^p}.",
            ["a^0 = 1", r"a^{-p} = \frac{1}{a^p}"],
        ),
        ("3\\times3=9, \\qquad 9\\times3=27", ["3\\times3 = 9", "9\\times3 = 27"]),
        (
            r"r=\sqrt{y} \quad\Longleftrightarrow\quad r\ge0\text{ y }r^2=y.",
            [r"r = \sqrt{y}", r"r \ge 0", "r^2 = y"],
        ),
        (r"300\times200=60{,}000\text{ pesos}.", [r"300\times200 = 60{,}000\text{ pesos}"]),
        (r"(a+b)^p\ne a^p+b^p\quad\text{en general}.", [r"(a+b)^p \ne a^p+b^p"]),
        (r"6\text{ m}=6", [r"6\text{ m} = 6"]),
        ("f(x, y) = 1; g = 2", ["f(x, y) = 1", "g = 2"]),
        (r"x\in\{1,2\}=y", [r"\{1,2\} = y"]),
        (r"n\to2n", []),
        ("=3", []),
        (
            r"a \leq b \neq c \geqslant d \approx e",
            [r"a \le b", r"b \ne c", r"c \ge d", r"d \approx e"],
        ),
    ],
)
def test_split(tex: str, claims: list[str]) -> None:
    assert _claims(tex) == claims


def test_aligned_rows_continue_from_the_previous_side() -> None:
    tex = "\\begin{aligned} (a+b)^2 &=(a+b)(a+b)\\\\\n &=a^2+2ab+b^2. \\end{aligned}"
    links = split_links(tex)
    assert [link.source(tex) for link in links] == [
        "(a+b)^2 = (a+b)(a+b)",
        "(a+b)(a+b) = a^2+2ab+b^2",
    ]
    assert tex.count("\n", 0, links[1].offset) == 1


def test_a_new_row_without_relation_starts_a_new_statement() -> None:
    tex = r"\begin{aligned} N &= 1+1,\\ M &= 2+2 \end{aligned}"
    assert _claims(tex) == ["N = 1+1", "M = 2+2"]


def test_other_environments_are_kept_whole() -> None:
    tex = r"|x| = \begin{cases} x & x\ge0 \\ -x & x<0 \end{cases}"
    [link] = split_links(tex)
    assert link.right.source(tex).startswith(r"\begin{cases}")
