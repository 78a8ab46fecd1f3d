"""``{exercise}`` and the ``{solution}`` nested in it: numbered questions with disclosures."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.model import Block, Exercise, Solution
from pizarra.syntax.context import Directive, LowerContext
from pizarra.syntax.options import split_options


def lower_exercise(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    if ctx.inside_exercise:
        ctx.error(directive.pos, "an exercise cannot contain another exercise")
        return None
    body, errors = split_options(directive.body, directive.body_pos, {})
    ctx.diagnostics.extend(errors)
    ctx.exercise_count += 1
    number = ctx.exercise_count
    ctx.inside_exercise = True
    try:
        start = directive.body_pos.line - 1 + body.content_offset
        blocks = ctx.parse_nested(body.content, start, ctx)
    finally:
        ctx.inside_exercise = False
    solutions = [b for b in blocks if isinstance(b, Solution)]
    for extra in solutions[1:]:
        ctx.error(extra.pos, "an exercise has at most one solution")
    question = tuple(b for b in blocks if not isinstance(b, Solution))
    if not question:
        ctx.error(directive.pos, "this exercise has no question", hint="write the question first")
    return Exercise(number, question, solutions[0] if solutions else None, directive.pos)


def lower_solution(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    if not ctx.inside_exercise:
        ctx.error(
            directive.pos,
            "a solution must be inside an exercise",
            hint="nest it: ::::{exercise} ... :::{solution} ... ::: ... ::::",
        )
        return None
    body, errors = split_options(directive.body, directive.body_pos, {})
    ctx.diagnostics.extend(errors)
    start = directive.body_pos.line - 1 + body.content_offset
    return Solution(ctx.parse_nested(body.content, start, ctx), directive.pos)
