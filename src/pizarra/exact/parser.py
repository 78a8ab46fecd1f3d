"""A recursive-descent parser for one side of a claim.

Grammar (implicit products bind tighter than written ``\\cdot``, ``\\times``, ``/``,
so ``C/n`` and ``1/2x`` read as an author means them)::

    expr     := ["+"|"-"] term (("+"|"-") term)*
    term     := implicit (("\\cdot"|"\\times"|"*"|"/"|"\\div") implicit)*
    implicit := signed power*
    signed   := ("-"|"+") signed | power
    power    := atom ["^" script]
    atom     := number | letter [subscript] | (expr) | [expr] | {expr} | |expr|
              | \\left( expr \\right) | \\frac{..}{..} | \\sqrt[..]{..}

Anything outside this subset (``\\cdots``, ``\\underbrace``, ``f(n)``, an unknown
command) makes the side *unsupported*: the claim is counted as unchecked, never
failed. Unsupported is returned as a value; the exception is private.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from pizarra.exact.ast import Abs, BinOp, Neg, Node, Num, Pow, Root, Sym
from pizarra.exact.lexer import Kind, Token, text_words

MAX_TOKENS = 300
"""Longest side (in tokens) that is parsed; longer sides are unchecked."""
MAX_DEPTH = 40
"""Deepest nesting of groups that is parsed."""

FUNCTION_LETTERS = frozenset("fghFGHO")
"""Letters that read as a function (``f(n)``, ``O(n^2)``) when a parenthesis follows."""

GREEK = frozenset(
    {
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "varepsilon",
        "zeta",
        "eta",
        "theta",
        "vartheta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "rho",
        "sigma",
        "tau",
        "upsilon",
        "phi",
        "varphi",
        "chi",
        "psi",
        "omega",
        "Gamma",
        "Delta",
        "Theta",
        "Lambda",
        "Xi",
        "Sigma",
        "Phi",
        "Psi",
        "Omega",
    }
)
"""Greek letters usable as variables (``\\pi`` is a constant, so it is not here)."""

_MULTIPLY = frozenset({"\\cdot", "\\times", "*"})
_DIVIDE = frozenset({"/", "\\div"})
_FRACTIONS = frozenset({"\\frac", "\\dfrac", "\\tfrac"})
_BARS = frozenset({"|", "\\vert", "\\lvert", "\\rvert", "\\mid"})
_CLOSERS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class Unsupported:
    """Why a side cannot be evaluated; its claim is then counted as unchecked."""

    reason: str
    """A short explanation, e.g. ``\\cdots is not arithmetic``."""


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_side(tokens: Sequence[Token]) -> Node | Unsupported:
    """The expression tree of ``tokens``, or why it is outside the subset."""
    if not tokens:
        return Unsupported("empty side")
    if len(tokens) > MAX_TOKENS:
        return Unsupported(f"longer than {MAX_TOKENS} tokens")
    parser = _Parser(list(tokens))
    try:
        node = parser.expr()
        if parser.peek() is not None:
            raise _Stop(f"unexpected {parser.describe()}")
    except _Stop as stop:
        return Unsupported(stop.reason)
    return node


def parse_number(text: str) -> Fraction | None:
    """The value of a number token; None for a grouping that is not thousands.

    ``2{,}048`` is 2048; ``0{,}5`` (a decimal comma) and ``1.048.576`` (dots as
    thousands separators) are refused rather than guessed.
    """
    if text.count(".") > 1:
        return None
    groups = text.split("{,}")
    if len(groups) > 1 and (
        len(groups[0]) > 3 or groups[0].startswith("0") or any(len(g) != 3 for g in groups[1:-1])
    ):
        return None
    if len(groups) > 1 and len(groups[-1].split(".")[0]) != 3:
        return None
    return Fraction("".join(groups))


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0
        self.depth = 0
        self.bars = 0

    # -- token helpers -------------------------------------------------------
    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def describe(self) -> str:
        token = self.peek()
        return "end of side" if token is None else repr(token.text)

    def at(self, *texts: str) -> bool:
        token = self.peek()
        return token is not None and token.kind in (Kind.CHAR, Kind.COMMAND) and token.text in texts

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

    # -- grammar -------------------------------------------------------------
    def expr(self) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Stop("nested too deeply")
        if self.at("-", "+"):
            sign = self.take()
            term = self.term()
            node: Node = Neg(term, sign.start, term.end) if sign.text == "-" else term
        else:
            node = self.term()
        while self.at("+", "-"):
            op = self.take().text
            right = self.term()
            node = BinOp("+" if op == "+" else "-", node, right, node.start, right.end)
        self.depth -= 1
        return node

    def term(self) -> Node:
        node = self.implicit()
        while self.at(*_MULTIPLY, *_DIVIDE):
            op = "/" if self.take().text in _DIVIDE else "*"
            right = self.implicit()
            node = BinOp("*" if op == "*" else "/", node, right, node.start, right.end)
        return node

    def implicit(self) -> Node:
        node = self.signed()
        while self.starts_factor():
            token = self.peek()
            assert token is not None
            if token.kind is Kind.NUMBER:
                raise _Stop("a number written right after another factor is ambiguous")
            if isinstance(node, Num) and token.text in _FRACTIONS:
                raise _Stop("a number followed by a fraction reads as a mixed number")
            right = self.power()
            node = BinOp("*", node, right, node.start, right.end)
        return node

    def starts_factor(self) -> bool:
        token = self.peek()
        if token is None:
            return False
        if token.kind in (Kind.NUMBER, Kind.LETTER):
            return True
        if token.kind is Kind.COMMAND:
            if token.text in _BARS:
                return self.bars == 0
            return token.text not in _MULTIPLY | _DIVIDE and token.text != "\\right"
        if token.kind is Kind.CHAR:
            return token.text in "([{" or (token.text == "|" and self.bars == 0)
        return True

    def signed(self) -> Node:
        if self.at("-", "+"):
            sign = self.take()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise _Stop("nested too deeply")
            operand = self.signed()
            self.depth -= 1
            return Neg(operand, sign.start, operand.end) if sign.text == "-" else operand
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if self.at("_"):
            raise _Stop("a subscript on something other than a letter")
        if not self.at("^"):
            return base
        self.take()
        exponent = self.argument()
        if self.at("^", "_"):
            raise _Stop("a double script")
        return Pow(base, exponent, base.start, self.last_end())

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
            self.tokens[self.i : self.i + 1] = [first, rest]
        if self.at("{"):
            return self.group("{")
        if token.kind is Kind.NUMBER or token.kind is Kind.LETTER:
            return self.atom()
        if token.kind is Kind.COMMAND and token.text[1:] in GREEK:
            return self.atom()
        raise _Stop(f"unsupported argument {token.text!r}")

    def group(self, opener: str) -> Node:
        start = self.expect(opener).start
        outer_bars, self.bars = self.bars, 0
        inner = self.expr()
        self.bars = outer_bars
        self.expect(_CLOSERS[opener])
        return _respan(inner, start, self.last_end())

    def atom(self) -> Node:
        token = self.peek()
        if token is None:
            raise _Stop("side ends too early")
        if token.kind is Kind.NUMBER:
            self.take()
            value = parse_number(token.text)
            if value is None:
                raise _Stop(f"{token.text} is not grouped in thousands")
            return Num(value, token.start, token.end)
        if token.kind is Kind.LETTER:
            return self.letter()
        if token.kind is Kind.CHAR and token.text in _CLOSERS:
            return self.group(token.text)
        if token.kind in (Kind.CHAR, Kind.COMMAND) and token.text in _BARS:
            return self.bars_group()
        if token.kind is Kind.COMMAND:
            return self.command(token)
        raise _Stop(f"{token.text!r} is not arithmetic")

    def letter(self) -> Node:
        token = self.take()
        name = token.text
        if name in FUNCTION_LETTERS and self.at("("):
            raise _Stop(f"function application {name}(...)")
        if self.at("_"):
            self.take()
            name += "_" + self.subscript()
        return Sym(name, token.start, self.last_end())

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
        if not self.at(*_BARS):
            raise _Stop("an absolute value without its closing bar")
        self.take()
        return Abs(inner, start, self.last_end())

    def command(self, token: Token) -> Node:
        name = token.text
        if name[1:] in GREEK:
            self.take()
            return Sym(name[1:], token.start, token.end)
        if name in _FRACTIONS:
            self.take()
            numerator = self.argument()
            denominator = self.argument()
            return BinOp("/", numerator, denominator, token.start, self.last_end())
        if name == "\\sqrt":
            self.take()
            index = self.group("[") if self.at("[") else None
            radicand = self.argument()
            return Root(radicand, index, token.start, self.last_end())
        if name == "\\left":
            return self.left_right(token)
        raise _Stop(f"{name} is not arithmetic")

    def left_right(self, token: Token) -> Node:
        self.take()
        opener = self.take()
        if opener.text in _BARS:
            self.bars += 1
            inner = self.expr()
            self.bars -= 1
        elif opener.text in ("(", "["):
            inner = self.expr()
        else:
            raise _Stop(f"\\left{opener.text} is not arithmetic")
        self.expect("\\right")
        closer = self.take()
        if opener.text in _BARS:
            if closer.text not in _BARS:
                raise _Stop("\\left| without \\right|")
            return Abs(inner, token.start, closer.end)
        if closer.text not in (")", "]"):
            raise _Stop(f"\\right{closer.text} does not close \\left{opener.text}")
        return _respan(inner, token.start, closer.end)


def _respan(node: Node, start: int, end: int) -> Node:
    """The same node, spanning its brackets (so quotes include them)."""
    return replace(node, start=start, end=end)
