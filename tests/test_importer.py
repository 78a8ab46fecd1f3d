"""``pizarra import``: notebooks and jupytext MyST files become lessons that parse."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from pizarra.check.claims import check_claims
from pizarra.cli import main
from pizarra.source.blocks import CodeCell, walk
from pizarra.source.importer import NotImportable, import_file
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
        "summary: This lecture sums things.\n"
        "conventions:\n  log: e\n  bare_comma: thousands_or_list\n  redefinition: replaces\n"
        "---\n(intro)=\n"
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
    text = import_file(path, 2, "es", pin_outputs=True).text
    assert text == (
        "---\ntitle: Powers\nlesson: 2\nlang: es\nsummary: Doubling, again and again.\n"
        "conventions:\n  log: e\n  redefinition: replaces\n---\n"
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
    imported = import_file(path, pin_outputs=True)
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


BADGES = (
    '<table align="left">\n  <td>\n    <a href="https://colab.example/nb" target="_parent">'
    '<img src="https://colab.example/badge.svg" alt="Open In Colab"/></a>\n  </td>\n</table>'
)
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"


def test_a_notebook_as_written_for_jupyter_becomes_a_lesson_that_parses(tmp_path: Path) -> None:
    """Bold title, `#` sections, a badge table, an error output, a sibling link, an
    attachment: each made what pizarra reads, with a note where something went."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("**Tools - NumPy**\n\n*NumPy is fundamental.*"),
        nbformat.v4.new_markdown_cell(BADGES),
        nbformat.v4.new_markdown_cell("# Arrays\n\n## Shapes\n\nSee [pandas](tools_pandas.ipynb)."),
        nbformat.v4.new_code_cell(
            "1/0",
            outputs=[
                nbformat.v4.new_output("error", ename="ZeroDivisionError", evalue="", traceback=[])
            ],
        ),
        nbformat.v4.new_markdown_cell("![a dot](attachment:dot.png) and <b>bold</b>"),
    ]
    notebook.cells[-1]["attachments"] = {"dot.png": {"image/png": PNG}}
    path = tmp_path / "tools_numpy.ipynb"
    nbformat.write(notebook, path)
    imported = import_file(path)
    text = imported.text
    assert text.startswith("---\ntitle: Tools - NumPy\n")
    assert (
        "[Open In Colab](https://colab.example/nb)" in text and "<" not in text.split("---", 2)[2]
    )
    assert "\n## Arrays\n" in text and "\n### Shapes\n" in text and "**Tools" not in text
    assert "See pandas." in text  # the sibling notebook is not imported
    assert ":tags: [raises-exception]" in text
    assert "![a dot](tools_numpy-images/cell5-dot.png) and **bold**" in text
    assert [name for name, _ in imported.files] == ["tools_numpy-images/cell5-dot.png"]
    assert any("<table>" in note for note in imported.notes)
    (tmp_path / "tools_numpy-images").mkdir()
    (tmp_path / "tools_numpy-images" / "cell5-dot.png").write_bytes(imported.files[0][1])
    lesson, errors = parse_lesson(tmp_path / "out.md", "out.md", text)
    assert [e.format() for e in errors] == [] and lesson is not None
    with_link = import_file(path, lessons=frozenset({"tools_pandas"})).text
    assert "See [pandas](tools_pandas.md)." in with_link


def test_a_title_comes_from_the_file_name_when_the_notebook_starts_with_prose(
    tmp_path: Path,
) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("Some prose.\n\n# A section")]
    path = tmp_path / "02.08-Sorting.ipynb"
    nbformat.write(notebook, path)
    imported = import_file(path)
    assert imported.text.startswith("---\ntitle: Sorting\n")
    assert "\n## A section" in imported.text


def test_directives_about_the_whole_book_are_dropped_with_a_note(tmp_path: Path) -> None:
    source = tmp_path / "intro.md"
    source.write_text("# Intro\n\nText.\n\n```{tableofcontents}\n```\n\n```{bibliography}\n```\n")
    imported = import_file(source)
    assert "{tableofcontents}" not in imported.text and "{bibliography}" not in imported.text
    assert [n.split(": ", 1)[1] for n in imported.notes] == [
        "dropped {tableofcontents}: the course page lists the lessons",
        "dropped {bibliography}: each lesson lists the sources it cites",
    ]


def test_only_blocks_keep_what_the_web_shows(tmp_path: Path) -> None:
    source = tmp_path / "only.md"
    source.write_text("# T\n\nText.\n\n```{only} latex\nPDF\n```\n\n```{only} html\nWeb\n```\n")
    imported = import_file(source)
    assert "Web" in imported.text and "PDF" not in imported.text and "{only}" not in imported.text
    assert imported.notes == (
        "line 5: {only} latex: dropped it",
        "line 9: {only} html: kept its content",
    )


def test_setext_headings_are_read_as_the_title_and_moved_down(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("Sorting\n=======\n\nIntro.\n\nPart\n====\n\nText."),
    ]
    path = tmp_path / "s.ipynb"
    nbformat.write(notebook, path)
    text = import_file(path).text
    assert text.startswith("---\ntitle: Sorting\n") and "\n## Part\n" in text and "==" not in text


def test_a_raw_cell_is_dropped_with_a_note_and_another_kernel_is_refused(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# T\n\nX."), nbformat.v4.new_raw_cell("raw")]
    path = tmp_path / "r.ipynb"
    nbformat.write(notebook, path)
    assert "cell 2: dropped a raw cell (not markdown or code)" in import_file(path).notes
    notebook.metadata["kernelspec"] = {"name": "ir", "language": "R", "display_name": "R"}
    nbformat.write(notebook, path)
    with pytest.raises(NotImportable, match="its kernel runs R"):
        import_file(path)


def test_blank_lines_just_inside_display_math_go(tmp_path: Path) -> None:
    source = tmp_path / "m.md"
    source.write_text("# M\n\nLet\n\n$$\n\nV = 1\n\n$$\n\n```\n$$\n\nkept\n```\n")
    text = import_file(source).text
    assert "$$\nV = 1\n$$" in text and "```\n$$\n\nkept\n```" in text
    _, errors = parse_lesson(tmp_path / "out.md", "out.md", text)
    assert [e.format() for e in errors] == []


def test_a_labelled_display_formula_keeps_its_label(tmp_path: Path) -> None:
    source = tmp_path / "m.md"
    source.write_text("# M\n\n$$\n\nV = 1\n\n$$ (eq-v)\n\nSee {eq}`eq-v`, and $$x$$ inline.\n")
    text = import_file(source).text
    assert "$$\nV = 1\n$$ (eq-v)\n" in text
    _, errors = parse_lesson(tmp_path / "out.md", "out.md", text)
    assert [e.format() for e in errors] == []


def test_a_matrix_opening_a_line_of_inline_math_stays_in_its_cell(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell(
            "# M\n\n$E = \\begin{bmatrix}\n1 \\\\\n\\end{bmatrix}\n"
            "\\begin{bmatrix}\n2\n\\end{bmatrix} = F$"
        ),
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_markdown_cell("$G = \\begin{bmatrix}\n3\n\\end{bmatrix}$"),
        nbformat.v4.new_markdown_cell("$$\n\\begin{bmatrix}\n4\n\\end{bmatrix}\n$$"),
    ]
    path = tmp_path / "m.ipynb"
    nbformat.write(notebook, path)
    text = import_file(path).text
    assert "\\end{bmatrix} \\begin{bmatrix}\n2" in text
    assert "$$\n\\begin{bmatrix}\n4" in text
    lesson, errors = parse_lesson(tmp_path / "out.md", "out.md", text)
    assert [e.format() for e in errors] == []
    assert lesson is not None
    assert [b.code for b in walk(lesson.blocks) if isinstance(b, CodeCell)] == ["x = 1\n"]


def test_an_imported_lesson_reads_prose_as_notebooks_write_it(tmp_path: Path) -> None:
    """\\log is ln, 20,000 is twenty thousand, j = 1,2 a list: declared, then checked."""
    source = tmp_path / "growth.md"
    source.write_text(
        "# Growth\n\nA population of $N = 20,000$ grows.\n\n"
        "For $j = 1,2$ we have $20,000 + 5,000 = 25,000$ and $\\log e^2 = 2$.\n",
        encoding="utf-8",
    )
    imported = import_file(source)
    assert "conventions:\n  log: e\n  bare_comma: thousands_or_list\n" in imported.text
    lesson, errors = parse_lesson(tmp_path / "out.md", "out.md", imported.text)
    assert errors == [] and lesson is not None
    diagnostics, counts = check_claims(lesson)
    assert diagnostics == []
    assert counts.checked == 2 and counts.failed == 0


def test_a_myst_files_html_and_setext_title_become_markdown(tmp_path: Path) -> None:
    path = tmp_path / "opening.md"
    (tmp_path / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    path.write_text(
        "Python for Science\n==================\n\nRead on.\n\n"
        '<img src="pic.png" alt="A field of arrows">\n'
    )
    imported = import_file(path)
    assert "![A field of arrows](pic.png)" in imported.text
    assert "title: Python for Science" in imported.text and "<img" not in imported.text


def test_html_after_a_code_span_that_looks_like_html_is_the_one_converted() -> None:
    from pizarra.source.html_markdown import html_to_markdown

    text = "using <span>``%run</span>. Then type <span>``%run hello</span>, and `<b>` <b>x</b>"
    assert html_to_markdown(text, "cell 1", []) == (
        "using ``%run</span>. Then type <span>``%run hello, and `<b>` **x**"
    )


def test_html_around_a_code_span_on_a_later_line_of_a_paragraph_is_converted() -> None:
    from pizarra.source.html_markdown import html_to_markdown

    text = "Intro.\n\nA line,\nthe <span>`numpy`</span> module\nand <b>more</b>."
    assert html_to_markdown(text, "cell 1", []) == (
        "Intro.\n\nA line,\nthe `numpy` module\nand **more**."
    )


def test_a_myst_code_cell_that_loads_a_file_holds_its_code(tmp_path: Path) -> None:
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "filter.py").write_text("def f(x):\n    return '```' + x\n")
    page = tmp_path / "lecture.md"
    page.write_text(
        "# Filters\n\nThe code:\n\n```{code-cell} ipython3\n:tags: [hide-input]\n"
        ":load: _static/filter.py\n```\n\n```{code-cell} ipython3\n:load: ../outside.py\n```\n"
    )
    (tmp_path.parent / "outside.py").write_text("x = 1\n")
    imported = import_file(page, root=tmp_path)
    assert "````{code-cell} ipython3\n:tags: [hide-input]\ndef f(x):\n" in imported.text
    assert "    return '```' + x\n````" in imported.text
    assert ":load: ../outside.py" in imported.text  # outside the book: left, with a note
    assert any("is not a file in the book's folder" in note for note in imported.notes)
    lesson, errors = parse_lesson(tmp_path / "lecture.md", "lecture.md", imported.text)
    assert lesson is not None and len(list(lesson.code_cells())) == 2
    assert [e.message for e in errors] == ["unknown option :load:"]
