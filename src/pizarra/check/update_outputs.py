"""Rewrite ``{output}`` blocks with what the cells print now (``--update-outputs``).

Only asked for explicitly: the build never changes a lesson. A cell that failed, timed
out or flooded its output keeps its block untouched, because its stdout is not an answer
anyone meant to publish. Nor is an output seen only once: :func:`confirm_changes` runs
the lesson a second time, and a cell whose two runs differ is an error, not a new block.
A ``:nondeterministic:`` cell gets a block only when it has none. Everything outside the
rewritten blocks stays byte for byte.
"""

from __future__ import annotations

import re

from pizarra.base.errors import Diagnostic
from pizarra.check.cell_cache import same_output
from pizarra.check.code_cells import (
    NONDETERMINISTIC_HINT,
    CellOutcome,
    run_code_cells,
    unstable_diagnostic,
)
from pizarra.check.kernel.execute import CodeRunner
from pizarra.check.nondeterministic import nondeterministic_reason
from pizarra.source.fences import fence_for
from pizarra.source.model import Lesson


def confirm_changes(
    lesson: Lesson, outcomes: list[CellOutcome], runner: CodeRunner
) -> tuple[list[CellOutcome], list[Diagnostic]]:
    """The outcomes whose new block a second run agrees with, and an error for each other.

    Outcomes already seen twice (``confirmed``, e.g. from the cache) need no second run;
    the lesson runs again only when a block would change on the strength of one run.
    """
    lines = lesson.source_text.splitlines(keepends=True)
    changing = [o for o in outcomes if not o.confirmed and _edit(o, lines, "\n") is not None]
    if not changing:
        return outcomes, []
    again = {o.cell.pos: o.result for o in run_code_cells(lesson, runner, None)}
    kept, errors = [], []
    for outcome in outcomes:
        second = again.get(outcome.cell.pos)
        checked = outcome in changing and not outcome.cell.nondeterministic
        if checked and (second is None or not same_output(outcome.result, second)):
            errors.append(unstable_diagnostic(outcome.cell, outcome.result, second))
            continue
        what = nondeterministic_reason(outcome.result.stdout) if checked else ""
        if what:
            errors.append(
                Diagnostic(
                    outcome.cell.pos,
                    f"the code cell's output holds {what}, which changes from one build to "
                    "another: it was not written",
                    hint=NONDETERMINISTIC_HINT,
                )
            )
            continue
        kept.append(outcome)
    return kept, errors


_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})")


def update_outputs(lesson: Lesson, outcomes: list[CellOutcome]) -> str | None:
    """The new file text, or None when every block already matches (or nothing ran)."""
    lines = lesson.source_text.splitlines(keepends=True)
    newline = "\r\n" if "\r\n" in lesson.source_text else "\n"
    edits: list[tuple[int, int, list[str]]] = []
    for outcome in outcomes:
        edit = _edit(outcome, lines, newline)
        if edit is not None:
            edits.append(edit)
    if not edits:
        return None
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += newline
    for start, end, block in sorted(edits, key=lambda e: e[0], reverse=True):
        lines[start:end] = block
    return "".join(lines)


def _edit(
    outcome: CellOutcome, lines: list[str], newline: str
) -> tuple[int, int, list[str]] | None:
    """``(start, end, new lines)`` replacing ``lines[start:end]``, or None to keep them."""
    cell, result = outcome.cell, outcome.result
    if not result.ok or (cell.nondeterministic and cell.output is not None):
        return None
    stdout = _with_final_newline(result.stdout)
    output = cell.output
    if output is None:
        if not stdout:
            return None
        indent = _indent(lines, cell.pos.line - 1)
        block = _block(stdout, indent, "`", newline)
        at = min(cell.fence_end_line, len(lines))
        after = [newline] if at < len(lines) and lines[at].strip() else []
        return at, at, [newline, *block, *after]
    if _with_final_newline(output.text) == stdout:
        return None
    match = _FENCE.match(lines[output.start_line]) if output.start_line < len(lines) else None
    indent, char = (match.group(1), match.group(2)[0]) if match else ("", "`")
    return output.start_line, output.end_line, _block(stdout, indent, char, newline)


def _block(stdout: str, indent: str, char: str, newline: str) -> list[str]:
    """An ``{output}`` fence around ``stdout``, longer than any fence-like run inside."""
    fence = fence_for(stdout, char)
    body = [indent + line + newline if line else newline for line in stdout.split("\n")[:-1]]
    return [f"{indent}{fence}{{output}}{newline}", *body, f"{indent}{fence}{newline}"]


def _with_final_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def _indent(lines: list[str], index: int) -> str:
    """The whitespace before the cell's opening fence (cells may sit in list items)."""
    if 0 <= index < len(lines):
        match = _FENCE.match(lines[index])
        if match:
            return match.group(1)
    return ""
