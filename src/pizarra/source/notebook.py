"""A Jupyter notebook's cells -> lesson text, with the notebook's code cells and no others.

A notebook is untrusted, and what it shows as text must not become code in the lesson,
where code cells run at the next ``pizarra check``:

- each code cell and each stored output is fenced by :func:`~pizarra.source.fences.fence_for`,
  so no line of its text can close the fence and start markdown (or a cell) of its own;
- a cell's tags are plain words, written so that YAML reads them back as those words;
  any other tag (a newline and ``:timeout: 600`` in it...) is dropped with a note;
- each markdown cell stands alone, as Jupyter renders it: a fence or directive it leaves
  open is closed at its end, and a ``{code-cell}`` directive written in it, which
  Jupyter shows as a listing, becomes a ``{code-block}`` listing here too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from markdown_it.token import Token

from pizarra.base.yaml_compose import safe_load
from pizarra.source.fences import fence_for
from pizarra.source.markdown import block_parser

_TAG = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,99}\Z")
_DIRECTIVE = re.compile(r"\{([^}]*)\}")
_LITERAL = frozenset(
    {"code-cell", "code-block", "code", "sourcecode", "output", "math", "raw", "explorer"}
)
"""Directives whose body is not markdown, so never holds a directive."""
_END = "pizarra-end-of-cell"
_MAX_DEPTH = 16
"""Directives nested deeper are an error when the lesson is read, and are not looked into."""


def code_cell(
    source: str, metadata: dict[str, Any], outputs: list[Any], index: int, notes: list[str]
) -> str:
    """A ``{code-cell}`` and its ``{output}``, each fenced longer than any run inside it."""
    tags = _tags(metadata.get("tags"), index, notes)
    head = f":tags: [{', '.join(tags)}]\n" if tags else ""
    fence = fence_for(source)
    text = f"{fence}{{code-cell}} python\n{head}{source}\n{fence}"
    shown = ""
    for output in outputs:
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            shown += _text(output.get("text", ""))
        elif output.get("output_type") == "execute_result":
            shown += _text(output.get("data", {}).get("text/plain", "")) + "\n"
    if shown.strip():
        shown = shown.rstrip("\n")
        fence = fence_for(shown)
        text += f"\n\n{fence}{{output}}\n{shown}\n{fence}"
    return text


def markdown_cell(source: str, index: int, notes: list[str]) -> str:
    """``source`` with no block left open at its end and no ``{code-cell}`` in it."""
    lines = source.split("\n")
    for line in _code_cell_lines(source):
        lines[line] = lines[line].replace("{code-cell}", "{code-block}", 1)
        notes.append(
            f"cell {index}: a {{code-cell}} written in a markdown cell is kept as a"
            " {code-block} listing, shown and never run, as Jupyter shows it"
        )
    text = "\n".join(lines)
    for _ in range(_MAX_DEPTH):
        closing = _left_open(text)
        if closing is None:
            return text
        if not closing:
            break
        text += "\n" + closing
    raise ValueError(f"cell {index}: a markdown cell leaves a block open that cannot be closed")


def code_cell_count(text: str) -> int:
    """How many ``{code-cell}`` directives ``text`` holds, in directives' bodies too."""
    return len(_code_cell_lines(text))


def _text(value: object) -> str:
    """nbformat joins a multi-line output; a hand-made file may hold anything."""
    if isinstance(value, list):
        return "".join(str(part) for part in value)
    return value if isinstance(value, str) else ""


def _tags(raw: object, index: int, notes: list[str]) -> list[str]:
    tags: list[str] = []
    for tag in raw if isinstance(raw, list) else [] if raw is None else [raw]:
        if not isinstance(tag, str) or not _TAG.match(tag):
            notes.append(f"cell {index}: dropped the tag {tag!r}: a tag is one plain word")
            continue
        tags.append(tag if safe_load(tag) == tag else f'"{tag}"')
    return tags


def _code_cell_lines(text: str) -> list[int]:
    """The 0-based lines of ``text`` that open a ``{code-cell}``."""
    return sorted(set(_directive_lines(text, 0, 0)))


def _directive_lines(text: str, offset: int, depth: int) -> Iterator[int]:
    if depth > _MAX_DEPTH:
        return
    tokens = block_parser().parse("\n" + text)  # not at the start: no front matter
    for token in tokens:
        if token.type not in ("fence", "colon_fence") or token.map is None:
            continue
        match = _DIRECTIVE.match(token.info)
        if match is None:
            continue
        name = (match.group(1).split() or [""])[0]
        if name == "code-cell":
            yield offset + token.map[0] - 1
        elif name not in _LITERAL:
            yield from _directive_lines(token.content, offset + token.map[0], depth + 1)


def _left_open(text: str) -> str | None:
    """The line that closes the block ``text`` leaves open at its end, or None."""
    tokens = block_parser().parse("\n" + text + "\n\n" + _END + "\n")
    if any(t.type == "inline" and t.level == 1 and t.content == _END for t in tokens):
        return None
    open_block = _last_top_level(tokens)
    if open_block is not None and open_block.type in ("fence", "colon_fence"):
        return open_block.markup
    if open_block is not None and open_block.type.startswith("math_block"):
        return "$$"
    return None if open_block is None else ""


def _last_top_level(tokens: list[Token]) -> Token | None:
    top = [t for t in tokens if t.level == 0 and t.map is not None]
    return top[-1] if top else None
