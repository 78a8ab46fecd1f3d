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
    any_ref,
    cite,
    code_block,
    code_cell,
    contents,
    div,
    download,
    epigraph,
    exercise,
    explorer,
    figure,
    glossary,
    include,
    index_entry,
    layout,
    lesson_ref,
    math_directive,
    note,
    proof,
    raw,
    ref,
    tables,
    text_roles,
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
    "dropdown": layout.lower_dropdown,
    "toggle": layout.lower_dropdown,
    "margin": layout.lower_aside,
    "sidebar": layout.lower_aside,
    "tab-set": layout.lower_tab_set,
    "tab-item": layout.lower_tab_item,
    "card": layout.lower_card,
    "grid-item-card": layout.lower_card,
    "grid": layout.lower_grid,
    "grid-item": layout.lower_grid_item,
    "table": tables.lower_table,
    "list-table": tables.lower_list_table,
    "csv-table": tables.lower_csv_table,
    "glossary": glossary.lower_glossary,
    "div": div.lower_div,
    "include": include.lower_include,
}

GATED = ("exercise", "solution")
"""Directives that also come as ``{x-start}`` ... ``{x-end}`` around ordinary content."""

ROLES: dict[str, RoleRule] = {
    "lesson": lesson_ref.lower_lesson_role,
    "cite": cite.lower_cite_role,
    "cite:p": cite.lower_cite_role,
    "cite:t": cite.lower_cite_role,
    "ref": ref.lower_ref_role,
    "prf:ref": ref.lower_ref_role,  # sphinx-proof's name for a reference to a theorem
    "download": download.lower_download_role,
    "eq": ref.lower_eq_role,
    "numref": ref.lower_numref_role,
    "doc": ref.lower_doc_role,
    "any": any_ref.lower_any_role,
    "index": index_entry.lower_index_role,
    **{name: text_roles.lower_text_role for name in text_roles.TAGS},
    "term": glossary.lower_term_role,
    "math": text_roles.lower_math_role,
}

UNSUPPORTED = {
    "iframe": "pages carry no embedded frames: link to the page instead, [text](https://...)",
    "video": "link to the video instead, [text](https://...), or show a still {figure}",
    "youtube": "link to the video instead, [text](https://www.youtube.com/...)",
    "mermaid": "draw the diagram as an image (SVG or PNG) and show it with {figure}",
    "graphviz": "draw the diagram as an image (SVG or PNG) and show it with {figure}",
    "glue": "print the value in a {code-cell}, or write it in the text",
    "glue:figure": "make the figure in a {code-cell}: its plot is shown where the cell is",
    "glue:math": "write the formula in $$...$$",
    "eval-rst": "write it in MyST Markdown; reStructuredText is not read",
    "bibliography": "list sources under `sources:` in the front matter, or `bibliography:`",
    "tableofcontents": "the course page lists every lesson; {contents} lists a lesson's sections",
    "toctree": "lessons are listed in course.yaml",
    "jupyter-execute": "use a {code-cell}",
    "plotly": "make the plot in a {code-cell}",
    "bokeh-plot": "make the plot in a {code-cell}",
    "raw-html": "raw HTML is not allowed in a lesson",
}
"""Directives of the MyST ecosystem pizarra does not render, and what to write instead."""
