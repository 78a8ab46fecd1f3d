"""Front matter read by libyaml gives what the pure-Python parser gives, errors included."""

from __future__ import annotations

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
