"""``%time``, ``%%time``, ``%timeit`` and ``%%timeit``, as IPython prints them.

Lectures time code to make a point ("the vectorised sum is 50 times faster"), so a
timing magic runs and prints, but what it prints changes from run to run: the
checks treat it as nondeterministic output (shown, never compared). ``%timeit`` runs
fewer loops than IPython (at least 0.02 s a run, 3 runs unless ``-r`` says) because every
build runs it again, and it says how many, as IPython does.
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

_RUN_AT_LEAST = 0.02
"""Seconds one run of ``%timeit`` lasts at least (IPython: 0.2)."""
_RUNS = 3
"""Runs of ``%timeit`` unless ``-r`` says (IPython: 7)."""
_MOST = 1000
"""The most loops or runs an author's ``-n``/``-r`` may ask for: every build pays them."""


class TimingError(Exception):
    """A timing magic's options cannot be read; the message says how to write them."""


def time_code(code: str, namespace: dict[str, Any], name: str) -> object:
    """``%time`` / ``%%time``: run the code, then print CPU and wall time; the value of a
    lone expression is returned (Jupyter shows it), as IPython does."""
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        compiled = compile(code, name, "eval")
    except SyntaxError:
        exec(compile(code, name, "exec"), namespace)
        value = None
    else:
        value = eval(compiled, namespace)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"CPU times: total: {seconds(cpu)}\nWall time: {seconds(wall)}")
    return value


def time_it(line: str, cell: str | None, namespace: dict[str, Any]) -> object:
    """``%timeit [-n N] [-r R] [-q] [-o] statement`` and ``%%timeit [options] setup``."""
    loops, runs, quiet, keep, rest = _options(line)
    statement, setup = (cell, rest or "pass") if cell is not None else (rest, "pass")
    if not statement.strip():
        raise TimingError("%timeit needs a statement to time")
    import timeit  # here, not at the top: every kernel imports the magics

    timer = timeit.Timer(statement, setup, globals=namespace)
    if loops is None:
        loops = 1
        while True:
            if timer.timeit(loops) >= _RUN_AT_LEAST or loops >= _MOST * _MOST:
                break
            loops *= 10
    each = [t / loops for t in timer.repeat(runs, loops)]
    mean = sum(each) / len(each)
    spread = math.sqrt(sum((t - mean) ** 2 for t in each) / len(each))
    if not quiet:
        plural = "s" if loops != 1 else ""
        print(
            f"{seconds(mean)} ± {seconds(spread)} per loop (mean ± std. dev. of {runs} "
            f"run{'s' if runs != 1 else ''}, {loops:,} loop{plural} each)"
        )
    return each if keep else None


_OPTIONS = re.compile(r"\s*((?:-[nr]\s*\d+\s+|-[qo]\s+)*)(.*)", re.DOTALL)
_OPTION = re.compile(r"-([nrqo])\s*(\d*)")


def _options(line: str) -> tuple[int | None, int, bool, bool, str]:
    """``-n``, ``-r``, ``-q``, ``-o`` and what follows them (the statement, or the setup)."""
    match = _OPTIONS.match(line + " ")
    assert match is not None  # the pattern matches any text
    given, rest = match.group(1), match.group(2).strip()
    if re.match(r"-[A-Za-z]", rest):
        raise TimingError(f"%timeit option {rest.split()[0]!r}: use -n LOOPS, -r RUNS, -q or -o")
    loops: int | None = None
    runs, quiet, keep = _RUNS, False, False
    for flag, number in _OPTION.findall(given):
        if flag in "qo":
            quiet, keep = quiet or flag == "q", keep or flag == "o"
            continue
        count = int(number)
        if not 1 <= count <= _MOST:
            raise TimingError(f"%timeit -{flag} takes 1 to {_MOST}")
        loops, runs = (count, runs) if flag == "n" else (loops, count)
    return loops, runs, quiet, keep, rest


def seconds(value: float) -> str:
    """A duration as IPython writes it: three significant digits and the unit that fits."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value * 1e9:.3g} ns"
