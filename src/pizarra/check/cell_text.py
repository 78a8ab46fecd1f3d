"""How what a cell printed is quoted in a diagnostic: safe for a terminal, bounded, and
with the cell's own line numbers mapped to the lesson's."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

MAX_DETAIL_LINES = 80

CELL_FRAME = re.compile(r'File "<cell-(\d{1,6})>", line (\d{1,9})')
_CELL_WARNING = re.compile(r"^(\s*)<cell-(\d{1,6})>:(\d{1,9}):", re.MULTILINE)


def map_cell_lines(text: str, path: str, code_lines: Sequence[int]) -> str:
    """Rewrite ``File "<cell-N>", line K`` (and warnings' ``<cell-N>:K:``) to ``path:LINE``.

    ``code_lines`` gives the lesson line of the first line of code of each cell that runs.
    """

    def line(cell: str, k: str) -> str:
        index = int(cell) - 1
        if 0 <= index < len(code_lines):
            return f"{path}:{code_lines[index] + int(k) - 1}"
        return f"<cell-{cell}>:{k}"

    text = CELL_FRAME.sub(lambda m: line(m.group(1), m.group(2)), text)
    return _CELL_WARNING.sub(lambda m: f"{m.group(1)}{line(m.group(2), m.group(3))}:", text)


def diff(expected: str, actual: str, where: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(),
        actual.splitlines(),
        fromfile=f"expected (the {{output}} block at {where})",
        tofile="actual (what the cell printed)",
        lineterm="",
    )
    return bounded("\n".join(lines))


def diff_runs(first: str, second: str) -> str:
    lines = difflib.unified_diff(
        first.splitlines(), second.splitlines(), "one run", "another run", lineterm=""
    )
    return bounded("\n".join(lines))


_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def plain(text: str) -> str:
    """Make control and bidi characters visible, so quoted output cannot drive a terminal."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def bounded(text: str, max_lines: int = MAX_DETAIL_LINES, *, tail: bool = False) -> str:
    """Safe to print, and at most ``max_lines`` lines of at most 1000 characters.

    ``tail`` keeps the last lines (a traceback ends with the error), else the first.
    """
    lines = [line[:1000] for line in plain(text).splitlines()]
    if len(lines) <= max_lines:
        return "\n".join(lines)
    note = f"... ({len(lines) - max_lines} more lines left out)"
    if tail:
        return "\n".join([note, *lines[-max_lines:]])
    return "\n".join([*lines[:max_lines], note])


def size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n} bytes"
