"""A cell that fails on one of the kernel's bounds gets a hint that says what to do: put
a downloaded file beside the lesson (the kernel is offline), or raise ``kernel_memory``."""

from __future__ import annotations

from pathlib import Path

from pizarra.check.code_cells import check_code_cells, run_code_cells
from pizarra.check.failure_hints import failure_hint, memory_hint
from pizarra.check.kernel.execute import KernelRunner
from pizarra.source.lower import parse_lesson
from pizarra.source.model import Lesson


def parse(body: str, front: str = "") -> Lesson:
    head = f'---\ntitle: "T"\nlesson: 1\nlang: en\nsummary: "S"\n{front}---\n\n'
    lesson, diagnostics = parse_lesson(Path("lesson.md"), "lesson.md", head + body)
    assert lesson is not None and diagnostics == []
    return lesson


def test_a_download_is_an_error_whose_hint_says_the_kernel_is_offline() -> None:
    lesson = parse(
        "```{code-cell} python\nimport urllib.request\n"
        "urllib.request.urlopen('https://example.org/data/heights.csv')\n```\n"
    )
    [error] = check_code_cells(lesson, run_code_cells(lesson, KernelRunner(), None))
    assert "the code cell raised urllib.error.URLError" in error.message
    assert error.hint.startswith("a lesson's kernel has no network: download ")
    assert "`https://example.org/data/heights.csv`, put it beside the lesson" in error.hint


def test_an_allocation_past_the_limit_names_the_front_matter_key() -> None:
    lesson = parse(
        "```{code-cell} python\nimport numpy as np\nx = np.ones((1000, 1000, 100))\n```\n",
        front="kernel_memory: 256\n",
    )
    [error] = check_code_cells(lesson, run_code_cells(lesson, KernelRunner(), None))
    assert "MemoryError" in error.message
    assert "may allocate 256 MiB" in error.hint and "`kernel_memory: 512`" in error.hint


def test_the_exceptions_that_mean_no_network_or_no_memory() -> None:
    for line in (
        "socket.gaierror: [Errno -3] Temporary failure in name resolution",
        "ConnectionRefusedError: [Errno 111] Connection refused",
        "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='x', port=443)",
        "urllib3.exceptions.NameResolutionError: <...>: Failed to resolve 'x'",
    ):
        assert "has no network" in failure_hint(line, "", "", None), line
    assert "kernel_memory: 4096" in failure_hint("MemoryError", "", "", None)
    assert failure_hint("ValueError: no", "", "", None) == ""
    assert memory_hint(8192) == "the lesson's kernel may allocate at most 8192 MiB: use less memory"
