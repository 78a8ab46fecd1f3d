"""``{answer} interval``: ``[-2, 3)``, ``(0, ∞)``, ``]0; 1[``, or ``x > 0``, ``-2 <= x < 3``.

Endpoints are exact numbers or ``∞`` (``inf``, ``\\infty``); in Spanish a comma
between digits is a decimal comma, so ``[0,5; 2]`` separates with a semicolon.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pizarra.check.answers.common import CORRECT, Judgement, Key, blank, read_tokens, unread
from pizarra.check.answers.lexer import Token, Unread
from pizarra.check.answers.reader import read_expression
from pizarra.check.answers.values import LETTER, NO_REAL, UNDEFINED, value

_OPEN = {"(": False, "[": True, "]": False}
_CLOSE = {")": False, "]": True, "[": False}
_RELATIONS = ("<", "<=", ">", ">=")


@dataclass(frozen=True)
class Interval:
    low: Fraction | None
    """None: minus infinity."""
    low_closed: bool
    high: Fraction | None
    """None: plus infinity."""
    high_closed: bool


class _Verdict(Exception):
    def __init__(self, judgement: Judgement):
        super().__init__(judgement.code)
        self.judgement = judgement


def _endpoint(part: list[Token], sign_of_infinity: int) -> Fraction | None:
    signs = [t.text for t in part[:-1]]
    if part and part[-1].kind == "inf" and all(s in ("+", "-") for s in signs) and len(signs) <= 1:
        negative = signs == ["-"]
        if (-1 if negative else 1) != sign_of_infinity:
            raise _Verdict(Judgement("incorrect", "empty_interval"))
        return None
    v = value(read_expression(part))
    if v == LETTER:
        raise Unread("unknown_letter")
    if v in (UNDEFINED, NO_REAL):
        raise _Verdict(Judgement("incorrect", "input_" + str(v).replace("-", "_")))
    if not isinstance(v, Fraction):
        raise _Verdict(Judgement("unchecked", "cannot_check"))
    return v


def _brackets(found: list[Token]) -> Interval:
    first, last = found[0], found[-1]
    if (
        first.kind != "op"
        or first.text not in _OPEN
        or last.kind != "op"
        or last.text not in _CLOSE
    ):
        raise Unread("unreadable")
    inner = found[1:-1]
    depth, cut = 0, -1
    for i, token in enumerate(inner):
        if token.kind == "op" and token.text in ("(", "{"):
            depth += 1
        elif token.kind == "op" and token.text in (")", "}"):
            depth -= 1
        elif depth == 0 and token.kind == "op" and token.text in (",", ";"):
            if cut >= 0:
                raise Unread("unreadable")
            cut = i
    if cut < 0:
        raise Unread("two_endpoints")
    low, high = _endpoint(inner[:cut], -1), _endpoint(inner[cut + 1 :], 1)
    low_closed, high_closed = _OPEN[first.text], _CLOSE[last.text]
    if (low is None and low_closed) or (high is None and high_closed):
        raise _Verdict(Judgement("incorrect", "closed_infinity"))
    return Interval(low, low_closed, high, high_closed)


def _inequality(found: list[Token], key: Key) -> Interval:
    pieces: list[list[Token]] = [[]]
    relations: list[str] = []
    for token in found:
        if token.kind == "op" and token.text in _RELATIONS:
            relations.append(token.text)
            pieces.append([])
        else:
            pieces[-1].append(token)
    letters = key.get("letters", {})

    def is_letter(piece: list[Token]) -> bool:
        return len(piece) == 1 and piece[0].kind == "letter" and piece[0].text in letters

    if len(pieces) == 3 and is_letter(pieces[1]) and relations[0][0] == relations[1][0]:
        low, high = pieces[0], pieces[2]
        if relations[0][0] == ">":
            low, high = high, low
            relations = [{">": "<", ">=": "<="}[r] for r in reversed(relations)]
        a, b = _endpoint(low, -1), _endpoint(high, 1)
        return Interval(a, relations[0] == "<=", b, relations[1] == "<=")
    if len(pieces) == 2 and (is_letter(pieces[0]) or is_letter(pieces[1])):
        relation = relations[0]
        if is_letter(pieces[1]):
            relation = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[relation]
            bound = pieces[0]
        else:
            bound = pieces[1]
        if relation[0] == ">":
            return Interval(_endpoint(bound, -1), relation == ">=", None, False)
        return Interval(None, False, _endpoint(bound, 1), relation == "<=")
    raise Unread("unreadable")


def read(text: str, key: Key) -> Interval:
    """The interval typed; raises :class:`Unread` or a verdict of its own."""
    found = read_tokens(text, key)
    if not found:
        raise Unread("empty")
    if any(t.kind == "op" and t.text in _RELATIONS for t in found):
        return _inequality(found, key)
    return _brackets(found)


def judge(key: Key, text: str) -> Judgement:
    if blank(text):
        return Judgement("unread", "empty")
    try:
        answer = read(text, key)
    except Unread as error:
        return unread(error)
    except _Verdict as verdict:
        return verdict.judgement
    target = read(key["value"][0], key)
    if answer == target:
        return CORRECT
    for mistake in key["mistakes"]:
        try:
            if read(mistake["answer"][0], key) == answer:
                return Judgement("incorrect", "", mistake["feedback"])
        except (Unread, _Verdict):
            continue
    if (answer.low, answer.high) == (target.low, target.high):
        return Judgement("incorrect", "endpoints_closed")
    return Judgement("incorrect")
