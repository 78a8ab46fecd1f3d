"""Expressions in declared letters as exact quotients of generalized polynomials.

A term is ``c x^a y^b ...`` with a rational ``c`` and rational exponents. Sums of
such terms are a canonical form for the functions they denote on the letters'
domains, and so are quotients compared by cross-multiplication: ``N1/D1`` and
``N2/D2`` agree wherever both are defined exactly when ``N1 D2 - N2 D1`` is the
zero sum (a nonzero one does not vanish on a whole open set).

Sound by construction, narrow by design. Each step is taken only where it holds
for every value of the letters' domains (``real``, ``nonzero``, ``positive``,
``nonnegative``): a negative power of a letter only when it cannot be zero, a
non-whole power only of letters that cannot be negative (``sqrt(x^2)`` for a real
``x`` is ``|x|``, outside the class). Denominators are never cancelled, so a
quotient remembers every point where it is undefined. What falls outside is
:class:`Outside`: "cannot check this form". ``answers.js`` mirrors this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TypeAlias

from pizarra.check.answers.reader import Bin, Letter, Neg, Node, Num, Pow
from pizarra.check.answers.values import UNDEFINED, bounded, power, value

Mono: TypeAlias = tuple[tuple[str, Fraction], ...]
"""Letters and their nonzero exponents, sorted by letter."""
Poly: TypeAlias = dict[Mono, Fraction]
"""Coefficients by term; no coefficient is zero."""
Quotient: TypeAlias = tuple[Poly, Poly]
"""Numerator and denominator."""

MAX_TERMS = 200
"""Most terms of any sum met on the way."""
MAX_POWER = 8
"""Largest whole power of a sum (``(x+1)^8``)."""
MAX_LETTER_EXPONENT = 64
"""Largest |exponent| of a letter."""

INVERTIBLE = ("nonzero", "positive")


class Outside(Exception):
    """Not decided here; ``reason`` is :data:`~values.UNDEFINED` or "uncheckable"."""

    def __init__(self, reason: str = "uncheckable"):
        super().__init__(reason)
        self.reason = reason


ONE: Poly = {(): Fraction(1)}


def constant(c: Fraction) -> Poly:
    return {(): c} if c != 0 else {}


def add(a: Poly, b: Poly, sign: int = 1) -> Poly:
    result = dict(a)
    for mono, c in b.items():
        total = result.get(mono, Fraction(0)) + sign * c
        if total == 0:
            result.pop(mono, None)
        else:
            result[mono] = _coefficient(total)
    return _terms(result)


def mul(a: Poly, b: Poly) -> Poly:
    if len(a) * len(b) > MAX_TERMS * MAX_TERMS:
        raise Outside()
    result: Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            mono = _mono_mul(ma, mb)
            total = result.get(mono, Fraction(0)) + ca * cb
            if total == 0:
                result.pop(mono, None)
            else:
                result[mono] = _coefficient(total)
    return _terms(result)


def _mono_mul(a: Mono, b: Mono) -> Mono:
    exponents = dict(a)
    for letter, e in b:
        exponents[letter] = exponents.get(letter, Fraction(0)) + e
    return _mono(exponents)


def _mono(exponents: Mapping[str, Fraction]) -> Mono:
    for e in exponents.values():
        if abs(e) > MAX_LETTER_EXPONENT:
            raise Outside()
    return tuple(sorted((k, e) for k, e in exponents.items() if e != 0))


def _coefficient(c: Fraction) -> Fraction:
    checked = bounded(c)
    if not isinstance(checked, Fraction):
        raise Outside()
    return checked


def _terms(p: Poly) -> Poly:
    if len(p) > MAX_TERMS:
        raise Outside()
    return p


def _invertible(mono: Mono, domains: Mapping[str, str]) -> bool:
    return all(
        domains[x] == "positive" or (domains[x] == "nonzero" and e.denominator == 1)
        for x, e in mono
    )


def _mono_power(mono: Mono, r: Fraction, domains: Mapping[str, str]) -> Mono | None:
    """``mono^r`` when ``(x^a)^r = x^(ar)`` holds on every letter's domain, else None."""
    exponents: dict[str, Fraction] = {}
    for x, a in mono:
        domain, result = domains[x], a * r
        if domain == "positive":
            pass
        elif r.denominator == 1:
            if result < 0 and not (domain == "nonzero" and result.denominator == 1):
                return None
        elif not (domain == "nonnegative" and a > 0 and r > 0):
            return None
        exponents[x] = result
    return _mono(exponents)


def quotient(node: Node, domains: Mapping[str, str]) -> Quotient:
    """``node`` as numerator and denominator; raises :class:`Outside`."""
    if isinstance(node, Num):
        return constant(node.value), ONE
    if isinstance(node, Letter):
        return {((node.name, Fraction(1)),): Fraction(1)}, ONE
    if isinstance(node, Neg):
        n, d = quotient(node.operand, domains)
        return add({}, n, -1), d
    if isinstance(node, Bin):
        a, b = quotient(node.left, domains), quotient(node.right, domains)
        if node.op in ("+", "-"):
            sign = 1 if node.op == "+" else -1
            if a[1] == b[1]:
                return add(a[0], b[0], sign), a[1]
            return add(mul(a[0], b[1]), mul(b[0], a[1]), sign), mul(a[1], b[1])
        if node.op == "*":
            return _normal(mul(a[0], b[0]), mul(a[1], b[1]), domains)
        if not b[0]:
            raise Outside(UNDEFINED)
        return _normal(mul(a[0], b[1]), mul(a[1], b[0]), domains)
    if isinstance(node, Pow):
        exponent = value(node.exponent)
        if not isinstance(exponent, Fraction):
            raise Outside(UNDEFINED if exponent == UNDEFINED else "uncheckable")
        return _power(quotient(node.base, domains), exponent, domains)
    index = Fraction(2) if node.index is None else value(node.index)
    if not isinstance(index, Fraction) or index.denominator != 1 or index < 2:
        raise Outside()
    return _power(quotient(node.radicand, domains), 1 / index, domains)


def _normal(n: Poly, d: Poly, domains: Mapping[str, str]) -> Quotient:
    """A denominator of one invertible term is folded into the numerator."""
    if len(d) == 1:
        ((mono, c),) = d.items()
        if _invertible(mono, domains):
            inverse = _mono_power(mono, Fraction(-1), domains)
            assert inverse is not None
            return mul(n, {inverse: 1 / c}), ONE
    return n, d


def _power(base: Quotient, r: Fraction, domains: Mapping[str, str]) -> Quotient:
    n, d = base
    if d == ONE and len(n) == 1:
        ((mono, c),) = n.items()
        factor = power(c, r)
        if not isinstance(factor, Fraction):
            raise Outside(UNDEFINED if factor == UNDEFINED else "uncheckable")
        if r == 0 and mono and not _invertible(mono, domains):
            raise Outside()  # x^0 at x = 0
        result = _mono_power(mono, r, domains)
        if result is not None:
            return {result: _coefficient(factor)} if factor else {}, ONE
        if r.denominator == 1 and r < 0:
            positive = _mono_power(mono, -r, domains)
            if positive is not None:
                return ONE, {positive: _coefficient(1 / factor)}
        raise Outside()
    if r.denominator != 1 or abs(r) > MAX_POWER or r == 0:
        raise Outside()
    if r < 0:
        if not n:
            raise Outside(UNDEFINED)
        n, d, r = d, n, -r
    top, bottom = ONE, ONE
    for _ in range(int(r)):
        top, bottom = mul(top, n), mul(bottom, d)
    return _normal(top, bottom, domains)


def _lead(p: Poly, letters: tuple[str, ...]) -> Mono:
    """The greatest term in the lexicographic order of exponents (a monomial order)."""

    def key(mono: Mono) -> tuple[Fraction, ...]:
        exponents = dict(mono)
        return tuple(exponents.get(x, Fraction(0)) for x in letters)

    return max(p, key=key)


def equivalent(expected: Quotient, answer: Quotient, domains: Mapping[str, str]) -> bool | None:
    """True: equal wherever the expected is defined; False: they differ; None: undecided.

    None when the two agree but the answer's denominator may vanish where the
    expected's does not (``x^2/x`` for ``x`` with a real ``x``).
    """
    ne, de = expected
    na, da = answer
    if add(mul(ne, da), mul(na, de), -1):
        return False
    if da == ONE:
        return True
    letters = tuple(sorted(domains))
    lead_a, lead_e = _lead(da, letters), _lead(de, letters)
    ratio_exponents = dict(lead_a)
    for x, e in lead_e:
        ratio_exponents[x] = ratio_exponents.get(x, Fraction(0)) - e
    ratio = _mono(ratio_exponents)
    scale = da[lead_a] / de[lead_e]
    if add(da, mul(de, {ratio: scale}), -1):
        return None
    return True if all(domains[x] in INVERTIBLE for x, _ in ratio) else None
