"""Soundness of the sympy-free identity prover, by construction and by evaluation.

Random relations between random expressions in letters of every domain are read by
:mod:`pizarra.math.exact.laurent`. Whatever it proves is then evaluated at every point
of a grid of each letter's domain by an evaluator of this file (exact fractions;
mpmath at 60 digits for irrational roots): both sides must be defined and the
relation must hold at each point. Pairs are built to tempt a prover: the same
expression rewritten, cancelled by a letter that can be zero, squared under a root.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import mpmath
from hypothesis import event, given
from hypothesis import strategies as st

from pizarra.math.exact import laurent
from pizarra.math.exact.ast import Abs, BinOp, Neg, Node, Num, Pow, Root, Sym
from pizarra.math.exact.context import Context
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.identity import judge_identity
from pizarra.math.exact.parser import parse_side
from pizarra.math.exact.statements import split_links
from pizarra.math.exact.status import Status

POINTS = {
    "real": (-2, -1, 0, Fraction(1, 2), 1, 3),
    "positive": (Fraction(1, 3), 1, 2, 3),
    "nonnegative": (0, Fraction(1, 2), 1, 2),
    "nonzero": (-2, Fraction(-1, 2), 1, 3),
    "integer": (-2, -1, 0, 1, 2),
    "positive_integer": (1, 2, 3),
}
"""Values of each domain where a proved relation is evaluated (0 wherever allowed)."""
RELATIONS = ("=", "\\ne", "<", "\\le", ">", "\\ge")
TOLERANCE = mpmath.mpf(10) ** -40


class Undefined(Exception):
    """A side has no real value at this point."""


Value = Fraction | mpmath.mpf


def value(node: Node, point: dict[str, Fraction]) -> Value:
    """``node`` at ``point``, computed independently of pizarra's arithmetic: exact
    fractions, and 60-digit numbers once a root is irrational."""
    match node:
        case Num(value=number):
            return number
        case Sym(name=name):
            return point[name]
        case Neg(operand=inner):
            return -value(inner, point)
        case Abs(operand=inner):
            return abs(value(inner, point))
        case BinOp(op=op, left=left, right=right):
            a, b = _same(value(left, point), value(right, point))
            if op == "/" and b == 0:
                raise Undefined
            return {"+": a + b, "-": a - b, "*": a * b}[op] if op != "/" else a / b
        case Pow(base=base, exponent=exponent):
            b, e = value(base, point), value(exponent, point)
            assert isinstance(e, Fraction) and e.denominator == 1
            if b == 0 and e <= 0:
                raise Undefined
            return b ** int(e)
        case Root(radicand=radicand, index=index):
            r = value(radicand, point)
            degree = 2 if index is None else int(value(index, point))
            if r < 0 and degree % 2 == 0:
                raise Undefined
            magnitude = _root(abs(r), degree)
            return -magnitude if r < 0 else magnitude
    raise AssertionError(f"not generated: {node}")


def _same(a: Value, b: Value) -> tuple[Value, Value]:
    """Both as fractions, or both as 60-digit numbers."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a, b
    return _mpf(a), _mpf(b)


def _mpf(x: Value) -> mpmath.mpf:
    with mpmath.workdps(60):
        return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else +x


def _root(x: Value, degree: int) -> Value:
    with mpmath.workdps(60):
        root = mpmath.root(_mpf(x), degree)
    if isinstance(x, Fraction):
        whole = [
            int(mpmath.nint(mpmath.root(part, degree))) for part in (x.numerator, x.denominator)
        ]
        if whole[0] ** degree == x.numerator and whole[1] ** degree == x.denominator:
            return Fraction(whole[0], whole[1])
    return root


def holds(relation: str, a: Value, b: Value) -> bool:
    with mpmath.workdps(60):
        d = _mpf(a) - _mpf(b)
        return {
            "=": abs(d) < TOLERANCE,
            "\\ne": abs(d) >= TOLERANCE,
            "<": d < -TOLERANCE,
            "\\le": d < TOLERANCE,
            ">": d > TOLERANCE,
            "\\ge": d > -TOLERANCE,
        }[relation]


LETTERS = st.sampled_from(["a", "b", "c"])
ATOMS = st.one_of(
    LETTERS,
    st.integers(0, 4).map(str),
    st.sampled_from(["\\frac{1}{2}", "\\frac{9}{4}", "0{.}5"]),
)


def expressions() -> st.SearchStrategy[str]:
    return st.recursive(
        ATOMS,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "\\cdot", "/"]), inner).map(
                lambda t: f"\\frac{{{t[0]}}}{{{t[2]}}}" if t[1] == "/" else f"({t[0]}{t[1]}{t[2]})"
            ),
            st.tuples(inner, st.integers(-3, 4)).map(lambda t: f"({t[0]})^{{{t[1]}}}"),
            st.tuples(inner, st.sampled_from(["", "[3]"])).map(lambda t: f"\\sqrt{t[1]}{{{t[0]}}}"),
            inner.map(lambda e: f"\\left|{e}\\right|"),
            inner.map(lambda e: f"-({e})"),
        ),
        max_leaves=6,
    )


@st.composite
def tempting(draw: st.DrawFn) -> tuple[str, str]:
    """Two sides that are often, but not always, equal."""
    e, f = draw(expressions()), draw(expressions())
    return draw(
        st.sampled_from(
            [
                (e, f),
                (f"({e})\\cdot({f})", f"({f})\\cdot({e})"),
                (f"({e})^{{2}}", f"({e})\\cdot({e})"),
                (f"\\frac{{{e}}}{{{f}}}\\cdot({f})", e),
                (f"\\frac{{{e}}}{{{e}}}", "1"),
                (f"({e})^{{0}}", "1"),
                (f"\\sqrt{{({e})^{{2}}}}", e),
                (f"\\sqrt{{({e})^{{2}}}}", f"\\left|{e}\\right|"),
                (f"\\left|{e}\\right|", e),
                (f"({e})^{{2}}", "0"),
                (e, "0"),
            ]
        )
    )


@given(
    tempting(),
    st.sampled_from(RELATIONS),
    st.fixed_dictionaries({name: st.sampled_from(sorted(POINTS)) for name in "abc"}),
)
def test_what_is_proved_holds_at_every_point(
    sides: tuple[str, str], relation: str, domains: dict[str, str]
) -> None:
    tex = f"{sides[0]} {relation} {sides[1]}"
    links = split_links(tex, "en")
    if len(links) != 1:
        event("not one relation")
        return
    (link,) = links
    names = frozenset(domains)
    left = parse_side(link.left.tokens, variables=names)
    right = parse_side(link.right.tokens, variables=names)
    if isinstance(left, Unsupported) or isinstance(right, Unsupported):
        event("not parsed")
        return
    difference = laurent.difference(left, right, domains)
    if difference is None or not laurent.proves(relation, difference, domains):
        event("not proved")
        return
    event(f"proved {relation}")
    for values in product(*(POINTS[domains[name]] for name in "abc")):
        point = {name: Fraction(v) for name, v in zip("abc", values, strict=True)}
        try:
            a, b = value(left, point), value(right, point)
        except Undefined as undefined:
            raise AssertionError(f"{tex} proved, but undefined at {point}") from undefined
        assert holds(relation, a, b), f"{tex} proved, but false at {point}"
    free = frozenset(name for name in "abc" if name in tex)
    general = judge_identity(tex, relation, left, right, free, Context(domains=domains))
    assert general[0] is not Status.FAILED, (tex, general)
