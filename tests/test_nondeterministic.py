"""Memory addresses and timings are recognised as output that changes between runs."""

from __future__ import annotations

import pytest

from pizarra.base.errors import Severity
from pizarra.check.code_cells import CellOutcome, check_code_cells
from pizarra.check.kernel.execute import RunResult
from pizarra.check.nondeterministic import nondeterministic_reason
from tests.support import lesson_from


@pytest.mark.parametrize(
    "output",
    [
        "<__main__.Foo object at 0x7f3a1c2b9d50>\n",
        "<matplotlib.animation.FuncAnimation at 0x7fb2c0a1e310>",
        "<function f at 0x000001D2C3A4B5C6>",
    ],
)
def test_addresses(output: str) -> None:
    assert nondeterministic_reason(output) == "a memory address"


@pytest.mark.parametrize(
    "output",
    [
        "1.23 ms ± 4.56 µs per loop (mean ± std. dev. of 7 runs, 1,000 loops each)\n",
        "52.3 ns ± 0.8 ns per loop (mean ± std. dev. of 7 runs, 10000000 loops each)",
        "CPU times: user 2.1 ms, sys: 13 µs, total: 2.12 ms\nWall time: 2.2 ms\n",
        "1000 loops, best of 5: 1.1 ms per loop",
    ],
)
def test_timings(output: str) -> None:
    assert nondeterministic_reason(output) == "a timing"


@pytest.mark.parametrize(
    "output",
    ["0x1f\n", "hex(255) = 0xff", "took 3 steps", "array([0.5, 1. ])", "at 0x10 bytes", ""],
)
def test_stable_output_is_not_flagged(output: str) -> None:
    assert nondeterministic_reason(output) == ""


def test_an_address_in_a_pinned_output_warns_at_the_cell_instead_of_comparing() -> None:
    lesson, errors = lesson_from(
        "```{code-cell} python\nprint(object())\n```\n\n"
        "```{output}\n<object object at 0x7f0000000010>\n```\n"
    )
    assert errors == [] and lesson is not None
    [cell] = lesson.code_cells()
    result = RunResult("<object object at 0x7f3a1c2b9d50>\n", "", 0, False, False, 0.01)
    [warning] = check_code_cells(lesson, [CellOutcome(cell, result, cached=False)])
    assert warning.severity is Severity.WARNING and warning.pos == cell.pos
    assert "shows a memory address, which changes between runs" in warning.message
    assert "nondeterministic" in warning.hint
