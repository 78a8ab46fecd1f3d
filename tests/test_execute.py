"""The subprocess runner: real child processes, always bounded in time and output."""

from __future__ import annotations

import os
import time

import pytest

from pizarra.execute import DEFAULT_OUTPUT_LIMIT, RunResult, SubprocessRunner

RUN = SubprocessRunner()


def test_a_clean_run_returns_stdout_and_status_zero() -> None:
    result = RUN("import numpy as np\nprint(np.arange(3))\nprint('ñ')\n", 30)
    assert result == RunResult("[0 1 2]\nñ\n", "", 0, False, False, result.duration)
    assert result.ok


def test_an_exception_traceback_names_the_cell_and_not_the_bootstrap() -> None:
    result = RUN("x = 1\n\ndef f():\n    return 1 / 0\n\nf()\n", 30)
    assert result.exit_code == 1 and not result.ok
    assert 'File "<cell>", line 6, in <module>' in result.stderr
    assert 'File "<cell>", line 4, in f\n    return 1 / 0' in result.stderr
    assert "<string>" not in result.stderr
    assert result.stderr.rstrip().endswith("ZeroDivisionError: division by zero")


def test_a_syntax_error_points_into_the_cell() -> None:
    result = RUN("print(1)\nx = (\n", 30)
    assert result.exit_code == 1
    assert 'File "<cell>", line 2' in result.stderr
    assert "SyntaxError" in result.stderr


def test_an_endless_loop_is_killed_at_the_timeout() -> None:
    start = time.monotonic()
    result = RUN("print('started', flush=True)\nwhile True: pass\n", 1)
    assert result.timed_out and result.exit_code is None and not result.ok
    assert result.stdout == "started\n"
    assert time.monotonic() - start < 3


def test_an_output_flood_is_cut_at_the_limit() -> None:
    start = time.monotonic()
    result = RUN('print("x" * 10**8)', 30)
    assert result.truncated and not result.timed_out and result.exit_code is None
    assert len(result.stdout) == DEFAULT_OUTPUT_LIMIT
    assert time.monotonic() - start < 10


def test_a_stderr_flood_is_cut_too() -> None:
    result = SubprocessRunner(output_limit=1000)(
        "import sys\nwhile True: sys.stderr.write('e')\n", 30
    )
    assert result.truncated
    assert len(result.stderr) == 1000


def test_a_background_process_does_not_keep_the_run_waiting() -> None:
    code = (
        "import subprocess, sys\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "print('done')\n"
    )
    result = RUN(code, 20)
    assert result.ok and result.stdout == "done\n"
    assert result.duration < 5


def test_exit_status_and_signals_are_reported() -> None:
    assert RUN("import sys\nsys.exit(3)\n", 10).exit_code == 3
    killed = RUN("import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n", 10)
    assert killed.exit_code == -15


def test_the_child_gets_a_fixed_hash_seed_and_a_clean_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PIZARRA_TEST_SECRET", "leak")
    code = "import os\nprint(hash('abc'))\nprint(os.environ.get('PIZARRA_TEST_SECRET'))\n"
    first, second = RUN(code, 10), RUN(code, 10)
    assert first.stdout == second.stdout
    assert first.stdout.endswith("\nNone\n")


def test_the_cell_runs_in_an_empty_directory_that_is_removed() -> None:
    result = RUN("import os\nprint(os.listdir('.'))\nprint(os.getcwd())\n", 10)
    listing, cwd = result.stdout.splitlines()
    assert listing == "[]"
    assert not os.path.exists(cwd)


def test_stdin_is_closed_for_the_cell() -> None:
    result = RUN("input()\n", 10)
    assert "EOFError" in result.stderr


def test_a_large_cell_is_fed_without_deadlock() -> None:
    code = "x = 0\n" * 200_000 + "print(x)\n"
    assert RUN(code, 30).stdout == "0\n"
