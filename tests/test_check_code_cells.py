"""Running cells through the cache and turning outcomes into diagnostics."""

from __future__ import annotations

import dataclasses
import importlib.metadata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pizarra.check.code_cells import (
    CellOutcome,
    ResultCache,
    check_code_cells,
    imported_modules,
    run_code_cells,
)
from pizarra.errors import Severity
from pizarra.execute import RunResult, SubprocessRunner
from pizarra.lower import parse_lesson
from pizarra.model import Lesson

FIXTURES = Path(__file__).parent / "fixtures" / "code_cells"


def load(name: str) -> Lesson:
    lesson, diagnostics = parse_lesson(FIXTURES / name, name)
    assert lesson is not None and diagnostics == []
    return lesson


def ran(stdout: str = "", **changes: Any) -> RunResult:
    return dataclasses.replace(RunResult(stdout, "", 0, False, False, 0.01), **changes)


class FakeRunner:
    """Answers from a function of the code and counts the calls."""

    def __init__(self, answer: Callable[[str], RunResult] = lambda code: ran("ok\n")) -> None:
        self.answer = answer
        self.calls: list[tuple[str, float]] = []

    def __call__(self, code: str, timeout: float) -> RunResult:
        self.calls.append((code, timeout))
        return self.answer(code)


def outcome_for(lesson: Lesson, index: int, result: RunResult) -> CellOutcome:
    return CellOutcome(list(lesson.code_cells())[index], result, cached=False)


def messages(lesson: Lesson, outcomes: list[CellOutcome]) -> list[str]:
    return [d.format() for d in check_code_cells(lesson, outcomes)]


def test_the_fixture_lesson_gives_the_expected_diagnostics() -> None:
    lesson = load("cells.md")
    outcomes = run_code_cells(lesson, SubprocessRunner(), None, jobs=2)
    assert [o.cell for o in outcomes] == list(lesson.code_cells())
    text = "".join(d.format() + "\n" for d in check_code_cells(lesson, outcomes))
    assert text == (FIXTURES / "cells.expected.txt").read_text("utf-8")


def test_a_matching_output_gives_nothing() -> None:
    lesson = load("cells.md")
    assert messages(lesson, [outcome_for(lesson, 0, ran("[0 1 2]\n"))]) == []


def test_a_missing_final_newline_is_not_a_difference() -> None:
    lesson = load("cells.md")
    assert messages(lesson, [outcome_for(lesson, 0, ran("[0 1 2]"))]) == []


def test_a_drift_is_reported_at_the_cell_with_a_labelled_diff() -> None:
    lesson = load("cells.md")
    [diagnostic] = check_code_cells(lesson, [outcome_for(lesson, 0, ran("[0 1 3]\n"))])
    assert str(diagnostic.pos) == "cells.md:10:1"
    assert diagnostic.detail.splitlines() == [
        "--- expected (the {output} block at cells.md:15)",
        "+++ actual (what the cell printed)",
        "@@ -1 +1 @@",
        "-[0 1 2]",
        "+[0 1 3]",
    ]


def test_a_whitespace_only_drift_says_so() -> None:
    lesson = load("cells.md")
    [diagnostic] = check_code_cells(lesson, [outcome_for(lesson, 0, ran("[0 1 2] \n"))])
    assert diagnostic.hint.startswith("they differ only in whitespace")


def test_a_cell_that_prints_nothing_needs_no_output_block() -> None:
    lesson = load("cells.md")
    assert messages(lesson, [outcome_for(lesson, 2, ran(""))]) == []


def test_a_timeout_names_the_limit_and_the_option() -> None:
    lesson = load("cells.md")
    outcome = outcome_for(lesson, 1, ran("", exit_code=None, timed_out=True))
    assert messages(lesson, [outcome]) == [
        "cells.md:21:1: error: the code cell did not finish within 10 s\n"
        "    hint: make it faster, or allow more seconds with a `:timeout: 60` option"
    ]


def test_a_flood_names_the_limit() -> None:
    lesson = load("cells.md")
    outcome = outcome_for(lesson, 0, ran("x" * 100, exit_code=None, truncated=True))
    [message] = messages(lesson, [outcome])
    assert message.startswith("cells.md:10:1: error: the code cell printed more than 1 MiB")
    [small] = check_code_cells(lesson, [outcome], output_limit=1000)
    assert "more than 1000 bytes" in small.message


def test_an_exit_status_and_a_signal_are_reported() -> None:
    lesson = load("cells.md")
    exited = outcome_for(lesson, 0, ran("", exit_code=3))
    killed = outcome_for(lesson, 0, ran("", exit_code=-9))
    assert check_code_cells(lesson, [exited])[0].message == "the code cell exited with status 3"
    assert (
        check_code_cells(lesson, [killed])[0].message
        == "the code cell was killed by signal SIGKILL"
    )


def test_an_out_of_range_frame_falls_back_to_the_cell() -> None:
    lesson = load("cells.md")
    stderr = 'Traceback (most recent call last):\n  File "<cell>", line 99, in <module>\nE: x\n'
    [diagnostic] = check_code_cells(
        lesson, [outcome_for(lesson, 0, ran("", stderr=stderr, exit_code=1))]
    )
    assert str(diagnostic.pos) == "cells.md:10:1"
    assert "cells.md:109, in <module>" in diagnostic.detail


def test_stderr_of_a_clean_run_is_a_warning_with_mapped_lines() -> None:
    lesson = load("cells.md")
    stderr = "<cell>:2: RuntimeWarning: divide by zero\n  print(1 / np.float64(0))\n"
    [warning] = check_code_cells(lesson, [outcome_for(lesson, 0, ran("[0 1 2]\n", stderr=stderr))])
    assert warning.severity is Severity.WARNING
    assert warning.detail.startswith("cells.md:12: RuntimeWarning: divide by zero")


def test_printed_control_characters_cannot_reach_the_terminal() -> None:
    lesson = load("cells.md")
    [diagnostic] = check_code_cells(lesson, [outcome_for(lesson, 0, ran("\x1b[2J\u202e\n"))])
    assert "\x1b" not in diagnostic.format() and "\u202e" not in diagnostic.format()
    assert "+\\u001b[2J\\u202e" in diagnostic.detail


def test_huge_details_are_bounded() -> None:
    lesson = load("cells.md")
    [diagnostic] = check_code_cells(lesson, [outcome_for(lesson, 0, ran("y\n" * 10_000))])
    lines = diagnostic.detail.splitlines()
    assert len(lines) == 81 and lines[-1] == "... (9924 more lines left out)"


def test_a_non_python_cell_is_an_error() -> None:
    lesson = load("cells.md")
    cell = dataclasses.replace(next(lesson.code_cells()), language="r")
    lesson = dataclasses.replace(lesson, blocks=(cell,))
    assert run_code_cells(lesson, FakeRunner(), None) == []
    [diagnostic] = check_code_cells(lesson, [])
    assert diagnostic.message == "only python code cells can run, not 'r'"


def test_a_warm_run_calls_the_runner_zero_times(tmp_path: Path) -> None:
    lesson = load("cells.md")
    cache = ResultCache(tmp_path / "cells")
    cold = FakeRunner()
    first = run_code_cells(lesson, cold, cache)
    assert len(cold.calls) == 4 and not any(o.cached for o in first)
    warm = FakeRunner()
    second = run_code_cells(lesson, warm, ResultCache(tmp_path / "cells"))
    assert warm.calls == []
    assert all(o.cached for o in second)
    assert [o.result for o in second] == [o.result for o in first]
    assert (tmp_path / "cells" / ".gitignore").read_text() == "*\n"


def test_failures_are_not_cached(tmp_path: Path) -> None:
    lesson = load("cells.md")
    cache = ResultCache(tmp_path)
    failing = FakeRunner(lambda code: ran("", exit_code=None, timed_out=True))
    run_code_cells(lesson, failing, cache)
    again = FakeRunner()
    run_code_cells(lesson, again, cache)
    assert len(again.calls) == 4


def test_a_corrupt_entry_is_a_miss(tmp_path: Path) -> None:
    lesson = load("cells.md")
    cache = ResultCache(tmp_path)
    run_code_cells(lesson, FakeRunner(), cache)
    for entry in tmp_path.glob("*.json"):
        entry.write_text("{not json")
    again = FakeRunner()
    run_code_cells(lesson, again, cache)
    assert len(again.calls) == 4


def test_the_key_changes_with_the_code_and_the_timeout(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    key = cache.key("print(1)\n", 30.0)
    assert key == ResultCache(tmp_path / "other").key("print(1)\n", 30.0)
    assert key != cache.key("print(2)\n", 30.0)
    assert key != cache.key("print(1)\n", 60.0)


def test_the_key_changes_with_an_imported_package_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = ResultCache(tmp_path)
    numpy, yaml = "import numpy as np\n", "import yaml\n"
    before = [cache.key(numpy, 30.0), cache.key(yaml, 30.0)]
    stdlib_only = cache.key("import math\n", 30.0)
    monkeypatch.setattr(importlib.metadata, "version", lambda dist: "0.0-other")
    assert cache.key(numpy, 30.0) != before[0]
    assert cache.key(yaml, 30.0) != before[1]
    assert cache.key("import math\n", 30.0) == stdlib_only


def test_imports_are_found_by_their_top_level_name() -> None:
    code = "import numpy.linalg as la, os\nfrom sympy import Rational\nfrom . import x\n"
    code += "def f():\n    import yaml\n"
    assert imported_modules(code) == {"numpy", "os", "sympy", "yaml"}
    assert imported_modules("x = (\n") == set()


def test_parallel_runs_keep_the_cell_order() -> None:
    lesson = load("cells.md")
    outcomes = run_code_cells(lesson, FakeRunner(lambda code: ran(code)), None, jobs=4)
    assert [o.result.stdout for o in outcomes] == [c.code for c in lesson.code_cells()]
