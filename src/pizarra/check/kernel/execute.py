"""Run a lesson's code cells in order, in one kernel: the injectable edge of code checks.

The parent never executes lesson code. A :class:`KernelRunner` starts one kernel process
per lesson (:mod:`pizarra.check.kernel.child`, under :mod:`pizarra.check.kernel.launcher`), sends it
the cells one by one and collects what each printed, its figures and how it ended, so
cells share variables, imports and figures as in Jupyter. Each cell is compiled under
the file name ``<cell-N>`` (N counts the lesson's cells from 1), so a traceback says
``File "<cell-N>", line K`` and the check maps it back to the lesson.

Every run is bounded: a wall-clock limit per cell and per lesson, a byte limit on what a
cell prints, and a memory limit on the whole kernel. Hitting a limit ends the kernel and
everything it started; the remaining cells do not run. So does the first failing cell,
unless it is tagged ``raises-exception``.

Launchers are forked by a warm process (:mod:`pizarra.check.kernel.zygote`) that has already
imported the kernel and NumPy, so a lesson's kernel starts in a few milliseconds; where
it cannot run, each launcher is started as a new interpreter, with the same result.

This is a persistent interpreter of our own rather than ``ipykernel`` driven by
``nbclient``: starting an IPython kernel costs one to two seconds per lesson and a set
of local ZeroMQ ports, while this one starts in tens of milliseconds and its launcher
controls limits, namespaces and clean-up directly. What a reader sees is still what
Jupyter shows: a bare last expression is displayed with IPython's own pretty printer.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pizarra.check.kernel import zygote as kernel_zygote
from pizarra.check.kernel.answers import Answer, parse_answer, parse_status
from pizarra.check.kernel.launcher import FOLDER, ROOT
from pizarra.check.kernel.pump import Pump
from pizarra.source.blocks import Figure

DEFAULT_OUTPUT_LIMIT = 1024 * 1024
"""Bytes of stdout (and, separately, of stderr) a cell may write before it is stopped."""

DEFAULT_MEMORY_LIMIT = 2 * 1024**3
"""Bytes of data (heap and anonymous mappings) the whole kernel may hold."""

DEFAULT_LESSON_TIMEOUT = 600.0
"""Seconds all the cells of one lesson may take together."""

_GRACE = 1.0


def cell_filename(index: int) -> str:
    """The file name tracebacks show for the ``index``-th (0-based) cell of a lesson."""
    return f"<cell-{index + 1}>"


@dataclass(frozen=True)
class CellRequest:
    """One cell to run."""

    code: str
    """Its source."""
    timeout: float
    """Seconds it may run."""
    raises: bool = False
    """True when it may raise (``raises-exception``): the lesson goes on."""
    folder: str = ""
    """The lesson's folder, the cells' working directory (read-only), as in Jupyter; the
    first cell's is the lesson's. Empty: an empty temporary folder."""


@dataclass(frozen=True)
class RunResult:
    """What one cell produced."""

    stdout: str
    """What a reader sees: everything printed, then the value of a bare last expression."""
    stderr: str
    """Everything written to stderr: warnings, or the traceback of an exception."""
    exit_code: int | None
    """0 on success, 1 for an exception, the kernel's status if it exited (negative for a
    signal), None if it was stopped at a limit."""
    timed_out: bool
    """True when the cell hit its time limit (or the lesson's) and was stopped."""
    truncated: bool
    """True when stdout or stderr passed the output limit and the cell was stopped."""
    duration: float
    """Wall-clock seconds from start to finish."""
    figures: tuple[Figure, ...] = ()
    """The matplotlib figures the cell drew, as SVG."""
    lesson_timed_out: bool = False
    """True when it was the lesson's time limit, not the cell's, that stopped it."""
    missing_packages: tuple[str, ...] = ()
    """Packages the cell's install line names that are not installed: it did not run."""
    figures_too_large: bool = False
    """True when its figures passed the figure limit (``FIGURE_LIMIT``) and it was stopped."""
    lesson_figures_too_large: bool = False
    """True when the lesson's figures together passed ``LESSON_FIGURE_LIMIT`` with this
    cell's, and it was stopped."""
    html: str = ""
    """The ``text/html`` of a DataFrame the cell left as its value (untrusted: shown only
    as rebuilt by :mod:`pizarra.render.frame_table`); its ``text/plain`` is in stdout."""
    protocol_error: str = ""
    """What the cell wrote on the kernel's private answer pipe that is not an answer
    (see :mod:`pizarra.check.kernel.answers`); the kernel was stopped."""

    @property
    def ok(self) -> bool:
        """The cell ran to the end without an uncaught exception."""
        return (
            self.exit_code == 0
            and not self.timed_out
            and not self.truncated
            and not self.figures_too_large
            and not self.lesson_figures_too_large
            and not self.protocol_error
        )


class CodeRunner(Protocol):
    """Runs a lesson's cells in order in one interpreter; tests pass a fake.

    Returns one result per cell that ran: after a failing cell (one whose result is not
    ``ok``) nothing more runs.
    """

    def __call__(
        self, cells: Sequence[CellRequest], lesson_timeout: float, memory_limit: int | None = None
    ) -> list[RunResult]:
        """``memory_limit``: bytes the kernel may allocate, or None for the runner's own."""
        ...


class KernelRunner:
    """Runs each lesson's cells in one fresh kernel, in the lesson's folder (read-only;
    :attr:`CellRequest.folder`) with a private temporary folder for ``HOME`` and ``TMPDIR``.

    The interpreter is started with ``-s -P`` (no user site-packages, no script or current
    directory on ``sys.path`` while pizarra's own modules load; the kernel then puts its
    working folder first, as Jupyter has it) and a minimal environment built here,
    instead of ``-I``: isolated mode would also ignore ``PYTHONHASHSEED``, and a fixed
    hash seed is what makes printed sets and hashes reproducible between builds.
    """

    def __init__(
        self,
        python: str = sys.executable,
        output_limit: int = DEFAULT_OUTPUT_LIMIT,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        max_timeout: float = 600.0,
        early: bool = True,
    ) -> None:
        self.python = python
        """The interpreter: by default the one running pizarra, i.e. the project's env."""
        self.output_limit = output_limit
        """Bytes of stdout, and of stderr, a cell may write."""
        self.memory_limit = memory_limit
        """Bytes of data the kernel may allocate (``RLIMIT_DATA``)."""
        self.max_timeout = max_timeout
        """Upper bound on any timeout, whatever the lesson asks for."""
        self.early = early
        """Start the kernels' zygote as a run begins, so its imports overlap the parse
        (:func:`~pizarra.check.kernel.start.start_kernels_early`). A rebuild, whose cells
        mostly come from the cache, starts it once a cell must run: after a one-line
        edit of a 200-lesson course it cost 4.3 s of the second core, for no cell."""
        self.isolation: tuple[str, tuple[str, ...]] = ("", ())
        """How the last kernel this runner started (in this process) was isolated: the
        launcher's mode and what holds in it (see :attr:`Session.isolation`)."""

    def __call__(
        self, cells: Sequence[CellRequest], lesson_timeout: float, memory_limit: int | None = None
    ) -> list[RunResult]:
        if not cells:
            return []
        with tempfile.TemporaryDirectory(
            prefix="pizarra-kernel-", ignore_cleanup_errors=True
        ) as workdir:
            session = Session(self, workdir, memory_limit or self.memory_limit, cells[0].folder)
            try:
                return session.run_all(cells, min(lesson_timeout, self.max_timeout))
            finally:
                session.close()
                self.isolation = (session.isolation, session.isolation_details)


class Session:
    """One running kernel: the launcher process and the pipes to it."""

    def __init__(
        self, runner: KernelRunner, workdir: str, memory_limit: int, folder: str = ""
    ) -> None:
        self.limit = runner.output_limit
        self.max_timeout = runner.max_timeout
        response_read, response_write = os.pipe()
        status_read, status_write = os.pipe()
        env = _child_env(workdir, folder)
        try:
            forked = kernel_zygote.spawn(
                runner.python, memory_limit, workdir, env, response_write, status_write
            )
            self.proc: subprocess.Popen[bytes] | kernel_zygote.Forked
            if forked is not None:
                self.proc = forked
            else:
                self.proc = subprocess.Popen(
                    [
                        runner.python,
                        *("-s", "-P", "-m", "pizarra.check.kernel.launcher"),
                        str(memory_limit),
                        str(response_write),
                        str(status_write),
                    ],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    cwd=workdir,
                    env=env,
                    start_new_session=True,
                    pass_fds=(response_write, status_write),
                )
        finally:
            os.close(response_write)
            os.close(status_write)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.fds = {"out": self.proc.stdout.fileno(), "err": self.proc.stderr.fileno()}
        self.response_fd = response_read
        self.status_fd = status_read
        for fd in (*self.fds.values(), response_read, status_read):
            os.set_blocking(fd, False)
        self.pending = bytearray()
        self.status_pending = bytearray()
        self.carry = {"out": bytearray(), "err": bytearray()}
        """Bytes that arrived after a cell's marker: the next cell's."""
        self.isolation = ""
        """How the kernel is isolated, as its launcher reported: ``namespaces`` or
        ``subreaper`` (empty until the report arrives)."""
        self.isolation_details: tuple[str, ...] = ()
        """What holds in that mode, one item each (cgroups, host uid, ...)."""
        self.exit_code: int | None = None
        self.ended = False
        self.launch_error = ""
        """Why the launcher could not start the kernel, when it says so."""
        """True once the launcher's status pipe closed or reported the kernel's exit."""
        self.figure_bytes = 0
        """Bytes of SVG the lesson's cells have drawn so far."""

    def run_all(self, cells: Sequence[CellRequest], lesson_timeout: float) -> list[RunResult]:
        lesson_deadline = time.monotonic() + lesson_timeout
        results: list[RunResult] = []
        for index, cell in enumerate(cells):
            result = self.run(index, cell, lesson_deadline)
            results.append(result)
            if not result.ok:
                break
        return results

    def run(self, index: int, cell: CellRequest, lesson_deadline: float) -> RunResult:
        start = time.monotonic()
        cell_deadline = start + min(max(cell.timeout, 0.01), self.max_timeout)
        deadline = min(cell_deadline, lesson_deadline)
        marker = f"\x1epizarra-{os.urandom(8).hex()}-{index}\x1e".encode()
        request = {
            "code": cell.code,
            "name": cell_filename(index),
            "raises": cell.raises,
            "marker": marker.decode(),
        }
        pump = Pump(self, marker)
        status = pump.run(json.dumps(request).encode() + b"\n", deadline)
        if status != "done":
            self.close(graceful=False)
        answer = pump.answer
        code: int | None
        if status == "done":
            code = 0 if answer is not None and answer.ok else 1
        elif status == "exited":
            code = self.exit_code
        else:
            code = None
        stderr = pump.text("err")
        if status == "exited" and self.launch_error:
            stderr += f"pizarra could not start the lesson's kernel: {self.launch_error}\n"
        return RunResult(
            stdout=pump.text("out"),
            stderr=stderr,
            exit_code=code,
            timed_out=status == "timeout",
            truncated=status == "truncated",
            figures_too_large=status == "figures too large",
            lesson_figures_too_large=status == "lesson figures too large",
            protocol_error=pump.protocol_error,
            duration=time.monotonic() - start,
            figures=answer.figures if answer is not None and status == "done" else (),
            lesson_timed_out=status == "timeout" and deadline == lesson_deadline < cell_deadline,
            missing_packages=answer.missing if answer is not None else (),
            html=answer.html if answer is not None and status == "done" else "",
        )

    def take_answer(self) -> Answer | None:
        """The next whole answer from the kernel's answer pipe, if one has arrived;
        :class:`ProtocolError` for anything else there."""
        newline = self.pending.find(b"\n")
        if newline < 0:
            return None
        line = bytes(self.pending[:newline])
        del self.pending[: newline + 1]
        return parse_answer(line)

    def take_status(self) -> None:
        """Read the launcher's whole lines: the isolation report, the kernel's exit."""
        while (newline := self.status_pending.find(b"\n")) >= 0:
            message = parse_status(bytes(self.status_pending[:newline]))
            del self.status_pending[: newline + 1]
            if "isolation" in message and not self.isolation:
                self.isolation = message["isolation"]
                self.isolation_details = tuple(message["details"])
            elif "exit" in message:
                self.exit_code = message["exit"]
                self.launch_error = message["error"][:500]
                self.ended = True

    def close(self, graceful: bool = True) -> None:
        """End the kernel and everything it started, then reap the launcher.

        ``graceful`` first closes the request pipe and lets the kernel end by itself for a
        moment; then (or at once) the launcher is told to kill everything, and last the
        whole process group is killed in case the launcher could not.
        """
        proc = self.proc
        if graceful and proc.poll() is None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(_GRACE)
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(2)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        for fd in (self.response_fd, self.status_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.response_fd = self.status_fd = -1
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)


def _child_env(workdir: str, folder: str = "") -> dict[str, str]:
    """Only what a cell needs; nothing of the parent's environment leaks in. The lesson's
    folder and its course's are the launcher's to read (``FOLDER``, ``ROOT``); it takes
    them out of the kernel's environment."""
    env = {**kernel_zygote.KERNEL_ENV, "HOME": workdir, "TMPDIR": workdir, "MPLCONFIGDIR": workdir}
    if folder:
        env[FOLDER] = os.path.abspath(folder)
        env[ROOT] = course_root(env[FOLDER])
    return env


def course_root(folder: str, levels: int = 8) -> str:
    """The course folder of a lesson in ``folder``: the nearest folder above (or at) it
    with a ``course.yaml``, else ``folder`` itself (a lesson given alone)."""
    at = folder
    for _ in range(levels):
        if os.path.isfile(os.path.join(at, "course.yaml")):
            return at
        if os.path.dirname(at) == at:
            break
        at = os.path.dirname(at)
    return folder
