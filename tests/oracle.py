"""Closed formulas written together with their true value, for the soundness property.

The value is computed here, independently of pizarra: exactly with ``Fraction`` while
the arithmetic stays rational, otherwise with mpmath at :data:`DIGITS` digits. Nothing
in this module imports pizarra, so the oracle cannot share a bug with the code it judges.
``None`` stands for "no value in the real numbers" (``\\sqrt{-9}``, ``1/0``, ``0^0``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

import mpmath
from hypothesis import assume
from hypothesis import strategies as st

DIGITS = 120
"""Working precision of the oracle for irrational values."""
DECIDED = mpmath.mpf(10) ** -60
"""A difference at least this large (relative to the sizes involved) has a known sign."""
MAX_BITS = 4_000
"""Largest exact rational the generator keeps (bigger ones are discarded, not judged)."""

mpmath.mp.dps = DIGITS

Value: TypeAlias = Fraction | mpmath.mpf | None

SUM, PRODUCT, IMPLICIT, ATOM = 1, 2, 3, 4
"""How tightly a piece of TeX binds, to decide where parentheses are needed."""


@dataclass(frozen=True)
class Ex:
    """A closed expression: its TeX and its true value."""

    tex: str
    value: Value
    level: int = ATOM
    digit_first: bool = False
    """The TeX starts with a digit (it cannot follow another factor without a sign)."""


def exact(value: Value) -> bool:
    return isinstance(value, Fraction)


def big(value: Value) -> bool:
    if isinstance(value, Fraction):
        return value.numerator.bit_length() + value.denominator.bit_length() > MAX_BITS
    return value is not None and abs(value) > mpmath.mpf(10) ** 30


def approx(value: Fraction | mpmath.mpf) -> mpmath.mpf:
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    return value


def kept(ex: Ex) -> Ex:
    """``ex`` unless its value is too big for the oracle to be sure of (then discarded)."""
    assume(not big(ex.value))
    if ex.value is not None and not exact(ex.value):
        assume(ex.value == 0 or abs(ex.value) > DECIDED)
    return ex


ONE = mpmath.mpf(1)


def sign(value: Fraction | mpmath.mpf, scale: mpmath.mpf = ONE) -> int | None:
    """The sign of a value, or None when the oracle cannot be sure of it."""
    if isinstance(value, Fraction):
        return (value > 0) - (value < 0)
    if abs(value) <= DECIDED * max(scale, ONE):
        return None
    return 1 if value > 0 else -1


def compare(left: Fraction | mpmath.mpf, right: Fraction | mpmath.mpf) -> int | None:
    """The sign of ``left - right``; None when the oracle cannot decide it."""
    if exact(left) and exact(right):
        return sign(left - right)  # type: ignore[operator]
    scale = abs(approx(left)) + abs(approx(right))
    return sign(approx(left) - approx(right), scale)


# -- writing numbers ---------------------------------------------------------------


def decimal_digits(value: Fraction) -> int | None:
    """How many decimals write ``value`` exactly, or None if it has no finite decimal."""
    q = value.denominator
    twos = fives = 0
    while q % 2 == 0:
        q //= 2
        twos += 1
    while q % 5 == 0:
        q //= 5
        fives += 1
    return None if q != 1 else max(twos, fives)


def write_decimal(value: Fraction, digits: int) -> str:
    """``value`` (with a finite decimal of at most ``digits`` places) as ``-12.0625``."""
    scaled = abs(value) * 10**digits
    assert scaled.denominator == 1
    text = str(scaled.numerator).rjust(digits + 1, "0")
    body = text if digits == 0 else f"{text[:-digits]}.{text[-digits:]}"
    return ("-" if value < 0 else "") + body


def literal(value: Fraction, style: str) -> Ex:
    """A written rational: an integer, a decimal or a ``\\frac`` (with its sign in front)."""
    digits = decimal_digits(value)
    negative = value < 0
    if value.denominator == 1:
        text = str(value.numerator)
    elif digits is not None and digits <= 30 and style != "frac":
        text = write_decimal(value, digits)
    else:
        frac = {"frac": "\\frac", "dfrac": "\\dfrac"}.get(style, "\\frac")
        text = f"{'-' if negative else ''}{frac}{{{abs(value.numerator)}}}{{{value.denominator}}}"
    level = SUM if negative else ATOM
    return Ex(text, value, level, digit_first=text[0].isdigit())


# -- composing ----------------------------------------------------------------------


def wrap(ex: Ex, level: int, style: int = 0) -> Ex:
    """``ex`` in parentheses when it binds more loosely than ``level`` needs."""
    if ex.level >= level:
        return ex
    tex = f"\\left({ex.tex}\\right)" if style % 2 else f"({ex.tex})"
    return Ex(tex, ex.value, ATOM)


def nth_root(n: int, k: int) -> int | None:
    """The exact integer k-th root of ``n >= 0``, or None."""
    if n < 2:
        return n
    guess = round(n ** (1.0 / k)) if n.bit_length() < 1000 else int(mpmath.root(n, k))
    for candidate in (guess - 1, guess, guess + 1):
        if candidate >= 0 and candidate**k == n:
            return candidate
    return None


def power_value(base: Value, p: int, q: int) -> Value:
    """``base^{p/q}`` in the real numbers as the course teaches it (``(-8)^{1/3} = -2``)."""
    if base is None:
        return None
    if isinstance(base, Fraction):
        if base == 0:
            return Fraction(0) if p > 0 else None
        if base < 0 and q % 2 == 0:
            return None
        if abs(p) * (base.numerator.bit_length() + base.denominator.bit_length()) > MAX_BITS * q:
            assume(False)
        magnitude = abs(base)
        num, den = nth_root(magnitude.numerator, q), nth_root(magnitude.denominator, q)
        negative = base < 0 and p % 2 == 1
        if num is not None and den is not None:
            result = Fraction(num, den) ** p
        else:
            result = approx(magnitude) ** (mpmath.mpf(p) / q)
        return -result if negative else result
    assume(abs(base) > DECIDED)
    if base < 0 and q % 2 == 0:
        return None
    result = abs(base) ** (mpmath.mpf(p) / q)
    return -result if base < 0 and p % 2 == 1 else result


def arith(op: str, left: Value, right: Value) -> Value:
    """``left op right`` (op one of ``+ - * /``); exact when both values are exact."""
    if left is None or right is None:
        return None
    if op == "/":
        if sign(right) == 0:
            return None
        assume(sign(right) is not None)
    if exact(left) != exact(right):
        left, right = approx(left), approx(right)
    if op == "+":
        return left + right  # type: ignore[operator]
    if op == "-":
        return left - right  # type: ignore[operator]
    if op == "*":
        return left * right  # type: ignore[operator]
    return left / right  # type: ignore[operator]


def binary(op: str, left: Ex, right: Ex, spelling: int) -> Ex:
    if op in "+-":
        a, b = wrap(left, SUM, spelling), wrap(right, PRODUCT, spelling)
        return Ex(f"{a.tex}{op}{b.tex}", arith(op, a.value, b.value), SUM, a.digit_first)
    if op == "*":
        a, b = wrap(left, PRODUCT, spelling), wrap(right, IMPLICIT, spelling)
        sym = ["\\cdot ", "\\times ", "\\cdot", "*"][spelling % 4]
        if sym[-1].isalpha() and b.tex[:1].isalpha():
            sym += " "  # \cdot x, not \cdotx
        return Ex(f"{a.tex}{sym}{b.tex}", arith("*", a.value, b.value), PRODUCT, a.digit_first)
    if op == "/":
        a, b = wrap(left, PRODUCT, spelling), wrap(right, ATOM, spelling)
        sym = ["/", "\\div "][spelling % 2]
        return Ex(f"{a.tex}{sym}{b.tex}", arith("/", a.value, b.value), PRODUCT, a.digit_first)
    if op == "frac":
        frac = ["\\frac", "\\dfrac", "\\tfrac"][spelling % 3]
        return Ex(f"{frac}{{{left.tex}}}{{{right.tex}}}", arith("/", left.value, right.value))
    assert op == "implicit"
    a = wrap(left, IMPLICIT, spelling)
    b = right if right.level == ATOM and not right.digit_first else wrap(right, SUM + 9, spelling)
    if a.tex.startswith("-"):
        a = wrap(a, SUM + 9, spelling)
    if a.tex[-1:].isdigit() and b.tex.startswith(("\\frac", "\\dfrac", "\\tfrac")):
        b = wrap(b, SUM + 9, spelling)
    gap = " " if re.search(r"\\[A-Za-z]+$", a.tex) and b.tex[:1].isalpha() else ""
    return Ex(f"{a.tex}{gap}{b.tex}", arith("*", a.value, b.value), IMPLICIT, a.digit_first)


def power(base: Ex, p: int, q: int, spelling: int) -> Ex:
    b = base
    if b.level < ATOM or b.tex.startswith(("-", "\\frac", "\\dfrac", "\\tfrac")) or "^" in b.tex:
        b = Ex(f"({b.tex})" if spelling % 2 else f"\\left({b.tex}\\right)", b.value)
    if q == 1:
        exponent = f"{{{p}}}" if (p < 0 or p > 9 or spelling % 3) else str(p)
    elif spelling % 2:
        exponent = f"{{{'-' if p < 0 else ''}\\frac{{{abs(p)}}}{{{q}}}}}"
    else:
        exponent = f"{{{p}/{q}}}"
    return Ex(f"{b.tex}^{exponent}", power_value(b.value, p, q), ATOM, b.digit_first)


def root(radicand: Ex, index: int, spelling: int) -> Ex:
    written = "" if index == 2 and spelling % 2 == 0 else f"[{index}]"
    value = power_value(radicand.value, 1, index)
    if radicand.value is not None and exact(radicand.value) and radicand.value == 0:
        value = Fraction(0)
    return Ex(f"\\sqrt{written}{{{radicand.tex}}}", value)


def absolute(inner: Ex, spelling: int) -> Ex:
    value = None if inner.value is None else abs(inner.value)
    if "|" in inner.tex or spelling % 2:
        return Ex(f"\\left|{inner.tex}\\right|", value)
    return Ex(f"|{inner.tex}|", value)


def negate(inner: Ex, spelling: int) -> Ex:
    a = wrap(inner, PRODUCT, spelling)
    if a.tex.startswith("-"):
        a = Ex(f"({a.tex})", a.value)
    return Ex(f"-{a.tex}", None if a.value is None else -a.value, SUM)


# -- strategies ---------------------------------------------------------------------

small_ints = st.integers(min_value=0, max_value=60)
SPELLING = st.integers(0, 11)


@st.composite
def leaves(draw: st.DrawFn, wide: bool = True, point: Fraction | None = None) -> Ex:
    kinds = ["int", "int", "big", "decimal", "frac", "zero-den"]
    if wide:
        kinds += ["pi", "e", "binom", "factorial", "percent", "series"]
    if point is not None:
        kinds += ["letter"] * 4
    kind = draw(st.sampled_from(kinds))
    if kind == "letter":
        assert point is not None
        return Ex("x", point)
    if kind == "int":
        return literal(Fraction(draw(small_ints)), "")
    if kind == "big":
        return literal(Fraction(draw(st.integers(61, 10**9))), "")
    if kind == "decimal":
        digits = draw(st.integers(1, 8))
        value = Fraction(draw(st.integers(0, 10**9)), 10**digits)
        return Ex(write_decimal(value, digits), value, ATOM, True)
    if kind == "frac":
        value = Fraction(draw(st.integers(0, 99)), draw(st.integers(1, 24)))
        return literal(value, "frac")
    if kind == "pi":
        return Ex("\\pi", mpmath.pi())
    if kind == "e":
        return Ex("e", mpmath.e())
    if kind == "binom":
        n = draw(st.integers(0, 30))
        k = draw(st.integers(0, n + 2))
        return Ex(f"\\binom{{{n}}}{{{k}}}", Fraction(math.comb(n, k)))
    if kind == "factorial":
        n = draw(st.integers(0, 12))
        return Ex(f"{n}!", Fraction(math.factorial(n)), IMPLICIT, True)
    if kind == "percent":
        value = Fraction(draw(st.integers(0, 1000)), 10 ** draw(st.integers(0, 2)))
        digits = decimal_digits(value) or 0
        return Ex(f"{write_decimal(value, digits)}\\%", value / 100, IMPLICIT, True)
    if kind == "series":
        return draw(series())
    numerator = draw(st.integers(0, 20))
    return Ex(f"\\frac{{{numerator}}}{{0}}", None)


BODIES = {
    "i": lambda i: Fraction(i),
    "i^2": lambda i: Fraction(i * i),
    "2^i": lambda i: Fraction(2**i),
    "\\frac{1}{i}": lambda i: None if i == 0 else Fraction(1, i),
    "(i+1)": lambda i: Fraction(i + 1),
}


@st.composite
def series(draw: st.DrawFn) -> Ex:
    """``\\sum_{i=a}^{b}`` or ``\\prod_{i=a}^{b}`` of a small body (an empty range is allowed)."""
    kind = draw(st.sampled_from(["sum", "prod"]))
    body = draw(st.sampled_from(sorted(BODIES)))
    low, high = draw(st.integers(0, 2)), draw(st.integers(-1, 8))
    terms = [BODIES[body](i) for i in range(low, high + 1)]
    value: Value
    if any(term is None for term in terms):
        value = None
    elif kind == "sum":
        value = sum((t for t in terms if t is not None), Fraction(0))
    else:
        value = math.prod((t for t in terms if t is not None), start=Fraction(1))
    return Ex(f"\\{kind}_{{i={low}}}^{{{high}}} {body}", value, SUM)


def call(name: str, inner: Ex, spelling: int) -> Ex:
    """``\\ln``, ``\\log_b``, ``\\exp``, ``\\lfloor\\rfloor``, ``\\lceil\\rceil`` of ``inner``."""
    v = inner.value
    value: Value = None
    if name in ("floor", "ceil"):
        if v is not None:
            if not exact(v):
                assume(abs(v - mpmath.nint(v)) > DECIDED)
            rounded = mpmath.floor(approx(v)) if name == "floor" else mpmath.ceil(approx(v))
            value = Fraction(int(rounded))
        left, right = ("\\lfloor ", "\\rfloor") if name == "floor" else ("\\lceil ", "\\rceil")
        if spelling % 2:
            left, right = "\\left" + left.strip() + " ", "\\right" + right
        return Ex(f"{left}{inner.tex}{right}", value)
    argument = f"\\left({inner.tex}\\right)" if spelling % 2 else f"({inner.tex})"
    if name == "exp":
        if v is not None:
            value = Fraction(1) if exact(v) and v == 0 else mpmath.exp(approx(v))
        return Ex(f"\\exp{argument}", value)
    base = {"ln": None, "log2": 2, "log3": 3, "log10": 10, "log8": 8}[name]
    if v is not None and sign(v) == 1:
        value = logarithm(v, base)
    elif v is not None:
        assume(sign(v) is not None)
    head = "\\ln" if base is None else f"\\log_{{{base}}}" if spelling % 3 else f"\\log_{base}"
    if base == 10 and spelling % 4 == 0:
        head = "\\log_{10}"
    return Ex(f"{head}{argument}", value)


def logarithm(value: Fraction | mpmath.mpf, base: int | None) -> Value:
    """``log_base value`` (natural when base is None): a rational when there is one."""
    if base is None:
        return Fraction(0) if exact(value) and value == 1 else mpmath.log(approx(value))
    if isinstance(value, Fraction):
        estimate = mpmath.log(approx(value), base)
        for q in range(1, 13):
            p = int(mpmath.nint(estimate * q))
            if abs(p) < 400 and Fraction(base) ** p == value**q:
                return Fraction(p, q)
    return mpmath.log(approx(value), base)


def extreme(name: str, args: list[Ex], spelling: int) -> Ex:
    values = [a.value for a in args]
    value: Value = None
    if all(v is not None for v in values):
        ordered = [(approx(v), v) for v in values if v is not None]
        best = (
            max(ordered, key=lambda pair: pair[0])
            if name == "max"
            else min(ordered, key=lambda pair: pair[0])
        )
        value = best[1]
    separator = [", ", ",", ",\\,"][spelling % 3]
    return Ex(f"\\{name}({separator.join(a.tex for a in args)})", value)


def expressions(
    max_leaves: int = 6, wide: bool = True, point: Fraction | None = None
) -> st.SearchStrategy[Ex]:
    """Closed expressions over every construct the claim checker reads.

    ``wide=False`` keeps to the constructs decided exactly in rational arithmetic. With a
    ``point``, the letter ``x`` appears too, and the value is the expression's at x = point.
    """
    return st.recursive(leaves(wide, point), lambda c: _extend(c, wide), max_leaves=max_leaves).map(
        kept
    )


def _extend(children: st.SearchStrategy[Ex], wide: bool) -> st.SearchStrategy[Ex]:
    ops = st.sampled_from(["+", "-", "*", "/", "frac", "implicit"])
    exponents = st.one_of(
        st.tuples(st.integers(-6, 6), st.just(1)),
        st.sampled_from([(p, q) for q in range(2, 7) for p in range(-5, 6) if math.gcd(p, q) == 1]),
    )
    core = [
        st.builds(lambda op, a, b, s: kept(binary(op, a, b, s)), ops, children, children, SPELLING),
        st.builds(lambda b, e, s: kept(power(b, e[0], e[1], s)), children, exponents, SPELLING),
        st.builds(lambda r, n, s: kept(root(r, n, s)), children, st.integers(1, 7), SPELLING),
        st.builds(absolute, children, SPELLING),
        st.builds(negate, children, SPELLING),
    ]
    if not wide:
        return st.one_of(core)
    names = st.sampled_from(["ln", "log2", "log3", "log10", "log8", "exp", "floor", "ceil"])
    extremes = st.sampled_from(["max", "min"])
    return st.one_of(
        *core,
        st.builds(lambda n, a, s: kept(call(n, a, s)), names, children, SPELLING),
        st.builds(
            lambda n, a, s: kept(extreme(n, a, s)),
            extremes,
            st.lists(children, min_size=2, max_size=3),
            SPELLING,
        ),
    )


LOCAL_NUMBER = re.compile(r"(?<![\d.])(\d+)(?:\.(\d+))?")


def localize(tex: str, lang: str, group: bool) -> str:
    """Numerals as a lesson in ``lang`` writes them: ``1\\,234{,}5`` in Spanish."""

    def number(match: re.Match[str]) -> str:
        whole, decimals = match.group(1), match.group(2)
        if group and len(whole) > 4:
            separator = "{,}" if lang == "en" else "\\,"
            head = len(whole) % 3 or 3
            whole = separator.join(
                [whole[:head]] + [whole[i : i + 3] for i in range(head, len(whole), 3)]
            )
        if decimals is None:
            return whole
        return f"{whole}{'.' if lang == 'en' else '{,}'}{decimals}"

    return LOCAL_NUMBER.sub(number, tex)


UNDEFINED_CORES = [
    Ex("\\frac{3}{0}", None),
    Ex("\\sqrt{-9}", None),
    Ex("\\sqrt{-2}", None),
    Ex("\\sqrt[4]{-16}", None),
    Ex("(-4)^{1/2}", None),
    Ex("(-8)^{3/4}", None),
    Ex("0^{-3}", None),
    Ex("0^0", None),
    Ex("1/(2-2)", None, PRODUCT, True),
    Ex("\\frac{1}{\\sqrt{4}-2}", None),
    Ex("\\sqrt{1-\\sqrt{4}}", None),
]


def undefined_expressions() -> st.SearchStrategy[Ex]:
    """An expression with a part that has no real value, somewhere inside."""
    spelling = st.integers(0, 11)
    ops = st.sampled_from(["+", "-", "*", "/", "frac", "implicit"])
    cores = st.sampled_from(UNDEFINED_CORES)
    others = expressions(3)
    return st.one_of(
        cores,
        st.builds(binary, ops, cores, others, spelling),
        st.builds(lambda op, a, b, s: binary(op, b, a, s), ops, cores, others, spelling),
        st.builds(lambda c, s: power(c, 2, 1, s), cores, spelling),
        st.builds(absolute, cores, spelling),
        st.builds(negate, cores, spelling),
        st.builds(lambda c, s: root(c, 3, s), cores, spelling),
    )
