"""``pizarra import``: notebooks and jupytext MyST files become lessons that parse."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from pizarra.cli import main
from pizarra.source.blocks import CodeCell, walk
from pizarra.source.importer import import_file
from pizarra.source.lower import parse_lesson

JUPYTEXT = """---
jupytext:
  text_representation:
    format_name: myst
kernelspec:
  name: python3
---

(intro)=
```{raw} html
<div>logo</div>
```

# Series for *Economists*

This lecture sums things. It is short.

```{code-cell}
x = 1
```

## Part

Sum $ x $ again.
"""


def test_a_jupytext_file_gets_front_matter_and_loses_only_what_pizarra_refuses(
    tmp_path: Path,
) -> None:
    source = tmp_path / "series.md"
    source.write_text(JUPYTEXT)
    imported = import_file(source, number=4, lang="en")
    assert imported.text.startswith(
        "---\ntitle: Series for *Economists*\nlesson: 4\nlang: en\n"
        "summary: This lecture sums things.\n---\n(intro)=\n"
    )
    assert "logo" not in imported.text and "# Series" not in imported.text
    assert "```{code-cell} python\nx = 1\n```" in imported.text
    assert imported.notes == ("line 10: dropped a {raw} html block (raw HTML is not allowed)",)
    lesson, errors = parse_lesson(tmp_path / "out.md", "out.md", imported.text)
    assert [e.format() for e in errors] == []
    assert lesson is not None and lesson.title == "Series for *Economists*"


def test_a_notebook_keeps_its_cells_tags_and_outputs(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["title"] = "Powers"
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# Powers\n\nDoubling, again and again."),
        nbformat.v4.new_code_cell(
            "print(2**10)\n2**20",
            metadata={"tags": ["hide-input"]},
            outputs=[
                nbformat.v4.new_output("stream", name="stdout", text="1024\n"),
                nbformat.v4.new_output(
                    "execute_result", data={"text/plain": "1048576"}, execution_count=1
                ),
            ],
        ),
    ]
    path = tmp_path / "powers.ipynb"
    nbformat.write(notebook, path)
    text = import_file(path, 2, "es").text
    assert text == (
        "---\ntitle: Powers\nlesson: 2\nlang: es\nsummary: Doubling, again and again.\n---\n"
        "Doubling, again and again.\n\n"
        "```{code-cell} python\n:tags: [hide-input]\nprint(2**10)\n2**20\n```\n\n"
        "```{output}\n1024\n1048576\n```\n"
    )


def test_the_cli_writes_the_lesson_and_refuses_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "series.md"
    source.write_text(JUPYTEXT)
    out = tmp_path / "lesson.md"
    assert main(["import", str(source), "-o", str(out), "--lesson", "3", "--bib", "refs.bib"]) == 0
    assert "bibliography:\n- refs.bib\n" in out.read_text()
    assert "dropped a {raw} html block" in capsys.readouterr().err
    (tmp_path / "notes.txt").write_text("x")
    assert main(["import", str(tmp_path / "notes.txt")]) == 2
    assert "give an existing .ipynb or .md file" in capsys.readouterr().err


MARK = "open('ran', 'w').write('hidden')"
HIDDEN = f"\n```\n\n```{{code-cell}} python\n:tags: [remove-cell]\n{MARK}\n```\n\n```{{output}}\n"


def stream(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_output("stream", name="stdout", text=text)


HOSTILE = {
    "output-closes-its-fence": [
        nbformat.v4.new_code_cell("print(1)", outputs=[stream("1" + HIDDEN)]),
    ],
    "source-holds-a-fence": [
        nbformat.v4.new_code_cell(f"s = '''{HIDDEN}'''\nt = '~~~~'"),
    ],
    "tag-injects-options": [
        nbformat.v4.new_code_cell(
            "x = 1", metadata={"tags": ["a]\n:timeout: 600\n:bogus: [x", "hide-input"]}
        ),
    ],
    "markdown-leaves-a-fence-open": [
        nbformat.v4.new_markdown_cell("Text.\n\n```"),
        nbformat.v4.new_code_cell("y = 2"),
        nbformat.v4.new_code_cell(f"z = '''\n````\n```{{code-cell}} python\n{MARK}\n```\n'''"),
    ],
    "markdown-writes-a-code-cell": [
        nbformat.v4.new_markdown_cell(f"Text.\n\n```{{code-cell}} python\n{MARK}\n```"),
        nbformat.v4.new_markdown_cell(f"---\n```{{code-cell}} python\n{MARK}\n```\n---"),
        nbformat.v4.new_markdown_cell(f":::{{note}}\n```{{code-cell}}\n{MARK}\n```\n:::"),
        nbformat.v4.new_code_cell("w = 3"),
    ],
    "markdown-raw-closed-by-an-indented-line": [
        nbformat.v4.new_markdown_cell(
            f"```{{raw}} html\n    ```\n```{{code-cell}} python\n{MARK}\n```\n```"
        ),
        nbformat.v4.new_code_cell("v = 4"),
    ],
}


@pytest.mark.parametrize("name", HOSTILE)
def test_an_imported_notebook_has_its_code_cells_and_no_others(name: str, tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# Hostile\n\nIntro."), *HOSTILE[name]]
    path = tmp_path / "hostile.ipynb"
    nbformat.write(notebook, path)
    imported = import_file(path)
    lesson, _ = parse_lesson(tmp_path / "out.md", "out.md", imported.text)
    assert lesson is not None
    cells = [block for block in walk(lesson.blocks) if isinstance(block, CodeCell)]
    wanted = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.code for cell in cells] == [cell.source + "\n" for cell in wanted]
    outputs = [cell.output.text if cell.output else "" for cell in cells]
    assert outputs == ["".join(o.text for o in cell.outputs) for cell in wanted]
    assert all(cell.timeout == 30.0 for cell in cells)
    if name == "tag-injects-options":
        assert cells[0].tags == {"hide-input"}
        assert any("dropped the tag" in note for note in imported.notes)


def test_tags_that_yaml_would_read_as_other_values_stay_words(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["yes", "1"]})]
    path = tmp_path / "tags.ipynb"
    nbformat.write(notebook, path)
    assert ':tags: ["yes", "1"]\n' in import_file(path).text


def test_a_title_on_several_lines_becomes_one(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["title"] = "A\n---\nlesson: 99"
    path = tmp_path / "title.ipynb"
    nbformat.write(notebook, path)
    lesson, errors = parse_lesson(tmp_path / "out.md", "out.md", import_file(path).text)
    assert lesson is not None and lesson.title == "A --- lesson: 99", errors
