"""Judge every claim of one formula: checked (proved true), assumed (true only because
it restates a declaration), unchecked, or failed.

This is the pure core of the claims check: TeX and a :class:`Context` in, one
:class:`Verdict` per link out. Positions in a lesson file are added by
:mod:`pizarra.check.claims`. The arithmetic (:mod:`pizarra.math.exact.decide`, which
needs sympy) is imported on first use, so reading verdicts from the cache, or
importing :class:`Status`, stays cheap.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pizarra.math.exact.assumed import restated_declaration
from pizarra.math.exact.ast import letters
from pizarra.math.exact.context import Context
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.layout import in_labels
from pizarra.math.exact.lexer import Token, lex
from pizarra.math.exact.numerals import Ambiguous
from pizarra.math.exact.parser import parse_side
from pizarra.math.exact.quantities import decide_quantities, has_units, read_units
from pizarra.math.exact.rational import (
    RELATIONS,
    describe_fraction,
    holds,
    rational_value,
    written_unit,
)
from pizarra.math.exact.side import Side
from pizarra.math.exact.statements import Link, links_of, may_have_links
from pizarra.math.exact.status import FIX_HINT, Status
from pizarra.math.exact.units import common_unit, scales_whole_side
from pizarra.math.exact.vocabulary import STANDARD_FUNCTIONS

__all__ = ["Status", "Verdict", "judge_formula"]

SPANISH_GROUPING_HINT = (
    "in Spanish {,} is the decimal comma (0{,}25); group thousands with a thin space: 262\\,144"
)
MAX_TEX = 10_000
"""Longest formula (in characters) whose claims are judged."""


@dataclass(frozen=True)
class Verdict:
    """The judgement of one link of one formula."""

    claim: str
    """``left relation right`` as written (``512^2 = 262{,}145``)."""
    status: Status
    """Checked, assumed, unchecked or failed."""
    message: str
    """For a failure, the error; for an unchecked claim, why it was not checked."""
    hint: str
    """How to fix a failure; empty otherwise."""
    offset: int
    """Offset of the relation in the formula (its line is the error's line)."""


def states_nothing(tex: str) -> bool:
    """True when :func:`judge_formula` says at once that ``tex`` holds no claim (it spells
    no relation): most formulas of a lesson, not worth a place in a cache."""
    return len(tex) <= MAX_TEX and not may_have_links(tex)


def judge_formula(tex: str, context: Context) -> list[Verdict]:
    """One verdict per claim link in ``tex``, plus one failure per ambiguous numeral."""
    if len(tex) > MAX_TEX:
        return [Verdict(tex[:40] + "...", Status.UNCHECKED, "too large: formula too long", "", 0)]
    if states_nothing(tex):
        return []  # ambiguous numerals are reported only inside claims
    tokens = lex(tex, context.lang, context.bare_comma)
    labels = in_labels(tokens)
    links = links_of(tokens)
    spans = [(s.start, s.end) for link in links for s in (link.left, link.right)]
    verdicts = [
        Verdict(token.text, Status.FAILED, token.numeral.message, token.numeral.hint, token.start)
        for index, token in enumerate(tokens)
        if isinstance(token.numeral, Ambiguous)
        and not _in_subscript(tokens, index)
        and index not in labels
        and any(start <= token.start < end for start, end in spans)
    ]
    functions = frozenset(context.functions) | (STANDARD_FUNCTIONS - set(context.domains))
    variables = frozenset(context.domains)
    cache: dict[tuple[int, int, bool], Side] = {}

    def side(start: int, end: int, tokens: Sequence[Token], unit: bool) -> Side:
        if (start, end, unit) not in cache:
            read, differing = (list(tokens), None) if unit else read_units(tokens)
            node = Unsupported(differing) if differing else parse_side(read, functions, variables)
            if unit and not isinstance(node, Unsupported) and not scales_whole_side(node):
                node = Unsupported("a unit after a sum: write it after parentheses")
            free = frozenset() if isinstance(node, Unsupported) else letters(node)
            cache[start, end, unit] = Side(node, free)
        return cache[start, end, unit]

    for link in links:
        shared = common_unit(link.left.tokens, link.right.tokens)
        left_tokens, right_tokens = shared or (link.left.tokens, link.right.tokens)
        left = side(link.left.start, link.left.end, left_tokens, shared is not None)
        right = side(link.right.start, link.right.end, right_tokens, shared is not None)
        claim = link.source(tex)
        if any(not isinstance(s.node, Unsupported) and has_units(s.node) for s in (left, right)):
            status, message, hint = decide_quantities(
                claim, link.relation, left.node, right.node, context
            )
            verdicts.append(Verdict(claim, status, message, hint, link.offset))
            continue
        decided = _between_fractions(claim, link.relation, left, right)
        status, message, hint = decided or _decide(tex, claim, link, left, right, context)
        if status is Status.CHECKED:
            restated = restated_declaration(link.relation, left, right, context)
            if restated is not None:
                status, message = Status.ASSUMED, f"restates the declaration {restated}"
        if status is Status.FAILED and _spanish_grouping(claim, context.lang):
            hint = SPANISH_GROUPING_HINT
        verdicts.append(Verdict(claim, status, message, hint, link.offset))
    return verdicts


def _between_fractions(
    claim: str, relation: str, left: Side, right: Side
) -> tuple[Status, str, str] | None:
    """The verdict of a claim between plain fractions, decided without sympy; else None."""
    if relation not in RELATIONS or isinstance(left.node, Unsupported):
        return None
    if isinstance(right.node, Unsupported) or left.free or right.free:
        return None
    values = rational_value(left.node), rational_value(right.node)
    if values[0] is None or values[1] is None:
        return None
    unit = written_unit(right.node) or written_unit(left.node)
    true = holds(relation, values[0], values[1], unit)
    if true is None:
        return None
    if true:
        return Status.CHECKED, "", ""
    left_value, right_value = describe_fraction(values[0]), describe_fraction(values[1])
    shown = f"left side is {left_value}, right side is {right_value}"
    if relation == "\\approx":
        shown += f"; \\approx allows a difference of half of {unit} (the last written digit)"
    return Status.FAILED, f"claim is false: {claim} ({shown})", FIX_HINT


def _decide(
    tex: str, claim: str, link: Link, left: Side, right: Side, context: Context
) -> tuple[Status, str, str]:
    """The general path: exact real arithmetic, intervals, identities (imports sympy)."""
    from pizarra.math.exact.decide import decide

    try:
        return decide(tex, claim, link, left, right, context)
    except (ArithmeticError, ValueError, TypeError, RecursionError, NotImplementedError):
        return Status.UNCHECKED, "too complex to decide", ""
    except Exception as error:
        if _out_of_bounds(error):
            return Status.UNCHECKED, "too complex to decide", ""
        raise


def _out_of_bounds(error: Exception) -> bool:
    """A bound of exact arithmetic reached; ``real`` (which imports sympy) is imported
    only here, where it has already been imported by what raised."""
    from pizarra.math.exact.real import OutOfBounds

    return isinstance(error, OutOfBounds)


def _spanish_grouping(claim: str, lang: str) -> bool:
    """``262{,}144`` in a Spanish lesson is 262.144: probably meant as thousands."""
    return lang.split("-")[0] == "es" and re.search(r"\{,\}\d{3}(?!\d)", claim) is not None


def _in_subscript(tokens: list[Token], index: int) -> bool:
    """``a_{1,2}`` names an entry; its digits are not a number to read."""
    before = [t.text for t in tokens[max(0, index - 2) : index]]
    return before == ["_", "{"]
