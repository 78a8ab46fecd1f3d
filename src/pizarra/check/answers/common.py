"""What every answer type shares: the judgement, the learner's words, reading, forms.

A *key* is the JSON object the page receives for one field (built by
:mod:`pizarra.check.answers.keys`); the Python judges and ``answers.js`` read the
same key, so their verdicts can be compared one for one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pizarra.check.answers.lexer import Token, Unread, prepare, tokens
from pizarra.check.answers.reader import Bin, Neg, Node, Num, Pow, Root
from pizarra.check.answers.values import value

Key = Mapping[str, Any]
"""One field's answer key, as JSON gives it."""


@dataclass(frozen=True)
class Judgement:
    """The checker's answer to one input."""

    verdict: str
    """``correct``, ``incorrect``, ``unchecked`` or ``unread``."""
    code: str = ""
    """Why, as a key of the page's strings ("" for a plain right or wrong)."""
    feedback: str = ""
    """The author's words for an anticipated mistake ("" when none applies)."""

    def as_json(self) -> dict[str, str]:
        return {"verdict": self.verdict, "code": self.code, "feedback": self.feedback}


CORRECT = Judgement("correct")


def words(text: str) -> str:
    """``text`` as words are compared: lower case, no accents, single blanks, no final stop."""
    plain = unicodedata.normalize("NFD", text.lower())
    plain = "".join(
        " " if c <= " " or c in _BLANKS else c for c in plain if not "\u0300" <= c <= "\u036f"
    )
    return " ".join(part for part in plain.split(" ") if part)


_BLANKS = ".\u00a0\u2009\u202f\u2007"


def blank(text: str) -> bool:
    """Nothing typed but blanks."""
    return prepare(text) == ""


def special(text: str, key: Key) -> str | None:
    """``undefined`` or ``no-real`` when ``text`` is one of the learner's words for it."""
    said = words(text)
    for name in ("undefined", "no-real"):
        if said in key["words"][name]:
            return name
    return None


def read_tokens(text: str, key: Key) -> list[Token]:
    """The tokens of ``text`` with the field's letters and joining words."""
    return tokens(
        text, key["lang"], frozenset(key.get("letters", {})), frozenset(key["words"]["joins"])
    )


def is_plain_number(node: Node) -> bool:
    """An integer, a decimal, or a quotient of two integers, maybe negated: "evaluated"."""
    if isinstance(node, Neg):
        node = node.operand
    if isinstance(node, Num):
        return True
    return isinstance(node, Bin) and node.op == "/" and _integer(node.left) and _integer(node.right)


def _integer(node: Node) -> bool:
    if isinstance(node, Neg):
        node = node.operand
    return isinstance(node, Num) and node.decimals < 0


def has_decimal(node: Node) -> bool:
    if isinstance(node, Num):
        return node.decimals >= 0
    if isinstance(node, Neg):
        return has_decimal(node.operand)
    if isinstance(node, Bin):
        return has_decimal(node.left) or has_decimal(node.right)
    if isinstance(node, Pow):
        return has_decimal(node.base) or has_decimal(node.exponent)
    if isinstance(node, Root):
        return has_decimal(node.radicand) or (node.index is not None and has_decimal(node.index))
    return False


def negative_exponent(node: Node) -> bool:
    """Whether a power with a negative exponent is written anywhere (``x^{-2}``, ``2^-4``)."""
    if isinstance(node, Pow):
        e = value(node.exponent)
        if isinstance(e, Fraction) and e < 0:
            return True
        return negative_exponent(node.base) or negative_exponent(node.exponent)
    if isinstance(node, Neg):
        return negative_exponent(node.operand)
    if isinstance(node, Bin):
        return negative_exponent(node.left) or negative_exponent(node.right)
    if isinstance(node, Root):
        return negative_exponent(node.radicand)
    return False


def form_problem(node: Node, number: Fraction | None, forms: list[str]) -> str:
    """The first form requirement ``node`` misses, as a code ("" when it meets them all)."""
    for form in forms:
        if form == "no-negative-exponents" and negative_exponent(node):
            return "form_negative_exponents"
        if form in ("evaluated", "simplified", "fraction", "decimal") and not is_plain_number(node):
            return "form_evaluated"
        if form in ("simplified", "fraction") and isinstance(_unsigned(node), Bin):
            quotient = _unsigned(node)
            assert isinstance(quotient, Bin)
            top, bottom = value(quotient.left), value(quotient.right)
            assert isinstance(top, Fraction) and isinstance(bottom, Fraction)
            if bottom == 1 or bottom < 0 or Fraction(top, bottom).denominator != abs(bottom):
                return "form_simplified"
        if form == "fraction" and has_decimal(node):
            return "form_fraction"
        if form == "decimal" and not (isinstance(_unsigned(node), Num)):
            return "form_decimal"
    return ""


def _unsigned(node: Node) -> Node:
    return node.operand if isinstance(node, Neg) else node


def unread(error: Unread) -> Judgement:
    return Judgement("unread", error.code)
