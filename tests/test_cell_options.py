"""A code cell's options, as ``:name: value`` lines or as a YAML ``---`` header."""

from __future__ import annotations

from pathlib import Path

from pizarra.source.blocks import CodeCell
from pizarra.source.lower import parse_lesson
from tests.support import lesson_from


def cell(source: str) -> tuple[CodeCell | None, list[str]]:
    lesson, errors = lesson_from(source)
    cells = list(lesson.code_cells()) if lesson is not None else []
    return (cells[0] if cells else None), errors


def test_option_lines_give_tags_timeout_caption_and_alt() -> None:
    found, errors = cell(
        "```{code-cell} ipython3\n:tags: [hide-input, raises-exception]\n:timeout: 5\n"
        ":caption: Growth of n²\n:alt: Two lines\n1 / 0\n```\n"
    )
    assert errors == []
    assert found is not None
    assert found.tags == {"hide-input", "raises-exception"}
    assert (found.timeout, found.caption, found.alt) == (5.0, "Growth of n²", "Two lines")
    assert found.code == "1 / 0\n"
    assert found.code_line == 16


def test_a_yaml_header_gives_the_same_options_and_the_code_line_after_it() -> None:
    found, errors = cell(
        "```{code-cell} python3\n---\ntags:\n  - remove-output\n  - skip-execution\n"
        "timeout: 12.5\nmystnb:\n  figure:\n    caption: From Jupyter Book\n  image:\n"
        "    alt: A curve\n---\nx = 1\n```\n"
    )
    assert errors == []
    assert found is not None
    assert found.tags == {"remove-output", "skip-execution"}
    assert not found.runs
    assert (found.timeout, found.caption, found.alt) == (12.5, "From Jupyter Book", "A curve")
    assert (found.code, found.code_line) == ("x = 1\n", 23)


def test_nondeterministic_is_a_flag_or_a_tag() -> None:
    flag, errors = cell("```{code-cell} python\n:nondeterministic:\nprint(id(1))\n```\n")
    tag, more = cell("```{code-cell} python\n:tags: [nondeterministic]\nprint(id(1))\n```\n")
    assert errors == more == []
    assert flag is not None and tag is not None
    assert flag.nondeterministic and tag.nondeterministic


def test_bad_options_are_errors_at_their_line() -> None:
    _, errors = cell("```{code-cell} python\n:tags: [hide-input\n:timeout: -1\nx = 1\n```\n")
    assert errors[0].startswith("prueba.md:12:1: error: option :tags: is not valid YAML")
    assert errors[1].startswith("prueba.md:13:1: error: option :timeout: must be a number")
    _, errors = cell("```{code-cell} python\n---\ncolour: red\n---\nx = 1\n```\n")
    assert errors[0].startswith("prueba.md:13:1: error: unknown cell option 'colour'")
    _, errors = cell("```{code-cell} python\n---\ntags: [a\n---\nx = 1\n```\n")
    assert "the cell's options is not valid YAML" in errors[0]
    _, errors = cell("```{code-cell} python\n---\ntags: []\nx = 1\n```\n")
    assert errors[0].startswith("prueba.md:12:1: error: the cell's YAML header (`---`) is never")


def test_an_unknown_tag_is_a_warning_naming_the_known_ones() -> None:
    found, errors = cell("```{code-cell} python\n:tags: [thebe-init, hide-input]\nx = 1\n```\n")
    assert found is not None and found.tags == {"hide-input"}
    [warning] = errors
    assert "warning: pizarra does not know the cell tag 'thebe-init'" in warning
    assert "known tags: hide-input, hide-output" in warning


def test_every_jupyter_language_name_is_accepted() -> None:
    for language in ("python", "python3", "ipython3", "ipython"):
        found, errors = cell(f"```{{code-cell}} {language}\nx = 1\n```\n")
        assert errors == [] and found is not None and found.language == language


def test_front_matter_cell_timeout_is_the_default_a_cell_may_override() -> None:
    source = (
        "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S.\ncell_timeout: 120\n---\n\n"
        "```{code-cell} python\nx = 1\n```\n\n"
        "```{code-cell} python\n:timeout: 5\nx = 2\n```\n"
    )
    lesson, errors = parse_lesson(Path("t.md"), "t.md", source)
    assert errors == [] and lesson is not None
    assert [c.timeout for c in lesson.code_cells()] == [120.0, 5.0]
    plain, _ = cell("```{code-cell} python\nx = 1\n```\n")
    assert plain is not None and plain.timeout == 30.0


def test_front_matter_kernel_memory_is_read_and_bounded() -> None:
    head = "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S.\nkernel_memory: {}\n---\n"
    lesson, errors = parse_lesson(Path("t.md"), "t.md", head.format(4096))
    assert errors == [] and lesson is not None and lesson.kernel_memory == 4096
    for bad in ("9000", "true", "'4 GiB'", "63"):
        _, errors = parse_lesson(Path("t.md"), "t.md", head.format(bad))
        assert [e.format().splitlines()[0][:54] for e in errors] == [
            "t.md:6:1: error: `kernel_memory` must be a whole numbe"
        ], bad


def test_a_bad_cell_timeout_is_an_error_at_its_line() -> None:
    source = "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S.\ncell_timeout: 9000\n---\n"
    _, errors = parse_lesson(Path("t.md"), "t.md", source)
    assert [e.format().splitlines()[0] for e in errors] == [
        "t.md:6:1: error: `cell_timeout` must be a number of seconds between 0 and 600, not 9000"
    ]


def test_hide_cell_folds_both_the_code_and_the_output() -> None:
    found, errors = cell("```{code-cell} python\n:tags: [hide-cell]\nprint(1)\n```\n")
    assert errors == [] and found is not None
    assert found.tags == {"hide-input", "hide-output"}
