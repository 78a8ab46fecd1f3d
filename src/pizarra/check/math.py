"""Every formula must typeset: invalid TeX is an error at its position, not red text."""

from __future__ import annotations

from pizarra.errors import Diagnostic, SourcePos
from pizarra.guard import internal_error
from pizarra.mathml import MathError, MathRenderer, with_macros
from pizarra.model import Lesson, MathItem

HINT = "see docs/authoring.md for the TeX that formulas accept"


def check_math(lesson: Lesson, math: MathRenderer) -> list[Diagnostic]:
    """A diagnostic at the exact character for each formula that does not convert."""
    render = with_macros(math, lesson.macros)
    errors = []
    for item in lesson.math:
        try:
            render(item.tex, item.display)
        except MathError as exc:
            errors.append(
                Diagnostic(
                    _error_pos(lesson.source_text, item, exc.offset),
                    exc.message,
                    hint=exc.hint or HINT,
                    detail=_excerpt(item.tex, item.display),
                )
            )
        except Exception as exc:
            excerpt = _excerpt(item.tex, item.display)
            errors.append(internal_error(item.pos, "typesetting this formula", exc, excerpt))
    return errors


def _error_pos(source: str, item: MathItem, offset: int | None) -> SourcePos:
    """Where ``offset`` (in the TeX) falls in the source; the formula's start if unknown."""
    if offset is None or not source:
        return item.pos
    lines = source.split("\n")
    if not 0 < item.pos.line <= len(lines):
        return item.pos
    start = sum(len(line) + 1 for line in lines[: item.pos.line - 1]) + item.pos.col - 1
    found = source.find(item.tex, start)
    if found < 0:
        return item.pos
    at = found + offset
    line = source.count("\n", 0, at) + 1
    col = at - (source.rfind("\n", 0, at) + 1) + 1
    return SourcePos(item.pos.path, line, col)


def _excerpt(tex: str, display: bool) -> str:
    fence = "$$" if display else "$"
    text = tex if len(tex) <= 160 else tex[:157] + "..."
    return f"{fence}{text}{fence}"
