"""Every formula must typeset: invalid TeX is an error at its position, not red text."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.guard import internal_error
from pizarra.math.mathml import MathError, MathRenderer, with_macros
from pizarra.source.blocks import MathItem
from pizarra.source.model import Lesson

SEARCH_SLACK = 1000
"""How far past its delimiter a formula's text is looked for (blank lines, ``$$``)."""
HINT = "run `pizarra help math` for the TeX that formulas accept"


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
                    _error_pos(own_text(lesson, item), item, exc.offset),
                    exc.message,
                    hint=exc.hint or HINT,
                    detail=_excerpt(item.tex, item.display),
                )
            )
        except Exception as exc:
            excerpt = _excerpt(item.tex, item.display)
            errors.append(internal_error(item.pos, "typesetting this formula", exc, excerpt))
    return errors


def own_text(lesson: Lesson, item: MathItem) -> str:
    """The lesson's text if ``item`` is written in it; "" for one from an included file."""
    return lesson.source_text if item.pos.path == lesson.display_path else ""


def _error_pos(source: str, item: MathItem, offset: int | None) -> SourcePos:
    """Where ``offset`` (in the TeX) falls in the source; the formula's start if unknown.

    Line starts are computed once per source, and the formula is looked for just
    after its delimiter, so a lesson full of bad formulas costs linear time.
    """
    if offset is None or not source:
        return item.pos
    starts = _line_starts(source)
    if not 0 < item.pos.line <= len(starts):
        return item.pos
    start = starts[item.pos.line - 1] + item.pos.col - 1
    found = source.find(item.tex, start, start + len(item.tex) + SEARCH_SLACK)
    if found < 0:
        return item.pos
    at = found + offset
    line = bisect_right(starts, at) - 1
    return SourcePos(item.pos.path, line + 1, at - starts[line] + 1)


@lru_cache(maxsize=4)
def _line_starts(source: str) -> list[int]:
    return [0, *(match.end() for match in re.finditer("\n", source))]


def _excerpt(tex: str, display: bool) -> str:
    fence = "$$" if display else "$"
    text = tex if len(tex) <= 160 else tex[:157] + "..."
    return f"{fence}{text}{fence}"
