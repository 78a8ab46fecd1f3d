"""``{answer}``: a field of an exercise that a learner fills in and the page checks.

The body is YAML (see docs/authoring.md, "Answers"), read into an
:class:`~pizarra.source.answers.spec.AnswerSpec` that the enclosing exercise keeps;
the directive leaves no block of its own where it stands.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pizarra.source.answers import parse_answer
from pizarra.source.blocks import Block, MathItem
from pizarra.source.syntax.context import Directive, LowerContext

_SHOWN = re.compile(r"^\s*(?:-\s+)?(?:label|text|hint):")
"""The lines whose ``$...$`` the page typesets: they are the lesson's formulas too."""
_MATH = re.compile(r"\$([^$]+)\$")


def lower_answer(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    if not ctx.inside_exercise:
        ctx.error(
            directive.pos,
            "an answer field must be inside an exercise",
            hint="move the {answer} block into the {exercise} it belongs to",
        )
        return None
    spec, errors = parse_answer(
        directive.argument, directive.body, directive.pos, len(ctx.answers) + 1
    )
    ctx.diagnostics.extend(errors)
    if spec is not None:
        ctx.answers.append(spec)
        for offset, line in enumerate(directive.body.split("\n")):
            if _SHOWN.match(line):
                for match in _MATH.finditer(line):
                    pos = directive.pos.shifted(offset + 1, match.start() + 1)
                    ctx.math.append(MathItem(match.group(1), False, pos))
    return None
