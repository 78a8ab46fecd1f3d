"""Claims with units, such as ``3 \\times 200\\text{ ms} = 0{,}6\\text{ s}``.

A unit written next to a number is read only when its spelling is one of
:data:`SPELLINGS`, each naming one unit of `pint <https://pint.readthedocs.io>`_, the
units library that gives its exact factor to the base units (``pint`` is built with
fractions, so ``1\\text{ GiB} = 2^{30} \\cdot 8`` bits exactly) and its base units
(dimensions). Each unit then stands for ``factor * base``, where every base unit is a
positive symbol, and the claim is decided as it reads:

- both sides must be a number times the same base units: ``5\\text{ cm} \\times 2\\text{ cm}
  = 10\\text{ cm}`` fails (an area against a length);
- then their numbers in base units are compared exactly (``90\\text{ s} =
  1{,}5\\text{ min}`` is checked, ``2\\text{ GiB} = 2048\\text{ MB}`` fails: MB is the SI
  megabyte, 10^6 bytes);
- ``\\approx`` rounds in the unit of its right side, which must be a number and a unit.

A spelling whose meaning genuinely differs between conventions (``KB``: 1000 or 1024
bytes; ``Mb``: megabit or megabyte) keeps its claim unchecked with that reason, and so
does a unit on one side only or a quantity with letters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from pizarra.math.exact.ast import (
    Abs,
    BinOp,
    Const,
    Neg,
    Node,
    Num,
    Pow,
    Root,
    Sym,
    has_plus_minus,
    letters,
)
from pizarra.math.exact.context import Context
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.lexer import Kind, Token, text_words
from pizarra.math.exact.status import CHECKED, FIX_HINT, Decision, Status

if TYPE_CHECKING:
    import sympy

PREFIX = "unit:"
"""How a unit is named once read: a letter ``unit:cm`` that only this module evaluates."""

_PLURALS = {
    "byte": "byte",
    "bytes": "byte",
    "bit": "bit",
    "bits": "bit",
    "second": "second",
    "seconds": "second",
    "segundo": "second",
    "segundos": "second",
    "minute": "minute",
    "minutes": "minute",
    "minuto": "minute",
    "minutos": "minute",
    "hour": "hour",
    "hours": "hour",
    "hora": "hour",
    "horas": "hour",
    "day": "day",
    "days": "day",
    "día": "day",
    "días": "day",
    "week": "week",
    "weeks": "week",
    "semana": "week",
    "semanas": "week",
    "meter": "meter",
    "meters": "meter",
    "metre": "meter",
    "metres": "meter",
    "metro": "meter",
    "metros": "meter",
    "gram": "gram",
    "grams": "gram",
    "gramo": "gram",
    "gramos": "gram",
}
_SYMBOLS = {
    **{s: s for s in ("B", "kB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "PiB")},
    **{s: s for s in ("s", "ms", "ns", "min", "h")},
    "µs": "us",
    "μs": "us",
    "\\mu s": "us",
    **{s: s for s in ("m", "km", "cm", "mm", "nm", "g", "kg", "mg", "L", "mL")},
    "µm": "um",
    "μm": "um",
    "\\mu m": "um",
    **{s: s for s in ("Hz", "kHz", "MHz", "GHz", "W", "kW", "MW", "J", "kJ", "kWh")},
}
SPELLINGS = {**_SYMBOLS, **_PLURALS}
"""Written unit -> its pint name. Only these are read as units."""
DIFFERING = {
    "KB": "KB is 1000 bytes to some and 1024 to others: write kB (1000) or KiB (1024)",
    "Kb": "Kb is a kilobit to some and a kilobyte to others",
    "kb": "kb is a kilobit to some and a kilobyte to others",
    "Mb": "Mb is a megabit to some and a megabyte to others: write MB or Mbit",
    "Gb": "Gb is a gigabit to some and a gigabyte to others: write GB or Gbit",
    "b": "b is a bit to some and a byte to others",
    "t": "t is a metric ton or a short ton",
}
"""Spellings whose meaning differs between conventions: their claims stay unchecked."""


_UNIT_COMMANDS = ("\\text", "\\mathrm", "\\textrm", "\\mbox")
"""Commands a unit may be written in (``\\operatorname`` names a function)."""


@cache
def _registry() -> Any:
    """pint's registry with exact (fraction) factors, built once per process (0.2 s)."""
    import pint

    return pint.UnitRegistry(non_int_type=Fraction, cache_folder=None)


@cache
def unit_value(name: str) -> tuple[Fraction, tuple[tuple[str, int], ...]]:
    """The factor of pint unit ``name`` to base units, and those base units with powers."""
    quantity = _registry().Quantity(Fraction(1), name).to_base_units()
    factor = quantity.magnitude
    if not isinstance(factor, Fraction | int):
        raise ValueError(f"{name} has no exact factor")
    powers = tuple(sorted((unit, int(power)) for unit, power in quantity.unit_items()))
    return Fraction(factor), powers


def read_units(tokens: Sequence[Token]) -> tuple[list[Token], str | None]:
    """``tokens`` with every unit word made a ``unit:`` letter, and why the side cannot be
    read (a unit whose meaning differs between conventions), or None."""
    out: list[Token] = []
    subscript = 0  # depth of braces inside a subscript (t_{\\text{s}} names a letter)
    for index, token in enumerate(tokens):
        if subscript and token.kind is Kind.CHAR and token.text in "{}":
            subscript += 1 if token.text == "{" else -1
        elif (
            token.kind is Kind.CHAR
            and token.text == "{"
            and index
            and tokens[index - 1].text == "_"
        ):
            subscript = 1
        if token.kind is not Kind.TEXT or subscript or (index and tokens[index - 1].text == "_"):
            out.append(token)
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if not token.text.startswith(_UNIT_COMMANDS) or (
            following is not None and following.text in ("(", "\\left")
        ):
            out.append(token)  # \operatorname{g}(0), \text{h}(2): a function, not a unit
            continue
        words = " ".join(text_words(token).split())
        if words in DIFFERING:
            return list(tokens), DIFFERING[words]
        if words in SPELLINGS:
            out.append(replace(token, kind=Kind.LETTER, text=PREFIX + SPELLINGS[words]))
        else:
            out.append(token)
    return out, None


def has_units(node: Node) -> bool:
    """Whether a side read by :func:`read_units` holds a unit."""
    return any(name.startswith(PREFIX) for name in letters(node))


def decide_quantities(
    claim: str, relation: str, left: Node | Unsupported, right: Node | Unsupported, context: Context
) -> Decision:
    """The verdict of a claim one of whose sides holds a unit (see the module docstring)."""
    for side in (left, right):
        if isinstance(side, Unsupported):
            return Status.UNCHECKED, side.reason, ""
    assert not isinstance(left, Unsupported) and not isinstance(right, Unsupported)
    if relation not in ("=", "\\ne", "<", "\\le", ">", "\\ge", "\\approx"):
        return Status.UNCHECKED, f"{relation} between quantities is not decided", ""
    if has_plus_minus(left) or has_plus_minus(right):
        return Status.UNCHECKED, "\\pm with units is not decided", ""
    if any(not name.startswith(PREFIX) for name in letters(left) | letters(right)):
        return Status.UNCHECKED, "a quantity with letters is not decided", ""
    left_read, right_read = _in_base_units(left, context), _in_base_units(right, context)
    if isinstance(left_read, str):
        return Status.UNCHECKED, left_read, ""
    if isinstance(right_read, str):
        return Status.UNCHECKED, right_read, ""
    (left_number, left_base), (right_number, right_base) = left_read, right_read
    if left_base != right_base and not (left_base and right_base):
        return Status.UNCHECKED, "a unit on one side only", ""
    if left_base != right_base:
        shown = f"the left side is in {_units(left_base)}, the right side in {_units(right_base)}"
        return Status.FAILED, f"claim is false: {claim} ({shown})", FIX_HINT
    scale = _written_scale(right)
    if relation == "\\approx" and scale is None:
        return Status.UNCHECKED, "\\approx with units needs a number and a unit on the right", ""
    import sympy

    from pizarra.math.exact.compare import compare

    written, unit = None, _units(right_base)
    if scale is not None:
        written, factor = scale
        left_number = left_number / sympy.Rational(factor.numerator, factor.denominator)
        right_number = right_number / sympy.Rational(factor.numerator, factor.denominator)
        unit = _spelled(right)
    status, message, hint = compare(claim, relation, left_number, right_number, written)
    if status is Status.CHECKED:
        return CHECKED
    return status, message.replace(" (left side is", f" (in {unit}: left side is", 1), hint


def _in_base_units(node: Node, context: Context) -> tuple[sympy.Expr, dict[str, Fraction]] | str:
    """The side's number in base units and its base units, or why it has none.

    The base units are read from the tree, not from the value (``0\\text{ m}`` is still
    a length, and ``1\\text{ m} - 1\\text{ m} + 2\\text{ s}`` adds a length to a time);
    the number is the side evaluated with each unit replaced by its exact factor."""
    import sympy

    from pizarra.math.exact.evaluate import evaluate

    env: dict[str, sympy.Expr] = {}
    for name in letters(node):
        try:
            factor, _ = unit_value(name.removeprefix(PREFIX))
        except Exception:  # pint's own errors: the unit is not read
            return f"the unit {name.removeprefix(PREFIX)} is not read"
        env[name] = sympy.Rational(factor.numerator, factor.denominator)
    try:
        base = _dimension(node)
    except _Mixed as mixed:
        return str(mixed)
    outcome = evaluate(node, context, env)
    if not isinstance(outcome, sympy.Expr):
        return getattr(outcome, "reason", "a side has no value")
    return outcome, base


class _Mixed(Exception):
    """A side whose base units cannot be read: a sum of different dimensions..."""


def _dimension(node: Node) -> dict[str, Fraction]:
    """The base units of ``node`` with their powers (``{}`` for a pure number)."""
    match node:
        case Num() | Const():
            return {}
        case Sym(name=name) if name.startswith(PREFIX):
            return {u: Fraction(p) for u, p in unit_value(name.removeprefix(PREFIX))[1]}
        case Neg(operand=operand) | Abs(operand=operand):
            return _dimension(operand)
        case BinOp(op="+" | "-", left=left, right=right):
            first, second = _dimension(left), _dimension(right)
            if first != second:
                raise _Mixed("a sum of quantities of different dimensions is not decided")
            return first
        case BinOp(op=op, left=left, right=right):
            sign_of = 1 if op == "*" else -1
            return _combine(_dimension(left), _dimension(right), sign_of)
        case Pow(base=base, exponent=exponent):
            powered = _dimension(base)
            if not powered:
                if _dimension(exponent):
                    raise _Mixed("a unit in an exponent is not decided")
                return {}
            if not isinstance(exponent, Num | Neg) or _dimension(exponent):
                raise _Mixed("a power of a quantity needs a numeric exponent")
            power = exponent.value if isinstance(exponent, Num) else _negated(exponent)
            return {u: p * power for u, p in powered.items()}
        case Root(radicand=radicand, index=index):
            rooted = _dimension(radicand)
            if not rooted:
                return {}
            root = Fraction(2) if index is None else _number(index)
            return {u: p / root for u, p in rooted.items()}
    if letters(node) and any(name.startswith(PREFIX) for name in letters(node)):
        raise _Mixed("a unit inside a function, a sum or a series is not decided")
    return {}


def _combine(
    first: dict[str, Fraction], second: dict[str, Fraction], sign_of: int
) -> dict[str, Fraction]:
    merged = dict(first)
    for unit, power in second.items():
        merged[unit] = merged.get(unit, Fraction(0)) + sign_of * power
    return {u: p for u, p in merged.items() if p != 0}


def _negated(exponent: Node) -> Fraction:
    if isinstance(exponent, Neg) and isinstance(exponent.operand, Num):
        return -exponent.operand.value
    raise _Mixed("a power of a quantity needs a numeric exponent")


def _number(node: Node) -> Fraction:
    if isinstance(node, Num) and node.value > 0:
        return node.value
    raise _Mixed("a root of a quantity needs a numeric index")


def _written_scale(node: Node) -> tuple[Fraction, Fraction] | None:
    """For a right side ``number unit`` (or ``number unit^k``): one unit in the number's
    last written digit, and the unit's factor to base units."""
    if not (isinstance(node, BinOp) and node.op == "*" and isinstance(node.left, Num)):
        return None
    unit: Node = node.right
    power = 1
    if isinstance(unit, Pow) and isinstance(unit.exponent, Num):
        exponent = unit.exponent.value
        if exponent.denominator != 1:
            return None
        unit, power = unit.base, int(exponent)
    if not isinstance(unit, Sym) or not unit.name.startswith(PREFIX):
        return None
    factor, _ = unit_value(unit.name.removeprefix(PREFIX))
    return node.left.unit, factor**power


def _spelled(node: Node) -> str:
    """The unit of a right side ``number unit`` as pint names it (``ms``, ``GiB``)."""
    assert isinstance(node, BinOp)
    unit = node.right.base if isinstance(node.right, Pow) else node.right
    assert isinstance(unit, Sym)
    return unit.name.removeprefix(PREFIX)


def _units(base: dict[str, Fraction]) -> str:
    shown = (unit if power == 1 else f"{unit}^{power}" for unit, power in sorted(base.items()))
    return " ".join(shown) or "no unit"
