"""``{exercise}`` and ``{solution}``: numbered questions with their solutions as disclosures.

A solution either sits inside its exercise or follows it, naming the exercise's
``:label:`` (``{solution} ex-sum``), as sphinx-exercise writes them. Both also come
in gated form, ``{exercise-start}`` ... ``{exercise-end}``, whose body may hold
code cells and other directives (see :func:`pizarra.source.lower._gated`).
"""

from __future__ import annotations

from collections.abc import Callable

from pizarra.base.i18n.strings import t
from pizarra.source.blocks import Block, Exercise, Solution
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options
from pizarra.source.syntax.targets import LABEL

_EXERCISE_OPTIONS = {
    "label": "a name for {ref} and for the {solution} that answers it",
    "nonumber": "accepted; exercises are always numbered",
    "class": "accepted and ignored",
}
_SOLUTION_OPTIONS = {
    "label": "a name for {ref}",
    "class": "accepted (a solution is always a disclosure)",
}


def _content(
    ctx: LowerContext, directive: Directive, allowed: dict[str, str]
) -> tuple[dict[str, str], list[tuple[str, int]]]:
    """Options, and the body's parts with their 0-based first lines, plain or gated.

    A gated ``{x-start}`` may hold content after its options, as Jupyter Book accepts:
    it comes first, parsed on its own, then what lies between the start and the end.
    """
    body, errors = directive_options(directive, allowed)
    ctx.diagnostics.extend(errors)
    own = (body.content, directive.body_pos.line - 1 + body.content_offset)
    if directive.gated is not None:
        parts = [own] if body.content.strip() else []
        return body.options, [*parts, directive.gated]
    return body.options, [own]


def _parse(ctx: LowerContext, parts: list[tuple[str, int]]) -> tuple[Block, ...]:
    return tuple(block for text, start in parts for block in ctx.parse_nested(text, start, ctx))


def lower_exercise(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    if ctx.inside_exercise:
        ctx.error(directive.pos, "an exercise cannot contain another exercise")
        return None
    options, parts = _content(ctx, directive, _EXERCISE_OPTIONS)
    ctx.exercise_count += 1
    number = ctx.exercise_count
    label = options.get("label", "")
    if label and LABEL.match(label):
        title = t(ctx.lang, "exercise_n", n=number)
        ctx.add_target(
            label, "exercise", number, title, directive.pos, t(ctx.lang, "id_question", n=number)
        )
    elif label:
        ctx.error(directive.pos, f"invalid label {label!r}", hint="e.g. :label: ex-sum")
    ctx.inside_exercise = True
    ctx.answers = []
    try:
        blocks = _parse(ctx, parts)
    finally:
        ctx.inside_exercise = False
    answers, ctx.answers = tuple(ctx.answers), []
    solutions = [b for b in blocks if isinstance(b, Solution)]
    for extra in solutions[1:]:
        ctx.error(extra.pos, "an exercise has at most one solution")
    question = tuple(b for b in blocks if not isinstance(b, Solution))
    if not question:
        ctx.error(directive.pos, "this exercise has no question", hint="write the question first")
    solution = solutions[0] if solutions else None
    return Exercise(number, question, solution, directive.pos, directive.argument, answers)


def lower_solution(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    options, parts = _content(ctx, directive, _SOLUTION_OPTIONS)
    label = directive.argument.strip()
    number = 0
    if not ctx.inside_exercise:
        target = ctx.targets.get(label) if label else None
        if target is None or target.kind != "exercise" or target.number is None:
            ctx.error(
                directive.pos,
                f"no exercise labelled {label!r} before this solution"
                if label
                else "a solution must be inside an exercise or name one",
                hint="nest it in the exercise, or give the exercise `:label: ex1` and write "
                "```{solution} ex1 after it",
            )
            return None
        number = target.number
    solution_label = options.get("label", "")
    if solution_label:
        title = t(ctx.lang, "solution_to", n=number) if number else ""
        ctx.add_target(solution_label, "solution", None, title, directive.pos)
    return Solution(_parse(ctx, parts), directive.pos, number)
