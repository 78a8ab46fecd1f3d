"""A recursive-descent parser for one side of a claim.

Grammar (a ``/`` or ``\\div`` followed by an implicit product, as in ``6/2(1+2)`` or
``1/2x``, is ambiguous and left unsupported; write ``\\frac`` or parentheses)::

    expr     := ["+"|"-"|"\\pm"] term (("+"|"-"|"\\pm"|"\\mp") term)*
    term     := implicit (("\\cdot"|"\\times"|"*"|"/"|"\\div") implicit)*
    implicit := signed power*
    signed   := ("-"|"+") signed | power
    power    := atom ["!"]* ["^" script] ["\\%"]
    atom     := number | letter [subscript] | (expr) | [expr] | {expr} | |expr|
              | \\left( expr \\right) | \\frac{..}{..} | \\sqrt[..]{..} | \\binom{..}{..}
              | \\log_b x | \\ln x | \\exp x | \\max(..) | \\lfloor..\\rfloor | \\sum_{i=a}^{b} ..
              | e | \\pi | \\infty | g(..) for a function the lesson defines

A letter, Greek letter or ``\\mathrm``/``\\operatorname``/``\\text`` name followed by
``(`` is a function applied to an argument, never a product (unless the letter is a
declared variable). Anything outside this subset (``\\cdots``, ``\\underbrace``,
words, units, an unknown command) makes the side *unsupported*: the claim is
counted as unchecked, never failed. Unsupported is returned as a value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

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
    has_plus_minus,
)
from pizarra.math.exact.lexer import Kind, Token, text_words
from pizarra.math.exact.numerals import Numeral, read
from pizarra.math.exact.vocabulary import (
    BARS,
    BINOMIALS,
    CLOSERS,
    DIVIDE,
    EXTREMES,
    FLOORS,
    FRACTIONS,
    GREEK,
    LOGS,
    MULTIPLY,
    NOT_FACTORS,
    PLUS_MINUS,
    SERIES,
)

MAX_TOKENS = 300
"""Longest side (in tokens) that is parsed; longer sides are unchecked."""
MAX_DEPTH = 40
"""Deepest nesting of groups that is parsed."""


@dataclass(frozen=True)
class Unsupported:
    """Why a side cannot be evaluated; its claim is then counted as unchecked."""

    reason: str
    """A short explanation, e.g. ``\\cdots is not arithmetic``."""


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_side(
    tokens: Sequence[Token],
    functions: frozenset[str] = frozenset(),
    variables: frozenset[str] = frozenset(),
) -> Node | Unsupported:
    """The expression tree of ``tokens``, or why it is outside the subset.

    ``functions`` are the names the lesson defines; ``variables`` the letters it
    declares as numbers (``a(b+c)`` is then a product, not an application).
    """
    if not tokens:
        return Unsupported("empty side")
    if len(tokens) > MAX_TOKENS:
        return Unsupported(f"too large: longer than {MAX_TOKENS} tokens")
    parser = _Parser(list(tokens), functions, variables)
    try:
        node = parser.expr()
        if parser.peek() is not None:
            raise _Stop(f"unexpected {parser.describe()}")
    except _Stop as stop:
        return Unsupported(stop.reason)
    return node


def parse_number(text: str, lang: str = "en") -> Fraction | None:
    """The value of a numeral read in ``lang``; None when it is ambiguous there."""
    reading = read(text, lang)
    return reading.value if isinstance(reading, Numeral) else None


_SIGNS = ("+", "-", *sorted(PLUS_MINUS))
_PRODUCTS = (*sorted(MULTIPLY), *sorted(DIVIDE))
_AFTER_ATOM = frozenset({"_", "!", "^", "\\%"})
"""The only texts that can follow an atom within :meth:`_Parser.power`."""


class _Parser:
    def __init__(
        self, tokens: list[Token], functions: frozenset[str], variables: frozenset[str]
    ) -> None:
        self.tokens = tokens
        self.functions = functions
        self.variables = variables
        self.i = 0
        self.depth = 0
        self.bars = 0
        self.applying = True
        self.factors = 1

    # -- token helpers -------------------------------------------------------
    def peek(self, ahead: int = 0) -> Token | None:
        index = self.i + ahead
        return self.tokens[index] if index < len(self.tokens) else None

    def describe(self) -> str:
        token = self.peek()
        return "end of side" if token is None else repr(token.text)

    def at(self, *texts: str) -> bool:
        if self.i >= len(self.tokens):  # the parser's most frequent question: no peek() call
            return False
        token = self.tokens[self.i]
        return token.kind in (Kind.CHAR, Kind.COMMAND) and token.text in texts

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise _Stop("side ends too early")
        self.i += 1
        return token

    def expect(self, text: str) -> Token:
        if not self.at(text):
            raise _Stop(f"expected {text!r}, found {self.describe()}")
        return self.take()

    def last_end(self) -> int:
        return self.tokens[self.i - 1].end

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Stop("too large: nested too deeply")

    # -- grammar -------------------------------------------------------------
    def expr(self) -> Node:
        self.deeper()
        node: Node
        if self.at(*_SIGNS):
            sign = self.take()
            term = self.term()
            if sign.text in PLUS_MINUS:
                node = PlusMinus(None, term, sign.text == "\\mp", sign.start, term.end)
            else:
                node = Neg(term, sign.start, term.end) if sign.text == "-" else term
        else:
            node = self.term()
        while self.at(*_SIGNS):
            op = self.take().text
            right = self.term()
            if op in PLUS_MINUS:
                if has_plus_minus(node):
                    raise _Stop("more than one \\pm in a side")
                node = PlusMinus(node, right, op == "\\mp", node.start, right.end)
            else:
                node = BinOp("+" if op == "+" else "-", node, right, node.start, right.end)
        self.depth -= 1
        return node

    def term(self) -> Node:
        node = self.implicit()
        while self.at(*_PRODUCTS):
            op = "/" if self.take().text in DIVIDE else "*"
            right = self.implicit()
            if op == "/" and self.factors > 1:
                raise _Stop("a / before an implicit product (6/2(1+2)) is ambiguous: use \\frac")
            node = BinOp("*" if op == "*" else "/", node, right, node.start, right.end)
        return node

    def implicit(self) -> Node:
        node = self.signed()
        factors = 1
        while self.starts_factor():
            token = self.peek()
            assert token is not None
            if token.kind is Kind.NUMBER and not _ends_in_factorial(node):
                raise _Stop("a number written right after another factor is ambiguous")
            if isinstance(node, Num) and token.text in FRACTIONS:
                raise _Stop("a number followed by a fraction reads as a mixed number")
            right = self.power()
            node = BinOp("*", node, right, node.start, right.end)
            factors += 1
        self.factors = factors
        return node

    def starts_factor(self) -> bool:
        token = self.peek()
        if token is None:
            return False
        if token.kind in (Kind.NUMBER, Kind.LETTER, Kind.TEXT):
            return True
        if token.kind is Kind.COMMAND:
            if token.text in BARS:
                return self.bars == 0
            return token.text not in NOT_FACTORS
        if token.kind is Kind.CHAR:
            return token.text in "([{" or (token.text == "|" and self.bars == 0)
        return True

    def signed(self) -> Node:
        if self.at("-", "+"):
            sign = self.take()
            self.deeper()
            operand = self.signed()
            self.depth -= 1
            return Neg(operand, sign.start, operand.end) if sign.text == "-" else operand
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        following = self.peek()
        if following is None or following.text not in _AFTER_ATOM:
            return base  # what follows most atoms: none of the checks below applies
        if self.at("_"):
            raise _Stop("a subscript on something other than a letter")
        if self.at("!"):
            self.take()
            if self.at("!"):
                raise _Stop("n!! is a double factorial to some, (n!)! to others: ambiguous")
            base = Call("factorial", (base,), base.start, self.last_end())
        if self.at("^"):
            self.take()
            exponent = self.argument()
            if self.at("^", "_"):
                raise _Stop("a double script")
            base = Pow(base, exponent, base.start, self.last_end())
        if self.at("!"):
            raise _Stop("a factorial after a power is ambiguous")
        if self.at("\\%"):
            self.take()
            base = Call("percent", (base,), base.start, self.last_end())
        return base

    def argument(self) -> Node:
        """A macro argument or script: a braced group or a single token."""
        token = self.peek()
        if token is None:
            raise _Stop("missing argument")
        if token.kind is Kind.NUMBER and len(token.text) > 1:
            if not token.text.isdigit():
                raise _Stop("a grouped number used as a one-token argument")
            first = Token(Kind.NUMBER, token.text[0], token.start, token.start + 1)
            rest = Token(Kind.NUMBER, token.text[1:], token.start + 1, token.end)
            self.tokens[self.i : self.i + 1] = [
                replace(first, numeral=read(first.text, "en")),
                replace(rest, numeral=read(rest.text, "en")),
            ]
        if self.at("{"):
            return self.group("{")
        if token.kind is Kind.NUMBER or token.kind is Kind.LETTER:
            return self.atom()
        if token.kind is Kind.COMMAND and (
            token.text[1:] in GREEK or token.text in FRACTIONS | {"\\pi"}
        ):
            return self.atom()
        raise _Stop(f"unsupported argument {token.text!r}")

    def group(self, opener: str) -> Node:
        start = self.expect(opener).start
        outer_bars, self.bars = self.bars, 0
        inner = self.expr()
        self.bars = outer_bars
        self.expect(CLOSERS[opener])
        return _respan(inner, start, self.last_end())

    def atom(self) -> Node:
        token = self.peek()
        if token is None:
            raise _Stop("side ends too early")
        if token.kind is Kind.NUMBER:
            self.take()
            if not isinstance(token.numeral, Numeral):
                raise _Stop(f"{token.text} is an ambiguous numeral")
            return Num(token.numeral.value, token.start, token.end, token.numeral.unit)
        if token.kind is Kind.LETTER:
            return self.letter()
        if token.kind is Kind.TEXT:
            return self.named(token, text_words(token).replace(" ", ""))
        if token.kind is Kind.CHAR and token.text in CLOSERS:
            return self.group(token.text)
        if token.kind in (Kind.CHAR, Kind.COMMAND) and token.text in BARS:
            return self.bars_group()
        if token.kind is Kind.COMMAND:
            return self.command(token)
        raise _Stop(f"{token.text!r} is not arithmetic")

    def letter(self) -> Node:
        token = self.take()
        name = token.text
        if self.at("_"):
            self.take()
            name += "_" + self.subscript()
        return self.applied(name, token.start) or (
            Const("e", token.start, token.end)
            if name == "e" and name not in self.variables
            else Sym(name, token.start, self.last_end())
        )

    def applied(self, name: str, start: int) -> Node | None:
        """``name(args)`` when a parenthesis follows ``name``; None otherwise."""
        after = self.peek(1)
        if not self.applying:
            return None
        if not (self.at("(") or (self.at("\\left") and after is not None and after.text == "(")):
            return None
        if name in self.functions:
            args = self.arguments()
            return Call(name, args, start, self.last_end())
        if name in self.variables:
            return None
        raise _Stop(f"function application {name}(...) of a function pizarra does not know")

    def arguments(self) -> tuple[Node, ...]:
        """``(a, b, ...)`` or ``\\left( a, b \\right)``."""
        left = self.at("\\left")
        if left:
            self.take()
        self.expect("(")
        outer_bars, self.bars = self.bars, 0
        args = [self.expr()]
        while self.at(","):
            self.take()
            args.append(self.expr())
        self.bars = outer_bars
        if left:
            self.expect("\\right")
        self.expect(")")
        return tuple(args)

    def named(self, token: Token, name: str) -> Node:
        """A ``\\mathrm``/``\\operatorname``/``\\text`` name: a function, or words (unsupported)."""
        self.take()
        call = self.applied(name, token.start) if name in self.functions or self.at("(") else None
        if call is None:
            raise _Stop(f"words or a unit ({token.text}) next to a number")
        return call

    def subscript(self) -> str:
        if not self.at("{"):
            token = self.take()
            if token.kind in (Kind.LETTER, Kind.NUMBER) and token.text.isalnum():
                return token.text
            raise _Stop("an unusual subscript")
        self.take()
        parts: list[str] = []
        while not self.at("}"):
            token = self.take()
            if token.kind is Kind.TEXT:
                parts.append(text_words(token).replace(" ", ""))
            elif token.kind in (Kind.LETTER, Kind.NUMBER) and token.text.isalnum():
                parts.append(token.text)
            else:
                raise _Stop("an unusual subscript")
        self.take()
        return "".join(parts)

    def bars_group(self) -> Node:
        start = self.take().start
        self.bars += 1
        inner = self.expr()
        self.bars -= 1
        if not self.at(*BARS):
            raise _Stop("an absolute value without its closing bar")
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
        raise _Stop(f"{name} is not arithmetic")

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
                raise _Stop(f"a subscript on \\{kind}")
            self.take()
            self.applying = False
            base = self.argument()
            self.applying = True
        if self.at("^"):
            raise _Stop(f"a power of \\{kind} is ambiguous")
        if self.at("(") or self.at("\\left"):
            args = self.arguments()
            if len(args) != 1:
                raise _Stop(f"\\{kind} takes one argument")
            argument = args[0]
        else:
            argument = self.power()
            if self.starts_factor():
                raise _Stop(f"the argument of \\{kind} is ambiguous: write it in parentheses")
        args = (argument,) if base is None else (argument, base)
        return Call(kind, args, token.start, self.last_end())

    def series(self, token: Token, kind: Literal["sum", "prod"]) -> Node:
        self.take()
        self.expect("_")
        self.expect("{")
        index = self.take()
        if index.kind is not Kind.LETTER:
            raise _Stop(f"an unusual index under \\{kind}")
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
            raise _Stop(f"\\left{opener.text} is not arithmetic")
        # \right closes the group, so bare bars inside pair among themselves: |x| and
        # 2|x| read as they do outside (the outer group's bars wait for its \right).
        outer_bars, self.bars = self.bars, 0
        inner = self.expr()
        self.bars = outer_bars
        self.expect("\\right")
        closer = self.take()
        if opener.text in BARS:
            if closer.text not in BARS:
                raise _Stop("\\left| without \\right|")
            return Abs(inner, token.start, closer.end)
        if closer.text not in (")", "]"):
            raise _Stop(f"\\right{closer.text} does not close \\left{opener.text}")
        return _respan(inner, token.start, closer.end)


def _ends_in_factorial(node: Node) -> bool:
    """``3!\\,4!`` is a product: a number may follow a factorial."""
    while isinstance(node, BinOp) and node.op == "*":
        node = node.right
    return isinstance(node, Call) and node.name == "factorial"


def _respan(node: Node, start: int, end: int) -> Node:
    """The same node, spanning its brackets (so quotes include them)."""
    return replace(node, start=start, end=end)
