"""Where an explorer function's value is rational, exactly: ``log2(1024) = 10``.

Kept apart from the formula language (:mod:`pizarra.source.explorers.expr`) so the
interval code (:mod:`pizarra.source.explorers.reals`) and the charts can use it too.
"""

from __future__ import annotations

import math
from fractions import Fraction


class ExprError(Exception):
    """A formula that cannot be parsed or evaluated; ``offset`` is 0-based in the text."""

    def __init__(self, message: str, offset: int = 0, hint: str = ""):
        super().__init__(message)
        self.message = message
        """What is wrong."""
        self.offset = offset
        """Where in the formula, as a 0-based character index."""
        self.hint = hint
        """How to fix it, or empty."""


def exact_call(name: str, x: Fraction) -> Fraction | None:
    """``name(x)`` when it is rational, else None; raises for ``x`` outside the domain."""
    if name == "exp":
        return Fraction(1) if x == 0 else None
    if name == "sqrt":
        if x < 0:
            raise ExprError(f"sqrt of {x} is not defined", hint="sqrt needs a number >= 0")
        top, bottom = math.isqrt(x.numerator), math.isqrt(x.denominator)
        return (
            Fraction(top, bottom)
            if top * top == x.numerator and bottom * bottom == x.denominator
            else None
        )
    if x <= 0:
        raise ExprError(
            f"{name} of {x} is not defined", hint="logarithms are defined for positive numbers only"
        )
    return exact_log(name, x)


def log_ratio(value: Fraction, base: int) -> float:
    """``log_base(value)`` for a positive exact value, without float overflow."""
    return (math.log(value.numerator) - math.log(value.denominator)) / math.log(base)


def exact_log(name: str, x: Fraction) -> Fraction | None:
    """The logarithm ``name`` of ``x > 0`` when it is rational, else None.

    ``log2(x)`` is rational only for ``x = 2^k`` (k an integer), ``log10(x)`` only
    for ``x = 10^k``, and ``ln(x)`` only for ``x = 1``.
    """
    if name in ("ln", "log"):
        return Fraction(0) if x == 1 else None
    base = 2 if name == "log2" else 10
    top, bottom = _power_of(x.numerator, base), _power_of(x.denominator, base)
    return None if top is None or bottom is None else Fraction(top - bottom)


def _power_of(m: int, base: int) -> int | None:
    k = 0
    while m % base == 0:
        m //= base
        k += 1
    return k if m == 1 else None
