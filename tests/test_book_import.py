"""``pizarra import BOOK -o COURSE``: a Jupyter Book (``_toc.yml``) or a mystmd project
(``myst.yml``) becomes one course that checks, in the book's order."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from pizarra.cli import main
from pizarra.source.book_slugs import distinct_slugs
from tests.test_local_files import _png

BIB = "@book{knuth, title={The Art}, author={Knuth, Donald}, year={1968}}\n"
FIRST = """---
jupytext:
  text_representation:
    format_name: myst
---

(first)=
# First lecture

See {doc}`the second <second>`, its {ref}`part <part-two>`, and {cite}`knuth`.

![a green dot](_static/dot.png)

```{code-cell} ipython3
print(1 + 1)
```
"""


def _book(root: Path, settings: dict[str, str]) -> Path:
    book = root / "book"
    (book / "_static").mkdir(parents=True)
    (book / "_static" / "dot.png").write_bytes(_png())
    (book / "_static" / "refs.bib").write_text(BIB, encoding="utf-8")
    (book / "first.md").write_text(FIRST, encoding="utf-8")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell(
            "# Second lecture\n\n(part-two)=\n## Part two\n\nBack to [one](first.md)."
        ),
        nbformat.v4.new_code_cell("2 * 3"),
    ]
    nbformat.write(notebook, book / "second.ipynb")
    for name, text in settings.items():
        (book / name).write_text(text, encoding="utf-8")
    return book


JB1 = {
    "_toc.yml": "format: jb-book\nroot: first\nchapters:\n- file: second\n- file: third\n",
    "_config.yml": "title: A Small Book\nbibtex_bibfiles:\n  - _static/refs.bib\n",
}
MYST = {
    "myst.yml": "version: 1\nproject:\n  title: A Small Book\n  bibliography: [_static/refs.bib]\n"
    "  toc:\n    - file: first.md\n    - title: More\n      children:\n"
    "        - file: second.ipynb\n        - file: third.md\n",
}


@pytest.mark.parametrize("settings", [JB1, MYST], ids=["jupyter-book-1", "mystmd"])
def test_a_book_becomes_a_course_that_checks(
    settings: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _book(tmp_path, settings)
    course = tmp_path / "course"
    assert main(["import", str(book), "-o", str(course)]) == 0
    err = capsys.readouterr().err
    assert "third: listed in the table of contents but not found" in err
    manifest = (course / "course.yaml").read_text(encoding="utf-8")
    assert manifest.startswith(
        "title: A Small Book\nlang: en\nlessons:\n- number: 1\n  file: first.md\n"
    )
    assert "- number: 2\n  file: second.md\n" in manifest and "doc: third" in manifest
    assert (course / "_static" / "dot.png").read_bytes() == _png()
    assert "bibliography:\n- _static/refs.bib\n" in (course / "first.md").read_text("utf-8")
    assert not (course / "second.ipynb").exists()
    assert main(["build", "--no-cache", str(course), "-o", str(tmp_path / "site")]) == 0, (
        capsys.readouterr().err
    )
    page = (tmp_path / "site" / "first" / "index.html").read_text(encoding="utf-8")
    assert 'href="../second/"' in page and 'href="../second/#part-two"' in page
    assert 'src="../media/_static/dot.png"' in page


def test_a_folder_that_is_not_a_book_or_an_occupied_course_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", str(tmp_path), "-o", str(tmp_path / "c")]) == 2
    assert "_toc.yml" in capsys.readouterr().err
    book = _book(tmp_path, JB1)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("x")
    assert main(["import", str(book), "-o", str(tmp_path / "taken")]) == 2
    assert "not empty" in capsys.readouterr().err
    (book / "_toc.yml").write_text("root: [unclosed\n", encoding="utf-8")
    assert main(["import", str(book), "-o", str(tmp_path / "c")]) == 1
    assert "_toc.yml:2:1: not valid YAML" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("timeout", "front", "noted"),
    [
        pytest.param("120", "cell_timeout: 120\n", False, id="longer"),
        pytest.param("-1", "cell_timeout: 600\n", True, id="no-limit-is-pizarras-limit"),
        pytest.param("10", "", False, id="shorter-than-pizarras-default"),
    ],
)
def test_the_books_execution_timeout_is_each_lessons_cell_timeout(
    timeout: str, front: str, noted: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = {**JB1, "_config.yml": JB1["_config.yml"] + f"execute:\n  timeout: {timeout}\n"}
    course = tmp_path / "course"
    assert main(["import", str(_book(tmp_path, settings)), "-o", str(course)]) == 0
    assert ("each cell may run 600 s" in capsys.readouterr().err) is noted
    for name in ("first.md", "second.md"):
        head = (course / name).read_text(encoding="utf-8").split("\n---\n", 1)[0] + "\n"
        assert ("cell_timeout:" in head) is bool(front)
        assert front in head


def test_a_link_to_a_heading_of_another_notebook_points_to_that_lesson(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "book"
    (book / "part").mkdir(parents=True)
    cells = {
        "intro": [
            "# Intro\n\nSee [series](#Many-ways-to-sum) and [in two](#Tools).",
            "# Tools here\nprint(1)",
        ],
        "part/series": [
            "# Series\n\n## Many ways to sum\n\n### Tools\n\nBack: [x](../intro.ipynb#Intro)."
        ],
        "part/other": ["# Other\n\n## Tools\n\nText."],
    }
    for name, sources in cells.items():
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [nbformat.v4.new_markdown_cell(sources[0])] + [
            nbformat.v4.new_code_cell(code) for code in sources[1:]
        ]
        nbformat.write(notebook, book / f"{name}.ipynb")
    (book / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nchapters:\n- file: part/series\n- file: part/other\n"
    )
    course = tmp_path / "course"
    assert main(["import", str(book), "-o", str(course)]) == 0
    err = capsys.readouterr().err
    assert "intro.md: the link to #Many-ways-to-sum names a heading of part/series.md" in err
    intro = (course / "intro.md").read_text(encoding="utf-8")
    assert "[series](part/series.md#many-ways-to-sum)" in intro
    assert "[in two](#Tools)" in intro  # two lessons have it: left for the link check
    assert "# Tools here\nprint(1)" in intro  # a comment in a code cell is no heading
    assert "[x](../intro.md)" in (course / "part" / "series.md").read_text("utf-8")
    assert main(["build", "--no-cache", str(course), "-o", str(tmp_path / "site")]) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(errors) == 1 and "broken link" in errors[0] and "#Tools" in errors[0], errors


def test_the_parts_lectures_include_are_copied_though_the_toc_does_not_list_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "book"
    (book / "_admonition").mkdir(parents=True)
    (book / "_admonition" / "gpu.md").write_text(
        "```{note}\nThis lecture runs on a GPU.\n```\n\n```{include} /_admonition/more.md\n```\n"
    )
    (book / "_admonition" / "more.md").write_text("Or on a CPU, more slowly.\n")
    (book / "_admonition" / "unused.md").write_text("Nobody includes this.\n")
    (book / "intro.md").write_text("# Intro\n\n```{include} _admonition/gpu.md\n```\n")
    (book / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    course = tmp_path / "course"
    assert main(["import", str(book), "-o", str(course)]) == 0
    assert (course / "_admonition" / "more.md").is_file()
    assert not (course / "_admonition" / "unused.md").exists()
    assert main(["build", "--no-cache", str(course), "-o", str(tmp_path / "site")]) == 0, (
        capsys.readouterr().err
    )
    page = (tmp_path / "site" / "intro" / "index.html").read_text(encoding="utf-8")
    assert "This lecture runs on a GPU." in page and "Or on a CPU, more slowly." in page


def _numpy_book(root: Path) -> Path:
    """A mystmd book whose section page ``core/numpy.md`` shares its name with a lesson of
    its folder, linked to without extensions, as mystmd allows."""
    book = root / "book"
    (book / "core" / "numpy").mkdir(parents=True)
    (book / "a.md").write_text(
        "# A\n\nOn to [NumPy](core/numpy), as `[NumPy](core/numpy)` shows.\n"
    )
    (book / "core" / "numpy.md").write_text(
        "# NumPy\n\n```{note}\nA note.\n```\n\n"
        "Start with [basics](./numpy/basics) or [the tutorial](numpy/numpy.md).\n"
    )
    (book / "core" / "numpy" / "numpy.md").write_text(
        "# NumPy tutorial\n\nBack to [the section](../numpy.md) and [A](/a).\n\n## Arrays\n"
    )
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell(
            "# Basics\n\nBack to [A](../../a), [the tutorial](numpy#arrays), [by name](numpy)"
            " and [gone](../../missing)."
        ),
        nbformat.v4.new_code_cell("1 + 1"),
    ]
    nbformat.write(notebook, book / "core" / "numpy" / "basics.ipynb")
    (book / "myst.yml").write_text(
        "version: 1\nproject:\n  toc:\n    - file: a.md\n    - file: core/numpy.md\n"
        "      children:\n        - file: core/numpy/numpy.md\n"
        "        - file: core/numpy/basics.ipynb\n"
    )
    return book


def test_links_without_extension_and_lessons_of_one_name_resolve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = tmp_path / "course"
    assert main(["import", str(_numpy_book(tmp_path)), "-o", str(course)]) == 0
    err = capsys.readouterr().err
    assert "a.md: the link to core/numpy names the lesson core/numpy.md" in err
    assert "core/numpy/basics.md: the link to ../../a names the lesson a.md" in err
    assert "core/numpy/numpy.md: the link to /a names the lesson a.md: written ../../a.md" in err
    assert "the link to ../../missing" not in err
    assert (
        "core/numpy.md: its URL slug 'numpy' is another lesson's too: set `slug: core-numpy`" in err
    )
    assert "set `slug: numpy-numpy`" in err
    basics = (course / "core" / "numpy" / "basics.md").read_text(encoding="utf-8")
    assert "[A](../../a.md)" in basics and "[by name](numpy)" in basics
    assert "[NumPy](core/numpy.md), as `[NumPy](core/numpy)`" in (course / "a.md").read_text()
    assert "slug: core-numpy\n" in (course / "core" / "numpy.md").read_text(encoding="utf-8")
    assert main(["build", "--no-cache", str(course), "-o", str(tmp_path / "site")]) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(errors) == 1 and "broken link" in errors[0] and "../../missing" in errors[0], errors
    (course / "core" / "numpy" / "basics.md").write_text(
        basics.replace(" and [gone](../../missing)", ""), encoding="utf-8"
    )
    site = tmp_path / "site"
    assert main(["build", "--no-cache", str(course), "-o", str(site)]) == 0, capsys.readouterr().err
    section = (site / "core-numpy" / "index.html").read_text(encoding="utf-8")
    assert 'href="../basics/">basics</a>' in section
    assert 'href="../numpy-numpy/">the tutorial</a>' in section
    tutorial = (site / "numpy-numpy" / "index.html").read_text(encoding="utf-8")
    assert 'href="../core-numpy/">the section</a>' in tutorial
    assert 'href="../a/">A</a>' in tutorial
    page = (site / "basics" / "index.html").read_text(encoding="utf-8")
    assert 'href="../a/">A</a>' in page
    assert 'href="../numpy-numpy/#arrays">the tutorial</a>' in page
    assert 'href="../numpy-numpy/">by name</a>' in page
    first = (site / "a" / "index.html").read_text(encoding="utf-8")
    assert 'href="../core-numpy/">NumPy</a>' in first


def test_lessons_of_one_name_each_get_a_slug_no_other_lesson_has() -> None:
    front = "---\ntitle: T\nlesson: {n}\nlang: en\n---\nBody.\n"
    paths = ["numpy.md", "core/numpy.md", "other/core/numpy.md", "core-numpy.md", "x/y.md"]
    lessons = {path: front.format(n=n) for n, path in enumerate(paths, start=1)}
    notes: list[str] = []
    slugs = distinct_slugs(lessons, notes)
    assert slugs["numpy.md"] == lessons["numpy.md"]  # at the root: its name is its own
    assert "lesson: 2\nslug: core-numpy-2\nlang" in slugs["core/numpy.md"]
    assert "lesson: 3\nslug: other-core-numpy\nlang" in slugs["other/core/numpy.md"]
    assert (
        slugs["core-numpy.md"] == lessons["core-numpy.md"] and slugs["x/y.md"] == lessons["x/y.md"]
    )
    assert len(notes) == 2
