"""``macros:`` in a lesson's front matter or in course.yaml: TeX shorthands for formulas.

Each entry maps a name (letters only, no backslash) to the TeX it stands for, with
``#1``... for arguments: ``R: \\mathbb{R}``, ``vect: \\mathbf{#1}``. They reach math-core
through its ``macros`` option; a lesson's entries win over the course's.
"""

from __future__ import annotations

from typing import Any

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.math.mathml import macro_problems

HINT = r"e.g. `macros:` then, indented, `R: \mathbb{R}` (a name of letters, no backslash)"


def read_macros(raw: Any, pos: SourcePos, errors: list[Diagnostic]) -> dict[str, str]:
    """The validated ``macros`` mapping at ``pos``; problems go to ``errors``."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in raw.items()
    ):
        errors.append(Diagnostic(pos, "`macros` must map names to TeX text", hint=HINT))
        return {}
    macros = {name.removeprefix("\\"): body for name, body in raw.items()}
    found = macro_problems(macros)
    errors.extend(Diagnostic(pos, f"macros: {p.message}", hint=HINT) for p in found)
    return {} if found else macros


def merged(
    course: dict[str, str], lesson: dict[str, str], pos: SourcePos
) -> tuple[dict[str, str], list[Diagnostic]]:
    """The course's macros overridden by the lesson's, checked together at ``pos``."""
    both = {**course, **lesson}
    found = macro_problems(both)
    if found:
        return lesson, [Diagnostic(pos, f"macros: {p.message}", hint=HINT) for p in found]
    return both, []
