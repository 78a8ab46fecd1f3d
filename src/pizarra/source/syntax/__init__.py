"""Lowering rules: one module per directive or role, registered here by name.

A directive rule takes the context, the directive and a ``next_token`` callback
(for directives that pair with the following block, like a code cell and its
output) and returns a block or None. A role rule records what it found.
"""

from __future__ import annotations

from collections.abc import Callable

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Block
from pizarra.source.syntax import (
    admonition,
    answer,
    cite,
    code_block,
    code_cell,
    contents,
    epigraph,
    exercise,
    explorer,
    figure,
    index_entry,
    lesson_ref,
    math_directive,
    note,
    proof,
    raw,
    ref,
)
from pizarra.source.syntax.context import Directive, LowerContext

DirectiveRule = Callable[[LowerContext, Directive, Callable[[], Directive | None]], Block | None]
RoleRule = Callable[[LowerContext, str, SourcePos, Token], None]

DIRECTIVES: dict[str, DirectiveRule] = {
    "code-cell": code_cell.lower_code_cell,
    "output": code_cell.lower_stray_output,
    "exercise": exercise.lower_exercise,
    "solution": exercise.lower_solution,
    "answer": answer.lower_answer,
    "note": note.lower_note,
    "explorer": explorer.lower_explorer,
    "math": math_directive.lower_math,
    "admonition": admonition.lower_admonition,
    **{kind: admonition.lower_admonition for kind in admonition.KINDS},
    **{f"prf:{kind}": proof.lower_proof for kind in proof.KINDS},
    "figure": figure.lower_figure,
    "image": figure.lower_figure,
    "index": index_entry.lower_index,
    "contents": contents.lower_contents,
    "epigraph": epigraph.lower_epigraph,
    "raw": raw.lower_raw,
    **{name: code_block.lower_code_block for name in code_block.NAMES},
}

GATED = ("exercise", "solution")
"""Directives that also come as ``{x-start}`` ... ``{x-end}`` around ordinary content."""

ROLES: dict[str, RoleRule] = {
    "lesson": lesson_ref.lower_lesson_role,
    "cite": cite.lower_cite_role,
    "cite:p": cite.lower_cite_role,
    "cite:t": cite.lower_cite_role,
    "ref": ref.lower_ref_role,
    "eq": ref.lower_eq_role,
    "numref": ref.lower_numref_role,
    "doc": ref.lower_doc_role,
    "index": index_entry.lower_index_role,
}
