"""Rewriting ``{output}`` blocks in place, and only where a clean run disagrees."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pizarra.check.code_cells import CellOutcome, check_code_cells, run_code_cells
from pizarra.check.kernel.execute import CellRequest, KernelRunner, RunResult
from pizarra.check.update_outputs import confirm_changes, update_outputs
from pizarra.source.lower import parse_lesson
from pizarra.source.model import Lesson

FIXTURES = Path(__file__).parent / "fixtures" / "code_cells"


def parse(text: str, name: str = "lesson.md") -> Lesson:
    lesson, diagnostics = parse_lesson(Path(name), name, text)
    assert lesson is not None and diagnostics == []
    return lesson


def output_text(text: str) -> str:
    output = next(parse(text).code_cells()).output
    assert output is not None
    return output.text


def ran(stdout: str, **changes: Any) -> RunResult:
    return dataclasses.replace(RunResult(stdout, "", 0, False, False, 0.01), **changes)


def outcomes(lesson: Lesson, *results: RunResult) -> list[CellOutcome]:
    return [CellOutcome(c, r, False) for c, r in zip(lesson.code_cells(), results, strict=True)]


HEAD = '---\ntitle: "T"\nlesson: 1\nlang: es\nsummary: "S"\n---\n\n'


def test_the_fixture_lesson_is_rewritten_as_expected() -> None:
    source = (FIXTURES / "cells.md").read_text("utf-8")
    lesson = parse(source, "cells.md")
    text = update_outputs(lesson, run_code_cells(lesson, KernelRunner(), None))
    assert text == (FIXTURES / "cells.updated.md").read_text("utf-8")
    updated = parse(text, "cells.md")
    remaining = check_code_cells(updated, run_code_cells(updated, KernelRunner(), None))
    assert [d.message for d in remaining] == [
        "the code cell raised ZeroDivisionError: division by zero"
    ]


def test_a_drifted_block_is_replaced_and_nothing_else_moves() -> None:
    source = HEAD + "```{code-cell} python\nprint(2)\n```\n\n```{output}\n3\n```\n\nEnd.\n"
    lesson = parse(source)
    assert update_outputs(lesson, outcomes(lesson, ran("2\n"))) == source.replace("\n3\n", "\n2\n")


def test_a_missing_block_is_inserted_after_the_cell() -> None:
    source = HEAD + "```{code-cell} python\nprint(2)\n```\nEnd."
    lesson = parse(source)
    new = update_outputs(lesson, outcomes(lesson, ran("2\n\n4\n")))
    assert (
        new == HEAD + "```{code-cell} python\nprint(2)\n```\n\n```{output}\n2\n\n4\n```\n\nEnd.\n"
    )
    assert output_text(new) == "2\n\n4\n"


def test_a_cell_at_the_end_of_a_file_without_newline_gets_its_block() -> None:
    source = HEAD + "```{code-cell} python\nprint(2)\n```"
    lesson = parse(source)
    new = update_outputs(lesson, outcomes(lesson, ran("2")))
    assert new == source + "\n\n```{output}\n2\n```\n"


def test_matching_outputs_leave_the_file_alone() -> None:
    source = HEAD + "```{code-cell} python\nprint(2)\n```\n\n```{output}\n2\n```\n"
    lesson = parse(source)
    assert update_outputs(lesson, outcomes(lesson, ran("2\n"))) is None
    assert update_outputs(lesson, outcomes(lesson, ran("2"))) is None


def test_failed_cells_are_never_touched() -> None:
    source = HEAD + "```{code-cell} python\nprint(2)\n```\n\n```{output}\n3\n```\n"
    source += "\n```{code-cell} python\nprint(5)\n```\n"
    lesson = parse(source)
    for failure in (
        ran("2\n", exit_code=1, stderr="Traceback"),
        ran("2\n", exit_code=None, timed_out=True),
        ran("2\n", exit_code=None, truncated=True),
    ):
        assert update_outputs(lesson, outcomes(lesson, failure, failure)) is None


def test_a_cell_that_prints_nothing_gets_no_new_block() -> None:
    source = HEAD + "```{code-cell} python\nx = 1\n```\n"
    lesson = parse(source)
    assert update_outputs(lesson, outcomes(lesson, ran(""))) is None


def test_printed_fences_cannot_close_the_block_early() -> None:
    source = HEAD + "```{code-cell} python\nprint('```')\n```\n"
    lesson = parse(source)
    new = update_outputs(lesson, outcomes(lesson, ran("```\nafter\n")))
    assert new is not None and "````{output}\n```\nafter\n````\n" in new
    assert output_text(new) == "```\nafter\n"


def test_a_tilde_fence_keeps_its_style() -> None:
    source = HEAD + "```{code-cell} python\nprint(2)\n```\n\n~~~{output}\n3\n~~~\n"
    lesson = parse(source)
    new = update_outputs(lesson, outcomes(lesson, ran("2\n")))
    assert new == source.replace("\n3\n", "\n2\n")


class Answers:
    """A runner that answers each lesson run with the next printed text."""

    def __init__(self, *texts: str) -> None:
        self.texts = iter(texts)
        self.runs = 0

    def __call__(
        self, cells: Sequence[CellRequest], lesson_timeout: float, memory_limit: int | None = None
    ) -> list[RunResult]:
        self.runs += 1
        text = next(self.texts)
        return [ran(text) for _ in cells]


def test_a_changed_output_is_written_only_when_a_second_run_agrees() -> None:
    source = HEAD + "```{code-cell} python\nprint(2)\n```\n\n```{output}\n3\n```\n"
    lesson = parse(source)
    first = outcomes(lesson, ran("2\n"))
    agreeing = Answers("2\n")
    kept, errors = confirm_changes(lesson, first, agreeing)
    assert (kept, errors, agreeing.runs) == (first, [], 1)
    kept, [error] = confirm_changes(lesson, first, Answers("7\n"))
    assert kept == [] and update_outputs(lesson, kept) is None
    assert str(error.pos) == "lesson.md:8:1"
    assert error.message == "the code cell's output changes between runs, so it cannot be checked"
    assert "seed the random generator" in error.hint


def test_unchanged_or_cached_outputs_need_no_second_run() -> None:
    source = HEAD + "```{code-cell} python\nprint(2)\n```\n\n```{output}\n3\n```\n"
    lesson = parse(source)
    runner = Answers()
    cached = [CellOutcome(next(lesson.code_cells()), ran("2\n"), cached=True, confirmed=True)]
    assert confirm_changes(lesson, cached, runner) == (cached, [])
    assert confirm_changes(lesson, outcomes(lesson, ran("3\n")), runner)[1] == []
    assert runner.runs == 0


def test_a_nondeterministic_cell_gets_a_block_once_and_keeps_it() -> None:
    cell = "```{code-cell} python\n:nondeterministic:\nprint(id(1))\n```\n"
    lesson = parse(HEAD + cell)
    kept, errors = confirm_changes(lesson, outcomes(lesson, ran("1\n")), Answers("2\n"))
    assert errors == []
    new = update_outputs(lesson, kept)
    assert new is not None and new.endswith("```{output}\n1\n```\n")
    assert update_outputs(parse(new), outcomes(parse(new), ran("3\n"))) is None


@pytest.mark.parametrize(
    ("printed", "what"),
    [
        ("<Figure size 640x480 at 0x7f3a1c2b9d90>\n", "a memory address"),
        ("Wall time: 1.21 ms\n", "a timing"),
        ("5.3 µs ± 12.1 ns per loop (mean ± std. dev. of 7 runs)\n", "a timing"),
    ],
)
def test_an_address_or_a_timing_is_never_pinned_though_two_runs_agree(
    printed: str, what: str
) -> None:
    lesson = parse(HEAD + "```{code-cell} python\nprint(2)\n```\n")
    kept, [error] = confirm_changes(lesson, outcomes(lesson, ran(printed)), Answers(printed))
    assert kept == [] and f"holds {what}" in error.message
    assert "nondeterministic" in error.hint
