"""Front matter read by libyaml gives what the pure-Python parser gives, errors included."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pizarra.base.errors import SourcePos
from pizarra.base.yaml_compose import compose
from pizarra.source.explorers.yamlread import Reader
from pizarra.source.syntax.yaml_source import load_mapping

ORIGIN = SourcePos("lesson.md", 2, 1)
GOOD = """title: "Potencias"
lesson: 7
variables:
  n: positive
  d_k: positive
sources:
  - id: mml
    url: https://mml-book.github.io/
  - {id: numpy, title: 'NumPy: power'}
macros:
  \\R: \\mathbb{R}
big: 12345678901234567890
when: 2024-01-02
"""
BAD = [
    "a: [1, 2\nb: 3",
    "a: b: c",
    "\x07x: 1",
    "a:\n  - 1\n - 2",
    "key: 'unterminated",
    "a: &x 1\nb: *x",
    "n: " + "9" * 101,
    "- just\n- a list",
]


def without_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)


def test_libyaml_is_there_to_be_used() -> None:
    assert yaml.__with_libyaml__


@pytest.mark.parametrize("text", [GOOD, *BAD], ids=repr)
def test_same_values_positions_and_errors_with_and_without_libyaml(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = load_mapping(text, ORIGIN, "front matter")
    without_libyaml(monkeypatch)
    slow = load_mapping(text, ORIGIN, "front matter")
    assert fast == slow
    if text == GOOD:
        assert fast[0] is not None and fast[0].values["lesson"] == 7
    else:
        assert fast[0] is None and fast[1]


def shape(node: yaml.Node | None) -> object:
    """A node tree as plain data: tag, value, style and where it starts (a plain scalar's
    style is None from one parser and "" from the other; nothing reads it)."""
    if node is None:
        return None
    where = (node.start_mark.line, node.start_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return (node.tag, node.value, node.style or None, where)
    if isinstance(node, yaml.SequenceNode):
        return (node.tag, [shape(item) for item in node.value], where)
    assert isinstance(node, yaml.MappingNode)
    return (node.tag, [(shape(k), shape(v)) for k, v in node.value], where)


EXPLORER = """type: growth
variable: {name: n, values: [1, 2, 4, 8], label: "tokens"}
series:
  - {label: "n^2", expr: "n^2"}
  - label: lineal
    expr: n
"""


@pytest.mark.parametrize("text", [GOOD, EXPLORER, "", "a: 1"], ids=repr)
def test_libyaml_composes_the_same_nodes(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = shape(compose(text))
    without_libyaml(monkeypatch)
    assert fast == shape(compose(text))


@pytest.mark.parametrize("text", BAD[:5], ids=repr)
def test_explorer_declarations_report_the_same_problems(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fence = SourcePos("lesson.md", 10, 1)
    fast = Reader(fence)
    fast.compose(text)
    without_libyaml(monkeypatch)
    slow = Reader(fence)
    slow.compose(text)
    assert fast.diagnostics == slow.diagnostics and fast.diagnostics


DEEP = [
    "x: " + "[" * 20000 + "]" * 20000,
    "x: " + "{a: " * 5000 + "1" + "}" * 5000,
    "x:\n" + "".join(" " * i + "- \n" for i in range(1, 400)),
    "x: " + "[" * 60 + "]" * 60,
]


@pytest.mark.parametrize("text", DEEP, ids=lambda t: repr(t[:12]))
def test_deep_nesting_is_an_error_at_its_line_with_or_without_libyaml(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = load_mapping(text, ORIGIN, "the front matter")
    without_libyaml(monkeypatch)
    slow = load_mapping(text, ORIGIN, "the front matter")
    assert fast == slow
    assert fast[0] is None and len(fast[1]) == 1
    error = fast[1][0]
    assert error.message == "the front matter is nested too deeply (more than 50 levels)"
    assert error.hint and error.pos.line >= ORIGIN.line


def test_fifty_levels_are_read() -> None:
    doc, errors = load_mapping("x: " + "[" * 49 + "]" * 49, ORIGIN, "the front matter")
    assert not errors and doc is not None


def test_deep_explorer_declaration_is_an_error_at_its_line() -> None:
    reader = Reader(SourcePos("lesson.md", 10, 1))
    assert reader.compose("type: growth\nvariable: " + "[" * 5000 + "]" * 5000) is None
    [error] = reader.diagnostics
    assert "nested too deeply" in error.message and error.pos.line == 12


@pytest.mark.parametrize(
    "body",
    [
        "---\ntags: " + "[" * 20000 + "]" * 20000 + "\n---\nprint(1)\n",
        ":tags: " + "[" * 20000 + "]" * 20000 + "\nprint(1)\n",
        ":mystnb: " + "{a: " * 3000 + "1" + "}" * 3000 + "\nprint(1)\n",
    ],
    ids=["yaml-header", "tags-line", "mystnb-line"],
)
def test_deep_cell_options_are_an_error(body: str) -> None:
    from pizarra.source.syntax.cell_options import read_cell_options

    _, errors = read_cell_options(body, SourcePos("lesson.md", 5, 1))
    assert [e for e in errors if "nested too deeply" in e.message], errors


def test_deep_course_yaml_is_an_error_at_its_line(tmp_path: Path) -> None:
    from pizarra.source.course import lesson_files, load_course

    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-a.md").write_text(
        '---\ntitle: "A"\nlesson: 1\nlang: en\nsummary: "s"\n---\n\nx\n'
    )
    (tmp_path / "course.yaml").write_text(
        "title: C\nlang: en\nx: "
        + "[" * 20000
        + "]" * 20000
        + "\nlessons:\n  - number: 1\n    file: lessons/01-a.md\n"
    )
    assert lesson_files(tmp_path) == []
    course, errors = load_course(tmp_path)
    assert course is None
    assert [(e.pos.line, "nested too deeply" in e.message) for e in errors] == [(3, True)]
