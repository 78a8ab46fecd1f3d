"""``{answer} number``: an exact rational, a decimal to a stated precision, or a word.

Exact: the learner's value must equal the key's (``1/16``, ``0,0625``, ``2^-4`` are
one value; a ``form`` may then refuse ``2^-4``). ``approx: true``: the key's value is
a decimal the author rounded, and an answer within half a unit of its last digit is
right, as ``\\approx`` is judged in claims, provided it gives at least as many
decimals. ``undefined`` and ``no-real`` are answered with the learner's words.
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
    special,
    unread,
)
from pizarra.check.answers.lexer import Unread
from pizarra.check.answers.reader import Neg, Node, Num, read_expression
from pizarra.check.answers.values import LETTER, NO_REAL, UNDEFINED, Value, value

SPECIALS = ("undefined", "no-real")


def read(text: str, key: Key) -> tuple[Node | None, Value]:
    """The tree and value of one number as typed (a tree of None for a special word)."""
    said = special(text, key)
    if said is not None:
        return None, said
    node = read_expression(read_tokens(text, key))
    return node, value(node)


def expected(key: Key) -> tuple[Node | None, Value]:
    """The key's value, read as a learner's input is."""
    return read(key["value"][0], key)


def decimals(node: Node | None) -> int:
    """Digits after the decimal mark of a plain decimal (-1 for anything else)."""
    if isinstance(node, Neg):
        node = node.operand
    return node.decimals if isinstance(node, Num) else -1


def same(key: Key, answer: Value, target: Value, target_node: Node | None) -> bool:
    """Whether ``answer`` is ``target``: exactly, or within half its last digit if approximate."""
    if isinstance(answer, Fraction) and isinstance(target, Fraction) and key.get("approx"):
        places = max(decimals(target_node), 0)
        return bool(abs(answer - target) * 2 * 10**places <= 1)
    return bool(answer == target)


def judge(key: Key, text: str) -> Judgement:
    if blank(text):
        return Judgement("unread", "empty")
    try:
        node, answer = read(text, key)
    except Unread as error:
        return unread(error)
    if answer == LETTER:
        return Judgement("unread", "unknown_letter")
    if answer == "uncheckable":
        return Judgement("unchecked", "cannot_check")
    target_node, target = expected(key)
    if node is not None and answer in (UNDEFINED, NO_REAL):
        return Judgement("incorrect", "input_" + str(answer).replace("-", "_"))
    if same(key, answer, target, target_node):
        if node is None:
            return CORRECT
        if key.get("approx") and 0 <= decimals(node) < decimals(target_node):
            return Judgement("incorrect", "more_digits")
        problem = form_problem(
            node, answer if isinstance(answer, Fraction) else None, list(key["form"])
        )
        return Judgement("incorrect", problem) if problem else CORRECT
    places = decimals(node)
    if key.get("approx") and isinstance(answer, Fraction) and 0 <= places < decimals(target_node):
        assert isinstance(target, Fraction)
        if abs(answer - target) * 2 * 10**places <= 1:
            return Judgement("incorrect", "more_digits")  # right, to fewer digits than asked
    return mistaken(key, answer)


def mistaken(key: Key, answer: Value) -> Judgement:
    """Not correct: the feedback of the first anticipated mistake it is, if any."""
    for mistake in key["mistakes"]:
        try:
            mistake_node, mistake_value = read(mistake["answer"][0], key)
        except Unread:
            continue
        if same(key, answer, mistake_value, mistake_node):
            return Judgement("incorrect", "", mistake["feedback"])
    return Judgement("incorrect")
