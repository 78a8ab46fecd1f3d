"""Judge every claim of one formula: checked (proved true), unchecked, or failed.

This is the pure core of the claims check: TeX and a :class:`Context` in, one
:class:`Verdict` per link out. Positions in a lesson file are added by
:mod:`pizarra.check.claims`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import sympy

from pizarra.exact.ast import has_letters
from pizarra.exact.evaluate import Context, Outcome, Undefined, ZeroToTheZero, evaluate
from pizarra.exact.identity import proves
from pizarra.exact.parser import Unsupported, parse_side
from pizarra.exact.real import OutOfBounds, describe, holds
from pizarra.exact.statements import Link, Side, split_links

MAX_TEX = 10_000
"""Longest formula (in characters) whose claims are judged."""

FIX_HINT = "fix the number, or write the relation as text if it is not a claim"
ZERO_TO_THE_ZERO_HINT = (
    'declare a convention in the front matter, e.g. conventions: {zero_to_the_zero: "1"}'
)


class Status(Enum):
    """How a claim fared."""

    CHECKED = "checked"
    UNCHECKED = "unchecked"
    FAILED = "failed"


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


def judge_formula(tex: str, context: Context) -> list[Verdict]:
    """One verdict per claim link in ``tex``."""
    if len(tex) > MAX_TEX:
        return [Verdict(tex[:40] + "...", Status.UNCHECKED, "formula too long", "", 0)]
    cache: dict[tuple[int, int], tuple[bool, Outcome]] = {}

    def side(s: Side) -> tuple[bool, Outcome]:
        key = (s.start, s.end)
        if key not in cache:
            node = parse_side(s.tokens)
            if isinstance(node, Unsupported):
                cache[key] = (False, node)
            else:
                cache[key] = (has_letters(node), evaluate(node, context))
        return cache[key]

    return [_judge(tex, link, side(link.left), side(link.right)) for link in split_links(tex)]


def _judge(
    tex: str, link: Link, left: tuple[bool, Outcome], right: tuple[bool, Outcome]
) -> Verdict:
    claim = link.source(tex)
    status, message, hint = _decide(tex, claim, link.relation, left, right)
    return Verdict(claim, status, message, hint, link.offset)


def _decide(
    tex: str, claim: str, relation: str, left: tuple[bool, Outcome], right: tuple[bool, Outcome]
) -> tuple[Status, str, str]:
    """Status, message and hint of one claim whose sides are already evaluated."""
    (left_letters, left_value), (right_letters, right_value) = left, right
    letters = left_letters or right_letters
    for value in (left_value, right_value):
        if isinstance(value, Unsupported):
            return Status.UNCHECKED, value.reason, ""
    for value in (left_value, right_value):
        if isinstance(value, ZeroToTheZero):
            power = tex[value.start : value.end]
            message = f"{power} has no value unless the lesson declares a convention: {claim}"
            return Status.FAILED, message, ZERO_TO_THE_ZERO_HINT
    undefined = [v for v in (left_value, right_value) if isinstance(v, Undefined)]
    if undefined:
        if len(undefined) == 2 or letters or relation == "\\ne":
            return Status.UNCHECKED, "a side has no real value", ""
        where = tex[undefined[0].start : undefined[0].end]
        message = f"{where} is not defined in the real numbers: {claim}"
        return Status.FAILED, message, f"{undefined[0].reason}; {FIX_HINT}"
    assert not isinstance(left_value, Undefined | ZeroToTheZero | Unsupported)
    assert not isinstance(right_value, Undefined | ZeroToTheZero | Unsupported)
    if letters:
        if relation != "\\approx" and proves(relation, left_value, right_value):
            return Status.CHECKED, "", ""
        return Status.UNCHECKED, "not proved for every value of its letters", ""
    return _compare(claim, relation, left_value, right_value)


def _compare(
    claim: str, relation: str, left: sympy.Expr, right: sympy.Expr
) -> tuple[Status, str, str]:
    try:
        true = holds(relation, left, right)
    except OutOfBounds as error:
        return Status.UNCHECKED, str(error), ""
    if true:
        return Status.CHECKED, "", ""
    values = f"left side is {describe(left)}, right side is {describe(right)}"
    if relation == "\\approx":
        values += "; \\approx allows a 0.5% difference"
    return Status.FAILED, f"claim is false: {claim} ({values})", FIX_HINT
