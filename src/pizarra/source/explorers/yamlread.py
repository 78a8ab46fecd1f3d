"""Read an explorer's YAML body with a source position for every key and value.

``yaml.safe_load`` forgets where values were, so the body is *composed* into
nodes (which keep their marks) and read field by field. Each reader method
records a :class:`~pizarra.base.errors.Diagnostic` and returns ``None`` on a bad
value, so one build reports every mistake in a declaration at once.
"""

from __future__ import annotations

import difflib

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.yaml_compose import TOO_DEEP_HINT, TooDeep, compose

MAX_BODY = 20_000
"""Longest declaration accepted, in characters."""

_INT_TAG = "tag:yaml.org,2002:int"
_NULL_TAG = "tag:yaml.org,2002:null"


class Reader:
    """Typed access to composed YAML nodes, collecting diagnostics."""

    def __init__(self, fence: SourcePos):
        self.fence = fence
        """The directive's opening fence; the body starts on the next line."""
        self.diagnostics: list[Diagnostic] = []
        """Problems found so far."""

    def pos(self, node: Node, offset: int = 0) -> SourcePos:
        """Where ``node`` is in the lesson file, ``offset`` columns into it."""
        mark = node.start_mark
        return SourcePos(self.fence.path, self.fence.line + 1 + mark.line, mark.column + 1 + offset)

    def error(self, pos: SourcePos, message: str, hint: str = "") -> None:
        self.diagnostics.append(Diagnostic(pos, message, hint))

    def compose(self, body: str) -> Node | None:
        """The root node of ``body``; ``None`` (with a diagnostic) if it is not YAML."""
        if len(body) > MAX_BODY:
            self.error(self.fence, f"explorer declaration longer than {MAX_BODY} characters")
            return None
        try:
            node = compose(body)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = self.fence.line + 1 + (mark.line if mark else 0)
            col = mark.column + 1 if mark else 1
            at = SourcePos(self.fence.path, line, col)
            if isinstance(exc, TooDeep):
                self.error(at, f"the declaration is {exc.problem}", TOO_DEEP_HINT)
            else:
                self.error(at, f"invalid YAML: {exc.problem or exc.context or 'invalid YAML'}")
            return None
        except yaml.YAMLError as exc:
            self.error(self.fence, f"invalid YAML: {exc}")
            return None
        if node is None:
            self.error(self.fence, "empty explorer declaration", "write its YAML in the block")
        return node

    def mapping(
        self, node: Node, what: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> dict[str, Node] | None:
        """The keys of a mapping; unknown, duplicate and missing keys are errors."""
        if not isinstance(node, MappingNode):
            self.error(self.pos(node), f"{what} must be a mapping of keys to values")
            return None
        allowed = required + optional
        found: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, ScalarNode) else ""
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f"did you mean {close[0]!r}?" if close else "allowed: " + ", ".join(allowed)
                self.error(self.pos(key_node), f"unknown key {key!r} in {what}", hint)
            elif key in found:
                self.error(self.pos(key_node), f"duplicate key {key!r} in {what}")
            else:
                found[key] = value_node
        missing = [k for k in required if k not in found]
        for key in missing:
            self.error(self.pos(node), f"{what} is missing the key {key!r}")
        return None if missing else found

    def sequence(self, node: Node, what: str, limit: int) -> list[Node] | None:
        """The items of a non-empty list of at most ``limit`` items."""
        if not isinstance(node, SequenceNode) or not node.value:
            self.error(self.pos(node), f"{what} must be a non-empty list")
            return None
        if len(node.value) > limit:
            self.error(self.pos(node), f"{what} has more than {limit} items")
            return None
        return list(node.value)

    def text(self, node: Node, what: str, max_length: int = 500) -> str | None:
        """A scalar's text as written (``no`` stays ``"no"``, ``2`` stays ``"2"``)."""
        if not isinstance(node, ScalarNode) or (node.tag == _NULL_TAG and not node.value):
            self.error(self.pos(node), f"{what} must be a text")
            return None
        value = str(node.value).strip()
        if not value:
            self.error(self.pos(node), f"{what} must not be empty")
            return None
        if len(value) > max_length:
            self.error(self.pos(node), f"{what} is longer than {max_length} characters")
            return None
        return value

    def integer(self, node: Node, what: str, low: int, high: int) -> int | None:
        """A YAML integer between ``low`` and ``high``."""
        if not isinstance(node, ScalarNode) or node.tag != _INT_TAG:
            self.error(self.pos(node), f"{what} must be an integer")
            return None
        text = str(node.value).replace("_", "")
        if len(text) > 40 or not text.lstrip("+-").isdigit():
            self.error(self.pos(node), f"{what} must be a decimal integer")
            return None
        value = int(text)
        if not low <= value <= high:
            self.error(self.pos(node), f"{what} must be between {low} and {high}")
            return None
        return value

    def value_offset(self, node: Node) -> int:
        """Columns from a scalar's mark to its first character (1 for quoted styles)."""
        return 1 if isinstance(node, ScalarNode) and node.style in ("'", '"') else 0

    def single_line(self, node: Node) -> bool:
        """Whether the scalar sits on one line, so a column inside it is exact."""
        return node.start_mark.line == node.end_mark.line and not (
            isinstance(node, ScalarNode) and node.style in ("|", ">")
        )
