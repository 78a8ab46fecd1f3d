"""A notebook's links to its own headings, by Jupyter's ids, reach the lesson's headings."""

from __future__ import annotations

from pathlib import Path

import nbformat

from pizarra.source.importer import import_file
from pizarra.source.jupyter_anchors import jupyter_anchors, point_links
from pizarra.source.lower import parse_lesson


def test_jupyter_ids_of_headings_map_to_the_lessons() -> None:
    anchors = jupyter_anchors(
        ["# Data\n\n## Floating Point numbers\n", "### The `print` *function*"]
    )
    assert anchors["Floating-Point-numbers"] == "floating-point-numbers"
    assert anchors["The-print-function"] == "the-print-function"
    notes: list[str] = []
    text = "See [floats](#Floating-Point-numbers) and [that](#Elsewhere)."
    assert point_links(text, anchors, 3, notes) == (
        "See [floats](#floating-point-numbers) and [that](#Elsewhere)."
    )
    assert notes == [
        "cell 3: the link to #Floating-Point-numbers points to #floating-point-numbers"
    ]


def test_an_imported_notebooks_link_to_a_later_heading_finds_it(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell(
            "# Numbers\n\nRead about [complex numbers](#Complex-numbers)."
        ),
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_markdown_cell("## Complex numbers\n\nThey have two parts."),
    ]
    path = tmp_path / "numbers.ipynb"
    nbformat.write(notebook, path)
    imported = import_file(path)
    assert "[complex numbers](#complex-numbers)" in imported.text
    lesson, errors = parse_lesson(tmp_path / "numbers.md", "numbers.md", imported.text)
    assert errors == [] and lesson is not None
