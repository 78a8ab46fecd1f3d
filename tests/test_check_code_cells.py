"""Running cells through the cache and turning outcomes into diagnostics."""

from __future__ import annotations

import dataclasses
import importlib.metadata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pizarra.base.errors import Severity
from pizarra.check.code_cells import (
    CellOutcome,
    ResultCache,
    check_code_cells,
    imported_modules,
    run_code_cells,
    runnable_cells,
)
from pizarra.check.kernel.execute import CellRequest, KernelRunner, RunResult
from pizarra.check.shown_outputs import cell_printed
from pizarra.source.blocks import Figure
from pizarra.source.lower import parse_lesson
from pizarra.source.model import Lesson

FIXTURES = Path(__file__).parent / "fixtures" / "code_cells"


def load(name: str) -> Lesson:
    lesson, diagnostics = parse_lesson(FIXTURES / name, name)
    assert lesson is not None and diagnostics == []
    return lesson


def ran(stdout: str = "", **changes: Any) -> RunResult:
    return dataclasses.replace(RunResult(stdout, "", 0, False, False, 0.01), **changes)


class FakeRunner:
    """Answers each cell from a function of its code, stops at a failure, counts cells."""

    def __init__(self, answer: Callable[[str], RunResult] = lambda code: ran("ok\n")) -> None:
        self.answer = answer
        self.calls: list[tuple[str, float]] = []
        self.lessons = 0
        self.memory: list[int | None] = []

    def __call__(
        self, cells: Sequence[CellRequest], lesson_timeout: float, memory_limit: int | None = None
    ) -> list[RunResult]:
        self.lessons += 1
        self.memory.append(memory_limit)
        results = []
        for cell in cells:
            self.calls.append((cell.code, cell.timeout))
            results.append(self.answer(cell.code))
            if not results[-1].ok:
                break
        return results


def outcome_for(lesson: Lesson, index: int, result: RunResult) -> CellOutcome:
    return CellOutcome(list(lesson.code_cells())[index], result, cached=False, index=index)


def messages(lesson: Lesson, outcomes: list[CellOutcome]) -> list[str]:
    return [d.format() for d in check_code_cells(lesson, outcomes)]


def test_the_fixture_lesson_gives_the_expected_diagnostics() -> None:
    lesson = load("cells.md")
    outcomes = run_code_cells(lesson, KernelRunner(), None)
    assert [o.cell for o in outcomes] == list(lesson.code_cells())
    text = "".join(d.format() + "\n" for d in check_code_cells(lesson, outcomes, pin=True))
    assert text == (FIXTURES / "cells.expected.txt").read_text("utf-8")


def test_an_output_without_a_block_is_shown_from_the_run_unless_pinning_is_required() -> None:
    lesson = load("cells.md")
    outcomes = run_code_cells(lesson, KernelRunner(), None)
    unpinned = "".join(d.format() for d in check_code_cells(lesson, outcomes))
    assert "cells.md:35:1" not in unpinned and "pins it" not in unpinned
    printed = cell_printed(outcomes)
    cell = next(c for c in lesson.code_cells() if c.pos.line == 35)
    assert printed[cell.pos] == "hola\n"
    assert all(c.output is None for c in lesson.code_cells() if c.pos in printed)


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
    stderr = 'Traceback (most recent call last):\n  File "<cell-1>", line 99, in <module>\nE: x\n'
    [diagnostic] = check_code_cells(
        lesson, [outcome_for(lesson, 0, ran("", stderr=stderr, exit_code=1))]
    )
    assert str(diagnostic.pos) == "cells.md:10:1"
    assert "cells.md:109, in <module>" in diagnostic.detail


def test_stderr_of_a_clean_run_is_a_warning_with_mapped_lines() -> None:
    lesson = load("cells.md")
    stderr = "<cell-1>:2: RuntimeWarning: divide by zero\n  print(1 / np.float64(0))\n"
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


def test_failures_are_not_cached(tmp_path: Path) -> None:
    lesson = load("cells.md")
    cache = ResultCache(tmp_path)
    failing = FakeRunner(lambda code: ran("", exit_code=None, timed_out=True))
    run_code_cells(lesson, failing, cache)
    again = FakeRunner()
    run_code_cells(lesson, again, cache)
    assert len(again.calls) == 4


def test_the_lesson_kernel_memory_reaches_the_runner_and_the_cache_key(tmp_path: Path) -> None:
    plain = load("cells.md")
    roomy = dataclasses.replace(plain, kernel_memory=4096)
    runner = FakeRunner()
    run_code_cells(plain, runner, None)
    run_code_cells(roomy, runner, None)
    assert runner.memory == [None, 4096 * 1024**2]
    cache = ResultCache(tmp_path)
    cells = runnable_cells(plain)
    assert not set(cache.keys(cells)) & set(cache.keys(cells, 4096 * 1024**2))


def test_figures_too_large_are_an_error_at_the_cell_with_a_hint() -> None:
    lesson = load("cells.md")
    found = messages(lesson, [outcome_for(lesson, 0, ran("", figures_too_large=True))])
    assert any(
        "figures come to more than 16 MiB of SVG and it was stopped" in m
        and "plot fewer points" in m
        for m in found
    ), found


def test_a_corrupt_entry_is_a_miss(tmp_path: Path) -> None:
    lesson = load("cells.md")
    cache = ResultCache(tmp_path)
    run_code_cells(lesson, FakeRunner(), cache)
    for key in cache.keys(runnable_cells(lesson)):
        cache.store.put(ResultCache.KIND, key, b"{not json")
    again = FakeRunner()
    run_code_cells(lesson, again, cache)
    assert len(again.calls) == 4


def test_imports_are_found_by_their_top_level_name() -> None:
    code = "import numpy.linalg as la, os\nfrom sympy import Rational\nfrom . import x\n"
    code += "def f():\n    import yaml\n"
    assert imported_modules(code) == {"numpy", "os", "sympy", "yaml"}
    assert imported_modules("x = (\n") == set()


def test_a_warm_run_calls_the_runner_only_once_two_runs_agreed(tmp_path: Path) -> None:
    lesson = load("cells.md")
    runners = [FakeRunner(), FakeRunner(), FakeRunner()]
    results = [run_code_cells(lesson, r, ResultCache(tmp_path / "cells")) for r in runners]
    assert [r.lessons for r in runners] == [1, 1, 0]
    assert [[o.confirmed for o in r] for r in results] == [[False] * 4, [True] * 4, [True] * 4]
    assert len(runners[0].calls) == 4
    assert all(o.cached for o in results[2]) and not any(o.cached for o in results[1])
    assert [o.result for o in results[2]] == [o.result for o in results[0]]
    assert (tmp_path / "cells" / ".gitignore").read_text() == "*\n"


def test_output_that_changes_between_runs_never_passes_from_the_cache(tmp_path: Path) -> None:
    """Issue 9, F10: a cell printing something new each run must not pass forever."""
    text = "import random\nprint(random.random())\n"
    lesson = parse(f"```{{code-cell}} python\n{text}```\n\n```{{output}}\n0.1\n```\n")
    answers = iter(["0.1\n", "0.2\n", "0.1\n", "0.3\n"])
    cache = ResultCache(tmp_path)
    first = run_code_cells(lesson, FakeRunner(lambda code: ran(next(answers))), cache)
    assert check_code_cells(lesson, first) == []
    second = run_code_cells(lesson, FakeRunner(lambda code: ran(next(answers))), cache)
    [error] = check_code_cells(lesson, second)
    assert error.message == "the code cell's output changes between runs, so it cannot be checked"
    assert "seed the random generator" in error.hint and ":nondeterministic:" in error.hint
    assert error.detail.splitlines()[-2:] == ["-0.1", "+0.2"]
    third = run_code_cells(lesson, FakeRunner(lambda code: ran(next(answers))), cache)
    assert not third[0].cached


def test_a_nondeterministic_cell_is_shown_but_never_compared(tmp_path: Path) -> None:
    lesson = parse(
        "```{code-cell} python\n:nondeterministic:\nprint(id(1))\n```\n\n```{output}\n140000\n```\n"
    )
    answers = iter(["1\n", "2\n", "3\n"])
    cache = ResultCache(tmp_path)
    for _ in range(2):
        outcomes = run_code_cells(lesson, FakeRunner(lambda code: ran(next(answers))), cache)
        assert check_code_cells(lesson, outcomes) == []
    assert run_code_cells(lesson, FakeRunner(), cache)[0].cached


def test_editing_a_cell_misses_from_that_cell_on(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    cells = list(load("cells.md").code_cells())
    keys = cache.keys(cells)
    edited = [cells[0], dataclasses.replace(cells[1], code="print(0)\n"), *cells[2:]]
    assert cache.keys(edited)[:1] == keys[:1]
    assert all(a != b for a, b in zip(cache.keys(edited)[1:], keys[1:], strict=True))
    longer = dataclasses.replace(cells[1], timeout=99.0)
    assert cache.keys([cells[0], longer])[1] != keys[1]
    assert ResultCache(tmp_path / "other").keys(cells) == keys


def test_the_key_changes_with_an_imported_package_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = ResultCache(tmp_path)
    cells = list(load("cells.md").code_cells())
    before = cache.keys(cells)
    stdlib_only = cache.keys(cells[1:2])
    monkeypatch.setattr(importlib.metadata, "version", lambda dist: "0.0-other")
    assert all(a != b for a, b in zip(cache.keys(cells), before, strict=True))
    assert ResultCache(tmp_path).keys(cells[1:2]) == stdlib_only


def test_a_failing_cell_stops_the_lesson_and_the_next_cells_have_no_outcome() -> None:
    lesson = load("cells.md")
    runner = FakeRunner(lambda code: ran("", exit_code=1) if "k**2" in code else ran("x\n"))
    outcomes = run_code_cells(lesson, runner, None)
    assert len(outcomes) == 2 and len(runner.calls) == 2


def test_tags_decide_what_runs_and_what_needs_a_block() -> None:
    lesson = parse(
        "```{code-cell} python\n:tags: [skip-execution]\nimport nothing_here\n```\n\n"
        "```{code-cell} python\n:tags: [remove-output]\nprint('hidden')\n```\n\n"
        "```{code-cell} ipython3\n:tags: [raises-exception]\n1 / 0\n```\n\n"
        "```{output}\nZeroDivisionError: division by zero\n```\n"
    )
    outcomes = run_code_cells(lesson, KernelRunner(), None)
    assert [o.cell.code for o in outcomes] == ["print('hidden')\n", "1 / 0\n"]
    assert check_code_cells(lesson, outcomes) == []


def test_cells_share_state_and_show_a_bare_last_expression() -> None:
    lesson = parse(
        "```{code-cell} ipython3\nimport numpy as np\nv = np.arange(3)\n```\n\n"
        "```{code-cell} ipython3\nv * 2\n```\n\n```{output}\narray([0, 2, 4])\n```\n"
    )
    assert check_code_cells(lesson, run_code_cells(lesson, KernelRunner(), None)) == []


def test_an_error_inside_an_earlier_cells_function_is_reported_at_the_call() -> None:
    lesson = parse(
        "```{code-cell} python\ndef f(x):\n    return 1 / x\n```\n\n"
        "```{code-cell} python\ny = 2\nf(0)\n```\n"
    )
    [error] = check_code_cells(lesson, run_code_cells(lesson, KernelRunner(), None))
    assert str(error.pos) == "lesson.md:15:1"
    assert "lesson.md:10, in f" in error.detail and "lesson.md:15, in <module>" in error.detail
    assert error.hint.startswith("tag the cell `raises-exception`")


def test_a_figure_without_alt_text_is_a_warning() -> None:
    lesson = parse("```{code-cell} python\nx = 1\n```\n")
    figure = Figure(b'<svg xmlns="http://www.w3.org/2000/svg"/>', 10, 10)
    [warning] = messages(lesson, [outcome_for(lesson, 0, ran("", figures=(figure,)))])
    assert "warning: the code cell draws a figure without a text alternative" in warning
    described = parse("```{code-cell} python\n:alt: A line\nx = 1\n```\n")
    assert messages(described, [outcome_for(described, 0, ran("", figures=(figure,)))]) == []


def test_the_lessons_time_limit_has_its_own_message() -> None:
    lesson = load("cells.md")
    result = ran("", exit_code=None, timed_out=True, lesson_timed_out=True)
    [message] = messages(lesson, [outcome_for(lesson, 1, result)])
    assert "the lesson's cells did not finish within 600 s in all" in message


def parse(body: str) -> Lesson:
    head = '---\ntitle: "T"\nlesson: 1\nlang: es\nsummary: "S"\n---\n\n'
    lesson, diagnostics = parse_lesson(Path("lesson.md"), "lesson.md", head + body)
    assert lesson is not None and diagnostics == []
    return lesson


def test_the_ledger_does_not_count_a_nondeterministic_cell_as_compared() -> None:
    from pizarra.check.ledger import lesson_ledger
    from tests.support import small_course

    lesson = parse(
        "```{code-cell} python\n:nondeterministic:\nprint(id(1))\n```\n\n```{output}\n1\n```\n"
        "\n```{code-cell} python\nprint(2)\n```\n\n```{output}\n2\n```\n"
    )
    outcomes = run_code_cells(lesson, FakeRunner(lambda code: ran("2\n")), None)
    ledger = lesson_ledger(small_course(lesson), lesson, [], outcomes)
    assert [c.compared for c in ledger.cells] == [False, True]


def test_a_missing_package_is_a_warning_that_the_cells_are_not_run() -> None:
    lesson = load("cells.md")
    missing = ran("", exit_code=1, missing_packages=("quantecon",))
    outcome = outcome_for(lesson, 1, missing)
    [diagnostic] = check_code_cells(lesson, [outcome])
    assert diagnostic.severity is Severity.WARNING
    assert diagnostic.format() == (
        "cells.md:21:1: warning: not run: the lesson needs quantecon, not installed where "
        "pizarra runs; this cell and the ones after it are not checked\n"
        "    hint: install it (`pip install quantecon`) to run and check them"
    )
