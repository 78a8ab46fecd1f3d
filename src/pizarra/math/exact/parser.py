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
from dataclasses import replace
from fractions import Fraction

from pizarra.math.exact.ast import (
    BinOp,
    Call,
    Const,
    Neg,
    Node,
    Num,
    PlusMinus,
    Pow,
    Sym,
    has_plus_minus,
)
from pizarra.math.exact.commands import Commands, respan
from pizarra.math.exact.cursor import Stop, Unsupported
from pizarra.math.exact.lexer import Kind, Token, text_words
from pizarra.math.exact.numerals import Numeral, read
from pizarra.math.exact.vocabulary import (
    BARS,
    CLOSERS,
    DIVIDE,
    FRACTIONS,
    GREEK,
    MULTIPLY,
    NOT_FACTORS,
    PLUS_MINUS,
)

MAX_TOKENS = 300
"""Longest side (in tokens) that is parsed; longer sides are unchecked."""


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
            raise Stop(f"unexpected {parser.describe()}")
    except Stop as stop:
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


class _Parser(Commands):
    """The grammar of the module docstring, one method a rule."""

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
                    raise Stop("more than one \\pm in a side")
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
                raise Stop("a / before an implicit product (6/2(1+2)) is ambiguous: use \\frac")
            node = BinOp("*" if op == "*" else "/", node, right, node.start, right.end)
        return node

    def implicit(self) -> Node:
        node = self.signed()
        factors = 1
        while self.starts_factor():
            token = self.peek()
            assert token is not None
            if token.kind is Kind.NUMBER and not _ends_in_factorial(node):
                raise Stop("a number written right after another factor is ambiguous")
            if isinstance(node, Num) and token.text in FRACTIONS:
                raise Stop("a number followed by a fraction reads as a mixed number")
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
            raise Stop("a subscript on something other than a letter")
        if self.at("!"):
            self.take()
            if self.at("!"):
                raise Stop("n!! is a double factorial to some, (n!)! to others: ambiguous")
            base = Call("factorial", (base,), base.start, self.last_end())
        if self.at("^"):
            self.take()
            exponent = self.argument()
            if self.at("^", "_"):
                raise Stop("a double script")
            base = Pow(base, exponent, base.start, self.last_end())
        if self.at("!"):
            raise Stop("a factorial after a power is ambiguous")
        if self.at("\\%"):
            self.take()
            base = Call("percent", (base,), base.start, self.last_end())
        return base

    def argument(self) -> Node:
        """A macro argument or script: a braced group or a single token."""
        token = self.peek()
        if token is None:
            raise Stop("missing argument")
        if token.kind is Kind.NUMBER and len(token.text) > 1:
            if not token.text.isdigit():
                raise Stop("a grouped number used as a one-token argument")
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
        raise Stop(f"unsupported argument {token.text!r}")

    def group(self, opener: str) -> Node:
        start = self.expect(opener).start
        outer_bars, self.bars = self.bars, 0
        inner = self.expr()
        self.bars = outer_bars
        self.expect(CLOSERS[opener])
        return respan(inner, start, self.last_end())

    def atom(self) -> Node:
        token = self.peek()
        if token is None:
            raise Stop("side ends too early")
        if token.kind is Kind.NUMBER:
            self.take()
            if not isinstance(token.numeral, Numeral):
                raise Stop(f"{token.text} is an ambiguous numeral")
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
        raise Stop(f"{token.text!r} is not arithmetic")

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
            if name == "softmax" and self.at("_"):  # one component: softmax(1, 2, 3)_3
                self.take()
                args = (self.argument(), *args)
            return Call(name, args, start, self.last_end())
        if name in self.variables:
            return None
        raise Stop(f"function application {name}(...) of a function pizarra does not know")

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
            raise Stop(f"words or a unit ({token.text}) next to a number")
        return call

    def subscript(self) -> str:
        if not self.at("{"):
            token = self.take()
            if token.kind in (Kind.LETTER, Kind.NUMBER) and token.text.isalnum():
                return token.text
            raise Stop("an unusual subscript")
        self.take()
        parts: list[str] = []
        while not self.at("}"):
            token = self.take()
            if token.kind is Kind.TEXT:
                parts.append(text_words(token).replace(" ", ""))
            elif token.kind in (Kind.LETTER, Kind.NUMBER) and token.text.isalnum():
                parts.append(token.text)
            else:
                raise Stop("an unusual subscript")
        self.take()
        return "".join(parts)


def _ends_in_factorial(node: Node) -> bool:
    """``3!\\,4!`` is a product: a number may follow a factorial."""
    while isinstance(node, BinOp) and node.op == "*":
        node = node.right
    return isinstance(node, Call) and node.name == "factorial"
