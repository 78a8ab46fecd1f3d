"""Judge every claim of one formula: checked (proved true), unchecked, or failed.

This is the pure core of the claims check: TeX and a :class:`Context` in, one
:class:`Verdict` per link out. Positions in a lesson file are added by
:mod:`pizarra.check.claims`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pizarra.exact.ast import Node, has_plus_minus, letters
from pizarra.exact.compare import compare, written_unit
from pizarra.exact.evaluate import Context, Outcome, Undefined, ZeroToTheZero, evaluate
from pizarra.exact.identity import judge_identity
from pizarra.exact.lexer import Token, lex
from pizarra.exact.numerals import Ambiguous
from pizarra.exact.parser import Unsupported, parse_side
from pizarra.exact.statements import Link, split_links
from pizarra.exact.status import CHECKED, FIX_HINT, Decision, Status

__all__ = ["Status", "Verdict", "judge_formula"]

MAX_TEX = 10_000
"""Longest formula (in characters) whose claims are judged."""

ZERO_TO_THE_ZERO_HINT = (
    'declare a convention in the front matter, e.g. conventions: {zero_to_the_zero: "1"}'
)


@dataclass(frozen=True)
class Verdict:
    """The judgement of one link of one formula."""

    claim: str
    """``left relation right`` as written (``512^2 = 262{,}145``)."""
    status: Status
    """Checked, unchecked or failed."""
    message: str
    """For a failure, the error; for an unchecked claim, why it was not checked."""
    hint: str
    """How to fix a failure; empty otherwise."""
    offset: int
    """Offset of the relation in the formula (its line is the error's line)."""


@dataclass(frozen=True)
class Side:
    """One side of a link, read: its tree (or why there is none) and its free letters."""

    node: Node | Unsupported
    """The expression tree."""
    free: frozenset[str]
    """Letters not bound by a sum or a function."""


def judge_formula(tex: str, context: Context) -> list[Verdict]:
    """One verdict per claim link in ``tex``, plus one failure per ambiguous numeral."""
    if len(tex) > MAX_TEX:
        return [Verdict(tex[:40] + "...", Status.UNCHECKED, "too large: formula too long", "", 0)]
    tokens = lex(tex, context.lang)
    verdicts = [
        Verdict(token.text, Status.FAILED, token.numeral.message, token.numeral.hint, token.start)
        for index, token in enumerate(tokens)
        if isinstance(token.numeral, Ambiguous) and not _in_subscript(tokens, index)
    ]
    functions = frozenset(context.functions)
    variables = frozenset(context.domains)
    cache: dict[tuple[int, int], Side] = {}

    def side(start: int, end: int, tokens: Sequence[Token]) -> Side:
        if (start, end) not in cache:
            node = parse_side(tokens, functions, variables)
            free = frozenset() if isinstance(node, Unsupported) else letters(node)
            cache[start, end] = Side(node, free)
        return cache[start, end]

    for link in split_links(tex, context.lang):
        left = side(link.left.start, link.left.end, link.left.tokens)
        right = side(link.right.start, link.right.end, link.right.tokens)
        claim = link.source(tex)
        status, message, hint = _decide(tex, claim, link, left, right, context)
        verdicts.append(Verdict(claim, status, message, hint, link.offset))
    return verdicts


def _in_subscript(tokens: list[Token], index: int) -> bool:
    """``a_{1,2}`` names an entry; its digits are not a number to read."""
    before = [t.text for t in tokens[max(0, index - 2) : index]]
    return before == ["_", "{"]


def _decide(
    tex: str, claim: str, link: Link, left: Side, right: Side, context: Context
) -> Decision:
    """Status, message and hint of one claim."""
    if isinstance(left.node, Unsupported):
        return Status.UNCHECKED, left.node.reason, ""
    if isinstance(right.node, Unsupported):
        return Status.UNCHECKED, right.node.reason, ""
    if link.relation == "?=":
        return Status.UNCHECKED, "an equation to solve, not a claim", ""
    free = left.free | right.free
    if free:
        return judge_identity(claim, link.relation, left.node, right.node, free, context)
    return _closed(tex, claim, link.relation, left.node, right.node, context)


def _closed(
    tex: str, claim: str, relation: str, left: Node, right: Node, context: Context
) -> Decision:
    """A relation without letters; with ``\\pm``, it must hold for both signs."""
    pairs = has_plus_minus(left) or has_plus_minus(right)
    unit = written_unit(right) or written_unit(left)
    for choice in (1, -1) if pairs else (1,):
        values = evaluate(left, context, choice=choice), evaluate(right, context, choice=choice)
        problem = _problem(tex, claim, relation, values)
        if problem is not None:
            return problem
        assert not isinstance(values[0], Undefined | ZeroToTheZero | Unsupported)
        assert not isinstance(values[1], Undefined | ZeroToTheZero | Unsupported)
        status, message, hint = compare(claim, relation, values[0], values[1], unit)
        if status is not Status.CHECKED:
            if pairs and status is Status.FAILED:
                message += f" (with the {'upper' if choice == 1 else 'lower'} sign of \\pm)"
            return status, message, hint
    return CHECKED


def _problem(
    tex: str, claim: str, relation: str, values: tuple[Outcome, Outcome]
) -> Decision | None:
    """The verdict when a side has no value, or None when both have one."""
    for value in values:
        if isinstance(value, Unsupported):
            return Status.UNCHECKED, value.reason, ""
    for value in values:
        if isinstance(value, ZeroToTheZero):
            power = tex[value.start : value.end]
            message = f"{power} has no value unless the lesson declares a convention: {claim}"
            return Status.FAILED, message, ZERO_TO_THE_ZERO_HINT
    undefined = [v for v in values if isinstance(v, Undefined)]
    if undefined:
        if len(undefined) == 2 or relation == "\\ne":
            return Status.UNCHECKED, "a side has no real value", ""
        where = tex[undefined[0].start : undefined[0].end]
        message = f"{where} is not defined in the real numbers: {claim}"
        return Status.FAILED, message, f"{undefined[0].reason}; {FIX_HINT}"
    return None

