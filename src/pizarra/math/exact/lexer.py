"""Tokens of the TeX subset that numeric claims are written in.

The lexer never fails: anything it does not know becomes an ``OTHER`` token, and
the parser decides whether that leaves a side unchecked. Offsets are kept so that
a message can quote the author's own TeX and a multi-line formula can point at
the right line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from pizarra.math.exact.numerals import Ambiguous, Numeral, numeral_at, read


class Kind(Enum):
    """What a token is, as far as claims are concerned."""

    NUMBER = "number"
    LETTER = "letter"
    COMMAND = "command"
    CHAR = "char"
    TEXT = "text"
    BEGIN = "begin"
    END = "end"
    OTHER = "other"


@dataclass(frozen=True)
class Token:
    """One lexical unit of a formula."""

    kind: Kind
    """Its category."""
    text: str
    """Canonical spelling: ``\\ne`` for ``≠``; the environment name for BEGIN/END;
    the whole group for TEXT."""
    start: int
    """Offset of its first character in the formula."""
    end: int
    """Offset just past its last character."""
    numeral: Numeral | Ambiguous | None = None
    """For a NUMBER, how the lesson's language reads it."""


SPACING = frozenset(
    {"\\,", "\\;", "\\:", "\\!", "\\ ", "\\>", "\\displaystyle", "\\textstyle"}
    | {"\\big", "\\Big", "\\bigg", "\\Bigg", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr"}
)
"""Commands that only change spacing or size and carry no meaning for a claim."""

TEXT_COMMANDS = frozenset(
    {"\\text", "\\textrm", "\\textit", "\\textbf", "\\mbox", "\\mathrm", "\\operatorname"}
)
"""Commands whose braced argument is words (units, connectors, subscript names)."""

UNICODE = {
    "−": (Kind.CHAR, "-"),
    "×": (Kind.COMMAND, "\\times"),
    "·": (Kind.COMMAND, "\\cdot"),
    "≠": (Kind.COMMAND, "\\ne"),
    "≤": (Kind.COMMAND, "\\le"),
    "≥": (Kind.COMMAND, "\\ge"),
    "≈": (Kind.COMMAND, "\\approx"),
    "≦": (Kind.COMMAND, "\\leqq"),
    "≧": (Kind.COMMAND, "\\geqq"),
    "≮": (Kind.COMMAND, "\\nless"),
    "≯": (Kind.COMMAND, "\\ngtr"),
    "≪": (Kind.COMMAND, "\\ll"),
    "≫": (Kind.COMMAND, "\\gg"),
    "⪅": (Kind.COMMAND, "\\lessapprox"),
    "⪆": (Kind.COMMAND, "\\gtrapprox"),
}
"""Characters read as the token a TeX spelling gives (``≠`` is ``\\ne``)."""
_COMMAND = re.compile(r"\\(?:[A-Za-z]+\*?|.)", re.DOTALL)
_ENVIRONMENT = re.compile(r"\\(begin|end)\s*\{([A-Za-z]+\*?)\}")
_CHARS = frozenset("{}()[]^_+-*/=<>|,.;:&!'")


def lex(tex: str, lang: str = "en", bare_comma: str = "") -> list[Token]:
    """Split ``tex`` into tokens, dropping blanks, comments and spacing commands.

    Numerals are read in ``lang`` (see :mod:`pizarra.math.exact.numerals`).
    """
    tokens: list[Token] = []
    i = 0
    while i < len(tex):
        ch = tex[i]
        if ch.isspace() or ch == "~":
            i += 1
        elif ch == "%":
            newline = tex.find("\n", i)
            i = len(tex) if newline < 0 else newline + 1
        elif ch.isdigit() and ch.isascii():
            text = numeral_at(tex, i, lang, bare_comma)
            reading = read(text, lang, bare_comma)
            tokens.append(Token(Kind.NUMBER, text, i, i + len(text), reading))
            i += len(text)
        elif ch == "\\":
            i = _lex_command(tex, i, tokens)
        else:
            tokens.append(_single(ch, i))
            i += 1
    return tokens


def _single(ch: str, i: int) -> Token:
    if ch in UNICODE:
        kind, text = UNICODE[ch]
        return Token(kind, text, i, i + 1)
    if ch.isascii() and ch.isalpha():
        return Token(Kind.LETTER, ch, i, i + 1)
    if ch in _CHARS:
        return Token(Kind.CHAR, ch, i, i + 1)
    return Token(Kind.OTHER, ch, i, i + 1)


def _lex_command(tex: str, i: int, tokens: list[Token]) -> int:
    """Lex the command at ``i``; return the offset after it."""
    environment = _ENVIRONMENT.match(tex, i)
    if environment is not None:
        kind = Kind.BEGIN if environment.group(1) == "begin" else Kind.END
        tokens.append(Token(kind, environment.group(2), i, environment.end()))
        return environment.end()
    match = _COMMAND.match(tex, i)
    if match is None:
        tokens.append(Token(Kind.OTHER, "\\", i, i + 1))
        return i + 1
    name, end = match.group(), match.end()
    if name in SPACING:
        return end
    if name in TEXT_COMMANDS:
        close = _closing_brace(tex, end)
        if close is not None:
            tokens.append(Token(Kind.TEXT, tex[i : close + 1], i, close + 1))
            return close + 1
    tokens.append(Token(Kind.COMMAND, name, i, end))
    return end


def _closing_brace(tex: str, i: int) -> int | None:
    """Offset of the ``}`` closing the group that opens at ``i`` (after blanks)."""
    while i < len(tex) and tex[i].isspace():
        i += 1
    if i >= len(tex) or tex[i] != "{":
        return None
    depth = 0
    j = i
    while j < len(tex):
        if tex[j] == "\\":
            j += 2
            continue
        if tex[j] == "{":
            depth += 1
        elif tex[j] == "}":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return None


def text_words(token: Token) -> str:
    """The words inside a TEXT token, without the command and its braces."""
    return token.text[token.text.index("{") + 1 : -1].strip()
