"""Run a code cell's Python in a child process: the injectable edge of code checks.

The parent never executes lesson code. Each cell runs in a fresh interpreter of the
project's environment (so NumPy is there) that reads the code from stdin and compiles it
under the file name ``<cell>``, so tracebacks say ``File "<cell>", line K`` and the check
can map K back to the lesson file. Every run is bounded: a wall-clock timeout kills the
whole process group, and output past a size limit kills it too, so a cell can neither
hang the build nor fill its memory.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Protocol

DEFAULT_OUTPUT_LIMIT = 1024 * 1024
"""Bytes of stdout (and, separately, of stderr) a cell may write before it is killed."""

CELL_FILENAME = "<cell>"
"""The file name tracebacks show for the cell's code."""

_CHUNK = 65536
_POLL = 0.05

_BOOTSTRAP = f"""\
import linecache, os, sys, traceback
src = sys.stdin.buffer.read().decode("utf-8")
sys.stdin.close()
sys.stdin = open(os.devnull, encoding="utf-8")
linecache.cache[{CELL_FILENAME!r}] = (len(src), None, src.splitlines(True), {CELL_FILENAME!r})
try:
    code = compile(src, {CELL_FILENAME!r}, "exec", dont_inherit=True)
except SyntaxError as e:
    traceback.print_exception(e, limit=0)
    sys.exit(1)
del src
g = {{"__name__": "__main__", "__builtins__": __builtins__}}
try:
    exec(code, g)
except SystemExit:
    raise
except BaseException as e:
    traceback.print_exception(type(e), e, e.__traceback__.tb_next)
    sys.stdout.flush()
    sys.exit(1)
"""
# The bootstrap drops its own frame from tracebacks (``tb_next``) and registers the
# code with linecache so each frame also shows the offending source line.


@dataclass(frozen=True)
class RunResult:
    """What one run of a cell produced."""

    stdout: str
    """Everything printed to stdout (UTF-8, undecodable bytes replaced)."""
    stderr: str
    """Everything written to stderr: warnings, or the traceback of an exception."""
    exit_code: int | None
    """The process status: 0 on success, negative for a signal, None if it was killed."""
    timed_out: bool
    """True when the run hit its wall-clock limit and was killed."""
    truncated: bool
    """True when stdout or stderr passed the output limit and the run was killed."""
    duration: float
    """Wall-clock seconds from start to finish."""

    @property
    def ok(self) -> bool:
        """The cell ran to the end and exited cleanly."""
        return self.exit_code == 0 and not self.timed_out and not self.truncated


class CodeRunner(Protocol):
    """Runs Python source with a time limit; tests pass a fake."""

    def __call__(self, code: str, timeout: float) -> RunResult: ...


class SubprocessRunner:
    """Runs each cell in its own ``python`` process in an empty temporary directory.

    The interpreter is started with ``-s -P`` (no user site-packages, no script or
    current directory on ``sys.path``) and a minimal environment that we build here,
    instead of ``-I``: isolated mode would also ignore ``PYTHONHASHSEED``, and a fixed
    hash seed is what makes printed sets and hashes reproducible between builds.
    """

    def __init__(
        self,
        python: str = sys.executable,
        output_limit: int = DEFAULT_OUTPUT_LIMIT,
        max_timeout: float = 600.0,
    ) -> None:
        self.python = python
        """The interpreter: by default the one running pizarra, i.e. the project's env."""
        self.output_limit = output_limit
        """Bytes of stdout, and of stderr, a cell may write."""
        self.max_timeout = max_timeout
        """Upper bound on any per-cell timeout, whatever the lesson asks for."""

    def __call__(self, code: str, timeout: float) -> RunResult:
        timeout = min(max(timeout, 0.01), self.max_timeout)
        with tempfile.TemporaryDirectory(
            prefix="pizarra-cell-", ignore_cleanup_errors=True
        ) as workdir:
            return self._run(code.encode("utf-8"), timeout, workdir)

    def _run(self, code: bytes, timeout: float, workdir: str) -> RunResult:
        start = time.monotonic()
        proc = subprocess.Popen(
            [self.python, "-s", "-P", "-c", _BOOTSTRAP],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workdir,
            env=_child_env(workdir),
            start_new_session=True,
        )
        try:
            pump = _Pump(proc, code, self.output_limit)
            status = pump.run(start + timeout)
            if status == "eof":
                status = "exited" if _wait_exit(proc, start + timeout) else "timeout"
        finally:
            _kill_group(proc)
        return RunResult(
            stdout=pump.stdout.decode("utf-8", errors="replace"),
            stderr=pump.stderr.decode("utf-8", errors="replace"),
            exit_code=proc.returncode if status == "exited" else None,
            timed_out=status == "timeout",
            truncated=status == "truncated",
            duration=time.monotonic() - start,
        )


class _Pump:
    """Feeds the code to stdin and drains stdout and stderr without ever blocking."""

    def __init__(self, proc: subprocess.Popen[bytes], code: bytes, limit: int) -> None:
        assert proc.stdin and proc.stdout and proc.stderr
        self.stdin, self.out_fd, self.err_fd = (
            proc.stdin,
            proc.stdout.fileno(),
            proc.stderr.fileno(),
        )
        self.pid = proc.pid
        self.pending = memoryview(code)
        self.limit = limit
        self.buffers = {self.out_fd: bytearray(), self.err_fd: bytearray()}

    @property
    def stdout(self) -> bytes:
        return bytes(self.buffers[self.out_fd][: self.limit])

    @property
    def stderr(self) -> bytes:
        return bytes(self.buffers[self.err_fd][: self.limit])

    def run(self, deadline: float) -> str:
        """``"eof"`` when the cell is done, else ``"timeout"`` or ``"truncated"``.

        Done means both pipes closed, or the cell itself exited: a background process
        it started may hold the pipes open, and must not keep the build waiting.
        """
        with selectors.DefaultSelector() as sel:
            for fd in self.buffers:
                os.set_blocking(fd, False)
                sel.register(fd, selectors.EVENT_READ)
            os.set_blocking(self.stdin.fileno(), False)
            sel.register(self.stdin.fileno(), selectors.EVENT_WRITE)
            while sel.get_map():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return "timeout"
                if _has_exited(self.pid):
                    return self._drain()
                for key, _ in sel.select(min(remaining, _POLL)):
                    fd = int(key.fd)
                    if fd not in self.buffers:
                        if self._feed(fd):
                            sel.unregister(fd)
                            self.stdin.close()
                    elif not self._take(fd):
                        sel.unregister(fd)
                    if self._over_limit():
                        return "truncated"
        return "eof"

    def _take(self, fd: int) -> bool:
        """Read what is ready; False at end of file."""
        chunk = _read(fd)
        if chunk is not None:
            self.buffers[fd] += chunk
        return chunk != b""

    def _drain(self) -> str:
        """Collect what the exited cell left in the pipes."""
        for fd in self.buffers:
            while not self._over_limit() and self._take(fd) and _ready(fd):
                pass
        return "truncated" if self._over_limit() else "eof"

    def _over_limit(self) -> bool:
        return any(len(b) > self.limit for b in self.buffers.values())

    def _feed(self, fd: int) -> bool:
        """Write what the pipe takes now; True once everything is written."""
        try:
            self.pending = self.pending[os.write(fd, self.pending[:_CHUNK]) :]
        except BlockingIOError:
            return False
        except BrokenPipeError:
            return True
        return not self.pending


def _read(fd: int) -> bytes | None:
    """A chunk, ``b""`` at end of file, None when nothing is ready after all."""
    try:
        return os.read(fd, _CHUNK)
    except BlockingIOError:
        return None


def _ready(fd: int) -> bool:
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        return bool(sel.select(0))


def _has_exited(pid: int) -> bool:
    """True once the child has exited; it stays unreaped (a zombie keeps its group id)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is not None


def _wait_exit(proc: subprocess.Popen[bytes], deadline: float) -> bool:
    """Wait for the child to exit *without reaping it*, so its group id stays ours to kill."""
    while time.monotonic() < deadline:
        if _has_exited(proc.pid):
            return True
        time.sleep(0.002)
    return False


def _child_env(workdir: str) -> dict[str, str]:
    """Only what a cell needs; nothing of the parent's environment leaks in."""
    return {
        "PATH": os.defpath,
        "HOME": workdir,
        "TMPDIR": workdir,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONUTF8": "1",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
    }


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the cell and anything it started, then reap it; never block for long."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(5)
