"""Numbers for amsmath environments, counted per lesson as Jupyter Book counts them.

A formula is converted on its own, so math-core numbers every ``\\begin{equation}`` "(1)".
Here each numbered environment (``equation``, ``align``, ``gather``, ...; not the starred
forms) takes the lesson's next equation numbers, the same counter as ``$$ ... $$ (label)``:
one for ``equation`` and ``multline``, one per row for the others, none for a row with
``\\nonumber``, ``\\notag`` or the author's own ``\\tag``. The numbers are written into
the TeX as ``\\tag{n}``, which every converter sets like its own; a ``\\label{name}``
leaves the TeX and becomes a target with its row's number, so ``{eq}`name``` shows it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

ONE_NUMBER = frozenset({"equation", "multline"})
"""Environments numbered once, whatever their lines."""
PER_ROW = frozenset({"align", "gather", "flalign", "alignat", "eqnarray"})
"""Environments numbered on each row."""

_ENVIRONMENT = re.compile(r"\A\s*\\begin\{([a-z]+)\}(\{[^{}]*\})?(.*)\\end\{\1\}\s*\Z", re.DOTALL)
LABELS = re.compile(r"\\label\s*\{([^{}]*)\}")
"""A ``\\label{name}`` in an environment's TeX."""
_UNNUMBERED = re.compile(r"\\(?:nonumber|notag|tag\*?)(?![a-zA-Z])")
_TOKEN = re.compile(r"\\\\|\\begin\{|\\end\{|\\.|[{}]", re.DOTALL)


@dataclass(frozen=True)
class Numbered:
    """An environment with its numbers written in."""

    tex: str
    """The TeX to convert: ``\\tag{n}`` on each numbered row, no ``\\label``."""
    numbers: tuple[int, ...]
    """The numbers it took, in order."""
    labels: tuple[tuple[str, int | None], ...]
    """Each ``\\label``'s name and its row's number (None on an unnumbered row)."""


def number_environment(tex: str, next_number: Callable[[], int]) -> Numbered | None:
    """``tex`` numbered with ``next_number``, or None when it is no numbered environment."""
    match = _ENVIRONMENT.match(tex)
    if match is None or match.group(1) not in ONE_NUMBER | PER_ROW:
        return None
    name, argument, body = match.group(1), match.group(2) or "", match.group(3)
    rows = [body] if name in ONE_NUMBER else _rows(body)
    numbers: list[int] = []
    labels: list[tuple[str, int | None]] = []
    written: list[str] = []
    for index, row in enumerate(rows):
        names = LABELS.findall(row)
        row = LABELS.sub("", row)
        last_empty = index == len(rows) - 1 and index > 0 and not row.strip()
        number: int | None = None
        if not _UNNUMBERED.search(row) and not last_empty:
            number = next_number()
            numbers.append(number)
            row = f"{row.rstrip()}\\tag{{{number}}}"
        labels += [(label.strip(), number) for label in names]
        written.append(row)
    joined = "\\\\".join(written)
    numbered = f"\\begin{{{name}}}{argument}{joined}\\end{{{name}}}"
    return Numbered(numbered, tuple(numbers), tuple(labels))


def _rows(body: str) -> list[str]:
    """``body`` split at its top-level ``\\\\`` (not those of a nested environment or group)."""
    rows: list[str] = []
    depth = 0
    start = 0
    for token in _TOKEN.finditer(body):
        text = token.group()
        if text == "{":
            depth += 1
        elif text == "\\begin{":
            depth += 2  # the environment and its name's brace; the brace closes at once
        elif text == "}":
            depth -= 1
        elif text == "\\end{":
            pass  # the environment ends (-1) and its name's brace opens (+1)
        elif text == "\\\\" and depth == 0:
            rows.append(body[start : token.start()])
            start = token.end()
    rows.append(body[start:])
    return rows
