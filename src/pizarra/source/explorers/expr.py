"""A small, safe arithmetic language for explorer formulas such as ``n^2``.

Formulas come from lesson sources, which are untrusted, so they are never given
to ``eval`` or to SymPy's parser. The grammar has numbers, declared variables,
``+ - * / ^``, parentheses and the functions of :data:`FUNCTIONS`; everything
else is an error with its column::

    expr  := term (("+" | "-") term)*
    term  := unary (("*" | "/") unary)*
    unary := "-" unary | power
    power := atom ("^" unary)?          right-associative: 2^3^2 = 2^9
    atom  := number | name | function "(" expr ")" | "(" expr ")"

Work is bounded: the text is short, nesting is shallow, a constant exponent must
be an integer of modest size (a variable exponent, ``(1+r)^t``, only where the
caller allows it: :class:`Power`), and evaluation (exact, with fractions) stops
when a value grows past :data:`MAX_BITS`. :func:`evaluate` is exact; a formula
whose value is irrational (``ln(3)``) is evaluated by :mod:`pizarra.source.explorers.reals`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

from pizarra.source.explorers.exact_values import ExprError, exact_call

__all__ = ["ExprError", "exact_call"]

MAX_LENGTH = 200
"""Longest formula accepted, in characters."""
MAX_DEPTH = 24
"""Deepest nesting of parentheses and unary minus."""
MAX_EXPONENT = 64
"""Largest absolute value of a constant exponent."""
MAX_BITS = 4096
"""Largest numerator or denominator, in bits, during evaluation."""

FUNCTIONS = {
    "log2": "logarithm in base 2",
    "log10": "logarithm in base 10",
    "ln": "natural logarithm (base e)",
    "log": "natural logarithm (base e), as in NumPy's np.log",
    "exp": "exponential e^x",
    "sqrt": "square root",
}
"""Function name -> what it computes; each takes one argument."""

_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(\S))")


@dataclass(frozen=True)
class Num:
    """A literal number (``3``, ``0.5``), kept exact."""

    value: Fraction
    """Its exact value."""


@dataclass(frozen=True)
class Var:
    """A declared variable (``n``)."""

    name: str
    """Its name."""


@dataclass(frozen=True)
class Neg:
    """Unary minus."""

    operand: Expr
    """What is negated."""


@dataclass(frozen=True)
class BinOp:
    """``left op right`` for ``+ - * /``."""

    op: str
    """One of ``+ - * /``."""
    left: Expr
    """Left operand."""
    right: Expr
    """Right operand."""


@dataclass(frozen=True)
class Pow:
    """``base ^ exponent`` with a constant integer exponent."""

    base: Expr
    """What is raised."""
    exponent: int
    """The power, already checked to be small."""


@dataclass(frozen=True)
class Call:
    """``log2(x)``, ``ln(x)``...: a function of :data:`FUNCTIONS` applied to one argument."""

    name: str
    """The function's name as written (``log`` and ``ln`` are the same function)."""
    argument: Expr
    """What it is applied to."""


@dataclass(frozen=True)
class Power:
    """``base ^ exponent`` with an exponent that is not a constant integer (``(1+r)^t``)."""

    base: Expr
    """What is raised; positive wherever the exponent is not an integer."""
    exponent: Expr
    """The power, a formula."""


@dataclass(frozen=True)
class MaxOf:
    """The largest of several values; built by explorer kinds (a distribution's top
    probability), not written in formulas."""

    args: tuple[Expr, ...]
    """The values compared, at least one."""


Expr: TypeAlias = Num | Var | Neg | BinOp | Pow | Call | Power | MaxOf


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    offset: int


def _tokenize(text: str) -> list[_Tok]:
    tokens: list[_Tok] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:  # only trailing whitespace is left
            break
        number, name, other = match.groups()
        start = match.start(match.lastindex or 0)
        if number is not None:
            tokens.append(_Tok("num", number, start))
        elif name is not None:
            tokens.append(_Tok("name", name, start))
        elif other in "+-*/^()":
            tokens.append(_Tok(other, other, start))
        else:
            hint = "use * for products and ^ for powers" if other in "×·²³" else ""
            raise ExprError(f"unexpected character {other!r} in formula", start, hint)
        pos = match.end()
    tokens.append(_Tok("end", "", len(text)))
    return tokens


class _Parser:
    def __init__(self, text: str, variables: frozenset[str], powers: bool = False):
        self.powers = powers
        self.tokens = _tokenize(text)
        self.index = 0
        self.variables = variables
        self.depth = 0

    def peek(self) -> _Tok:
        return self.tokens[self.index]

    def take(self) -> _Tok:
        tok = self.tokens[self.index]
        self.index += 1
        return tok

    def enter(self, tok: _Tok) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"formula nested deeper than {MAX_DEPTH} levels", tok.offset)

    def expr(self) -> Expr:
        node = self.term()
        while self.peek().kind in ("+", "-"):
            op = self.take().kind
            node = BinOp(op, node, self.term())
        return node

    def term(self) -> Expr:
        node = self.unary()
        while self.peek().kind in ("*", "/"):
            op = self.take().kind
            node = BinOp(op, node, self.unary())
        return node

    def unary(self) -> Expr:
        tok = self.peek()
        if tok.kind == "-":
            self.take()
            self.enter(tok)
            node: Expr = Neg(self.unary())
            self.depth -= 1
            return node
        return self.power()

    def power(self) -> Expr:
        base = self.atom()
        if self.peek().kind != "^":
            return base
        caret = self.take()
        self.enter(caret)
        start = self.peek().offset
        exponent = self.unary()
        self.depth -= 1
        if free_variables(exponent) and self.powers:
            return Power(base, exponent)
        if free_variables(exponent):
            raise ExprError("an exponent must be a constant", start, "write n^2, not 2^n")
        try:
            value = evaluate(exponent, {})
        except ExprError as exc:
            raise ExprError(f"in the exponent: {exc.message}", start, exc.hint) from None
        if value.denominator != 1 and self.powers:
            return Power(base, exponent)
        if value.denominator != 1 or abs(value) > MAX_EXPONENT:
            raise ExprError(
                f"an exponent must be an integer between -{MAX_EXPONENT} and {MAX_EXPONENT}",
                start,
            )
        return Pow(base, int(value))

    def atom(self) -> Expr:
        tok = self.take()
        if tok.kind == "num":
            return Num(Fraction(tok.text))
        if tok.kind == "name" and tok.text in FUNCTIONS and self.peek().kind == "(":
            self.enter(tok)
            self.take()
            argument = self.expr()
            self.depth -= 1
            close = self.take()
            if close.kind != ")":
                raise ExprError("missing ')'", close.offset)
            return Call(tok.text, argument)
        if tok.kind == "name":
            if tok.text in FUNCTIONS and tok.text not in self.variables:
                raise ExprError(
                    f"{tok.text} needs its argument in parentheses",
                    tok.offset,
                    f"write {tok.text}(n)",
                )
            if tok.text not in self.variables:
                known = ", ".join(sorted(self.variables)) or "none"
                raise ExprError(
                    f"unknown name {tok.text!r} in formula",
                    tok.offset,
                    f"the variables here are: {known}; the functions: "
                    f"{', '.join(FUNCTIONS)}; write products with * (2*n)",
                )
            return Var(tok.text)
        if tok.kind == "(":
            self.enter(tok)
            node = self.expr()
            self.depth -= 1
            close = self.take()
            if close.kind != ")":
                raise ExprError("missing ')'", close.offset)
            return node
        what = "end of formula" if tok.kind == "end" else repr(tok.text)
        raise ExprError(f"expected a number, a variable or '(' but found {what}", tok.offset)


def parse_expr(text: str, variables: frozenset[str], powers: bool = False) -> Expr:
    """The tree of ``text``; raises :class:`ExprError` with the offending column.

    ``powers`` allows exponents that are formulas (:class:`Power`)."""
    if len(text) > MAX_LENGTH:
        raise ExprError(f"formula longer than {MAX_LENGTH} characters", MAX_LENGTH)
    parser = _Parser(text, variables, powers)
    node = parser.expr()
    tok = parser.peek()
    if tok.kind != "end":
        hint = "write products with * (2*n)" if tok.kind in ("name", "num", "(") else ""
        raise ExprError(f"unexpected {tok.text!r} in formula", tok.offset, hint)
    return node


def free_variables(node: Expr) -> frozenset[str]:
    """The variable names that occur in ``node``."""
    if isinstance(node, Var):
        return frozenset({node.name})
    if isinstance(node, Neg):
        return free_variables(node.operand)
    if isinstance(node, Pow):
        return free_variables(node.base)
    if isinstance(node, Call):
        return free_variables(node.argument)
    if isinstance(node, BinOp):
        return free_variables(node.left) | free_variables(node.right)
    if isinstance(node, Power):
        return free_variables(node.base) | free_variables(node.exponent)
    if isinstance(node, MaxOf):
        return frozenset().union(*(free_variables(a) for a in node.args))
    return frozenset()


def _bounded(value: Fraction) -> Fraction:
    if value.numerator.bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS:
        raise ExprError(f"value too large (over {MAX_BITS} bits)")
    return value


def evaluate(node: Expr, env: Mapping[str, Fraction]) -> Fraction:
    """The exact value of ``node``; raises :class:`ExprError` on 0 division or overflow."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Var):
        return env[node.name]
    if isinstance(node, Neg):
        return -evaluate(node.operand, env)
    if isinstance(node, Pow):
        base = evaluate(node.base, env)
        if base == 0 and node.exponent < 0:
            raise ExprError("division by zero")
        bits = max(base.numerator.bit_length(), base.denominator.bit_length())
        if bits * abs(node.exponent) > MAX_BITS:
            raise ExprError(f"value too large (over {MAX_BITS} bits)")
        return base**node.exponent
    if isinstance(node, Call):
        argument = evaluate(node.argument, env)
        value = exact_call(node.name, argument)
        if value is None:
            raise ExprError(f"{node.name}({argument}) is not a rational number")
        return value
    if isinstance(node, MaxOf):
        return max(evaluate(a, env) for a in node.args)
    if isinstance(node, Power):
        exponent = evaluate(node.exponent, env)
        if exponent.denominator != 1 or abs(exponent) > MAX_BITS:
            raise ExprError(f"{to_text(node)} is not known to be rational")
        return evaluate(Pow(node.base, int(exponent)), env)
    left = evaluate(node.left, env)
    right = evaluate(node.right, env)
    if node.op == "+":
        return _bounded(left + right)
    if node.op == "-":
        return _bounded(left - right)
    if node.op == "*":
        return _bounded(left * right)
    if right == 0:
        raise ExprError("division by zero")
    return _bounded(left / right)


def to_text(node: Expr) -> str:
    """A canonical, fully parenthesised spelling, for messages and tests."""
    if isinstance(node, Num):
        value = node.value
        return str(value.numerator) if value.denominator == 1 else f"({value})"
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Neg):
        return f"(-{to_text(node.operand)})"
    if isinstance(node, Pow):
        return f"({to_text(node.base)}^{node.exponent})"
    if isinstance(node, Call):
        return f"{node.name}({to_text(node.argument)})"
    if isinstance(node, Power):
        return f"({to_text(node.base)}^{to_text(node.exponent)})"
    if isinstance(node, MaxOf):
        return f"max({', '.join(to_text(a) for a in node.args)})"
    return f"({to_text(node.left)} {node.op} {to_text(node.right)})"
