"""Lowering rules: one module per directive or role, registered here by name.

A directive rule takes the context, the directive and a ``next_token`` callback
(for directives that pair with the following block, like a code cell and its
output) and returns a block or None. A role rule records what it found.
"""

from __future__ import annotations

from collections.abc import Callable

from markdown_it.token import Token

from pizarra.errors import SourcePos
from pizarra.model import Block
from pizarra.syntax import cite, code_cell, exercise, explorer, lesson_ref, note
from pizarra.syntax.context import Directive, LowerContext

DirectiveRule = Callable[[LowerContext, Directive, Callable[[], Directive | None]], Block | None]
RoleRule = Callable[[LowerContext, str, SourcePos, Token], None]

DIRECTIVES: dict[str, DirectiveRule] = {
    "code-cell": code_cell.lower_code_cell,
    "output": code_cell.lower_stray_output,
    "exercise": exercise.lower_exercise,
    "solution": exercise.lower_solution,
    "note": note.lower_note,
    "explorer": explorer.lower_explorer,
}

ROLES: dict[str, RoleRule] = {
    "lesson": lesson_ref.lower_lesson_role,
    "cite": cite.lower_cite_role,
}
