"""Safe YAML with positions: what the front matter and declarations are read with.

PyYAML's composer keeps a mark (line, column) on every node; reading values from
nodes lets every validation error point at the exact key. Anchors and aliases are
refused: they let a few bytes expand into huge values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.yaml_compose import TOO_DEEP_HINT, TooDeep, compose

MAX_YAML_CHARS = 100_000
MAX_NUMBER_CHARS = 100
"""Longest integer scalar read; Python refuses to read more than 4,300 digits anyway."""
_INT_TAG = "tag:yaml.org,2002:int"


@dataclass(frozen=True)
class YamlDoc:
    """A parsed YAML mapping with the position of each top-level key."""

    values: dict[str, Any]
    """Plain Python values (safe types only)."""
    key_pos: dict[str, SourcePos]
    """Where each top-level key is written."""
    item_pos: dict[str, list[SourcePos]] = field(default_factory=dict)
    """For a top-level key holding a list: where each of its items starts."""

    def item(self, key: str, index: int, default: SourcePos) -> SourcePos:
        """Where item ``index`` (0-based) of the list under ``key`` starts."""
        items = self.item_pos.get(key, [])
        return items[index] if index < len(items) else self.key_pos.get(key, default)


def load_mapping(
    text: str, origin: SourcePos, what: str
) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """Parse ``text`` (whose first line is at ``origin``) as a YAML mapping."""
    if len(text) > MAX_YAML_CHARS:
        return None, [Diagnostic(origin, f"{what} is longer than {MAX_YAML_CHARS} characters")]
    try:
        node = compose(text)
    except TooDeep as exc:
        mark = exc.problem_mark
        pos = _at(origin, mark.line, mark.column) if mark is not None else origin
        return None, [Diagnostic(pos, f"{what} is {exc.problem}", hint=TOO_DEEP_HINT)]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _at(origin, mark.line, mark.column) if mark is not None else origin
        problem = exc.problem or exc.context or "invalid YAML"
        return None, [
            Diagnostic(
                pos, f"{what} is not valid YAML: {problem}", hint="check indentation and quotes"
            )
        ]
    except yaml.YAMLError as exc:
        at = getattr(exc, "position", 0)
        line = text.count("\n", 0, at)
        col = at - (text.rfind("\n", 0, at) + 1)
        return None, [
            Diagnostic(
                _at(origin, line, col),
                f"{what} is not valid YAML: {str(exc).splitlines()[0]}",
                hint="remove control characters; save the file as plain UTF-8 text",
            )
        ]
    if node is None:
        return YamlDoc({}, {}), []
    if not isinstance(node, yaml.MappingNode):
        return None, [Diagnostic(origin, f"{what} must be a mapping of `key: value` lines")]
    if _has_alias(node):
        return None, [Diagnostic(origin, f"{what} may not use YAML anchors or aliases")]
    duplicate = _duplicate_key(node)
    if duplicate is not None:
        first, again = duplicate
        return None, [
            Diagnostic(
                _at(origin, again.start_mark.line, again.start_mark.column),
                f"{what} gives {again.value!r} twice (first on line "
                f"{origin.line + first.start_mark.line})",
                hint="keep one of them: YAML would silently use the last",
            )
        ]
    long_number = _long_number(node)
    if long_number is not None:
        return None, [
            Diagnostic(
                _at(origin, long_number.start_mark.line, long_number.start_mark.column),
                f"{what} has a number longer than {MAX_NUMBER_CHARS} characters",
                hint="numbers here are lesson numbers and settings: write a small one",
            )
        ]
    loader = yaml.SafeLoader("")
    try:
        values = loader.construct_document(node)
    except yaml.YAMLError as exc:
        return None, [Diagnostic(origin, f"{what} is not valid YAML: {exc}")]
    finally:
        loader.dispose()
    key_pos = {
        str(key.value): _at(origin, key.start_mark.line, key.start_mark.column)
        for key, _ in node.value
        if isinstance(key, yaml.ScalarNode)
    }
    item_pos = {
        str(key.value): [_at(origin, i.start_mark.line, i.start_mark.column) for i in value.value]
        for key, value in node.value
        if isinstance(key, yaml.ScalarNode) and isinstance(value, yaml.SequenceNode)
    }
    return YamlDoc(dict(values), key_pos, item_pos), []


def _at(origin: SourcePos, line: int, column: int) -> SourcePos:
    return SourcePos(origin.path, origin.line + line, column + 1)


def _has_alias(root: yaml.Node) -> bool:
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return True
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return False


def _long_number(root: yaml.Node) -> yaml.ScalarNode | None:
    """The first integer scalar too long to read, if any (the tree has no aliases)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT_TAG and len(str(node.value)) > MAX_NUMBER_CHARS:
                return node
        elif isinstance(node, yaml.MappingNode):
            for key, value in reversed(node.value):
                stack.extend((value, key))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    return None


def _duplicate_key(root: yaml.Node) -> tuple[yaml.ScalarNode, yaml.ScalarNode] | None:
    """The first key given twice in one mapping (the tree has no aliases), with its
    first occurrence."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, yaml.ScalarNode] = {}
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        return seen[key.value], key
                    seen[key.value] = key
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    return None
