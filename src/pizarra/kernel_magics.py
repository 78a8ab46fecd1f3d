"""IPython syntax in cells: ``%line`` magics and ``!shell`` lines, as Jupyter lectures use them.

A cell with a line starting with ``%`` or ``!`` is rewritten by IPython's own input
transformer (``!ls`` becomes ``get_ipython().system('ls')``, line for line, so tracebacks
keep their line numbers), and ``get_ipython()`` in the cell's namespace answers with the
small :class:`Shell` below. Importing IPython costs about a second, so only such cells pay
for it. Supported: ``!command`` (not package installs: a lesson must not change the
environment it is checked in), ``%time``, and ``%matplotlib`` (figures are always captured,
so it does nothing). Any other magic is an error that names it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from typing import Any

_INSTALL = re.compile(r"^\s*(?:\S*/)?(?:pip3?|conda|mamba|uv|python3?\s+-m\s+pip)\s+install\b")


def uses_ipython_syntax(code: str) -> bool:
    """True when some line starts with ``%`` or ``!`` (cheap; decides the import)."""
    return any(line.lstrip().startswith(("%", "!")) for line in code.splitlines())


def transform(code: str) -> str:
    """The cell as plain Python, by IPython's transformer."""
    from IPython.core.inputtransformer2 import TransformerManager

    return str(TransformerManager().transform_cell(code))  # type: ignore[no-untyped-call]


class MagicError(RuntimeError):
    """A magic or shell line pizarra's kernel does not run."""


class Shell:
    """What ``get_ipython()`` returns inside a cell."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace

    def system(self, command: str) -> None:
        if _INSTALL.match(command):
            raise MagicError(
                f"cells cannot install packages (`!{command.strip()}`): install them where "
                "pizarra runs, and tag this cell `skip-execution`"
            )
        sys.stdout.flush()
        sys.stderr.flush()
        subprocess.run(command, shell=True, check=False)

    def run_line_magic(self, name: str, line: str) -> object:
        if name == "matplotlib":
            return None
        if name == "time":
            return self._time(line)
        raise MagicError(f"the %{name} magic is not available in pizarra's kernel")

    def run_cell_magic(self, name: str, line: str, cell: str) -> object:
        raise MagicError(f"the %%{name} cell magic is not available in pizarra's kernel")

    def _time(self, line: str) -> object:
        """``%time``: run the statement, then print CPU and wall time as IPython does."""
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            code = compile(line, "<magic-time>", "eval")
            value = eval(code, self.namespace)
        except SyntaxError:
            exec(compile(line, "<magic-time>", "exec"), self.namespace)
            value = None
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"CPU times: total: {_seconds(cpu)}\nWall time: {_seconds(wall)}")
        return value


def _seconds(value: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value * 1e9:.3g} ns"
