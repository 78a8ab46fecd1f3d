"""Explorer formulas over the reals: exact where possible, otherwise correctly rounded.

A formula with a logarithm (``log2(n)``, ``ln(n)``) usually has an irrational
value. It is evaluated here as an interval with rational endpoints that is
guaranteed to contain the true value (interval arithmetic, with logarithms from
an atanh series whose truncation error is bounded). :func:`rounded` narrows the
interval until both ends round to the same decimal, so the digits a reader sees
are the correctly rounded digits of the true value, never a floating-point
guess; a value that is rational (``log2(1024)`` is ``10``) stays exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from pizarra.base.i18n.numbers import round_half_expand
from pizarra.source.explorers.exact_values import exact_log
from pizarra.source.explorers.expr import MAX_BITS as VALUE_BITS
from pizarra.source.explorers.expr import Call, Expr, ExprError, MaxOf, Neg, Num, Pow, Power, Var

START_BITS = 64
"""Working precision of the first attempt, in bits."""
MAX_BITS = 2048
"""Precision past which :func:`rounded` gives up (bounded work for every input)."""


@dataclass(frozen=True)
class Interval:
    """A closed interval ``[lo, hi]`` known to contain a real value."""

    lo: Fraction
    """Lower end."""
    hi: Fraction
    """Upper end; equal to ``lo`` when the value is known exactly."""

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


class _Unresolved(Exception):
    """The interval is too wide to decide (a sign, a division): retry with more bits."""


def rounded(node: Expr, env: Mapping[str, Fraction], decimals: int) -> Fraction:
    """The value of ``node``: exact if rational, else rounded half away from zero to
    ``decimals`` fraction digits, the same rule :func:`round_half_expand` applies."""
    return _rounded(lambda bits: enclose(node, env, bits), decimals)


def rounded_growth(
    node: Expr, env: Mapping[str, Fraction], baseline: Mapping[str, Fraction], decimals: int
) -> Fraction:
    """``node(env) / node(baseline)``, exact or correctly rounded like :func:`rounded`."""
    return _rounded(
        lambda bits: _div(enclose(node, env, bits), enclose(node, baseline, bits), bits),
        decimals,
    )


def _rounded(box_at: Callable[[int], Interval], decimals: int) -> Fraction:
    bits = START_BITS
    while bits <= MAX_BITS:
        try:
            box = box_at(bits)
        except _Unresolved:
            bits *= 2
            continue
        if box.exact:
            return box.lo
        low, high = (round_half_expand(x, decimals) for x in (box.lo, box.hi))
        if low == high:
            return low
        bits *= 2
    raise ExprError(f"cannot decide the value to {decimals} decimals")


def sign(node: Expr, env: Mapping[str, Fraction]) -> int:
    """-1, 0 or 1: the sign of the value, decided exactly."""
    bits = START_BITS
    while bits <= MAX_BITS:
        try:
            box = enclose(node, env, bits)
        except _Unresolved:
            bits *= 2
            continue
        if box.lo > 0:
            return 1
        if box.hi < 0:
            return -1
        if box.exact:
            return 0
        bits *= 2
    raise ExprError("cannot decide the sign of the value")


def enclose(node: Expr, env: Mapping[str, Fraction], bits: int) -> Interval:
    """An interval around the value of ``node``, about ``2**-bits`` wide when inexact.

    A subtree shared by several parents (a distribution's sum of weights) is
    enclosed once."""
    return _enclose(node, env, bits, {})


def _enclose(
    node: Expr, env: Mapping[str, Fraction], bits: int, memo: dict[int, Interval]
) -> Interval:
    known = memo.get(id(node))
    if known is None:
        known = memo[id(node)] = _enclose_new(node, env, bits, memo)
    return known


def _enclose_new(
    node: Expr, env: Mapping[str, Fraction], bits: int, memo: dict[int, Interval]
) -> Interval:
    def inner(child: Expr) -> Interval:
        return _enclose(child, env, bits, memo)

    if isinstance(node, Num):
        return Interval(node.value, node.value)
    if isinstance(node, Var):
        return Interval(env[node.name], env[node.name])
    if isinstance(node, Neg):
        operand = inner(node.operand)
        return Interval(-operand.hi, -operand.lo)
    if isinstance(node, Pow):
        return _pow(inner(node.base), node.exponent, bits)
    if isinstance(node, Call):
        return _call(node.name, inner(node.argument), bits)
    if isinstance(node, Power):
        return _power(inner(node.base), inner(node.exponent), bits)
    if isinstance(node, MaxOf):
        boxes = [inner(a) for a in node.args]
        return Interval(max(b.lo for b in boxes), max(b.hi for b in boxes))
    left, right = inner(node.left), inner(node.right)
    if node.op == "+":
        return _snap(Interval(left.lo + right.lo, left.hi + right.hi), bits)
    if node.op == "-":
        return _snap(Interval(left.lo - right.hi, left.hi - right.lo), bits)
    if node.op == "*":
        return _mul(left, right, bits)
    return _div(left, right, bits)


def _snap(box: Interval, bits: int) -> Interval:
    """Widen an inexact interval outwards to a grid of ``2**-(bits+16)`` so sizes stay small;
    refuse values past :data:`pizarra.source.explorers.expr.MAX_BITS`, as exact evaluation does."""
    for end in (box.lo, box.hi):
        if max(end.numerator.bit_length(), end.denominator.bit_length()) > VALUE_BITS + bits + 16:
            raise ExprError(f"value too large (over {VALUE_BITS} bits)")
    if box.exact:
        return box
    scale = 1 << (bits + 16)
    lo = Fraction(math.floor(box.lo * scale), scale)
    hi = Fraction(math.ceil(box.hi * scale), scale)
    return Interval(lo, hi)


def _mul(a: Interval, b: Interval, bits: int) -> Interval:
    products = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
    return _snap(Interval(min(products), max(products)), bits)


def _div(a: Interval, b: Interval, bits: int) -> Interval:
    if b.exact and b.lo == 0:
        raise ExprError("division by zero")
    if b.lo <= 0 <= b.hi:
        raise _Unresolved
    return _mul(a, Interval(1 / b.hi, 1 / b.lo), bits)


def _pow(base: Interval, exponent: int, bits: int) -> Interval:
    if exponent < 0:
        return _div(Interval(Fraction(1), Fraction(1)), _pow(base, -exponent, bits), bits)
    size = max(x.bit_length() for e in (base.lo, base.hi) for x in (e.numerator, e.denominator))
    if size * exponent > VALUE_BITS + bits + 16:
        raise ExprError(f"value too large (over {VALUE_BITS} bits)")
    ends = (base.lo**exponent, base.hi**exponent)
    if exponent % 2 == 0 and base.lo < 0 < base.hi:
        return _snap(Interval(Fraction(0), max(ends)), bits)
    return _snap(Interval(min(ends), max(ends)), bits)


def _call(name: str, x: Interval, bits: int) -> Interval:
    if name == "exp":
        return exp_interval(x, bits)
    if name == "sqrt":
        return _sqrt(x, bits)
    return _log(name, x, bits)


def _power(base: Interval, exponent: Interval, bits: int) -> Interval:
    """``base ^ exponent``: a small integer power exactly as :class:`Pow` does, anything
    else as ``exp(exponent * ln base)`` (``(1 + 1/n)^n`` for n = 10^6 has no small
    exact value)."""
    if exponent.exact and exponent.lo.denominator == 1:
        size = max(x.bit_length() for e in (base.lo, base.hi) for x in (e.numerator, e.denominator))
        if size * abs(exponent.lo) <= VALUE_BITS or base.hi <= 0:
            return _pow(base, int(exponent.lo), bits)
    if base.exact and base.lo <= 0:
        raise ExprError(
            "a power with an exponent that is not an integer needs a positive base",
            hint="write the base so that it stays above 0",
        )
    if base.lo <= 0:
        raise _Unresolved
    return exp_interval(_mul(exponent, _log("ln", base, bits), bits), bits)


EXP_LIMIT = 2000
"""Largest ``|x|`` whose ``exp(x)`` is computed (e^2000 has about 2900 bits)."""


def exp_interval(x: Interval, bits: int) -> Interval:
    """An interval around ``exp`` of every point of ``x`` (exp is increasing)."""
    if x.exact and x.lo == 0:
        return Interval(Fraction(1), Fraction(1))
    if max(abs(x.lo), abs(x.hi)) > EXP_LIMIT:
        raise ExprError(f"exp of a number beyond ±{EXP_LIMIT} is too large")
    return _snap(
        Interval(_exp_end(x.lo, bits, upper=False), _exp_end(x.hi, bits, upper=True)), bits
    )


def _exp_end(q: Fraction, bits: int, upper: bool) -> Fraction:
    """A lower (or upper) bound of ``exp(q)``: ``q = k ln 2 + r`` with ``|r| < 0.4``."""
    ln2 = _atanh2(1, 3, bits + 8)
    k = math.floor(q / ln2.lo + Fraction(1, 2))
    # r lies in [q - k*ln2.hi, q - k*ln2.lo] for k >= 0 (reversed for k < 0).
    ends = (q - k * ln2.hi, q - k * ln2.lo)
    r = max(ends) if upper else min(ends)
    return Fraction(2) ** k * _exp_small(r, bits + 8, upper)


def _exp_small(r: Fraction, bits: int, upper: bool) -> Fraction:
    """A bound of ``exp(r)`` for ``|r| <= 1/2`` from its Taylor series in fixed point."""
    if r < 0:
        return 1 / _exp_small(-r, bits, not upper)
    scale = 1 << bits
    z = math.ceil(r * scale) if upper else math.floor(r * scale)
    total, term, i = 0, scale, 0
    while term > 1:
        total += term
        i += 1
        term = -(-term * z // (scale * i)) if upper else term * z // (scale * i)
    # The term left out is at most 1 unit and each later one under half the one
    # before (r <= 1/2): the tail is below 2 units. Terms rounded up bound from above.
    return Fraction(total + 2, scale) if upper else Fraction(total, scale)


def _sqrt(x: Interval, bits: int) -> Interval:
    if x.exact and x.lo < 0:
        raise ExprError(f"sqrt of {x.lo} is not defined", hint="sqrt needs a number >= 0")
    if x.lo < 0:
        raise _Unresolved
    if x.exact:
        top, bottom = math.isqrt(x.lo.numerator), math.isqrt(x.lo.denominator)
        if top * top == x.lo.numerator and bottom * bottom == x.lo.denominator:
            return Interval(Fraction(top, bottom), Fraction(top, bottom))
    scale = 1 << bits
    low = Fraction(math.isqrt(math.floor(x.lo * scale * scale)), scale)
    high = Fraction(math.isqrt(math.ceil(x.hi * scale * scale)) + 1, scale)
    return _snap(Interval(low, high), bits)


def _log(name: str, x: Interval, bits: int) -> Interval:
    if x.exact:
        if x.lo <= 0:
            raise ExprError(
                f"{name} of {x.lo} is not defined",
                hint="logarithms are defined for positive numbers only",
            )
        known = exact_log(name, x.lo)
        if known is not None:
            return Interval(known, known)
    elif x.lo <= 0:
        raise _Unresolved
    natural = Interval(_ln(x.lo, bits).lo, _ln(x.hi, bits).hi)
    if name == "log2":
        return _div(natural, _ln(Fraction(2), bits), bits)
    if name == "log10":
        return _div(natural, _ln(Fraction(10), bits), bits)
    return _snap(natural, bits)


def _ln(x: Fraction, bits: int) -> Interval:
    """An interval around ``ln x`` for a rational ``x > 0``."""
    top, bottom = _ln_int(x.numerator, bits), _ln_int(x.denominator, bits)
    return Interval(top.lo - bottom.hi, top.hi - bottom.lo)


@lru_cache(maxsize=4096)
def _ln_int(m: int, bits: int) -> Interval:
    """``ln m = k ln 2 + ln(m / 2^k)`` with ``m / 2^k`` in ``[1, 2)``."""
    k = m.bit_length() - 1
    ln2 = _atanh2(1, 3, bits)
    rest = _atanh2(m - (1 << k), m + (1 << k), bits)
    return Interval(k * ln2.lo + rest.lo, k * ln2.hi + rest.hi)


@lru_cache(maxsize=4096)
def _atanh2(a: int, b: int, bits: int) -> Interval:
    """``2 atanh(a/b) = ln((b+a)/(b-a))`` for ``0 <= a/b <= 1/3``, as an interval.

    Fixed point with scale ``S = 2^w``: ``Z = floor(zS)``, ``Z2 = floor(Z^2/S)`` and
    each power ``P_(i+1) = floor(P_i Z2 / S)`` underestimate the true values by less
    than 3 units, so each term ``floor(P_i / (2i+1))`` by less than 4; the sum of
    ``N`` terms is low by less than ``4N``, and ``N`` is chosen so that the tail
    ``z^(2N+1) / ((2N+1)(1 - z^2))`` is below one unit.
    """
    w = bits + 8
    scale = 1 << w
    z = a * scale // b
    z2 = z * z // scale
    terms = w // 3 + 2
    total, power = 0, z
    for i in range(terms):
        total += power // (2 * i + 1)
        power = power * z2 // scale
    slack = 4 * terms + 1
    return Interval(Fraction(2 * total, scale), Fraction(2 * (total + slack), scale))
