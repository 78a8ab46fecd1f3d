"""Identities proved without sympy: each rule proves what is true on the declared domains
and nothing that fails for one value, or is undefined for one value, of a letter."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from pizarra.math.exact import laurent
from pizarra.math.exact.context import Context
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.judge import Status, judge_formula
from pizarra.math.exact.parser import parse_side
from pizarra.math.exact.statements import split_links

DOMAINS = {
    "x": "real",
    "y": "real",
    "n": "positive",
    "k": "positive",
    "u": "nonnegative",
    "z": "nonzero",
    "m": "integer",
    "p": "positive_integer",
    "C": "positive",
    "d": "positive",
}


def proved(tex: str, domains: dict[str, str] = DOMAINS) -> bool:
    """Whether :mod:`pizarra.math.exact.laurent` proves the one relation of ``tex``."""
    (link,) = split_links(tex, "en")
    names = frozenset(domains)
    left, right = (
        parse_side(link.left.tokens, variables=names),
        parse_side(link.right.tokens, variables=names),
    )
    assert not isinstance(left, Unsupported) and not isinstance(right, Unsupported), tex
    difference = laurent.difference(left, right, domains)
    return difference is not None and laurent.proves(link.relation, difference, domains)


TRUE = [
    "C n^{-1} = \\frac{C}{n}",
    "n \\times n = n^2",
    "\\frac{(2n)^2 d}{n^2 d} = 2^2",
    "(x+y)^2 = x^2 + 2xy + y^2",
    "(x+1)(x-1) = x^2 - 1",
    "x - x = 0",
    "2^{10} x = 1024 x",
    "\\frac{x}{4} = 0.25 x",
    "\\sqrt{n^2} = n",
    "\\sqrt{n^2} = |n|",
    "\\sqrt{u^2} = u",
    "\\sqrt{4 n^2} = 2n",
    "\\sqrt[3]{8 n^6} = 2 n^2",
    "\\sqrt{\\frac{9}{4} u^4} = \\frac{3}{2} u^2",
    "|x^2| = x^2",
    "|-3 n| = 3n",
    "z^0 = 1",
    "z^{-2} = \\frac{1}{z^2}",
    "\\frac{z}{z} = 1",
    "n^{3} n^{-5} = n^{-2}",
    "x + 1 \\ne x",
    "n > 0",
    "n + 1 > 1",
    "p \\ge 0",
    "x^2 \\ge 0",
    "x^2 + 1 > 0",
    "z^2 > 0",
    "u \\ge 0",
    "u^3 + n > 0",
    "-n < 0",
    "-x^2 \\le 0",
    "-x^4 - 1 < 0",
    "m^2 \\ge 0",
    "x^2 + y^2 \\ge 0",
    "n^{-1} > 0",
    "3 > 2",
    "\\sqrt[1]{n} = n",
    "\\sqrt[16]{n^{16}} = n",
    "n^{16} = n^{8} n^{8}",
    "z^{-16} = \\frac{1}{z^{16}}",
    "\\sqrt{0 \\cdot x} = 0",
    "|0 \\cdot x| = 0",
    "(x+1)^{15} (y+1)^{15} = (y+1)^{15} (x+1)^{15}",
    "x \\ge x",
    "x \\le x",
    "-n \\le 0",
    "-n - u \\le 0",
    "\\frac{n}{2} > 0",
    "-\\frac{n}{2} < 0",
    "x^{1} = x",
    "\\sqrt{\\frac{1}{4} n^2} = \\frac{n}{2}",
    "n u \\ge 0",
    "n z^2 > 0",
    "2^{66666} \\cdot 2^{66666} \\cdot 2^{66666} n = 2^{66666} \\cdot 2^{66666} \\cdot 2^{66666} n",
]
"""True for every value of the declared letters, and defined for all of them."""

NOT_PROVED = [
    # false for some value
    "(x+y)^2 = x^2 + y^2",
    "x^2 = x",
    "x + 1 = x",
    "n = 1",
    "x \\ne 0",
    "x^2 \\ne 0",
    "x > 0",
    "x \\ge 0",
    "x^3 \\ge 0",
    "z > 0",
    "z^3 > 0",
    "m \\ge 0",
    "u > 0",
    "u^2 > 0",
    "n - 1 > 0",
    "x^2 > 0",
    "x^2 + y^2 > 0",
    "x^2 - 1 \\ge 0",
    "-n > 0",
    "n \\le 0",
    "n < 0",
    "x^2 \\le 0",
    "-x^2 < 0",
    "-u \\le -1",
    "n^2 \\le n",
    "x \\ne x",
    "n > n",
    "n < n",
    "|x| = x",
    "\\sqrt{x^2} = x",
    "\\sqrt{x^2} = |x|",
    "\\sqrt{4 n^2} = -2n",
    "\\sqrt[3]{8 n^6} = 2 n^3",
    # a side undefined for some value
    "\\frac{x}{x} = 1",
    "\\frac{u}{u} = 1",
    "x^0 = 1",
    "x^{-1} x = 1",
    "m^{-2} = \\frac{1}{m^2}",
    "\\frac{n}{x} \\cdot x = n",
    "\\frac{1}{x + 1} (x + 1) = 1",
    "\\frac{1}{n + 1} (n + 1) = 1",
    "\\sqrt{-n^2} = 0",
    "\\sqrt{n^2 + 2n + 1} = n + 1",
    "\\sqrt{2 n^2} = n \\sqrt{2}",
    "\\sqrt{n^3} = n \\sqrt{n}",
    "|x + 1| = x + 1",
    "|x y| = |x| |y|",
    "\\sqrt[1.5]{n} = n",
    "\\sqrt[\\pi]{n} = n",
    "n^{\\pi} = n^{\\pi}",
    "\\frac{n}{2} < 0",
    "\\frac{n}{2} \\le 0",
    "-\\frac{n}{2} > 0",
    "n x > 0",
    "n x \\ge 0",
    "n x^3 \\ge 0",
    "u x \\ge 0",
    "n u > 0",
    "n^2 z > 0",
    "\\left(\\frac{n}{2^{60000}}\\right)^{4} = \\left(\\frac{n}{2^{60000}}\\right)^{4}",
    "\\sqrt[0]{n} = 1",
    "\\sqrt[-2]{n^2} = n",
    "\\sqrt[2]{n} = n",
    "\\sqrt{n^2} = n^2",
    "\\sqrt{2 n^2} = n",
    "\\sqrt{\\frac{1}{4} n^2} = n",
    "\\sqrt[3]{-8 n^3} = -2n",
    "|-n| = -n",
    "|3 z^2| = -3 z^2",
    # true, but not read here
    "\\sqrt[17]{n^{17}} = n",
    "n^{17} = n^{8} n^{9}",
    "(x+1)^{15} (y+1)^{15} + n = n + (y+1)^{15} (x+1)^{15}",
    "\\sqrt{x^4} = x^2",
    "x \\approx x",
    "2^n = 2 \\cdot 2^{n-1}",
    "\\log(n) = \\log(n)",
    "x^{20} = x^{20}",
]
"""False for some value, undefined for some value, or outside what is read."""


@pytest.mark.parametrize("tex", TRUE)
def test_true_identities_are_proved(tex: str) -> None:
    assert proved(tex)


@pytest.mark.parametrize("tex", NOT_PROVED)
def test_nothing_else_is_proved(tex: str) -> None:
    assert not proved(tex)


def test_only_a_proof_is_true() -> None:
    assert laurent.proves("\\approx", {}, DOMAINS) is False
    assert laurent.proves("=", {(): Fraction(1)}, DOMAINS) is False
    assert laurent.proves("=", {}, DOMAINS) is True


def test_a_sum_too_large_is_not_expanded() -> None:
    assert proved("(x+y)^{8} = (x+y)^{8}")
    assert not proved("(x+y+m+1)^{16} = (x+y+m+1)^{16}")


def test_huge_coefficients_are_not_read() -> None:
    assert not proved("(10^{5000} x)^{16} = (10^{5000} x)^{16}")


DEFINES = "defines or states a value of "
FOR_EVERY = (
    "if this is an equation to solve (a condition, not an identity), write it with "
    "\\overset{?}{=}; otherwise fix the formula"
)


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        ("n \\times n = n^2", (Status.CHECKED, "", "")),
        ("n = 1024", (Status.UNCHECKED, DEFINES + "n", "")),
        ("1024 = n", (Status.UNCHECKED, DEFINES + "n", "")),
        ("w = 5", (Status.UNCHECKED, DEFINES + "w", "")),
        ("5 > w", (Status.UNCHECKED, DEFINES + "w", "")),
        (
            "x^2 = 49",
            (
                Status.FAILED,
                "x^2 = 49 is false for x = 0: the left side is 0, the right side is 49",
                FOR_EVERY,
            ),
        ),
        (
            "x^2 < 49",
            (
                Status.FAILED,
                "x^2 < 49 is false for x = -7: the left side is 49, the right side is 49",
                FOR_EVERY,
            ),
        ),
        ("x + 1 > x", (Status.CHECKED, "", "")),
        ("x^2 + 1 > x", (Status.UNCHECKED, "not proved for every value of its letters", "")),
        ("q^2 = q q", (Status.UNCHECKED, "letters not declared under variables: q", "")),
        ("q w = w q", (Status.UNCHECKED, "letters not declared under variables: q, w", "")),
        (
            "x \\approx 2",
            (Status.UNCHECKED, "an approximation or \\pm with letters is not decided", ""),
        ),
        (
            "x \\pm 1 = x",
            (Status.UNCHECKED, "an approximation or \\pm with letters is not decided", ""),
        ),
    ],
)
def test_verdicts_through_the_judge(tex: str, expected: tuple[Status, str, str]) -> None:
    (verdict,) = judge_formula(tex, Context(domains=DOMAINS))
    assert (verdict.status, verdict.message, verdict.hint) == expected


def test_a_refuted_identity_says_where() -> None:
    (verdict,) = judge_formula("m + 1 = 2m", Context(domains=DOMAINS))
    assert verdict.status is Status.FAILED
    assert verdict.message.startswith("m + 1 = 2m is false for m = 0")


def test_the_lesson_identities_need_no_sympy() -> None:
    code = (
        "import sys\n"
        "from pizarra.math.exact.context import Context\n"
        "from pizarra.math.exact.judge import judge_formula\n"
        "domains = {'n': 'positive', 'C': 'positive', 'k': 'positive', 'd_k': 'positive'}\n"
        "context = Context(domains=domains)\n"
        "for tex in ['n > 0', 'Cn^{-1} = C/n', 'n\\\\times n = n^2', '\\\\sqrt{n^2} = |n|',\n"
        "            '\\\\frac{(2n)^2d_k}{n^2d_k} = 2^2', 'k = 2', '\\\\sqrt[3]{-8} = -2']:\n"
        "    (verdict,) = judge_formula(tex, context)\n"
        "    assert verdict.status.value != 'failed', (tex, verdict)\n"
        "assert 'sympy' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
