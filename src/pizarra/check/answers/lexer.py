"""What a learner types, as tokens: phones' ``−`` and ``·``, TeX, ``²``, both decimal marks.

The same rules run in the page (``render/answers/answers.js``, ``tokens``); the
parity test holds them equal. Nothing here guesses: ``16.384`` in Spanish (a
thousands point or a decimal one?) and ``1,000`` in English are *unread*, with the
reason, never a number.

Spanish: the decimal comma (``0,0625``); a point is read as a decimal point too
(``0.0625``) unless exactly three digits follow it after a nonzero whole part.
English: the decimal point; a comma between digits with three digits after it is
unread (a thousands comma?); any other comma separates items.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

MAX_INPUT = 200
"""Longest input read, in characters."""
MAX_DIGITS = 60
"""Most digits of one number."""

_CHARS = {
    "\u2212": "-", "\u2013": "-", "\u2010": "-", "\u2011": "-",
    "\u00b7": "*", "\u22c5": "*", "\u00d7": "*", "\u2219": "*", "\u2022": "*",
    "\u00f7": "/", "\u2215": "/", "\u2044": "/", ":": "/",
    "\u221e": " inf ", "\u00b1": " pm ", "\u221a": " sqrt ",
    "\u2264": "<=", "\u2265": ">=",
    "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2007": " ", "\t": " ", "\n": " ",
}  # fmt: skip
_SUPERSCRIPTS = {
    "\u2070": "0", "\u00b9": "1", "\u00b2": "2", "\u00b3": "3", "\u2074": "4",
    "\u2075": "5", "\u2076": "6", "\u2077": "7", "\u2078": "8", "\u2079": "9",
    "\u207b": "-", "\u207a": "+",
}  # fmt: skip
_COMMANDS = {
    "frac": "frac", "dfrac": "frac", "tfrac": "frac", "sqrt": "sqrt",
    "cdot": "*", "times": "*", "div": "/", "infty": "inf", "pm": "pm",
    "le": "<=", "leq": "<=", "ge": ">=", "geq": ">=", "lt": "<", "gt": ">",
}  # fmt: skip
_SPACES = (",", ";", "!", " ", ":")
_WORDS = {"sqrt": "sqrt", "inf": "inf", "infinity": "inf", "infinito": "inf", "pm": "pm"}
_OPS = ("<=", ">=", "+", "-", "*", "/", "^", "(", ")", "{", "}", "[", "]", ";", ",", "=", "<", ">")


class Unread(Exception):
    """The input cannot be read; ``code`` names the reason (a key of the page's strings)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is ``num``, ``letter``, ``op``, ``frac``, ``sqrt``, ``inf``,
    ``pm`` or ``join`` (a word such as "y" or "or" between items)."""

    kind: str
    text: str
    value: Fraction = Fraction(0)
    """A number's exact value."""
    decimals: int = -1
    """How many digits a number has after its decimal mark (-1: written without one)."""


def prepare(text: str) -> str:
    """The input with phones' and TeX's characters made plain (before tokens are read)."""
    text = text.replace("**", "^")
    out = []
    for char in text:
        if char in _SUPERSCRIPTS:
            out.append(char)
        else:
            out.append(_CHARS.get(char, char))
    return "".join(out).strip(" ")


def tokens(text: str, lang: str, letters: frozenset[str], joins: frozenset[str]) -> list[Token]:
    """The tokens of ``text``; raises :class:`Unread`."""
    if len(text) > MAX_INPUT:
        raise Unread("too_long")
    s = prepare(text)
    if s.endswith(".") and not s.endswith(".."):
        s = s[:-1].rstrip(" ")  # a sentence's full stop: "81."
    spanish = lang.split("-")[0].lower() == "es"
    found: list[Token] = []
    i = 0
    while i < len(s):
        char = s[i]
        if char == " ":
            i += 1
        elif "0" <= char <= "9":
            i = _number(s, i, spanish, found)
        elif char in _SUPERSCRIPTS:
            i = _superscript(s, i, found)
        elif char == "\\":
            i = _command(s, i, found)
        elif _letter(char):
            i = _word(s, i, letters, joins, found)
        else:
            op = next((o for o in _OPS if s.startswith(o, i)), None)
            if op is None:
                raise Unread("unreadable")
            found.append(Token("op", op))
            i += len(op)
    return found


def _letter(char: str) -> bool:
    return "a" <= char <= "z" or "A" <= char <= "Z"


def _digits(s: str, i: int) -> int:
    while i < len(s) and "0" <= s[i] <= "9":
        i += 1
    return i


def _number(s: str, start: int, spanish: bool, found: list[Token]) -> int:
    end = _digits(s, start)
    whole = s[start:end]
    fraction = ""
    mark = s[end] if end < len(s) else ""
    follows = end + 1 < len(s) and "0" <= s[end + 1] <= "9"
    if mark in (",", ".") and follows:
        after = _digits(s, end + 1)
        digits = s[end + 1 : after]
        if spanish and mark == "." and len(digits) == 3 and whole.lstrip("0") != "":
            raise Unread("ambiguous_point")
        if not spanish and mark == ",":
            if len(digits) == 3:
                raise Unread("ambiguous_comma")
            mark = ""  # a comma between items
        if mark:
            fraction = digits
            end = after
            again = end + 1 < len(s) and s[end] in ",." and "0" <= s[end + 1] <= "9"
            if again and (spanish or s[end] == "."):
                raise Unread("unreadable")
    if len(whole) + len(fraction) > MAX_DIGITS:
        raise Unread("too_long")
    scale = 10 ** len(fraction)
    value = Fraction(int(whole) * scale + (int(fraction) if fraction else 0), scale)
    found.append(Token("num", s[start:end], value, len(fraction) if fraction else -1))
    return end


def _superscript(s: str, i: int, found: list[Token]) -> int:
    run = ""
    while i < len(s) and s[i] in _SUPERSCRIPTS:
        run += _SUPERSCRIPTS[s[i]]
        i += 1
    sign = run[0] if run[0] in "+-" else ""
    digits = run[len(sign) :]
    if not digits.isdigit() or len(digits) > MAX_DIGITS:
        raise Unread("unreadable")
    found.append(Token("op", "^"))
    found.append(Token("op", "("))
    if sign:
        found.append(Token("op", sign))
    found.append(Token("num", digits, Fraction(int(digits))))
    found.append(Token("op", ")"))
    return i


def _command(s: str, i: int, found: list[Token]) -> int:
    j = i + 1
    while j < len(s) and _letter(s[j]):
        j += 1
    name = s[i + 1 : j]
    if not name:
        if j < len(s) and s[j] in _SPACES:
            return j + 1  # \, \; \! \  \:
        raise Unread("unknown_command")
    if name in ("left", "right"):
        return j + 1 if j < len(s) and s[j] == "." else j
    kind = _COMMANDS.get(name)
    if kind is None:
        raise Unread("unknown_command")
    found.append(Token(kind, kind) if kind in ("frac", "sqrt", "inf", "pm") else Token("op", kind))
    return j


def _word(
    s: str, i: int, letters: frozenset[str], joins: frozenset[str], found: list[Token]
) -> int:
    j = i
    while j < len(s) and _letter(s[j]):
        j += 1
    word = s[i:j]
    lower = word.lower()
    if len(word) == 1 or all(c in letters for c in word):
        found.extend(Token("letter", c) for c in word)
    elif lower in _WORDS:
        found.append(Token(_WORDS[lower], _WORDS[lower]))
    elif lower in joins:
        found.append(Token("join", lower))
    else:
        raise Unread("unknown_word")
    if len(word) == 1 and lower in joins and word not in letters:
        found[-1] = Token("join", lower)
    return j
