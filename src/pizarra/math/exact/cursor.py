"""The parser's position in a side's tokens, and how it gives up.

A side outside the subset is not an error but a value, :class:`Unsupported`: the
parser raises :class:`Stop` wherever it meets one, and the claim is counted unchecked.
"""

from __future__ import annotations

from dataclasses import dataclass

from pizarra.math.exact.lexer import Kind, Token

MAX_DEPTH = 40
"""Deepest nesting of groups that is parsed."""


@dataclass(frozen=True)
class Unsupported:
    """Why a side cannot be evaluated; its claim is then counted as unchecked."""

    reason: str
    """A short explanation, e.g. ``\\cdots is not arithmetic``."""


class Stop(Exception):
    """Raised where a side leaves the subset; :func:`~pizarra.math.exact.parser.parse_side`
    returns it as :class:`Unsupported`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Cursor:
    """Tokens and the parser's state over them."""

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
            raise Stop("side ends too early")
        self.i += 1
        return token

    def expect(self, text: str) -> Token:
        if not self.at(text):
            raise Stop(f"expected {text!r}, found {self.describe()}")
        return self.take()

    def last_end(self) -> int:
        return self.tokens[self.i - 1].end

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Stop("too large: nested too deeply")
