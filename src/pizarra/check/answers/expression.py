"""``{answer} expression``: an expression in declared letters, equivalent on the domain.

Equivalence is decided by exact normal forms (:mod:`pizarra.check.answers.algebra`):
sums and quotients of terms with rational exponents, where the letters' domains
allow each step. Outside that class the verdict is "cannot check this form", never
"correct": no values are sampled.
"""

from __future__ import annotations

from pizarra.check.answers.algebra import Outside, equivalent, quotient
from pizarra.check.answers.common import (
    CORRECT,
    Judgement,
    Key,
    blank,
    form_problem,
    read_tokens,
    unread,
)
from pizarra.check.answers.lexer import Unread
from pizarra.check.answers.reader import Bin, Letter, Neg, Node, Pow, Root, read_expression
from pizarra.check.answers.values import UNDEFINED


def letters(node: Node) -> set[str]:
    if isinstance(node, Letter):
        return {node.name}
    if isinstance(node, Neg):
        return letters(node.operand)
    if isinstance(node, Bin):
        return letters(node.left) | letters(node.right)
    if isinstance(node, Pow):
        return letters(node.base) | letters(node.exponent)
    if isinstance(node, Root):
        return letters(node.radicand) | (letters(node.index) if node.index is not None else set())
    return set()


def read(text: str, key: Key) -> Node:
    node = read_expression(read_tokens(text, key))
    if not letters(node) <= set(key["letters"]):
        raise Unread("unknown_letter")
    return node


def judge(key: Key, text: str) -> Judgement:
    if blank(text):
        return Judgement("unread", "empty")
    try:
        node = read(text, key)
    except Unread as error:
        return unread(error)
    domains = key["letters"]
    target = quotient(read(key["value"][0], key), domains)
    try:
        answer = quotient(node, domains)
        same = equivalent(target, answer, domains)
    except Outside as outside:
        if outside.reason == UNDEFINED:
            return Judgement("incorrect", "input_undefined")
        return Judgement("unchecked", "cannot_check")
    if same is None:
        return Judgement("unchecked", "cannot_check")
    if same:
        problem = form_problem(node, None, list(key["form"]))
        return Judgement("incorrect", problem) if problem else CORRECT
    for mistake in key["mistakes"]:
        try:
            wrong = quotient(read(mistake["answer"][0], key), domains)
        except (Unread, Outside):
            continue
        if equivalent(wrong, answer, domains) is not False:
            return Judgement("incorrect", "", mistake["feedback"])
    return Judgement("incorrect")
