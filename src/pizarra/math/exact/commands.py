"""The commands of a side (``\\frac``, ``\\sqrt``, ``\\log``, ``\\sum``, ``\\left``...), read
by the parser's rules for atoms."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from pizarra.math.exact.ast import Abs, BinOp, Call, Const, Node, Root, Series, Sym
from pizarra.math.exact.cursor import Cursor, Stop
from pizarra.math.exact.lexer import Kind, Token
from pizarra.math.exact.vocabulary import (
    BARS,
    BINOMIALS,
    EXTREMES,
    FLOORS,
    FRACTIONS,
    GREEK,
    LOGS,
    SERIES,
)


class Commands(Cursor):
    """The rules for commands; the grammar's other rules are the parser's."""

    def expr(self) -> Node:
        raise NotImplementedError

    def implicit(self) -> Node:
        raise NotImplementedError

    def power(self) -> Node:
        raise NotImplementedError

    def argument(self) -> Node:
        raise NotImplementedError

    def arguments(self) -> tuple[Node, ...]:
        raise NotImplementedError

    def group(self, opener: str) -> Node:
        raise NotImplementedError

    def applied(self, name: str, start: int) -> Node | None:
        raise NotImplementedError

    def starts_factor(self) -> bool:
        raise NotImplementedError

    def bars_group(self) -> Node:
        start = self.take().start
        self.bars += 1
        inner = self.expr()
        self.bars -= 1
        if not self.at(*BARS):
            raise Stop("an absolute value without its closing bar")
        self.take()
        return Abs(inner, start, self.last_end())

    def command(self, token: Token) -> Node:
        name = token.text
        if name in ("\\pi", "\\infty"):
            self.take()
            constant = Const("pi" if name == "\\pi" else "oo", token.start, token.end)
            return self.applied(name[1:], token.start) or constant
        if name[1:] in GREEK:
            self.take()
            return self.applied(name[1:], token.start) or Sym(name[1:], token.start, token.end)
        if name in FRACTIONS or name in BINOMIALS:
            self.take()
            first, second = self.argument(), self.argument()
            if name in BINOMIALS:
                return Call("binom", (first, second), token.start, self.last_end())
            return BinOp("/", first, second, token.start, self.last_end())
        if name == "\\sqrt":
            self.take()
            index = self.group("[") if self.at("[") else None
            radicand = self.argument()
            return Root(radicand, index, token.start, self.last_end())
        if name == "\\left":
            return self.left_right(token)
        if name in FLOORS:
            self.take()
            return self.floor(token, *FLOORS[name])
        if name in LOGS:
            return self.logarithm(token, LOGS[name])
        if name in EXTREMES:
            self.take()
            return Call(EXTREMES[name], self.arguments(), token.start, self.last_end())
        if name in SERIES:
            return self.series(token, "sum" if name == "\\sum" else "prod")
        raise Stop(f"{name} is not arithmetic")

    def floor(self, token: Token, closer: str, kind: str) -> Node:
        """The rest of ``\\lfloor x \\rfloor`` once its opening bracket is taken."""
        inner = self.expr()
        if self.at("\\right"):
            self.take()
        self.expect(closer)
        return Call(kind, (inner,), token.start, self.last_end())

    def logarithm(self, token: Token, kind: str) -> Node:
        self.take()
        base: Node | None = None
        if self.at("_"):
            if kind != "log":
                raise Stop(f"a subscript on \\{kind}")
            self.take()
            self.applying = False
            base = self.argument()
            self.applying = True
        if self.at("^"):
            raise Stop(f"a power of \\{kind} is ambiguous")
        if self.at("(") or self.at("\\left"):
            args = self.arguments()
            if len(args) != 1:
                raise Stop(f"\\{kind} takes one argument")
            argument = args[0]
        else:
            argument = self.power()
            if self.starts_factor():
                raise Stop(f"the argument of \\{kind} is ambiguous: write it in parentheses")
        args = (argument,) if base is None else (argument, base)
        return Call(kind, args, token.start, self.last_end())

    def series(self, token: Token, kind: Literal["sum", "prod"]) -> Node:
        self.take()
        self.expect("_")
        self.expect("{")
        index = self.take()
        if index.kind is not Kind.LETTER:
            raise Stop(f"an unusual index under \\{kind}")
        self.expect("=")
        lower = self.expr()
        self.expect("}")
        self.expect("^")
        upper = self.argument()
        body = self.implicit()
        return Series(kind, index.text, lower, upper, body, token.start, self.last_end())

    def left_right(self, token: Token) -> Node:
        self.take()
        opener = self.take()
        if opener.text in FLOORS:
            return self.floor(token, *FLOORS[opener.text])
        if opener.text not in (*BARS, "(", "["):
            raise Stop(f"\\left{opener.text} is not arithmetic")
        # \right closes the group, so bare bars inside pair among themselves: |x| and
        # 2|x| read as they do outside (the outer group's bars wait for its \right).
        outer_bars, self.bars = self.bars, 0
        inner = self.expr()
        self.bars = outer_bars
        self.expect("\\right")
        closer = self.take()
        if opener.text in BARS:
            if closer.text not in BARS:
                raise Stop("\\left| without \\right|")
            return Abs(inner, token.start, closer.end)
        if closer.text not in (")", "]"):
            raise Stop(f"\\right{closer.text} does not close \\left{opener.text}")
        return respan(inner, token.start, closer.end)


def respan(node: Node, start: int, end: int) -> Node:
    """The same node, spanning its brackets (so quotes include them)."""
    return replace(node, start=start, end=end)
