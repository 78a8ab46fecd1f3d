"""Front matter read by libyaml gives what the pure-Python parser gives, errors included."""

from __future__ import annotations

import pytest
import yaml

from pizarra.errors import SourcePos
from pizarra.syntax.yaml_source import load_mapping

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
