"""Tokens of a learner's answer -> an expression tree, by recursive descent (never ``eval``).

Grammar (the page's ``answers.js`` has the same functions, in the same order)::

    items    := item ((";" | "," | join) item)*
    item     := ["pm"] expr                     ("±7" is two items)
    expr     := ["+" | "-"] term (("+" | "-") term)*
    term     := factor (("*" | "/") factor | factor)*   (a factor after another: a product)
    factor   := ("-" | "+") factor | power
    power    := atom ["^" exponent]
    exponent := ("-" | "+") exponent | atom ["^" exponent]
    atom     := number | letter | "(" expr ")" | "{" expr "}"
              | frac group group | sqrt ["[" expr "]"] (group | atom)

``-3^2`` is ``-(3^2)``; ``2^3^2`` is ``2^(3^2)``; ``2^-4`` and ``x^(-2)`` are read.
A quotient followed by a product without a sign (``1/2x``) is ambiguous and unread,
as are two numbers side by side (``2 3``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

from pizarra.check.answers.lexer import Token, Unread

MAX_TOKENS = 120
"""Most tokens of one answer."""
MAX_DEPTH = 40
"""Deepest nesting of groups and operators."""


@dataclass(frozen=True)
class Num:
    value: Fraction
    decimals: int
    """Digits written after the decimal mark (-1: none)."""


@dataclass(frozen=True)
class Letter:
    name: str


@dataclass(frozen=True)
class Neg:
    operand: Node


@dataclass(frozen=True)
class Bin:
    op: str
    """``+``, ``-``, ``*`` or ``/``."""
    left: Node
    right: Node


@dataclass(frozen=True)
class Pow:
    base: Node
    exponent: Node


@dataclass(frozen=True)
class Root:
    radicand: Node
    index: Node | None


Node: TypeAlias = Num | Letter | Neg | Bin | Pow | Root

_ATOM_START = ("num", "letter", "frac", "sqrt")


class Parser:
    """One pass over a list of tokens."""

    def __init__(self, found: list[Token]):
        if len(found) > MAX_TOKENS:
            raise Unread("too_long")
        self.tokens = found
        self.i = 0
        self.depth = 0

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def at(self, text: str) -> bool:
        token = self.peek()
        return token is not None and token.kind == "op" and token.text == text

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise Unread("unreadable")
        self.i += 1
        return token

    def expect(self, text: str) -> None:
        if not self.at(text):
            raise Unread("unreadable")
        self.i += 1

    def done(self) -> bool:
        return self.i >= len(self.tokens)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unread("too_long")

    def expr(self) -> Node:
        self.enter()
        node: Node
        if self.at("-"):
            self.i += 1
            node = Neg(self.term())
        else:
            if self.at("+"):
                self.i += 1
            node = self.term()
        while self.at("+") or self.at("-"):
            op = self.take().text
            node = Bin(op, node, self.term())
        self.depth -= 1
        return node

    def term(self) -> Node:
        node = self.factor()
        divided = False
        while True:
            if self.at("*") or self.at("/"):
                op = self.take().text
                node = Bin(op, node, self.factor())
                divided = op == "/"
            elif self._starts_atom():
                if divided:
                    raise Unread("ambiguous_division")
                token = self.peek()
                if token is not None and token.kind == "num" and _ends_in_number(node):
                    raise Unread("unreadable")
                node = Bin("*", node, self.factor())
            else:
                return node

    def _starts_atom(self) -> bool:
        token = self.peek()
        if token is None:
            return False
        return token.kind in _ATOM_START or (token.kind == "op" and token.text in ("(", "{"))

    def factor(self) -> Node:
        if self.at("-") or self.at("+"):
            negative = self.take().text == "-"
            self.enter()
            inner = self.factor()
            self.depth -= 1
            return Neg(inner) if negative else inner
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if self.at("^"):
            self.i += 1
            return Pow(base, self.exponent())
        return base

    def exponent(self) -> Node:
        self.enter()
        node: Node
        if self.at("-") or self.at("+"):
            negative = self.take().text == "-"
            inner = self.exponent()
            node = Neg(inner) if negative else inner
        else:
            base = self.atom()
            node = Pow(base, self.exponent()) if self._caret() else base
        self.depth -= 1
        return node

    def _caret(self) -> bool:
        if self.at("^"):
            self.i += 1
            return True
        return False

    def atom(self) -> Node:
        self.enter()
        token = self.take()
        node: Node
        if token.kind == "num":
            node = Num(token.value, token.decimals)
        elif token.kind == "letter":
            node = Letter(token.text)
        elif token.kind == "op" and token.text in ("(", "{"):
            node = self.expr()
            self.expect(")" if token.text == "(" else "}")
        elif token.kind == "frac":
            numerator = self.group()
            node = Bin("/", numerator, self.group())
        elif token.kind == "sqrt":
            index = None
            if self.at("["):
                self.i += 1
                index = self.expr()
                self.expect("]")
            node = Root(self.group() if self.at("{") or self.at("(") else self.atom(), index)
        else:
            raise Unread("unreadable")
        self.depth -= 1
        return node

    def group(self) -> Node:
        opener = self.take()
        if opener.kind != "op" or opener.text not in ("{", "("):
            raise Unread("unreadable")
        node = self.expr()
        self.expect("}" if opener.text == "{" else ")")
        return node


def _ends_in_number(node: Node) -> bool:
    """Whether the product so far ends in a bare number (``2 3`` is not a product)."""
    while isinstance(node, Bin) and node.op == "*":
        node = node.right
    return isinstance(node, Num)


def read_expression(found: list[Token]) -> Node:
    """One expression and nothing after it."""
    parser = Parser(found)
    if parser.done():
        raise Unread("empty")
    node = parser.expr()
    if not parser.done():
        raise Unread("one_value" if parser.at(",") or parser.at(";") else "unreadable")
    return node


def split_items(found: list[Token]) -> list[list[Token]]:
    """The tokens between top-level separators (``;``, ``,``, "y", "or"...)."""
    items: list[list[Token]] = [[]]
    depth = 0
    for token in found:
        if token.kind == "op" and token.text in ("(", "{", "["):
            depth += 1
        elif token.kind == "op" and token.text in (")", "}", "]"):
            depth -= 1
        if depth == 0 and (
            token.kind == "join" or (token.kind == "op" and token.text in (",", ";"))
        ):
            items.append([])
        else:
            items[-1].append(token)
    return items
