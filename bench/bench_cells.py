"""Time and memory of running a lesson's code cells: one kernel per lesson vs one process per cell.

Measures the bundled lessons' cells and a synthetic lesson of ten NumPy cells, each way:

- *kernel*: pizarra's :class:`~pizarra.check.kernel.execute.KernelRunner`, one kernel for the
  lesson, forked by the zygote it starts (:mod:`pizarra.check.kernel.zygote`; counted in
  full);
- *per cell*: a fresh ``python -s -P`` per cell reading the code from stdin (how pizarra
  ran cells before it had a kernel; cells cannot share state that way, so the synthetic
  cells are independent and each imports NumPy).

Each measurement runs in its own process, so ``RUSAGE_CHILDREN`` counts only its cells:
wall time, CPU time of all the processes, and the largest resident set of any of them.
Also prints what happens to a 4 GB NumPy allocation under the kernel's memory limit.

    python bench/bench_cells.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "src" / "pizarra" / "source" / "bundled" / "math-for-ai" / "lessons"

TEN_CELLS = [
    f"import numpy as np\nx = np.arange({k + 1} * 1000)\nprint(int((x * x).sum()))\n"
    for k in range(10)
]

MEASURE = r"""
import json, resource, subprocess, sys, time
from pizarra.check.kernel.execute import CellRequest, KernelRunner
mode, codes = sys.argv[1], json.loads(sys.stdin.read())
start = time.perf_counter()
if mode == "kernel":
    from pizarra.check.kernel import zygote as kernel_zygote
    results = KernelRunner()([CellRequest(c, 60) for c in codes], 600)
    assert all(r.ok for r in results) and len(results) == len(codes), results
    kernel_zygote.stop_all()  # reaped: the zygote's and its kernels' usage is counted
else:
    for code in codes:
        done = subprocess.run([sys.executable, "-s", "-P", "-"], input=code.encode(),
                              capture_output=True, env={"PATH": "/usr/bin:/bin",
                              "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1",
                              "OPENBLAS_NUM_THREADS": "1"})
        assert done.returncode == 0, done.stderr
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps([wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024]))
"""


def lesson_cells(path: Path) -> list[str]:
    from pizarra.check.code_cells import runnable_cells
    from pizarra.source.lower import parse_lesson

    lesson, _ = parse_lesson(path, path.name)
    assert lesson is not None, path
    return [cell.code for cell in runnable_cells(lesson)]


def measure(mode: str, codes: list[str]) -> tuple[float, float, float]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, mode],
        input=json.dumps(codes),
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu, rss = json.loads(done.stdout)
    return wall, cpu, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cases = {p.stem: lesson_cells(p) for p in sorted(LESSONS.glob("*.md"))}
    cases["10 NumPy cells"] = TEN_CELLS
    print(f"median of {args.runs} runs; RSS = largest resident set of any process")
    print(f"{'lesson':32} {'cells':>5}  {'mode':8} {'wall s':>7} {'cpu s':>7} {'RSS MiB':>8}")
    for name, codes in cases.items():
        if not codes:
            continue
        for mode in ("kernel", "per-cell"):
            runs = [measure(mode, codes) for _ in range(args.runs)]
            wall, cpu, rss = (statistics.median(r[i] for r in runs) for i in range(3))
            print(f"{name[:32]:32} {len(codes):5}  {mode:8} {wall:7.2f} {cpu:7.2f} {rss:8.1f}")
    from pizarra.check.kernel.execute import CellRequest, KernelRunner

    [big] = KernelRunner()([CellRequest("import numpy as np\na = np.ones(2**29)\n", 60)], 60)
    last = big.stderr.strip().splitlines()[-1] if big.stderr.strip() else "(no error)"
    print(f"4 GB allocation in a cell: {last} ({big.duration:.2f} s)")


if __name__ == "__main__":
    main()
