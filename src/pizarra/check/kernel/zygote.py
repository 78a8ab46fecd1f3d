"""A warm process that forks each lesson's kernel launcher, instead of starting Python anew.

Starting an interpreter, importing the kernel's modules and NumPy costs every lesson about
80 ms of CPU: a third of a cold 20-lesson build. The zygote pays for it once per build:
``python -s -P -m pizarra.check.kernel.zygote_server FD PID`` imports them, then waits on the
Unix socket ``FD``. pizarra starts it (:func:`start`) before it parses the lessons, so those
imports run on another core meanwhile, and the pool's forked workers share it.

A socket shared by processes would mix up their replies, so no reply ever travels on it:
each process (pizarra or a worker) makes its own socket pair and sends one end through
the shared socket, as a single message (atomic on ``SOCK_SEQPACKET``); the zygote then
answers that process on its private channel only, and serves every channel in turn.
For each lesson :func:`spawn` sends it the launcher's memory limit, working directory and
environment with the five pipes of the kernel (requests, stdout, stderr, answers, status)
as file descriptors; the zygote forks, and the child becomes exactly what a freshly started
launcher is: a new session, those pipes on fds 0 to 4, that directory and environment,
then :func:`pizarra.check.kernel.launcher.main` with its limits and namespaces. The zygote
answers with a pidfd of the child, so the parent can wait for a process that is not its own.

Nothing of one lesson reaches another: each kernel is a separate fork, and the zygote
never runs lesson code. The zygote ends when the process that started it ends (it
watches a pidfd of it: even killed, even with workers left) or when every copy of the
shared socket is closed; its children then get the launcher's parent-death signal.
Whatever fails, the process that saw it starts launchers itself from then on.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import multiprocessing.util
import os
import select
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO

from pizarra.check.kernel.zygote_server import HELLO

STARTUP_TIMEOUT = 60.0
"""Seconds to wait for the zygote's answer (its imports come first on a loaded machine)."""


@dataclass(frozen=True)
class _Zygote:
    owner: int
    """The process that started it: the only one that may reap it."""
    shared: socket.socket
    """pizarra's end of the shared socket, inherited by forked workers; only ever sent on."""
    process: subprocess.Popen[bytes]


_zygotes: dict[str, _Zygote | None] = {}
"""The zygote per interpreter, inherited by forked workers; None once it failed here."""
_channels: dict[tuple[int, str], socket.socket | None] = {}
"""Each process's private channel per interpreter; None once it failed (that process
then starts launchers directly)."""
_lock = threading.Lock()
_registered: set[int] = set()
"""Processes that have registered their clean-up at exit."""


class Forked:
    """A launcher forked by the zygote, with the parts of :class:`subprocess.Popen`
    that :class:`pizarra.check.kernel.execute.Session` uses."""

    def __init__(
        self, pid: int, pidfd: int, stdin: IO[bytes], stdout: IO[bytes], stderr: IO[bytes]
    ) -> None:
        self.pid = pid
        self.pidfd = pidfd
        self.stdin: IO[bytes] | None = stdin
        self.stdout: IO[bytes] | None = stdout
        self.stderr: IO[bytes] | None = stderr
        self.returncode: int | None = None

    def poll(self) -> int | None:
        return self.wait(0) if self._ended(0) else None

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended(timeout):
            raise subprocess.TimeoutExpired("kernel launcher", timeout or 0)
        if self.returncode is None:
            self.returncode = 0  # its status is the zygote's to reap; the kernel's comes on fd 3
            os.close(self.pidfd)
        return self.returncode

    def _ended(self, timeout: float | None) -> bool:
        if self.returncode is not None:
            return True
        return bool(select.select([self.pidfd], [], [], timeout)[0])


def start(python: str = sys.executable) -> bool:
    """Start the zygote for ``python`` now, if not yet started, so its imports overlap
    with this process's own work; forked workers will share it. False if it cannot."""
    with _lock:
        return _zygote(python) is not None


def started(python: str = sys.executable) -> bool:
    """True when a zygote for ``python`` has been started (or tried) in this process or
    in the one it was forked from."""
    return python in _zygotes


def spawn(
    python: str, memory: int, cwd: str, env: Mapping[str, str], answers: int, status: int
) -> Forked | None:
    """A launcher for one lesson, forked by the zygote, writing the kernel's answers to the
    pipe end ``answers`` and its own reports to ``status``; None when no zygote can (the
    caller starts one itself)."""
    pipes = [os.pipe() for _ in range(3)]  # requests, stdout, stderr
    theirs = [pipes[0][0], pipes[1][1], pipes[2][1], answers, status]
    ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
    message = json.dumps({"memory": memory, "cwd": cwd, "env": dict(env)}).encode()
    try:
        with _lock:
            channel = _channel(python)
            if channel is None:
                return None
            try:
                socket.send_fds(channel, [message], theirs)
                reply, fds, _flags, _addr = socket.recv_fds(channel, 1024, 1)
            except OSError:
                reply, fds = b"", []
            if not (reply and fds):
                for fd in fds:
                    os.close(fd)
                _fail(python)
                return None
            stdin = os.fdopen(ours[0], "wb", 0)
            stdout, stderr = (os.fdopen(fd, "rb", 0) for fd in ours[1:])
            ours = []
            return Forked(int(json.loads(reply)["pid"]), fds[0], stdin, stdout, stderr)
    finally:
        for fd in (*theirs[:3], *ours):
            os.close(fd)


def _channel(python: str) -> socket.socket | None:
    """This process's private channel to the zygote, opened on first use."""
    key = (os.getpid(), python)
    if key in _channels:
        return _channels[key]
    _register()
    zygote = _zygote(python)
    channel = None
    if zygote is not None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            socket.send_fds(zygote.shared, [HELLO], [theirs.fileno()])
            channel = ours
            channel.settimeout(STARTUP_TIMEOUT)
        except OSError:
            ours.close()
        finally:
            theirs.close()
    _channels[key] = channel
    return channel


def _zygote(python: str) -> _Zygote | None:
    if python in _zygotes:
        return _zygotes[python]
    _register()
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    command = [python, "-s", "-P", "-m", "pizarra.check.kernel.zygote_server", str(theirs.fileno())]
    try:
        process = subprocess.Popen(
            [*command, str(os.getpid())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            env=KERNEL_ENV,
            start_new_session=True,
            pass_fds=(theirs.fileno(),),
        )
    except OSError:
        ours.close()
        _zygotes[python] = None
        return None
    finally:
        theirs.close()
    ours.settimeout(STARTUP_TIMEOUT)
    _zygotes[python] = found = _Zygote(os.getpid(), ours, process)
    return found


def _register() -> None:
    """Clean up at the end of this process: atexit for pizarra itself, a multiprocessing
    finalizer for a worker of the lesson pool (which skips atexit)."""
    if os.getpid() not in _registered:
        _registered.add(os.getpid())
        atexit.register(_release)
        multiprocessing.util.Finalize(None, _release, exitpriority=1)


def _fail(python: str) -> None:
    """Stop using the zygote in this process, for good (launchers are started directly)."""
    _drop(python)
    _zygotes[python] = None
    _channels[(os.getpid(), python)] = None


def _drop(python: str, patient: bool = True) -> None:
    """Close this process's channel and copy of the shared socket; end and reap the
    zygote if this process started it."""
    channel = _channels.pop((os.getpid(), python), None)
    if channel is not None:
        channel.close()
    zygote = _zygotes.pop(python, None)
    if zygote is None:
        return
    zygote.shared.close()
    if zygote.owner != os.getpid():
        return
    # It ends by itself once every copy of the shared socket is closed: wait for that if
    # patient, else (at exit, where it may still be importing) kill it; it forks nothing
    # between requests, and every kernel it forked for this process is closed by now.
    process = zygote.process
    if patient:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(2)
    if process.poll() is None:
        process.kill()
        process.wait()


def stop_all() -> None:
    """End this process's use of the zygotes and reap those it started, so their CPU time
    and that of the kernels they forked count as this process's children's (benchmarks
    call it). A later :func:`spawn` starts a new zygote."""
    with _lock:
        for python in list(_zygotes):
            _drop(python)


def _release() -> None:
    """At the end of a process: as :func:`stop_all`, without waiting for a zygote that
    may still be importing (a build whose lessons all came from the cache)."""
    for python in list(_zygotes):
        _drop(python, patient=False)


def _after_fork() -> None:
    """In a forked child: a fresh lock (the parent's may have been held by a thread), and
    none of the parent's private channels (never to be read here)."""
    global _lock
    _lock = threading.Lock()
    for key in [key for key in _channels if key[0] != os.getpid()]:
        channel = _channels.pop(key)
        if channel is not None:
            channel.close()


os.register_at_fork(after_in_child=_after_fork)


KERNEL_ENV = {
    "PATH": os.defpath,
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
    "MPLBACKEND": "module://pizarra.check.kernel.figures",
}
"""The environment every kernel shares (:func:`pizarra.check.kernel.execute._child_env` adds the
lesson's own folder). The zygote imports under it too, since numerical libraries read
their thread counts at import time."""
