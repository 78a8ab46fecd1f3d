"""Re-run a lesson's code cells in one kernel and compare what each shows with its block.

Running and checking are two steps: :func:`run_code_cells` produces outcomes (through an
injected :class:`~pizarra.check.kernel.execute.CodeRunner` and an optional
:class:`~pizarra.check.cell_cache.ResultCache`), :func:`check_code_cells` turns them into
diagnostics, and :func:`pizarra.check.update_outputs.update_outputs` reuses the same
outcomes to rewrite the blocks. Whatever a cell prints is untrusted text: diagnostics
quote it only after :func:`plain` has made control characters visible.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from dataclasses import dataclass

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.check.animation_frames import dropped_frames
from pizarra.check.cell_cache import ResultCache, imported_modules, same_output
from pizarra.check.cell_text import (
    CELL_FRAME,
    bounded,
    diff,
    diff_runs,
    map_cell_lines,
    plain,
    size,
)
from pizarra.check.failure_hints import failure_hint, killed_hint
from pizarra.check.figure_svg import svg_problem, unsafe_figures
from pizarra.check.install_hint import (
    install_command,
    missing_module,
    missing_warning,
    not_installed,
)
from pizarra.check.kernel.execute import (
    DEFAULT_LESSON_TIMEOUT,
    DEFAULT_OUTPUT_LIMIT,
    CellRequest,
    CodeRunner,
    RunResult,
)
from pizarra.check.kernel.pump import FIGURE_LIMIT, LESSON_FIGURE_LIMIT
from pizarra.check.nondeterministic import nondeterministic_reason
from pizarra.source.blocks import CodeCell, Figure
from pizarra.source.model import Lesson
from pizarra.source.syntax.code_cell import LANGUAGES

__all__ = [
    "CellOutcome",
    "ResultCache",
    "cell_figures",
    "cell_tables",
    "check_code_cells",
    "imported_modules",
    "run_code_cells",
]

_UPDATE_HINT = "if the new output is right, run `pizarra check --update-outputs`"
NONDETERMINISTIC_HINT = (
    "seed the random generator (e.g. `np.random.default_rng(0)`), print something that "
    "does not change, or mark the cell `:nondeterministic:` (its output is then shown "
    "but not compared)"
)


@dataclass(frozen=True)
class CellOutcome:
    """One code cell and what running it produced."""

    cell: CodeCell
    """The cell that ran."""
    result: RunResult
    """What it printed and how it ended."""
    cached: bool
    """True when the result came from the cache and nothing ran."""
    index: int = 0
    """Its place among the lesson's cells that run (0-based; ``<cell-N>`` is N - 1)."""
    earlier: RunResult | None = None
    """An earlier run of the same cells that showed something else: the cell is
    nondeterministic."""
    confirmed: bool = False
    """True when two runs agreed on this result (a cache hit was). Anything that caches
    a whole lesson must keep only lessons whose outcomes are all confirmed, or a cell
    whose output changes between runs would pass from that cache."""


def cell_figures(outcomes: Sequence[CellOutcome]) -> dict[SourcePos, tuple[Figure, ...]]:
    """The figures each cell drew that a reader sees (not under ``remove-output``)."""
    hidden = {"remove-output", "remove-cell"}
    return {
        o.cell.pos: o.result.figures
        for o in outcomes
        if o.result.ok
        and o.result.figures
        and not o.cell.tags & hidden
        and not any(svg_problem(f.svg) for f in o.result.figures)
    }


def cell_tables(outcomes: Sequence[CellOutcome]) -> dict[SourcePos, str]:
    """The DataFrame each cell showed, as its untrusted ``text/html``, where a reader sees
    its output: the page shows the table, the ``{output}`` block its text, compared."""
    hidden = {"remove-output", "remove-cell"}
    return {
        o.cell.pos: o.result.html
        for o in outcomes
        if o.result.ok and o.result.html and o.cell.output is not None and not o.cell.tags & hidden
    }


def runnable_cells(lesson: Lesson) -> list[CodeCell]:
    """The cells the kernel runs, in order: every known language, not ``skip-execution``."""
    return [c for c in lesson.code_cells() if c.language in LANGUAGES and c.runs]


def run_code_cells(
    lesson: Lesson,
    runner: CodeRunner,
    cache: ResultCache | None,
    lesson_timeout: float = DEFAULT_LESSON_TIMEOUT,
) -> list[CellOutcome]:
    """Run the lesson's cells in one kernel, or take them all from the cache.

    Only a lesson whose every cell has a confirmed entry is answered from the cache; a
    cell that failed stops the run, and the cells after it have no outcome.
    """
    cells = runnable_cells(lesson)
    if not cells:
        return []
    memory = lesson.kernel_memory * 1024**2 if lesson.kernel_memory else None
    keys = cache.keys(cells, memory) if cache is not None else [""] * len(cells)
    entries = [cache.get(k) if cache is not None else None for k in keys]
    if cache is not None and all(e is not None and e.confirmed for e in entries):
        return [
            CellOutcome(c, e.result, cached=True, index=i, confirmed=True)
            for i, (c, e) in enumerate(zip(cells, entries, strict=True))
            if e is not None
        ]
    folder = str(lesson.path.parent)
    requests = [CellRequest(c.code, c.timeout, "raises-exception" in c.tags, folder) for c in cells]
    results = [not_installed(result) for result in runner(requests, lesson_timeout, memory)]
    outcomes = []
    for index, (cell, key, entry, result) in enumerate(
        zip(cells, keys, entries, results, strict=False)
    ):
        agrees = entry is not None and same_output(entry.result, result)
        volatile = cell.nondeterministic or bool(nondeterministic_reason(result.stdout))
        earlier = None
        if entry is not None and not agrees and result.ok and not volatile:
            earlier = entry.result
        seen_twice = entry is not None and (agrees or volatile)
        if cache is not None:
            cache.put(key, result, confirmed=seen_twice)
        outcomes.append(CellOutcome(cell, result, False, index, earlier, seen_twice))
    return outcomes


def check_code_cells(
    lesson: Lesson,
    outcomes: list[CellOutcome],
    output_limit: int = DEFAULT_OUTPUT_LIMIT,
    pin: bool = False,
) -> list[Diagnostic]:
    """Diagnostics for every cell: wrong language, failure, or output unlike its block.

    ``output_limit`` is only quoted in the message about a flooded output; pass the
    runner's limit when it is not the default. A cell printing output with no
    ``{output}`` block is shown as this build printed it, unless ``pin`` (``--strict``,
    front matter ``pin_outputs: true``) requires every output pinned: then it is an error.
    """
    by_pos = {o.cell.pos: o for o in outcomes}
    code_lines, path = [c.code_line for c in runnable_cells(lesson)], lesson.display_path
    diagnostics: list[Diagnostic] = []
    for cell in lesson.code_cells():
        if cell.language not in LANGUAGES:
            diagnostics.append(
                Diagnostic(
                    cell.pos,
                    f"only python code cells can run, not {plain(cell.language)!r}",
                    hint="write ```{code-cell} python```",
                )
            )
        elif (outcome := by_pos.get(cell.pos)) is not None:
            memory = lesson.kernel_memory
            diagnostics.extend(_check_one(path, outcome, output_limit, code_lines, pin, memory))
    return diagnostics


def _check_one(
    path: str,
    outcome: CellOutcome,
    limit: int,
    code_lines: Sequence[int],
    pin: bool = False,
    memory: int | None = None,
) -> list[Diagnostic]:
    cell, result = outcome.cell, outcome.result
    if result.missing_packages:
        return [missing_warning(cell, result.missing_packages)]
    if result.timed_out:
        return [_timeout(cell, result)]
    if (stopped := _stopped(result, limit)) is not None:
        return [Diagnostic(cell.pos, stopped[0], hint=stopped[1])]
    if result.exit_code != 0:
        return [_failure(path, outcome, code_lines, memory)]
    found = [*unsafe_figures(cell.pos, result.figures), *dropped_frames(cell.pos, result.figures)]
    if result.stderr.strip():
        found.append(
            Diagnostic(
                cell.pos,
                "the code cell wrote to stderr",
                detail=bounded(map_cell_lines(result.stderr, path, code_lines), tail=True),
                severity=Severity.WARNING,
            )
        )
    if result.figures and not cell.alt:
        found.append(
            Diagnostic(
                cell.pos,
                "the code cell draws a figure without a text alternative",
                hint="describe what the figure shows in an `:alt:` option",
                severity=Severity.WARNING,
            )
        )
    actual = _with_final_newline(result.stdout)
    reason = nondeterministic_reason(actual)
    if (
        reason
        and (pin or cell.output is not None)
        and not cell.tags & {"remove-output", "remove-cell", "nondeterministic"}
    ):
        found.append(
            Diagnostic(
                cell.pos,
                f"the code cell's output shows {reason}, which changes between runs: "
                "it is not compared with an {output} block",
                hint="tag the cell `nondeterministic` (shown, not compared) or `remove-output`",
                detail=bounded(actual, 5),
                severity=Severity.WARNING,
            )
        )
        return found
    if cell.output is None:  # shown as this run printed it: nothing to compare
        if pin and actual and not cell.tags & {"remove-output", "remove-cell", "nondeterministic"}:
            found.append(
                Diagnostic(
                    cell.pos,
                    "the code cell prints output but no {output} block pins it",
                    hint="run `pizarra check --update-outputs` to add it (every output is "
                    "pinned under --strict or `pin_outputs: true`)",
                    detail=bounded(actual, 20),
                )
            )
        return found
    if outcome.earlier is not None:
        found.append(_unstable(cell, outcome.earlier, result))
        return found
    expected = _with_final_newline(cell.output.text)
    if actual != expected and not cell.nondeterministic:
        found.append(
            Diagnostic(
                cell.pos,
                "the code cell's output differs from its {output} block",
                hint=_mismatch_hint(expected, actual),
                detail=diff(expected, actual, f"{path}:{cell.output.pos.line}"),
            )
        )
    return found


def _stopped(result: RunResult, limit: int) -> tuple[str, str] | None:
    """The message and hint for a cell stopped at one of the kernel's limits, if it was."""
    if result.figures_too_large:
        return (
            f"the code cell's figures come to more than {size(FIGURE_LIMIT)} of SVG "
            "and it was stopped",
            "plot fewer points or smaller images (every 100th of a long series, a "
            "histogram, a downsampled array); dense plots are already drawn as pictures",
        )
    if result.lesson_figures_too_large:
        return (
            f"the lesson's figures come to more than {size(LESSON_FIGURE_LIMIT)} of SVG "
            "with this cell's, and it was stopped",
            "draw fewer or smaller figures, or split the lesson in two",
        )
    if result.protocol_error:
        return (
            "the code cell wrote on the kernel's private answer channel "
            f"({plain(result.protocol_error)}), and the kernel was stopped",
            "leave pizarra's kernel alone: print results, do not write to its file descriptors",
        )
    if result.truncated:
        return (
            f"the code cell printed more than {size(limit)} and was stopped",
            "print a summary (a shape, a few values) instead of the whole data",
        )
    return None


def _timeout(cell: CodeCell, result: RunResult) -> Diagnostic:
    if result.lesson_timed_out:
        return Diagnostic(
            cell.pos,
            f"the lesson's cells did not finish within {DEFAULT_LESSON_TIMEOUT:g} s in all; "
            "this cell was running",
            hint="make the cells faster, or move slow computations out of the lesson",
        )
    return Diagnostic(
        cell.pos,
        f"the code cell did not finish within {cell.timeout:g} s",
        hint=f"make it faster, or allow more seconds with a `:timeout: "
        f"{max(60, int(cell.timeout * 2))}` option",
    )


def unstable_diagnostic(cell: CodeCell, first: RunResult, second: RunResult | None) -> Diagnostic:
    """An error at a cell whose two runs showed different things (or whose second failed)."""
    return _unstable(cell, first, second)


def _unstable(cell: CodeCell, first: RunResult, second: RunResult | None) -> Diagnostic:
    if second is None or not second.ok:
        return Diagnostic(
            cell.pos,
            "the code cell's output was not written: running the lesson again did not "
            "reach this cell cleanly",
            hint=NONDETERMINISTIC_HINT,
        )
    if first.stdout != second.stdout:
        detail = diff_runs(first.stdout, second.stdout)
    else:
        detail = "the figures it draws differ between the two runs"
    return Diagnostic(
        cell.pos,
        "the code cell's output changes between runs, so it cannot be checked",
        hint=NONDETERMINISTIC_HINT,
        detail=detail,
    )


def _failure(
    path: str, outcome: CellOutcome, code_lines: Sequence[int], memory: int | None
) -> Diagnostic:
    """An exception (with the traceback mapped to the lesson) or an abnormal exit."""
    cell, result = outcome.cell, outcome.result
    detail = bounded(map_cell_lines(result.stderr, path, code_lines), tail=True)
    code = result.exit_code
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        hint = killed_hint(memory) if name == "SIGKILL" else ""
        message = f"the code cell was killed by signal {name}"
        return Diagnostic(cell.pos, message, hint=hint, detail=detail)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    if code == 1 and lines and lines[-1].startswith(_MAGIC_ERROR):
        return Diagnostic(
            _innermost_line(result.stderr, outcome),
            plain(lines[-1].removeprefix(_MAGIC_ERROR).strip())[:300],
            hint="Jupyter runs it, pizarra's kernel does not: tag the cell `skip-execution` "
            "(shown, not run), or write it in Python (`%time` is supported)",
        )
    if code == 1 and lines and CELL_FRAME.search(result.stderr):
        module = missing_module(lines[-1])
        bound = failure_hint(lines[-1].strip(), result.stderr, cell.code, memory)
        return Diagnostic(
            _innermost_line(result.stderr, outcome),
            f"the code cell raised {plain(lines[-1].strip())[:300]}",
            hint=f"install it: {install_command((module,))}"
            if module
            else bound or "tag the cell `raises-exception` if the error is what it shows",
            detail=detail,
        )
    return Diagnostic(cell.pos, f"the code cell exited with status {code}", detail=detail)


_MAGIC_ERROR = "pizarra.check.kernel.magics.MagicError: "
"""How a magic the kernel does not run ends its traceback (an internal name, not shown)."""


def _innermost_line(stderr: str, outcome: CellOutcome) -> SourcePos:
    """Where the error happened in the lesson: the cell's own last frame of the traceback."""
    cell = outcome.cell
    frames = [int(k) for n, k in CELL_FRAME.findall(stderr) if int(n) == outcome.index + 1]
    if frames and 1 <= frames[-1] <= len(cell.code.splitlines()):
        return SourcePos(cell.pos.path, cell.code_line + frames[-1] - 1, 1)
    return cell.pos


def _mismatch_hint(expected: str, actual: str) -> str:
    if "".join(expected.split()) == "".join(actual.split()):
        return f"they differ only in whitespace; {_UPDATE_HINT}"
    return _UPDATE_HINT


def _with_final_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"
