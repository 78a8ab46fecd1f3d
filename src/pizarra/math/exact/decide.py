"""Decide one claim whose sides are read: the arithmetic behind :mod:`pizarra.math.exact.judge`.

What needs no computer algebra is decided first: relations with letters that are
not worth proving (:mod:`pizarra.math.exact.declined`) and identities of products and
powers (:mod:`pizarra.math.exact.laurent`). sympy, a fifth of a second to import, is
loaded only for what is left.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from pizarra.math.exact import laurent
from pizarra.math.exact.ast import Node, has_plus_minus
from pizarra.math.exact.context import Context
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.declined import declined_identity, unproved
from pizarra.math.exact.side import Side
from pizarra.math.exact.statements import JUDGEMENTS, Link
from pizarra.math.exact.status import CHECKED, FIX_HINT, Decision, Status

if TYPE_CHECKING:
    from pizarra.math.exact.evaluate import Outcome

ZERO_TO_THE_ZERO_HINT = (
    'declare a convention in the front matter, e.g. conventions: {zero_to_the_zero: "1"}'
)


def decide(tex: str, claim: str, link: Link, left: Side, right: Side, context: Context) -> Decision:
    """Status, message and hint of one claim (``left`` and ``right`` as the judge read them)."""
    if isinstance(left.node, Unsupported):
        return Status.UNCHECKED, left.node.reason, ""
    if isinstance(right.node, Unsupported):
        return Status.UNCHECKED, right.node.reason, ""
    if link.relation == "?=":
        return Status.UNCHECKED, "an equation to solve, not a claim", ""
    if link.relation in JUDGEMENTS:
        return _judgement(tex, claim, link, left, right, context)
    free = left.free | right.free
    if free:
        declined = declined_identity(link.relation, left.node, right.node, free, context)
        if declined is not None:
            return declined
        difference = laurent.difference(left.node, right.node, context.domains)
        if difference is not None:
            if laurent.proves(link.relation, difference, context.domains):
                return CHECKED
            reason = unproved(left.node, right.node)
            if link.relation == "=" and reason is not None:
                return reason  # two different sums: no identity, as the general path finds
        from pizarra.math.exact.identity import judge_identity

        return judge_identity(claim, link.relation, left.node, right.node, free, context)
    return _closed(tex, claim, link.relation, left.node, right.node, context)


def _judgement(
    tex: str, claim: str, link: Link, left: Side, right: Side, context: Context
) -> Decision:
    """``a \\ll b``, ``a \\lessapprox b``: never checked (no threshold says how much less
    is "much less"); ``a \\ll b`` fails only when ``a < b`` itself is false."""
    reason = f"{link.relation} is a judgement of size, not a relation pizarra decides"
    strict = _STRICT.get(link.relation)
    if strict is None:
        return Status.UNCHECKED, reason, ""
    status, message, hint = decide(tex, claim, replace(link, relation=strict), left, right, context)
    if status is Status.FAILED:
        return status, f"{message} (so {link.relation} is false too)", hint
    return Status.UNCHECKED, reason, ""


_STRICT = {"\\ll": "<", "\\gg": ">"}


def _closed(
    tex: str, claim: str, relation: str, left: Node, right: Node, context: Context
) -> Decision:
    """A relation without letters; with ``\\pm``, it must hold for both signs."""
    from pizarra.math.exact.compare import compare, written_unit
    from pizarra.math.exact.evaluate import Undefined, ZeroToTheZero, evaluate

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
    from pizarra.math.exact.evaluate import Undefined, ZeroToTheZero

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
