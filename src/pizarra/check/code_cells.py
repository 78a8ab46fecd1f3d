"""Re-run every code cell and compare what it prints with its ``{output}`` block.

Running and checking are two steps: :func:`run_code_cells` produces outcomes (through an
injected :class:`~pizarra.execute.CodeRunner` and an optional :class:`ResultCache`),
:func:`check_code_cells` turns them into diagnostics, and
:func:`pizarra.check.update_outputs.update_outputs` reuses the same outcomes to rewrite
the blocks. Whatever a cell prints is untrusted text: diagnostics quote it only after
:func:`plain` has made control characters visible.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import hashlib
import importlib.metadata
import json
import re
import signal
import sys
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from pizarra.errors import Diagnostic, Severity, SourcePos
from pizarra.execute import CELL_FILENAME, DEFAULT_OUTPUT_LIMIT, CodeRunner, RunResult
from pizarra.fileio import write_cache
from pizarra.model import CodeCell, Lesson
from pizarra.syntax.code_cell import LANGUAGES

CACHE_FORMAT = 1
"""Bumped whenever the meaning of a cached entry changes."""

_MAX_DETAIL_LINES = 80
_UPDATE_HINT = "if the new output is right, run `pizarra check --update-outputs`"


@dataclass(frozen=True)
class CellOutcome:
    """One code cell and what running it produced."""

    cell: CodeCell
    """The cell that ran."""
    result: RunResult
    """What it printed and how it ended."""
    cached: bool
    """True when the result came from the cache and nothing ran."""


class ResultCache:
    """Clean results of earlier runs, one JSON file per key, so a warm build runs nothing.

    The key hashes the code, its timeout, the Python version and the versions of the
    third-party packages the code imports (found with :mod:`ast`); the standard library
    is covered by the Python version. Imports hidden from ``ast`` (``__import__``,
    ``importlib``) and the dependencies of imported packages are not part of the key.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        """Where the entries live (created on first write)."""
        self._distributions: Mapping[str, list[str]] | None = None

    @classmethod
    def under(cls, root: Path) -> ResultCache:
        """The cache in ``root/cells`` (``root`` is pizarra's cache folder)."""
        return cls(root / "cells")

    def key(self, code: str, timeout: float) -> str:
        """A hex digest that changes whenever the result of running ``code`` could."""
        payload = {
            "format": CACHE_FORMAT,
            "code": code,
            "timeout": timeout,
            "python": [sys.implementation.name, sys.version],
            "packages": self._package_versions(imported_modules(code)),
        }
        blob = json.dumps(payload, sort_keys=True, ensure_ascii=True).encode("ascii")
        return hashlib.sha256(blob).hexdigest()

    def get(self, key: str) -> RunResult | None:
        """The stored result, or None when absent or unreadable."""
        try:
            data = json.loads((self.directory / f"{key}.json").read_text("utf-8"))
            return _result_from_json(data)
        except (OSError, ValueError, TypeError, KeyError):
            return None

    def put(self, key: str, result: RunResult) -> None:
        """Store a clean run; failures are not kept, since they may be transient.

        Writing is best effort: a read-only or full disk only costs a re-run later.
        """
        if not result.ok:
            return
        text = json.dumps({"format": CACHE_FORMAT, **asdict(result)})
        write_cache(self.directory / f"{key}.json", text.encode())
        if not (self.directory / ".gitignore").exists():
            write_cache(self.directory / ".gitignore", b"*\n")

    def _package_versions(self, modules: Iterable[str]) -> list[str]:
        third_party = sorted(m for m in modules if m not in sys.stdlib_module_names)
        return [f"{module}: {', '.join(self._providers(module))}" for module in third_party]

    def _providers(self, module: str) -> list[str]:
        """``dist==version`` of what installs ``module``; ``?`` when nothing does.

        A distribution named like the module (numpy, sympy) is taken at once; only other
        names (``yaml`` from PyYAML) pay for a scan of every installed distribution.
        """
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            return [f"{module}=={importlib.metadata.version(module)}"]
        if self._distributions is None:
            self._distributions = importlib.metadata.packages_distributions()
        found = []
        for dist in sorted(set(self._distributions.get(module, []))):
            with contextlib.suppress(importlib.metadata.PackageNotFoundError):
                found.append(f"{dist}=={importlib.metadata.version(dist)}")
        return found or ["?"]


def imported_modules(code: str) -> set[str]:
    """Top-level names of absolute imports (``import x.y`` and ``from x import y`` give x)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def run_code_cells(
    lesson: Lesson, runner: CodeRunner, cache: ResultCache | None, *, jobs: int = 1
) -> list[CellOutcome]:
    """Run every python cell of the lesson (``jobs`` at a time), or take it from the cache."""
    cells = [c for c in lesson.code_cells() if c.language in LANGUAGES and c.runs]
    keys = [cache.key(c.code, c.timeout) if cache is not None else "" for c in cells]

    def one(cell: CodeCell, key: str) -> CellOutcome:
        hit = cache.get(key) if cache is not None else None
        if hit is not None:
            return CellOutcome(cell, hit, cached=True)
        result = runner(cell.code, cell.timeout)
        if cache is not None:
            cache.put(key, result)
        return CellOutcome(cell, result, cached=False)

    if jobs <= 1 or len(cells) <= 1:
        return [one(c, k) for c, k in zip(cells, keys, strict=True)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, cells, keys))


def check_code_cells(
    lesson: Lesson, outcomes: list[CellOutcome], output_limit: int = DEFAULT_OUTPUT_LIMIT
) -> list[Diagnostic]:
    """Diagnostics for every cell: wrong language, failure, or output unlike its block.

    ``output_limit`` is only quoted in the message about a flooded output; pass the
    runner's limit when it is not the default.
    """
    by_pos = {o.cell.pos: o for o in outcomes}
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
            diagnostics.extend(_check_one(lesson.display_path, outcome, output_limit))
    return diagnostics


def _check_one(path: str, outcome: CellOutcome, limit: int) -> list[Diagnostic]:
    cell, result = outcome.cell, outcome.result
    if result.timed_out:
        return [
            Diagnostic(
                cell.pos,
                f"the code cell did not finish within {cell.timeout:g} s",
                hint=f"make it faster, or allow more seconds with a `:timeout: "
                f"{max(60, int(cell.timeout * 2))}` option",
            )
        ]
    if result.truncated:
        return [
            Diagnostic(
                cell.pos,
                f"the code cell printed more than {_size(limit)} and was stopped",
                hint="print a summary (a shape, a few values) instead of the whole data",
            )
        ]
    if result.exit_code != 0:
        return [_failure(path, cell, result)]
    found = []
    if result.stderr.strip():
        found.append(
            Diagnostic(
                cell.pos,
                "the code cell wrote to stderr",
                detail=_bounded(map_cell_lines(result.stderr, path, cell.code_line), tail=True),
                severity=Severity.WARNING,
            )
        )
    actual = _with_final_newline(result.stdout)
    if cell.output is None:
        if actual:
            found.append(
                Diagnostic(
                    cell.pos,
                    "the code cell prints output but no {output} block follows it",
                    hint="run `pizarra check --update-outputs` to add it",
                    detail=_bounded(actual, 20),
                )
            )
        return found
    expected = _with_final_newline(cell.output.text)
    if actual != expected:
        found.append(
            Diagnostic(
                cell.pos,
                "the code cell's output differs from its {output} block",
                hint=_mismatch_hint(expected, actual),
                detail=_diff(expected, actual, f"{path}:{cell.output.pos.line}"),
            )
        )
    return found


def _failure(path: str, cell: CodeCell, result: RunResult) -> Diagnostic:
    """An exception (with the traceback mapped to the lesson) or an abnormal exit."""
    detail = _bounded(map_cell_lines(result.stderr, path, cell.code_line), tail=True)
    code = result.exit_code
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        return Diagnostic(cell.pos, f"the code cell was killed by signal {name}", detail=detail)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    if code == 1 and lines and _CELL_FRAME.search(result.stderr):
        return Diagnostic(
            _innermost_line(result.stderr, cell),
            f"the code cell raised {plain(lines[-1].strip())[:300]}",
            detail=detail,
        )
    return Diagnostic(cell.pos, f"the code cell exited with status {code}", detail=detail)


_CELL_FRAME = re.compile(r'File "' + re.escape(CELL_FILENAME) + r'", line (\d{1,9})')
_CELL_WARNING = re.compile(r"^(\s*)" + re.escape(CELL_FILENAME) + r":(\d{1,9}):", re.MULTILINE)


def map_cell_lines(text: str, path: str, code_line: int) -> str:
    """Rewrite ``File "<cell>", line K`` (and warnings' ``<cell>:K:``) to ``path:LINE``."""
    text = _CELL_FRAME.sub(lambda m: f"{path}:{code_line + int(m.group(1)) - 1}", text)
    return _CELL_WARNING.sub(
        lambda m: f"{m.group(1)}{path}:{code_line + int(m.group(2)) - 1}:", text
    )


def _innermost_line(stderr: str, cell: CodeCell) -> SourcePos:
    """Where the error happened in the lesson: the last ``<cell>`` frame of the traceback."""
    frames = _CELL_FRAME.findall(stderr)
    if frames and 1 <= int(frames[-1]) <= len(cell.code.splitlines()):
        return SourcePos(cell.pos.path, cell.code_line + int(frames[-1]) - 1, 1)
    return cell.pos


def _diff(expected: str, actual: str, where: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(),
        actual.splitlines(),
        fromfile=f"expected (the {{output}} block at {where})",
        tofile="actual (what the cell printed)",
        lineterm="",
    )
    return _bounded("\n".join(lines))


def _mismatch_hint(expected: str, actual: str) -> str:
    if "".join(expected.split()) == "".join(actual.split()):
        return f"they differ only in whitespace; {_UPDATE_HINT}"
    return _UPDATE_HINT


def _with_final_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def plain(text: str) -> str:
    """Make control and bidi characters visible, so quoted output cannot drive a terminal."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _bounded(text: str, max_lines: int = _MAX_DETAIL_LINES, *, tail: bool = False) -> str:
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


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n} bytes"


def _result_from_json(data: object) -> RunResult | None:
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return None
    result = RunResult(
        stdout=str(data["stdout"]),
        stderr=str(data["stderr"]),
        exit_code=int(data["exit_code"]),
        timed_out=bool(data["timed_out"]),
        truncated=bool(data["truncated"]),
        duration=float(data["duration"]),
    )
    return result if result.ok else None
