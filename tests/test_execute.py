"""The kernel runner: one real kernel per lesson, cells sharing state, always bounded."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pizarra.check.kernel import pump
from pizarra.check.kernel.execute import DEFAULT_OUTPUT_LIMIT, CellRequest, KernelRunner, RunResult

RUN = KernelRunner()


def run(*codes: str, timeout: float = 30, lesson: float = 120) -> list[RunResult]:
    return RUN([CellRequest(code, timeout) for code in codes], lesson)


def one(code: str, timeout: float = 30) -> RunResult:
    [result] = run(code, timeout=timeout)
    return result


def test_cells_share_one_namespace_and_print_in_order() -> None:
    first, second = run("import numpy as np\nx = np.arange(3)\nprint('ñ')\n", "print(x * 2)\n")
    assert first == RunResult("ñ\n", "", 0, False, False, first.duration)
    assert second.stdout == "[0 2 4]\n" and second.ok


def test_a_bare_last_expression_shows_as_jupyter_text_plain() -> None:
    results = run(
        "import numpy as np\nnp.arange(3)",
        "{'b': 1, 'a': {3, 1, 2}}",
        "list(range(40))",
        "x = 5\nx  # a comment",
        "x;",
        "None",
        "print(_)",
    )
    assert [r.stdout for r in results] == [
        "array([0, 1, 2])\n",
        "{'b': 1, 'a': {1, 2, 3}}\n",
        _ipython_wrapped_range(),
        "5\n",
        "",
        "",
        "5\n",
    ]


def _ipython_wrapped_range() -> str:
    """IPython breaks a long list one item per line at 79 columns."""
    return "[" + ",\n ".join(str(i) for i in range(40)) + "]\n"


def test_a_failing_cell_stops_the_lesson_and_names_its_cell() -> None:
    results = run("x = 1", "def f():\n    return 1 / 0\n\nf()\n", "print('never')")
    assert len(results) == 2
    failed = results[1]
    assert failed.exit_code == 1 and not failed.ok
    assert 'File "<cell-2>", line 4, in <module>' in failed.stderr
    assert 'File "<cell-2>", line 2, in f\n    return 1 / 0' in failed.stderr
    assert "kernel_child" not in failed.stderr
    assert failed.stderr.rstrip().endswith("ZeroDivisionError: division by zero")


def test_a_raises_exception_cell_shows_the_error_and_the_lesson_goes_on() -> None:
    results = RUN(
        [CellRequest("print('before')\n1 / 0\n", 30, raises=True), CellRequest("print(2)", 30)],
        60,
    )
    assert [r.stdout for r in results] == ["before\nZeroDivisionError: division by zero\n", "2\n"]
    assert all(r.ok for r in results)


def test_a_syntax_error_points_into_the_cell() -> None:
    result = one("print(1)\nx = (\n")
    assert result.exit_code == 1
    assert 'File "<cell-1>", line 2' in result.stderr
    assert "SyntaxError" in result.stderr


def test_sys_exit_in_a_cell_is_its_error_and_os_exit_ends_the_kernel() -> None:
    exited = one("import sys\nsys.exit(3)\n")
    assert exited.exit_code == 1 and exited.stderr.rstrip().endswith("SystemExit: 3")
    assert one("import os\nos._exit(4)\n").exit_code == 4
    killed = one("import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n")
    assert killed.exit_code == -15


def test_an_endless_loop_is_stopped_at_the_cell_timeout() -> None:
    start = time.monotonic()
    result = one("print('started', flush=True)\nwhile True: pass\n", timeout=1)
    assert result.timed_out and result.exit_code is None and not result.lesson_timed_out
    assert result.stdout == "started\n"
    assert time.monotonic() - start < 5


def test_the_lesson_has_a_time_limit_of_its_own() -> None:
    results = run("import time\ntime.sleep(0.2)", "time.sleep(20)", timeout=10, lesson=3)
    assert results[0].ok
    assert results[1].timed_out and results[1].lesson_timed_out


def test_an_output_flood_is_cut_at_the_limit() -> None:
    start = time.monotonic()
    result = one('print("x" * 10**8)')
    assert result.truncated and not result.timed_out and result.exit_code is None
    assert len(result.stdout) == DEFAULT_OUTPUT_LIMIT
    assert time.monotonic() - start < 15


def test_a_stderr_flood_is_cut_too() -> None:
    [result] = KernelRunner(output_limit=1000)(
        [CellRequest("import sys\nwhile True: sys.stderr.write('e')\n", 30)], 60
    )
    assert result.truncated
    assert len(result.stderr) == 1000


def test_output_of_child_processes_is_part_of_the_cell() -> None:
    result = one("import subprocess\nsubprocess.run(['echo', 'from a child'])\nprint('done')\n")
    assert result.stdout == "from a child\ndone\n"


def test_a_background_process_does_not_keep_the_run_waiting() -> None:
    code = (
        "import subprocess, sys\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "print('done')\n"
    )
    result = one(code, timeout=20)
    assert result.ok and result.stdout == "done\n"
    assert result.duration < 5


def test_the_child_gets_a_fixed_hash_seed_and_a_clean_environment() -> None:
    code = "import os\nprint(hash('abc'))\nprint(sorted(os.environ))\n"
    first, second = one(code), one(code)
    assert first.stdout == second.stdout
    assert "'PATH'" in first.stdout and "PYTEST_CURRENT_TEST" not in first.stdout


def test_the_kernel_runs_in_an_empty_directory_that_is_removed() -> None:
    result = one("import os\nprint(os.listdir('.'))\nprint(os.getcwd())\n")
    listing, cwd = result.stdout.splitlines()
    assert listing == "[]"
    assert not os.path.exists(cwd)


def test_stdin_is_closed_for_the_cell() -> None:
    result = one("import os\nprint(os.readlink('/proc/self/fd/0'))\ninput()\n")
    assert result.stdout == "/dev/null\n"
    assert "EOFError" in result.stderr


def test_a_large_cell_is_fed_without_deadlock() -> None:
    code = "x = 0\n" * 50_000 + "print(x)\n"
    assert one(code).stdout == "0\n"


# Issue 9, F6: memory, leftover processes and the parent's environment.


def test_a_4_gb_numpy_allocation_fails_with_memory_error() -> None:
    result = one("import numpy as np\na = np.ones(2**29)\nprint(a.nbytes)\n")
    assert result.exit_code == 1, result.stdout
    assert (
        result.stderr.rstrip()
        .splitlines()[-1]
        .startswith("numpy._core._exceptions._ArrayMemoryError")
    )


def test_a_lesson_may_give_its_kernel_more_or_less_memory() -> None:
    reserve = "import numpy as np\na = np.empty(2**28)\nprint(a.nbytes)\n"
    assert not one(reserve).ok
    roomy = KernelRunner()([CellRequest(reserve, 30)], 120, memory_limit=3 * 1024**3)
    assert roomy[0].ok and roomy[0].stdout == f"{2**31}\n"
    small = "import numpy as np\na = np.empty(2**26)\n"
    assert one(small).ok
    tight = KernelRunner()([CellRequest(small, 30)], 120, memory_limit=256 * 1024**2)
    assert tight[0].exit_code == 1 and "MemoryError" in tight[0].stderr


def test_figures_past_the_limit_stop_the_cell_not_the_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pump, "FIGURE_LIMIT", 20_000)
    draw = "import matplotlib.pyplot as plt\nplt.plot([i % 7 for i in range({})])\nplt.show()\n"
    small, large = run(draw.format(10)), run(draw.format(5000), "print('after')\n")
    assert small[0].ok and len(small[0].figures) == 1
    assert [r.figures_too_large for r in large] == [True] and not large[0].ok


DENSE = (
    "import numpy as np\nimport matplotlib.pyplot as plt\n"
    "draws = np.random.default_rng(3).normal(size=300_000)\n"
    "fig, ax = plt.subplots(figsize=(10, 6))\n"
    "means = draws.cumsum() / np.arange(1, draws.size + 1)\n"
    "ax.scatter(range(draws.size), means, s=10, alpha=0.5)\n"
    "ax.set_xlabel('tiradas')\nplt.show()\n"
)


def test_a_dense_figure_fits_with_its_points_as_an_image_and_its_text_as_vectors() -> None:
    first, again = one(DENSE, timeout=60), one(DENSE, timeout=60)
    assert first.ok and not first.figures_too_large, first.stderr
    [figure] = first.figures
    assert len(figure.svg) < 2 * 1024 * 1024 and figure.svg.count(b"<image ") == 1
    assert b"<!-- tiradas -->" in figure.svg and b"#DejaVuSans-" in figure.svg
    assert again.figures == first.figures


def test_a_figure_that_cannot_be_made_small_still_meets_the_limit() -> None:
    noise = (
        "import numpy as np\nimport matplotlib.pyplot as plt\n"
        "pixels = np.random.default_rng(5).integers(0, 256, (2500, 2500, 3), dtype=np.uint8)\n"
        "plt.imshow(pixels, interpolation='none')\nplt.show()\n"
    )
    [stopped] = run(noise, "print('after')\n", timeout=60)
    assert stopped.figures_too_large and not stopped.ok and stopped.figures == ()


def test_a_detached_child_does_not_outlive_the_lesson() -> None:
    code = (
        "import subprocess, sys\n"
        "subprocess.Popen([sys.executable, '-c', "
        "'import time; time.sleep(120)  # pizarra-setsid-marker'], start_new_session=True)\n"
        "print('started')\n"
    )
    result = one(code)
    assert result.ok and result.stdout == "started\n"
    time.sleep(0.3)
    assert not _running_with("pizarra-setsid-marker")


def test_a_detached_child_is_killed_with_a_timed_out_cell() -> None:
    code = (
        "import subprocess, sys\n"
        "subprocess.Popen(['setsid', sys.executable, '-c', "
        "'import time; time.sleep(120)  # pizarra-detached-marker'])\n"
        "import time\ntime.sleep(60)\n"
    )
    result = one(code, timeout=1.5)
    assert result.timed_out
    time.sleep(0.3)
    assert not _running_with("pizarra-detached-marker")


def _running_with(text: str) -> bool:
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if text.encode() in cmdline and pid != str(os.getpid()):
                return True
    return False


def test_no_environment_of_pizarra_is_readable_from_a_cell() -> None:
    cell = (
        "import os\n"
        "found = []\n"
        "for pid in os.listdir('/proc'):\n"
        "    try:\n"
        "        data = open(f'/proc/{pid}/environ', 'rb').read()\n"
        "    except OSError:\n"
        "        continue\n"
        "    if b'PIZARRA_TEST_SECRET' in data:\n"
        "        found.append(pid)\n"
        "print(found)\n"
    )
    driver = (
        "import json, sys\n"
        "from pizarra.check.kernel.execute import CellRequest, KernelRunner\n"
        "[r] = KernelRunner()([CellRequest(sys.stdin.read(), 30)], 60)\n"
        "print(json.dumps([r.stdout, r.stderr]))\n"
    )
    env = {**os.environ, "PIZARRA_TEST_SECRET": "leak"}
    done = subprocess.run(
        [sys.executable, "-c", driver], input=cell, env=env, capture_output=True, text=True
    )
    stdout, stderr = json.loads(done.stdout)
    assert stdout == "[]\n", stderr


FIGURE = (
    "import matplotlib.pyplot as plt\n"
    "fig, ax = plt.subplots(figsize=(4, 3))\n"
    "ax.plot([1, 2, 3], [1, 4, 9], label='n²')\n"
    "ax.legend();\n"
)


def test_a_figure_is_captured_as_deterministic_svg() -> None:
    first, shown = run(FIGURE, FIGURE + "plt.show()\nprint('after')\n")
    [figure] = first.figures
    assert figure.svg.startswith(b"<?xml") and b"<svg" in figure.svg
    assert b"<script" not in figure.svg and b"<dc:date>" not in figure.svg
    assert 200 < figure.width <= 400 and 150 < figure.height <= 300
    assert first.stdout == "" and first.stderr == ""
    assert shown.stdout == "after\n" and shown.stderr == "" and shown.figures == first.figures
    [again] = run(FIGURE)
    assert again.figures == first.figures


def test_figures_are_taken_once_and_in_order() -> None:
    results = run(
        "import matplotlib.pyplot as plt\nplt.figure()\nplt.plot([0, 1])\nplt.show()\n"
        "plt.figure()\nplt.plot([1, 0])\n",
        "x = 1",
    )
    assert len(results[0].figures) == 2 and results[0].figures[0] != results[0].figures[1]
    assert results[1].figures == ()


def test_ipython_shell_lines_and_the_common_magics_run() -> None:
    results = run(
        "%matplotlib inline\n%config InlineBackend.figure_format = 'retina'\n"
        "!echo from the shell\nx = 3\n",
        "%time y = x * 2\nprint(y)\n",
        "%time x + 1",
    )
    assert [r.ok for r in results] == [True, True, True]
    assert results[0].stdout == "from the shell\n"
    assert results[1].stdout.startswith("CPU times: ") and results[1].stdout.endswith("\n6\n")
    assert results[2].stdout.splitlines()[-1] == "4"


_TIMEIT = re.compile(
    r"^\d[\d.]* (?:ns|µs|ms|s) ± \d[\d.]* (?:ns|µs|ms|s) per loop "
    r"\(mean ± std\. dev\. of (\d+) runs?, ([\d,]+) loops? each\)$"
)


def test_timeit_and_cell_time_print_as_ipython_does() -> None:
    results = run(
        "xs = list(range(100))\n%timeit sum(xs)\n",
        "%timeit -n 5 -r 2 sum(xs)",
        "%%timeit ys = list(xs)\nys.sort()\n",
        "%%time\ntotal = sum(xs)\nprint(total)\n",
        "%%file ~/notes.txt\nhello\n",
        "t = %timeit -o -q -n 2 -r 4 sum(xs)\nprint(len(t))",
    )
    assert [r.ok for r in results] == [True] * 6
    auto = _TIMEIT.match(results[0].stdout.strip())
    assert auto is not None and auto.group(1) == "3" and int(auto.group(2).replace(",", "")) >= 10
    fixed = _TIMEIT.match(results[1].stdout.strip())
    assert fixed is not None and fixed.groups() == ("2", "5")
    assert _TIMEIT.match(results[2].stdout.strip()) is not None
    assert (
        results[3].stdout.startswith("4950\nCPU times: ") and "\nWall time: " in results[3].stdout
    )
    assert results[4].stdout == "Writing ~/notes.txt\n"
    assert results[5].stdout == "4\n"
    [unknown], [zero] = run("%timeit -x sum([1])"), run("%timeit -n 0 sum([1])")
    assert not unknown.ok and "%timeit option '-x'" in unknown.stderr
    assert not zero.ok and "-n takes 1 to 1000" in zero.stderr


def test_help_lines_show_nothing_as_in_a_notebook() -> None:
    [result] = run('def f(x):\n    """Doc."""\n    return x\nf?\nf??\nprint(f(2))\n')
    assert result.ok and result.stdout == "2\n"


def test_pwd_and_writefile_work_in_the_lessons_own_folder() -> None:
    results = run(
        "%%writefile data.txt\na,1\n",
        "%%writefile -a data.txt\nb,2\n",
        "print(open('data.txt').read(), end='')\nimport os\nhere = os.getcwd()\n",
        "%pwd",
        "there = %pwd\nhere == there",
    )
    assert [r.stdout for r in results[:3]] == [
        "Writing data.txt\n",
        "Appending to data.txt\n",
        "a,1\nb,2\n",
    ]
    assert results[3].stdout.startswith("'/") and results[4].stdout == "True\n"


def test_an_install_line_runs_nothing_and_names_what_is_missing() -> None:
    present, absent = run(
        "!pip install --upgrade numpy 'scipy>=1'\n%pip install -q numpy\nprint(1)\n",
        "x = 1\n!pip install numpy no-such-package-for-pizarra[extra]==1.0\nprint(2)\n",
        "print(3)\n",  # not run: the lesson stops where a package is missing
    )
    assert present.ok and present.stdout == "1\n" and present.missing_packages == ()
    assert not absent.ok and absent.stdout == ""
    assert absent.missing_packages == ("no-such-package-for-pizarra",)


def test_an_install_pizarra_cannot_read_or_an_unknown_magic_is_an_error_at_its_line() -> None:
    [install] = run("x = 1\n!pip install -r requirements.txt\n")
    assert install.exit_code == 1 and install.missing_packages == ()
    assert 'File "<cell-1>", line 2' in install.stderr
    assert "cells cannot install packages (`pip install -r requirements.txt`)" in install.stderr
    [conda] = run("!conda install -y numpy\n")
    assert "cells cannot install packages" in conda.stderr
    [unknown] = run("%load_ext cython\n")
    assert unknown.stderr.rstrip().endswith(
        "the %load_ext magic is not available in pizarra's kernel"
    )


def test_matplotlibs_timed_legend_warning_is_not_the_cells_stderr() -> None:
    """It depends on how loaded the machine is, so it would make runs differ."""
    code = (
        "import warnings, matplotlib.pyplot as plt\n"
        "plt.plot([1, 2], label='a')\n"
        "warnings.warn('Creating legend with loc=\"best\" can be slow with large '\n"
        "              'amounts of data.')\n"
        "warnings.warn('a warning of the lesson')\n"
    )
    [result] = run(code)
    assert 'loc="best"' not in result.stderr
    assert "a warning of the lesson" in result.stderr


def test_who_and_whos_list_the_cells_names_as_ipython_does() -> None:
    [result] = RUN(
        [CellRequest("count = 3\nword = 'hi'\n_hidden = 1\n%whos\n%who\nnames = %who_ls\n", 30)],
        60,
    )
    assert result.ok, result.stderr
    assert result.stdout == (
        "Variable   Type    Data/Info\n"
        "----------------------------\n"
        "count      int     3\n"
        "word       str     hi\n"
        "count\t word\t \n"
    )
    [listed] = RUN([CellRequest("a = 1\nnames = %who_ls\nprint(names)\n", 30)], 60)
    assert listed.ok and listed.stdout == "['a']\n", listed.stderr
