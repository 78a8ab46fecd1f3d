"""Evaluate an expression tree into an exact real value (or a sympy expression).

Closed numeric subexpressions always go through :mod:`pizarra.math.exact.real`, so the
real-number semantics hold even inside an expression with letters. Letters become
sympy symbols carrying the assumptions of their declared domain; a letter bound to
a value (a sum's index, a function's parameter, a test point) becomes that value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

import sympy

from pizarra.math.exact import standard
from pizarra.math.exact.ast import (
    Abs,
    BinOp,
    Call,
    Const,
    Neg,
    Node,
    Num,
    PlusMinus,
    Pow,
    Root,
    Series,
    Sym,
)
from pizarra.math.exact.context import DOMAINS, Context
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.functions import BUILTINS, call_builtin
from pizarra.math.exact.real import (
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
MAX_SERIES_TERMS = 1_000
"""Most terms of a sum or product that are added up."""
MAX_CALL_DEPTH = 8
"""Deepest nesting of calls to the lesson's own functions (no runaway recursion)."""

__all__ = ["DOMAINS", "Context", "Outcome", "Undefined", "ZeroToTheZero", "evaluate"]


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


_LOG_BASES = {"10": sympy.Integer(10), "2": sympy.Integer(2), "e": sympy.E}

_Compute: TypeAlias = Callable[[], sympy.Expr]

Outcome: TypeAlias = sympy.Expr | Undefined | ZeroToTheZero | Unsupported
"""What evaluating a side gives: a value, or why there is none."""


def evaluate(
    node: Node,
    context: Context,
    env: Mapping[str, sympy.Expr] | None = None,
    choice: int = 1,
) -> Outcome:
    """The exact value of ``node`` under ``context``, or why it has none.

    ``env`` binds letters to values; ``choice`` (1 or -1) picks the branch of ``\\pm``.
    """
    evaluator = _Evaluator(context, dict(env or {}), choice, 0)
    try:
        return evaluator.value(node)
    except _NoValue as problem:
        return problem.outcome
    except OutOfBounds as error:
        return Unsupported(f"too large: {error}")
    except RecursionError:
        return Unsupported("too large: nested too deeply")


class _NoValue(Exception):
    def __init__(self, outcome: Undefined | ZeroToTheZero | Unsupported) -> None:
        super().__init__(str(outcome))
        self.outcome = outcome


def _closed(value: sympy.Expr) -> bool:
    return not value.free_symbols


def _power_defined(base: sympy.Expr, exponent: sympy.Expr) -> bool:
    """Whether ``base^exponent`` (with letters) is a real number for every value of them.

    sympy simplifies ``x^0``, ``x/x`` or ``\\sqrt{x}^2`` as if they were always
    defined (and reads odd roots of negatives as complex); an identity is proved only
    where both sides exist, so a power that may be ``0^0``, ``0^{-1}`` or a root of a
    negative is not read.
    """
    if exponent.is_integer is True and exponent.is_positive is True:
        return True
    if exponent.is_integer is True:
        return base.is_zero is False
    if exponent.is_positive is True:
        return base.is_nonnegative is True
    return base.is_positive is True


class _Evaluator:
    def __init__(
        self, context: Context, env: dict[str, sympy.Expr], choice: int, calls: int
    ) -> None:
        self.context = context
        self.env = env
        self.choice = choice
        self.calls = calls

    def value(self, node: Node) -> sympy.Expr:
        match node:
            case Num(value=number):
                return rational(number)
            case Sym(name=name):
                return self.env[name] if name in self.env else self.symbol(name)
            case Const(name=name):
                return {"e": sympy.E, "pi": sympy.pi, "oo": sympy.oo}[name]
            case Neg(operand=operand):
                return -self.value(operand)
            case BinOp():
                return self.binary(node)
            case Pow():
                return self.power(node)
            case Root():
                return self.root(node)
            case Abs(operand=operand):
                inner = self.finite(self.value(operand))
                return absolute(inner) if _closed(inner) else sympy.Abs(inner)
            case PlusMinus(left=left, right=right, flip=flip):
                first = sympy.Integer(0) if left is None else self.finite(self.value(left))
                step = self.finite(self.value(right))
                return first + (-self.choice if flip else self.choice) * step
            case Call():
                return self.call(node)
            case Series():
                return self.series(node)

    def finite(self, value: sympy.Expr) -> sympy.Expr:
        if value.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
            raise _NoValue(Unsupported("arithmetic with \\infty is not decided"))
        return value

    def symbol(self, name: str) -> sympy.Expr:
        domain = self.context.domains.get(name, "real")
        return sympy.Symbol(name, **DOMAINS.get(domain, DOMAINS["real"]))

    def binary(self, node: BinOp) -> sympy.Expr:
        left = self.finite(self.value(node.left))
        right = self.finite(self.value(node.right))
        if node.op == "/" and (right == 0 or (_closed(right) and sign(right) == 0)):
            raise _NoValue(Undefined("division by zero", node.start, node.end))
        if node.op == "/" and not _closed(right) and right.is_zero is not False:
            raise _NoValue(Unsupported("a division by an expression that can be zero"))
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
        base = self.finite(self.value(node.base))
        exponent = self.finite(self.value(node.exponent))
        if _closed(base) and _closed(exponent):
            if base is sympy.E:
                return bounded(sympy.exp(exponent))
            if not exponent.is_Rational:
                return self.irrational_power(base, exponent, node)
            if exponent == 0 and sign(base) == 0:
                return self.zero_to_the_zero(node)
            return self.real(lambda: real_power(base, exponent), node)
        if exponent.is_Integer and abs(int(exponent)) > MAX_SYMBOLIC_EXPONENT:
            raise _NoValue(Unsupported("too large: a large exponent on an expression with letters"))
        if not _power_defined(base, exponent):
            raise _NoValue(Unsupported("a power not defined for every value of its letters"))
        return sympy.Pow(base, exponent)

    def irrational_power(self, base: sympy.Expr, exponent: sympy.Expr, node: Pow) -> sympy.Expr:
        """``\\pi^{e}``, ``2^{\\sqrt2}``: defined for a positive base only."""
        if sign(base) <= 0:
            raise _NoValue(Unsupported("an irrational power of a number that is not positive"))
        return bounded(sympy.Pow(base, exponent))

    def root(self, node: Root) -> sympy.Expr:
        index = sympy.Integer(2) if node.index is None else self.value(node.index)
        radicand = self.finite(self.value(node.radicand))
        if not _closed(index):
            if radicand.is_nonnegative is not True or index.is_positive is not True:
                raise _NoValue(Unsupported("a root that is not defined for every value"))
            return sympy.Pow(radicand, 1 / index)
        if not index.is_Integer or index < 1:
            raise _NoValue(Unsupported("a root index that is not a positive integer"))
        if _closed(radicand):
            return self.real(lambda: real_power(radicand, sympy.Rational(1, index)), node)
        if radicand.is_nonnegative is not True:
            # sympy's odd roots are complex for a negative radicand, and even ones undefined
            raise _NoValue(Unsupported("a root of an expression that can be negative"))
        return sympy.Pow(radicand, sympy.Rational(1, index))

    def call(self, node: Call) -> sympy.Expr:
        args = [self.finite(self.value(arg)) for arg in node.args]
        if node.name in self.context.functions:
            return self.lesson_function(node, args)
        if node.name in standard.NAMES:
            return self.standard(node.name, args)
        if node.name not in BUILTINS:
            raise _NoValue(Unsupported(f"unknown function {node.name}"))
        if not all(_closed(arg) for arg in args):
            return self.symbolic_call(node.name, args)
        try:
            return bounded(call_builtin(node.name, args, self.context.log_base))
        except NotReal as error:
            raise _NoValue(Undefined(error.reason, node.start, node.end)) from error
        except ValueError as error:
            raise _NoValue(Unsupported(str(error))) from error

    def standard(self, name: str, args: list[sympy.Expr]) -> sympy.Expr:
        """A standard function (:mod:`pizarra.math.exact.standard`) the lesson did not define."""
        if not all(_closed(arg) for arg in args) and not standard.is_symbolic(name):
            raise _NoValue(Unsupported(f"{name} of an expression with letters"))
        try:
            value = standard.call_standard(name, args)
        except ValueError as error:
            raise _NoValue(Unsupported(str(error))) from error
        return bounded(value) if _closed(value) else value

    def symbolic_call(self, name: str, args: list[sympy.Expr]) -> sympy.Expr:
        """``\\exp`` and logarithms of expressions with letters, where they are defined.

        A logarithm is kept only when its argument (and base) are positive for every
        value of the declared letters, so identities proved about it hold everywhere.
        """
        if name == "exp":
            return sympy.exp(args[0])
        if name in ("log", "ln") and args[0].is_positive is True:
            if name == "ln":
                return sympy.log(args[0])
            base = args[1] if len(args) > 1 else _LOG_BASES[self.context.log_base]
            if base.is_positive is True and (base - 1).is_zero is False:
                return sympy.log(args[0]) / (1 if base is sympy.E else sympy.log(base))
        raise _NoValue(Unsupported(f"{name} of an expression with letters"))

    def lesson_function(self, node: Call, args: list[sympy.Expr]) -> sympy.Expr:
        function = self.context.functions[node.name]
        if len(args) != len(function.params):
            raise _NoValue(Unsupported(f"{node.name} takes {len(function.params)} argument(s)"))
        if self.calls >= MAX_CALL_DEPTH:
            raise _NoValue(Unsupported("too large: functions call each other too deeply"))
        env = dict(zip(function.params, args, strict=True))
        return _Evaluator(self.context, env, 1, self.calls + 1).value(function.body)

    def series(self, node: Series) -> sympy.Expr:
        lower, upper = self.value(node.lower), self.value(node.upper)
        if not (lower.is_Integer and upper.is_Integer):
            raise _NoValue(Unsupported("a sum or product whose bounds are not whole numbers"))
        count = int(upper) - int(lower) + 1
        if count > MAX_SERIES_TERMS:
            raise _NoValue(Unsupported(f"too large: more than {MAX_SERIES_TERMS} terms"))
        total = sympy.Integer(0 if node.kind == "sum" else 1)
        saved = self.env.get(node.index)
        for i in range(int(lower), int(upper) + 1):
            self.env[node.index] = sympy.Integer(i)
            term = self.finite(self.value(node.body))
            total = bounded(total + term if node.kind == "sum" else total * term)
        if saved is None:
            self.env.pop(node.index, None)
        else:
            self.env[node.index] = saved
        return total

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
