"""Function applications and units, written together with their true value.

Extends :mod:`tests.oracle` (same rules: exact ``Fraction`` while rational, mpmath at
120 digits otherwise, no pizarra import). A *plan* is the body of a function: given
the expression its parameter stands for, it writes the body with that parameter and
computes the body's value there. The same plan writes a lesson's definition
(``g(x): "x^2 + 1"``), is applied to a closed argument (``g(\\sqrt{2})``), nested
(``g(g(3))``) or called by another definition, and serves as the body of a
``\\sum``/``\\prod`` whose bounds are themselves expressions.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

import mpmath
from hypothesis import assume
from hypothesis import strategies as st

from tests.oracle import (
    ATOM,
    IMPLICIT,
    PRODUCT,
    SPELLING,
    SUM,
    Ex,
    Value,
    absolute,
    approx,
    arith,
    binary,
    call,
    exact,
    expressions,
    extreme,
    kept,
    leaves,
    literal,
    logarithm,
    negate,
    power,
    root,
    sign,
    wrap,
)

Plan: TypeAlias = Callable[[Ex], Ex]
"""A function body: the expression bound to its parameter -> the body written with it."""

MAX_FACTORIAL_ARGUMENT = 25
MAX_BINOMIAL_ARGUMENT = 80
MAX_SERIES_TERMS = 8


def _constant(leaf: Ex) -> Plan:
    return lambda _parameter: leaf


def _identity(parameter: Ex) -> Ex:
    return parameter


def _binary_plan(op: str, a: Plan, b: Plan, spelling: int) -> Plan:
    return lambda x: kept(binary(op, a(x), b(x), spelling))


def _power_plan(base: Plan, exponent: tuple[int, int], spelling: int) -> Plan:
    return lambda x: kept(power(base(x), exponent[0], exponent[1], spelling))


def _root_plan(radicand: Plan, index: int, spelling: int) -> Plan:
    return lambda x: kept(root(radicand(x), index, spelling))


def _unary_plan(build: Callable[[Ex, int], Ex], inner: Plan, spelling: int) -> Plan:
    return lambda x: kept(build(inner(x), spelling))


def _call_plan(name: str, inner: Plan, spelling: int) -> Plan:
    return lambda x: kept(call(name, inner(x), spelling))


def _extreme_plan(name: str, args: list[Plan], spelling: int) -> Plan:
    return lambda x: kept(extreme(name, [a(x) for a in args], spelling))


def plans(wide: bool = True, max_leaves: int = 5) -> st.SearchStrategy[Plan]:
    """Function bodies over the constructs of :func:`tests.oracle.expressions`."""
    base = st.one_of(
        st.just(_identity),
        st.just(_identity),
        leaves(wide).map(_constant),
    )

    def extend(children: st.SearchStrategy[Plan]) -> st.SearchStrategy[Plan]:
        ops = st.sampled_from(["+", "-", "*", "/", "frac", "implicit"])
        exponents = st.sampled_from([(2, 1), (3, 1), (-1, 1), (0, 1), (1, 2), (2, 3), (-3, 2)])
        core = [
            st.builds(_binary_plan, ops, children, children, SPELLING),
            st.builds(_power_plan, children, exponents, SPELLING),
            st.builds(_root_plan, children, st.integers(2, 4), SPELLING),
            st.builds(_unary_plan, st.sampled_from([absolute, negate]), children, SPELLING),
        ]
        if not wide:
            return st.one_of(core)
        names = st.sampled_from(["ln", "log2", "log10", "exp", "floor", "ceil"])
        return st.one_of(
            *core,
            st.builds(_call_plan, names, children, SPELLING),
            st.builds(
                _extreme_plan,
                st.sampled_from(["max", "min"]),
                st.lists(children, min_size=2, max_size=3),
                SPELLING,
            ),
        )

    return st.recursive(base, extend, max_leaves=max_leaves)


# -- built-in functions of expressions ----------------------------------------------------


def _whole(value: Value) -> int | None:
    """``value`` as an int when it is exactly a whole number."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return None


def factorial_of(inner: Ex, spelling: int) -> Ex:
    """``(inner)!``: defined for whole ``inner >= 0``; anything else has no decided value."""
    n = _whole(inner.value)
    value: Value = None
    if n is not None and n >= 0:
        assume(n <= MAX_FACTORIAL_ARGUMENT)
        value = Fraction(math.factorial(n))
    argument = wrap(inner, ATOM, spelling)
    if argument.tex[-1:].isdigit() or argument.tex[-1:] == "!" or "^" in argument.tex:
        argument = Ex(f"\\left({inner.tex}\\right)" if spelling % 2 else f"({inner.tex})", None)
    return Ex(f"{argument.tex}!", value, IMPLICIT, argument.tex[:1].isdigit())


def binomial_of(n: Ex, k: Ex, spelling: int) -> Ex:
    """``\\binom{n}{k}``: whole ``n, k >= 0`` (0 when k > n); else no decided value."""
    whole_n, whole_k = _whole(n.value), _whole(k.value)
    value: Value = None
    if whole_n is not None and whole_k is not None and whole_n >= 0 and whole_k >= 0:
        assume(whole_n <= MAX_BINOMIAL_ARGUMENT)
        value = Fraction(math.comb(whole_n, whole_k))
    name = ["\\binom", "\\dbinom", "\\tbinom"][spelling % 3]
    return Ex(f"{name}{{{n.tex}}}{{{k.tex}}}", value)


def plain_log(inner: Ex, base: str, spelling: int) -> Ex:
    """``\\log`` without a base (the lesson's ``log:`` convention), or ``\\ln`` without ( )."""
    v = inner.value
    value: Value = None
    numeric_base = {"10": 10, "2": 2, "e": None}[base]
    if v is not None and sign(v) == 1:
        value = logarithm(v, numeric_base)
    elif v is not None:
        assume(sign(v) is not None)
    if spelling % 3 == 0 and inner.level == ATOM and not inner.tex.startswith("\\"):
        return Ex(f"\\log {inner.tex}", value, PRODUCT)
    argument = f"\\left({inner.tex}\\right)" if spelling % 2 else f"({inner.tex})"
    return Ex(f"\\log{argument}", value)


def log_base_of(inner: Ex, base: Ex, spelling: int) -> Ex:
    """``\\log_{b}(x)`` with an expression as the base: positive and not 1."""
    v, b = inner.value, base.value
    value: Value = None
    if v is not None and b is not None:
        assume(sign(v) is not None and sign(b) is not None)
        if sign(v) == 1 and sign(b) == 1:
            if exact(b) and b == 1:
                value = None
            else:
                assume(exact(b) or abs(b - 1) > mpmath.mpf(10) ** -50)
                value = _log_in_base(v, b)
    argument = f"\\left({inner.tex}\\right)" if spelling % 2 else f"({inner.tex})"
    return Ex(f"\\log_{{{base.tex}}}{argument}", value)


def _log_in_base(value: Fraction | mpmath.mpf, base: Fraction | mpmath.mpf) -> Value:
    if isinstance(value, Fraction) and isinstance(base, Fraction):
        if value == 1:
            return Fraction(0)
        estimate = mpmath.log(approx(value)) / mpmath.log(approx(base))
        for q in range(1, 13):
            p = int(mpmath.nint(estimate * q))
            if abs(p) < 200 and base**p == value**q:
                return Fraction(p, q)
    return mpmath.log(approx(value)) / mpmath.log(approx(base))


def bars(inner: Ex, spelling: int) -> Ex:
    """``\\lvert x \\rvert``, ``\\left\\vert x \\right\\vert``: other spellings of ``|x|``."""
    value = None if inner.value is None else abs(inner.value)
    if spelling % 2:
        return Ex(f"\\left\\vert {inner.tex}\\right\\vert", value)
    return Ex(f"\\lvert {inner.tex}\\rvert", value)


def series_of(kind: str, body: Plan, low: Ex, high: Ex, spelling: int) -> Ex:
    """``\\sum_{i=low}^{high} body``: bounds are closed expressions that must be whole."""
    first, last = _whole(low.value), _whole(high.value)
    written = body(Ex("i", Fraction(1 if first is None else first)))
    if written.level < IMPLICIT or written.tex.startswith("-"):
        written = wrap(Ex(written.tex, written.value, SUM), ATOM, spelling)
    value: Value = None
    if first is not None and last is not None:
        assume(last - first < MAX_SERIES_TERMS)
        terms = [body(Ex("i", Fraction(j))).value for j in range(first, last + 1)]
        if all(t is not None for t in terms):
            value = Fraction(0) if kind == "sum" else Fraction(1)
            for term in terms:
                value = arith("+" if kind == "sum" else "*", value, term)
    return Ex(f"\\{kind}_{{i={low.tex}}}^{{{high.tex}}} {written.tex}", value, SUM)


def whole_expressions() -> st.SearchStrategy[Ex]:
    """Closed expressions that are often whole numbers (floors, sums, factorials...)."""
    small = st.integers(0, 12).map(lambda n: literal(Fraction(n), ""))
    rounded = st.builds(
        lambda name, inner, s: kept(call(name, inner, s)),
        st.sampled_from(["floor", "ceil"]),
        expressions(3),
        SPELLING,
    )
    leaf = st.one_of(small, small, rounded)

    def extend(children: st.SearchStrategy[Ex]) -> st.SearchStrategy[Ex]:
        return st.one_of(
            st.builds(
                lambda op, a, b, s: kept(binary(op, a, b, s)),
                st.sampled_from(["+", "-", "*"]),
                children,
                children,
                SPELLING,
            ),
            st.builds(absolute, children, SPELLING),
            st.builds(lambda a, s: kept(factorial_of(a, s)), children, SPELLING),
        )

    return st.recursive(leaf, extend, max_leaves=3)


def applications(log_base: str = "10") -> st.SearchStrategy[Ex]:
    """Built-in functions applied to expressions, in every spelling pizarra reads.

    ``\\log`` without a base is read in ``log_base`` (the lesson's ``log:`` convention).
    """
    spelling = SPELLING
    any_ex = expressions(3)
    whole = whole_expressions()
    return st.one_of(
        st.builds(lambda a, s: kept(factorial_of(a, s)), whole | any_ex, spelling),
        st.builds(lambda n, k, s: kept(binomial_of(n, k, s)), whole, whole | any_ex, spelling),
        st.builds(lambda a, s: kept(plain_log(a, log_base, s)), any_ex, spelling),
        st.builds(lambda a, b, s: kept(log_base_of(a, b, s)), any_ex, any_ex, spelling),
        st.builds(lambda a, s: kept(bars(a, s)), any_ex, spelling),
        st.builds(
            lambda n, a, s: kept(extreme(n, a, s)),
            st.sampled_from(["max", "min"]),
            st.lists(any_ex, min_size=1, max_size=4),
            spelling,
        ),
        st.builds(
            lambda k, body, low, high, s: kept(series_of(k, body, low, high, s)),
            st.sampled_from(["sum", "prod"]),
            plans(max_leaves=3),
            whole,
            whole,
            spelling,
        ),
    )


# -- the lesson's own functions -----------------------------------------------------------


@dataclass(frozen=True)
class Definition:
    """A function of the lesson: its front-matter key, its name in claims, and its plan."""

    key: str
    body: str
    name: str
    parameter: str
    plan: Plan

    def apply(self, argument: Ex, spelling: int) -> Ex:
        """``g(argument)``, ``\\operatorname{g}(argument)`` or ``g\\left(argument\\right)``."""
        value = None
        if argument.value is not None:
            value = kept(self.plan(Ex(self.parameter, argument.value))).value
        head = f"\\operatorname{{{self.name}}}" if spelling % 3 == 1 else self.written_name
        if spelling % 2:
            return Ex(f"{head}\\left({argument.tex}\\right)", value)
        return Ex(f"{head}({argument.tex})", value)

    @property
    def written_name(self) -> str:
        return f"\\{self.name}" if len(self.name) > 1 else self.name


def define(name: str, parameter: str, plan: Plan, bare_key: bool) -> Definition:
    """The definition of ``plan`` as a lesson writes it under ``functions:``.

    The key names the parameter (``g(x)``) unless ``bare_key`` and the body shows it
    as its only letter, not applied to a parenthesis (``g: "x^2 + 1"``).
    """
    body = plan(Ex(parameter, Fraction(1))).tex
    letters = re.sub(r"\\[A-Za-z]+", " ", body)
    applied_to = re.search(rf"{parameter}\s*(\(|\\left)", body)
    bare = bare_key and parameter in letters and applied_to is None
    written = f"\\{name}" if len(name) > 1 else name
    key = written if bare else f"{written}({parameter})"
    return Definition(key, body, name, parameter, plan)


def calling(inner: Definition, outer: Plan, spelling: int) -> Plan:
    """A body that applies ``inner`` to ``outer`` of its parameter (``g(x) - 2x``)."""
    return lambda x: inner.apply(outer(x), spelling)


@st.composite
def lesson_functions(draw: st.DrawFn, wide: bool = True) -> list[Definition]:
    """One or two definitions; the second may call the first."""
    parameter = draw(st.sampled_from(["x", "t"]))
    first = define(
        draw(st.sampled_from(["g", "phi"])), parameter, draw(plans(wide)), draw(st.booleans())
    )
    if not draw(st.booleans()):
        return [first]
    inner = draw(plans(wide, 3))
    outer = draw(plans(wide, 3))
    plan: Plan = calling(first, inner, draw(SPELLING))
    if draw(st.booleans()):
        plan = _binary_plan(draw(st.sampled_from(["+", "-", "*"])), plan, outer, draw(SPELLING))
    return [first, define("f", parameter, plan, draw(st.booleans()))]


@st.composite
def applied(draw: st.DrawFn, definitions: list[Definition], wide: bool = True) -> Ex:
    """A closed expression applying the lesson's functions (nested, or inside arithmetic)."""
    function = draw(st.sampled_from(definitions))
    argument = draw(expressions(3, wide=wide))
    call_ex = function.apply(argument, draw(SPELLING))
    shape = draw(st.sampled_from(["call", "call", "nested", "arithmetic"]))
    if shape == "nested":
        other = draw(st.sampled_from(definitions))
        return kept(other.apply(call_ex, draw(SPELLING)))
    if shape == "arithmetic":
        other = draw(expressions(2, wide=wide))
        op = draw(st.sampled_from(["+", "-", "*", "frac"]))
        return kept(binary(op, call_ex, other, draw(SPELLING)))
    return kept(call_ex)


# -- units -----------------------------------------------------------------------------------

UNITS = ["m", "km", "s", "bytes", "KB", "MB", "apples", "M", "metros"]
UNIT_SPELLINGS = ["\\text{ {u}}", "\\,\\text{{u}}", "\\ \\mathrm{{u}}", "\\,\\textrm{{u}}"]


def with_unit(side: Ex, unit: str, spelling: int) -> Ex:
    """``side`` followed by a unit word (``3\\text{ m}``); a product gets no parentheses."""
    word = UNIT_SPELLINGS[spelling % len(UNIT_SPELLINGS)].replace("{u}", unit)
    return Ex(f"{side.tex}{word}", side.value, side.level, side.digit_first)


def product_side(ex: Ex, spelling: int) -> Ex:
    """``ex`` in parentheses when a unit after it would scale only its last term."""
    if ex.level > SUM:
        return ex
    inner = f"\\left({ex.tex}\\right)" if spelling % 2 else f"({ex.tex})"
    return Ex(inner, ex.value, ATOM)
