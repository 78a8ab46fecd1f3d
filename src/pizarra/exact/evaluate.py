"""Evaluate an expression tree into an exact real value (or a sympy expression).

Closed numeric subexpressions always go through :mod:`pizarra.exact.real`, so the
real-number semantics hold even inside an expression with letters. Letters become
sympy symbols carrying the assumptions of their declared domain.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, TypeAlias

import sympy

from pizarra.exact.ast import Abs, BinOp, Neg, Node, Num, Pow, Root, Sym
from pizarra.exact.parser import Unsupported
from pizarra.exact.real import (
    NotReal,
    OutOfBounds,
    absolute,
    bounded,
    rational,
    real_power,
    sign,
)

MAX_SYMBOLIC_EXPONENT = 16
"""Largest |integer exponent| kept on an expression with letters."""

DOMAINS: Mapping[str, Mapping[str, bool]] = {
    "real": {"real": True},
    "positive": {"positive": True},
    "nonnegative": {"nonnegative": True},
    "nonzero": {"real": True, "nonzero": True},
    "integer": {"integer": True},
    "positive_integer": {"integer": True, "positive": True},
}
"""Front-matter domain names and the sympy assumptions they give a letter."""


@dataclass(frozen=True)
class Undefined:
    """A subexpression that has no real value (``\\sqrt{-9}``, ``0^{-3}``, ``1/0``)."""

    reason: str
    """Why, in a few words."""
    start: int
    """Offset of the subexpression in the formula."""
    end: int
    """Offset just past it."""


@dataclass(frozen=True)
class ZeroToTheZero:
    """A ``0^0`` met while the lesson declares no convention for it."""

    start: int
    """Offset of the power in the formula."""
    end: int
    """Offset just past it."""


@dataclass(frozen=True)
class Context:
    """What a lesson declares that changes the value of an expression."""

    zero_to_the_zero: Fraction | Literal["undefined"] | None = None
    """The value of ``0^0``; None when the lesson declares no convention."""
    domains: Mapping[str, str] = field(default_factory=dict)
    """Letter name -> domain name (a key of :data:`DOMAINS`); undeclared letters are real."""


_Compute: TypeAlias = Callable[[], sympy.Expr]

Outcome: TypeAlias = sympy.Expr | Undefined | ZeroToTheZero | Unsupported
"""What evaluating a side gives: a value, or why there is none."""


def evaluate(node: Node, context: Context) -> Outcome:
    """The exact value of ``node`` under ``context``, or why it has none."""
    evaluator = _Evaluator(context)
    try:
        return evaluator.value(node)
    except _NoValue as problem:
        return problem.outcome
    except OutOfBounds as error:
        return Unsupported(str(error))


class _NoValue(Exception):
    def __init__(self, outcome: Undefined | ZeroToTheZero | Unsupported) -> None:
        super().__init__(str(outcome))
        self.outcome = outcome


def _closed(value: sympy.Expr) -> bool:
    return not value.free_symbols


class _Evaluator:
    def __init__(self, context: Context) -> None:
        self.context = context

    def value(self, node: Node) -> sympy.Expr:
        match node:
            case Num(value=number):
                return rational(number)
            case Sym(name=name):
                return self.symbol(name)
            case Neg(operand=operand):
                return -self.value(operand)
            case BinOp():
                return self.binary(node)
            case Pow():
                return self.power(node)
            case Root():
                return self.root(node)
            case Abs(operand=operand):
                inner = self.value(operand)
                return absolute(inner) if _closed(inner) else sympy.Abs(inner)

    def symbol(self, name: str) -> sympy.Expr:
        domain = self.context.domains.get(name, "real")
        return sympy.Symbol(name, **DOMAINS.get(domain, DOMAINS["real"]))

    def binary(self, node: BinOp) -> sympy.Expr:
        left, right = self.value(node.left), self.value(node.right)
        if node.op == "/" and _closed(right) and sign(right) == 0:
            raise _NoValue(Undefined("division by zero", node.start, node.end))
        if node.op == "/" and right == 0:
            raise _NoValue(Undefined("division by zero", node.start, node.end))
        match node.op:
            case "+":
                result = left + right
            case "-":
                result = left - right
            case "*":
                result = left * right
            case "/":
                result = left / right
        return bounded(result) if _closed(result) else result

    def power(self, node: Pow) -> sympy.Expr:
        base, exponent = self.value(node.base), self.value(node.exponent)
        if _closed(base) and _closed(exponent):
            if not exponent.is_Rational:
                raise _NoValue(Unsupported("an irrational exponent"))
            if exponent == 0 and sign(base) == 0:
                return self.zero_to_the_zero(node)
            return self.real(lambda: real_power(base, exponent), node)
        if exponent.is_Integer and abs(int(exponent)) > MAX_SYMBOLIC_EXPONENT:
            raise _NoValue(Unsupported("a large exponent on an expression with letters"))
        return sympy.Pow(base, exponent)

    def root(self, node: Root) -> sympy.Expr:
        index = sympy.Integer(2) if node.index is None else self.value(node.index)
        radicand = self.value(node.radicand)
        if not _closed(index):
            return sympy.Pow(radicand, 1 / index)
        if not index.is_Integer or index < 1:
            raise _NoValue(Unsupported("a root index that is not a positive integer"))
        if _closed(radicand):
            return self.real(lambda: real_power(radicand, sympy.Rational(1, index)), node)
        return sympy.Pow(radicand, sympy.Rational(1, index))

    def zero_to_the_zero(self, node: Pow) -> sympy.Expr:
        convention = self.context.zero_to_the_zero
        if convention is None:
            raise _NoValue(ZeroToTheZero(node.start, node.end))
        if convention == "undefined":
            raise _NoValue(Undefined("the lesson leaves 0^0 undefined", node.start, node.end))
        return rational(convention)

    def real(self, compute: _Compute, node: Node) -> sympy.Expr:
        try:
            return compute()
        except NotReal as error:
            raise _NoValue(Undefined(error.reason, node.start, node.end)) from error
