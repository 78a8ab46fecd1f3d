"""Start the kernels' zygote at the beginning of a run, when the course may run code.

The zygote (:mod:`pizarra.check.kernel.zygote`) spends about 0.1 s of CPU starting Python and
importing NumPy. Started before the lessons are parsed, that happens on another core
while this process parses, and the pool's workers find it ready; started by the first
worker that needs a kernel, it would sit on that worker's path, once per worker.

Whether a course runs code is only known once its lessons are parsed, so this guesses
from the text: a lesson file that mentions ``code-cell``. Wrong either way costs little:
a zygote started for nothing only spends that CPU, and one not started early is started
when a kernel is first needed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pizarra.check.kernel import zygote as kernel_zygote

if TYPE_CHECKING:
    from pizarra.check.kernel.execute import CodeRunner

MAX_FILES = 500
"""Lesson files read to guess; past that, assume code runs."""

MAX_BYTES = 4 * 1024 * 1024
"""Bytes of one file read to guess; a longer file is assumed to run code."""

_FILE = re.compile(r"""\bfile:\s*["']?([^"'\s,}#]+)""")
"""A lesson's ``file:`` in course.yaml (block or flow style)."""


def start_kernels_early(src: Path, runner: CodeRunner) -> None:
    """Start ``runner``'s zygote now if the course at ``src`` may run code cells (and the
    runner starts it early, :attr:`~pizarra.check.kernel.execute.KernelRunner.early`)."""
    from pizarra.check.kernel.execute import KernelRunner

    if isinstance(runner, KernelRunner) and runner.early:
        start_zygote(src, runner.python)


def start_zygote(src: Path, python: str = sys.executable) -> None:
    """Start the zygote for ``python`` now if the course at ``src`` may run code cells.

    The ``pizarra`` command calls this before it imports the pipeline: this module
    imports little, and the zygote starts on another core while those imports run."""
    if not kernel_zygote.started(python) and may_run_code(src):
        kernel_zygote.start(python)


def may_run_code(src: Path) -> bool:
    """True when a lesson of the course (or the lesson file) at ``src`` may have a
    code cell, judged from the text alone, before anything is parsed."""
    if src.is_file():
        return _mentions_code(src)
    try:
        manifest = (src / "course.yaml").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False  # not a course: nothing will run
    files = _FILE.findall(manifest)
    if len(files) > MAX_FILES:
        return True
    return any(_mentions_code(src / name) for name in files)


def _mentions_code(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            text = file.read(MAX_BYTES + 1)
    except OSError:
        return False  # reported by the parse; nothing of it will run
    return len(text) > MAX_BYTES or b"code-cell" in text
