"""Every formula must typeset: invalid TeX is an error at its position, not red text."""

from __future__ import annotations

from pizarra.errors import Diagnostic
from pizarra.mathml import MathError, MathRenderer
from pizarra.model import Lesson


def check_math(lesson: Lesson, math: MathRenderer) -> list[Diagnostic]:
    errors = []
    for item in lesson.math:
        try:
            math(item.tex, item.display)
        except MathError as exc:
            errors.append(
                Diagnostic(
                    item.pos,
                    exc.message,
                    hint="the formula is typeset with Temml: see docs/authoring.md for what works",
                    detail=_excerpt(item.tex, item.display),
                )
            )
    return errors


def _excerpt(tex: str, display: bool) -> str:
    fence = "$$" if display else "$"
    text = tex if len(tex) <= 160 else tex[:157] + "..."
    return f"{fence}{text}{fence}"
