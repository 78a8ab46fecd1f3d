"""``{answer} set`` and ``{answer} list``: several numbers, in any order or in order.

A learner separates them with ``;``, a comma (in Spanish, one that is not a decimal
comma: ``7, -7``), or "y"/"o" ("and"/"or"); ``x = 7, x = -7`` names the unknown
declared in ``letters``, and ``±7`` is two items.
"""

from __future__ import annotations

from fractions import Fraction

from pizarra.check.answers.common import (
    CORRECT,
    Judgement,
    Key,
    blank,
    form_problem,
    read_tokens,
    unread,
)
from pizarra.check.answers.lexer import Token, Unread
from pizarra.check.answers.reader import Neg, Node, read_expression, split_items
from pizarra.check.answers.values import LETTER, NO_REAL, UNDEFINED, value

MAX_ITEMS = 32
"""Most items of one answer."""


def items(text: str, key: Key) -> list[Node]:
    """The items' trees; raises :class:`Unread`."""
    nodes: list[Node] = []
    parts = split_items(read_tokens(text, key))
    if len(parts) > MAX_ITEMS:
        raise Unread("too_long")
    for part in parts:
        part = _unnamed(part, key)
        if not part:
            raise Unread("unreadable")  # two separators in a row, or one at an end
        if part and part[0].kind == "pm":
            node = read_expression(part[1:])
            nodes.extend([node, Neg(node)])
        else:
            nodes.append(read_expression(part))
    return nodes


def _unnamed(part: list[Token], key: Key) -> list[Token]:
    """``x = 7`` -> ``7`` for the declared unknown."""
    if len(part) >= 2 and part[0].kind == "letter" and part[1].kind == "op" and part[1].text == "=":
        if part[0].text not in key.get("letters", {}):
            raise Unread("unknown_letter")
        return part[2:]
    return part


def values(nodes: list[Node]) -> list[Fraction] | Judgement:
    found: list[Fraction] = []
    for node in nodes:
        v = value(node)
        if v == LETTER:
            return Judgement("unread", "unknown_letter")
        if v in (UNDEFINED, NO_REAL):
            return Judgement("incorrect", "input_" + str(v).replace("-", "_"))
        if not isinstance(v, Fraction):
            return Judgement("unchecked", "cannot_check")
        found.append(v)
    return found


def _same(key: Key, a: list[Fraction], b: list[Fraction]) -> bool:
    return a == b if key["type"] == "list" else set(a) == set(b)


def judge(key: Key, text: str) -> Judgement:
    if blank(text):
        return Judgement("unread", "empty")
    try:
        nodes = items(text, key)
    except Unread as error:
        return unread(error)
    answer = values(nodes)
    if isinstance(answer, Judgement):
        return answer
    target = values(items(";".join(key["value"]), key))
    assert not isinstance(target, Judgement), "the key was checked at build time"
    if _same(key, answer, target):
        for node in nodes:
            problem = form_problem(node, None, list(key["form"]))
            if problem:
                return Judgement("incorrect", problem)
        return CORRECT
    for mistake in key["mistakes"]:
        try:
            wrong = values(items(";".join(mistake["answer"]), key))
        except Unread:
            continue
        if not isinstance(wrong, Judgement) and _same(key, answer, wrong):
            return Judgement("incorrect", "", mistake["feedback"])
    if key["type"] == "list" and sorted(answer) == sorted(target):
        return Judgement("incorrect", "wrong_order")
    if set(answer) < set(target):
        return Judgement("incorrect", "missing_items")
    if set(answer) > set(target):
        return Judgement("incorrect", "extra_items")
    return Judgement("incorrect")
