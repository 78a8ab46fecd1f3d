"""Splitting a formula into statements and links."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pizarra.math.exact.statements import may_have_links, split_links


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


FRAGMENTS = [
    "a", "2", "{", "}", "\\", "=", "<", ">", "ne", "q", "l", "t", "e", "g", "approx",
    "\\leq", "\\left(", "\\right)", "\\overset{?}{=}", "\\not", "≠", "≤", "≥", "≈", "−",
    "\\qeq", "\\gt", "\\geqslant", "&", "\\\\", "\\text{ y }", " ",
]  # fmt: skip


@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join))
def test_a_formula_told_it_has_no_relation_has_no_link(tex: str) -> None:
    assert may_have_links(tex) or not split_links(tex)


@pytest.mark.parametrize(
    "tex", ["a \\neq b", "a ≤ b", "a\\not=b", "x \\overset{?}{=} 2", "a \\qeq b", "1 \\gt 0"]
)
def test_every_spelling_of_a_relation_is_noticed(tex: str) -> None:
    assert split_links(tex) and may_have_links(tex)


def test_formulas_without_relations_are_not_lexed() -> None:
    assert not may_have_links("2^{10} \\cdot \\left(\\frac{n}{k}\\right)")


def test_no_formula_of_the_corpora_is_missed() -> None:
    from pizarra.source.lower import parse_lesson

    root = Path(__file__).parent.parent / "src" / "pizarra" / "source" / "bundled"
    corpus = Path(__file__).parent / "fixtures" / "claims" / "corpus"
    told = 0
    for path in [*root.rglob("*.md"), *corpus.rglob("*.md")]:
        lesson, _ = parse_lesson(path, path.name)
        for item in lesson.math if lesson is not None else ():
            if not may_have_links(item.tex):
                told += 1
                assert not split_links(item.tex), item.tex
    assert told > 100
