"""Identities proved with Laurent polynomials over the rationals, without sympy.

Most identities of a lesson are about products and powers of a few letters
(``C n^{-1} = C/n``, ``\\frac{(2n)^2 d_k}{n^2 d_k} = 2^2``, ``\\sqrt{n^2} = n``,
``n > 0``). Each side is read here as a sum of terms ``c x^a y^b ...`` with a
rational ``c`` and whole exponents, which is a canonical form: two sides that are
the same sum are equal for every value of the letters. Importing sympy to find that
costs a fifth of a second per process, more than the rest of a lesson's claims.

Sound by construction, and deliberately narrow:

- A side is read only where it is defined for every value of its letters' declared
  domains: a division or a negative power only of a product of letters that cannot
  be zero, a root only of a product that cannot be negative. Anything else
  (a sum in a denominator, ``\\sqrt{x^2}`` for a real ``x``, a logarithm) is not read.
- :func:`proves` answers True only for a proof: two equal sums, a nonzero constant
  for ``\\ne``, or an order whose sign follows from the domains term by term.
  False means "not proved here", except for ``=``: two different sums differ for
  some value of the letters (a nonzero polynomial does not vanish on a whole
  domain, not even on the integers), so such an equation is no identity. The
  general path (:mod:`pizarra.math.exact.identity`) decides the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TypeAlias

from pizarra.math.exact.ast import Abs, BinOp, Neg, Node, Pow, Root, Sym, letters
from pizarra.math.exact.rational import MAX_BITS, exact_power, rational_value

Monomial: TypeAlias = tuple[tuple[str, int], ...]
"""Letters and their nonzero exponents, sorted by letter (``()`` is the constant term)."""
Poly: TypeAlias = dict[Monomial, Fraction]
"""Terms by monomial; no coefficient is zero (so ``{}`` is 0)."""

POSITIVE = frozenset({"positive", "positive_integer"})
NONZERO = POSITIVE | {"nonzero"}
NONNEGATIVE = POSITIVE | {"nonnegative"}

MAX_EXPONENT = 16
"""Largest |whole exponent| of an expression with letters (as the general path)."""
MAX_ROOT_INDEX = 16
"""Largest root index read on letters."""
MAX_TERMS = 256
"""Most terms of a side or of a product before it is computed."""


class _Unread(Exception):
    """This side is not read here (see the module docstring)."""


def difference(left: Node, right: Node, domains: Mapping[str, str]) -> Poly | None:
    """``left - right`` as a sum of terms, or None when a side is not read here."""
    try:
        return _subtract(_poly(left, domains), _poly(right, domains))
    except _Unread:
        return None


def proves(relation: str, difference: Poly, domains: Mapping[str, str]) -> bool:
    """True when ``left relation right`` holds for every value of the declared letters,
    given their :func:`difference`."""
    if relation == "=":
        return not difference
    if relation == "\\ne":
        return list(difference) == [()]
    lowest, highest = _bounds(difference, domains)
    return {
        ">": lowest == ">0",
        "\\ge": lowest in (">0", ">=0"),
        "<": highest == "<0",
        "\\le": highest in ("<0", "<=0"),
    }.get(relation, False)


def _poly(node: Node, domains: Mapping[str, str]) -> Poly:
    if not letters(node):
        value = rational_value(node)
        if value is None:
            raise _Unread
        return _constant(value)
    match node:
        case Sym(name=name) if name in domains:
            return {((name, 1),): Fraction(1)}
        case Neg(operand=inner):
            return {m: -c for m, c in _poly(inner, domains).items()}
        case BinOp(op="+", left=a, right=b):
            return _add(_poly(a, domains), _poly(b, domains))
        case BinOp(op="-", left=a, right=b):
            return _subtract(_poly(a, domains), _poly(b, domains))
        case BinOp(op="*", left=a, right=b):
            return _multiply(_poly(a, domains), _poly(b, domains))
        case BinOp(op="/", left=a, right=b):
            return _multiply(_poly(a, domains), _inverse(_poly(b, domains), domains))
        case Pow(base=base, exponent=exponent) if not letters(exponent):
            return _power(_poly(base, domains), rational_value(exponent), domains)
        case Root(radicand=radicand, index=index):
            degree = Fraction(2) if index is None else rational_value(index)
            return _root(_poly(radicand, domains), degree, domains)
        case Abs(operand=inner):
            return _absolute(_poly(inner, domains), domains)
    raise _Unread


def _constant(value: Fraction) -> Poly:
    return {(): value} if value else {}


def _add(a: Poly, b: Poly) -> Poly:
    total = dict(a)
    for monomial, coefficient in b.items():
        total[monomial] = total.get(monomial, Fraction(0)) + coefficient
    return _checked({m: c for m, c in total.items() if c})


def _subtract(a: Poly, b: Poly) -> Poly:
    return _add(a, {m: -c for m, c in b.items()})


def _multiply(a: Poly, b: Poly) -> Poly:
    """``a b``: at most 256 x 256 products, each operand being a checked sum."""
    product: Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            monomial = _times(ma, mb)
            product[monomial] = product.get(monomial, Fraction(0)) + ca * cb
    return _checked({m: c for m, c in product.items() if c})


def _times(a: Monomial, b: Monomial) -> Monomial:
    exponents = dict(a)
    for name, power in b:
        exponents[name] = exponents.get(name, 0) + power
    return tuple(sorted((name, power) for name, power in exponents.items() if power))


def _checked(poly: Poly) -> Poly:
    """``poly`` if it stays small: terms and digits are bounded."""
    if len(poly) > MAX_TERMS:
        raise _Unread
    for coefficient in poly.values():
        if coefficient.numerator.bit_length() + coefficient.denominator.bit_length() > MAX_BITS:
            raise _Unread
    return poly


def _inverse(poly: Poly, domains: Mapping[str, str]) -> Poly:
    """``1 / poly``: only of one term whose letters cannot be zero."""
    if len(poly) != 1:
        raise _Unread
    ((monomial, coefficient),) = poly.items()
    if any(domains[name] not in NONZERO for name, _ in monomial):
        raise _Unread
    return {tuple((name, -power) for name, power in monomial): 1 / coefficient}


def _power(base: Poly, exponent: Fraction | None, domains: Mapping[str, str]) -> Poly:
    if exponent is None or exponent.denominator != 1 or abs(exponent) > MAX_EXPONENT:
        raise _Unread
    if exponent <= 0:
        base = _inverse(base, domains)  # also refuses 0^0 and x^0 for an x that can be 0
        exponent = -exponent
    result = _constant(Fraction(1))
    for _ in range(int(exponent)):
        result = _multiply(result, base)
    return result


def _root(radicand: Poly, degree: Fraction | None, domains: Mapping[str, str]) -> Poly:
    """The principal root of one term that is never negative, when it is a term again."""
    if degree is None or degree.denominator != 1 or not 1 <= degree <= MAX_ROOT_INDEX:
        raise _Unread
    if not radicand:
        return {}
    if len(radicand) != 1:
        raise _Unread
    ((monomial, coefficient),) = radicand.items()
    index = int(degree)
    if coefficient < 0 or any(domains[n] not in NONNEGATIVE for n, _ in monomial):
        raise _Unread
    if any(power % index for _, power in monomial):
        raise _Unread
    root = exact_power(coefficient, Fraction(1, index))
    if root is None:
        raise _Unread
    return {tuple((name, power // index) for name, power in monomial): root}


def _absolute(poly: Poly, domains: Mapping[str, str]) -> Poly:
    """``|poly|``: of one term whose letters are never negative or have even exponents."""
    if not poly:
        return {}
    if len(poly) != 1:
        raise _Unread
    ((monomial, coefficient),) = poly.items()
    if any(domains[n] not in NONNEGATIVE and power % 2 for n, power in monomial):
        raise _Unread
    return {monomial: abs(coefficient)}


def _bounds(poly: Poly, domains: Mapping[str, str]) -> tuple[str, str]:
    """What the terms' signs say of the sum for every value of the letters: a lower
    bound (``>0``, ``>=0`` or ``?``) and an upper bound (``<0``, ``<=0`` or ``?``)."""
    if not poly:
        return ">=0", "<=0"
    strict = [_strictly_signed(m, domains) for m in poly]
    if None in strict:
        return "?", "?"
    coefficients = list(poly.values())
    strictly = any(strict)  # some term is never 0, and none has the other sign
    lowest = (">0" if strictly else ">=0") if all(c > 0 for c in coefficients) else "?"
    highest = ("<0" if strictly else "<=0") if all(c < 0 for c in coefficients) else "?"
    return lowest, highest


def _strictly_signed(monomial: Monomial, domains: Mapping[str, str]) -> bool | None:
    """For a product of powers of letters: True if it is > 0 for every value, False if
    only >= 0, None if it can be negative."""
    strict = True
    for name, power in monomial:
        domain = domains[name]
        if domain in POSITIVE:
            continue
        if domain == "nonnegative" or power % 2 == 0:
            strict = strict and domain in NONZERO
            continue
        return None
    return strict
