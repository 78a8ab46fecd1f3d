"""Claims between plain fractions, decided with :class:`fractions.Fraction` alone.

Most claims of a lesson are arithmetic on rationals (``512^2 = 262\\,144``,
``\\frac{3}{4} = 75\\%``, ``\\sqrt{49} = 7``, ``64^{-2/3} = \\frac{1}{16}``). They
need no computer algebra: this module decides them with integers and fractions, so a
lesson made only of such claims never loads sympy. A root is read here only when it is
exact (a rational number); anything else (``\\sqrt{2}``, logarithms, letters, a value
that is not real or a division by zero, whose messages :mod:`pizarra.math.exact.decide`
words) returns None and takes the general path.
"""

from __future__ import annotations

from fractions import Fraction

from pizarra.math.exact.ast import Abs, BinOp, Call, Neg, Node, Num, Pow, Root

MAX_EXPONENT = 100_000
"""Largest |integer exponent| evaluated for a rational base (compound interest over
thousands of periods is common; the digits bound below still applies)."""
MAX_BITS = 200_000
"""Largest size (bits of numerator plus denominator) of any rational met on the way."""
MAX_ROOT_INDEX = 64
"""Largest root index (denominator of a rational exponent)."""

RELATIONS = frozenset({"=", "\\ne", "<", "\\le", ">", "\\ge", "\\approx"})


def rational_value(node: Node) -> Fraction | None:
    """The exact value of ``node`` when it is plain rational arithmetic, else None."""
    try:
        value = _value(node)
    except _Elsewhere:
        return None
    return value


class _Elsewhere(Exception):
    """The expression needs the general evaluator."""


def _value(node: Node) -> Fraction:
    match node:
        case Num(value=number):
            return number
        case Neg(operand=inner):
            return -_value(inner)
        case Abs(operand=inner):
            return abs(_value(inner))
        case BinOp(op=op, left=left, right=right):
            a, b = _value(left), _value(right)
            if op == "/" and b == 0:
                raise _Elsewhere
            result = {"+": a + b, "-": a - b, "*": a * b}[op] if op != "/" else a / b
            return _bounded(result)
        case Pow(base=base, exponent=exponent):
            return _power(_value(base), _value(exponent))
        case Root(radicand=radicand, index=index):
            degree = Fraction(2) if index is None else _value(index)
            if degree.denominator != 1 or degree < 1:
                raise _Elsewhere
            return _power(_value(radicand), 1 / degree)
        case Call(name="percent", args=(inner,)):
            return _value(inner) / 100
    raise _Elsewhere


def exact_power(base: Fraction, exponent: Fraction) -> Fraction | None:
    """``base^exponent`` when it is a rational number (real-number semantics), else None."""
    try:
        return _power(base, exponent)
    except _Elsewhere:
        return None


def _power(base: Fraction, exponent: Fraction) -> Fraction:
    """``base^exponent`` with real-number semantics (an odd root of a negative number is
    negative), when it is a rational number."""
    p, q = exponent.numerator, exponent.denominator
    if base == 0 or abs(p) > MAX_EXPONENT or q > MAX_ROOT_INDEX:
        raise _Elsewhere
    if base < 0 and q % 2 == 0:
        raise _Elsewhere  # not real: the general path says so
    bits = base.numerator.bit_length() + base.denominator.bit_length()
    if bits * abs(p) > MAX_BITS * q:
        raise _Elsewhere
    magnitude = abs(base)
    root = Fraction(_exact_root(magnitude.numerator, q), _exact_root(magnitude.denominator, q))
    result = root**p
    return -result if base < 0 and p % 2 == 1 else result


def _exact_root(number: int, degree: int) -> int:
    """The ``degree``-th root of ``number`` (>= 1) when it is a whole number."""
    if degree == 1 or number == 1:
        return number
    root = 1 << -(-number.bit_length() // degree)  # at least the root: Newton descends
    while True:
        lower = ((degree - 1) * root + number // root ** (degree - 1)) // degree
        if lower >= root:
            break
        root = lower
    if root**degree != number:
        raise _Elsewhere
    return root


def _bounded(value: Fraction) -> Fraction:
    if value.numerator.bit_length() + value.denominator.bit_length() > MAX_BITS:
        raise _Elsewhere
    return value


def holds(relation: str, left: Fraction, right: Fraction, unit: Fraction | None) -> bool | None:
    """Whether ``left relation right`` holds; None when ``\\approx`` has no written precision."""
    if relation == "\\approx":
        return None if unit is None else abs(left - right) <= unit / 2
    return {
        "=": left == right,
        "\\ne": left != right,
        "<": left < right,
        "\\le": left <= right,
        ">": left > right,
        "\\ge": left >= right,
    }[relation]


def written_unit(node: Node) -> Fraction | None:
    """One unit in the last digit of a written approximation, or None if it is not one.

    ``3{,}14`` -> 1/100; ``1000`` or ``10^{3}`` (orders of magnitude) -> 1000;
    ``2{,}5 \\times 10^{6}`` -> 100000; ``33\\%`` -> 1/100.
    """
    match node:
        case Num(unit=unit):
            return unit
        case Neg(operand=inner):
            return written_unit(inner)
        case Pow(base=Num(value=ten), exponent=exponent) if ten == 10:
            power = _integer(exponent)
            return None if power is None else Fraction(10) ** power
        case BinOp(op="*", left=Num(unit=unit), right=Pow() as scale):
            magnitude = written_unit(scale)
            return None if magnitude is None else unit * magnitude
        case Call(name="percent", args=(inner,)):
            inner_unit = written_unit(inner)
            return None if inner_unit is None else inner_unit / 100
    return None


def _integer(node: Node) -> int | None:
    if isinstance(node, Num) and node.value.denominator == 1:
        return int(node.value)
    if isinstance(node, Neg) and isinstance(node.operand, Num):
        inner = node.operand.value
        return -int(inner) if inner.denominator == 1 else None
    return None


def describe_integer(number: int) -> str:
    """The digits of ``number``, shortened: ``123456789012...678901 (52 digits)``."""
    if number.bit_length() > 12_000:
        return f"a number of about {int(number.bit_length() * 0.30103) + 1} digits"
    digits = str(number)
    if len(digits) <= 40:
        return digits
    return f"{digits[:12]}...{digits[-6:]} ({len(digits.lstrip('-'))} digits)"


def describe_fraction(value: Fraction) -> str:
    """``262144`` or ``-1/8``, shortened like :func:`describe_integer`."""
    if value.denominator == 1:
        return describe_integer(value.numerator)
    return f"{describe_integer(value.numerator)}/{describe_integer(value.denominator)}"
