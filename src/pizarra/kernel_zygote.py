"""A warm process that forks each lesson's kernel launcher, instead of starting Python anew.

Starting an interpreter, importing the kernel's modules and NumPy costs every lesson about
80 ms of CPU: a third of a cold 20-lesson build. The zygote pays for it once per
pizarra process: ``python -s -P -m pizarra.kernel_zygote FD`` imports them, then waits on
the Unix socket ``FD``. For each lesson :func:`spawn` sends it the launcher's memory
limit, working directory and environment with the four pipes of the kernel (requests,
stdout, stderr, answers) as file descriptors; the zygote forks, and the child becomes
exactly what a freshly started launcher is: a new session, those pipes on fds 0 to 3,
that directory and environment, then
:func:`pizarra.kernel_launcher.main` with its limits and namespaces. The zygote answers
with a pidfd of the child, so the parent can wait for a process that is not its own.

Nothing of one lesson reaches another: each kernel is a separate fork, and the zygote
never runs lesson code. The zygote ends when pizarra's end of the socket closes (pizarra
exited, even killed); its children then get the launcher's parent-death signal.
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
from typing import IO, cast

WARM = ("numpy",)
"""Modules imported once in the zygote when installed: lessons import them, costly. None
may hold a random state seeded at import (forks would share it): ``numpy`` leaves
``numpy.random`` to the first use, and the stdlib's ``random`` reseeds itself in a fork;
a test draws numbers in two lessons."""

STARTUP_TIMEOUT = 60.0
"""Seconds to wait for the zygote's answer (its imports come first on a loaded machine)."""

_zygotes: dict[tuple[int, str], tuple[socket.socket, subprocess.Popen[bytes]] | None] = {}
"""This process's zygote per interpreter; None once it failed (launchers are then started
directly). Keyed by process too: a forked worker must start its own, not share its
parent's socket."""
_lock = threading.Lock()


class Forked:
    """A launcher forked by the zygote, with the parts of :class:`subprocess.Popen`
    that :class:`pizarra.execute.Session` uses."""

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


def spawn(
    python: str, memory: int, cwd: str, env: Mapping[str, str], answers: int
) -> Forked | None:
    """A launcher for one lesson, forked by this process's zygote, writing its answers to
    the pipe end ``answers``; None when no zygote can (the caller starts one itself)."""
    pipes = [os.pipe() for _ in range(3)]  # requests, stdout, stderr
    theirs = [pipes[0][0], pipes[1][1], pipes[2][1], answers]
    ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
    message = json.dumps({"memory": memory, "cwd": cwd, "env": dict(env)}).encode()
    try:
        with _lock:
            zygote = _zygote(python)
            if zygote is None:
                return None
            try:
                socket.send_fds(zygote, [message], theirs)
                reply, fds, _flags, _addr = socket.recv_fds(zygote, 1024, 1)
            except OSError:
                reply, fds = b"", []
            if not (reply and fds):
                for fd in fds:
                    os.close(fd)
                _stop((os.getpid(), python))  # this process starts launchers itself from now
                return None
            stdin = os.fdopen(ours[0], "wb", 0)
            stdout, stderr = (os.fdopen(fd, "rb", 0) for fd in ours[1:])
            ours = []
            return Forked(int(json.loads(reply)["pid"]), fds[0], stdin, stdout, stderr)
    finally:
        for fd in (*theirs[:3], *ours):
            os.close(fd)


def _zygote(python: str) -> socket.socket | None:
    key = (os.getpid(), python)
    if key in _zygotes:
        found = _zygotes[key]
        return None if found is None else found[0]
    if not any(pid == key[0] for pid, _ in _zygotes):
        # At the end of this process: atexit for pizarra itself, a multiprocessing
        # finalizer for a worker of the lesson pool (which skips atexit).
        atexit.register(stop_all)
        multiprocessing.util.Finalize(None, stop_all, exitpriority=1)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        process = subprocess.Popen(
            [python, "-s", "-P", "-m", "pizarra.kernel_zygote", str(theirs.fileno())],
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
        _zygotes[key] = None
        return None
    finally:
        theirs.close()
    ours.settimeout(STARTUP_TIMEOUT)
    _zygotes[key] = (ours, process)
    return ours


def _stop(key: tuple[int, str]) -> None:
    """Close the socket (the zygote then ends by itself) and reap the zygote."""
    found = _zygotes.get(key)
    _zygotes[key] = None
    if found is not None:
        conn, process = found
        conn.close()
        try:
            process.wait(2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def stop_all() -> None:
    """End this process's zygotes and reap them, so their CPU time and that of the kernels
    they forked count as this process's children's (run at exit; benchmarks call it)."""
    for key in list(_zygotes):
        if key[0] == os.getpid():
            _stop(key)


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
    "MPLBACKEND": "module://pizarra.kernel_figures",
}
"""The environment every kernel shares (:func:`pizarra.execute._child_env` adds the
lesson's own folder). The zygote imports under it too, since numerical libraries read
their thread counts at import time."""


def main(argv: list[str]) -> None:
    """The zygote: import, then fork a launcher per request until the socket closes."""
    import importlib

    for own in ("pizarra.kernel_launcher", "pizarra.kernel_child"):
        importlib.import_module(own)

    for name in WARM:
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    conn = socket.socket(fileno=int(argv[1]))
    while True:
        readable = select.select([conn], [], [], 1.0)[0]
        _reap()
        if not readable:
            continue
        try:
            message, fds, _flags, _addr = socket.recv_fds(conn, 65536, 4)
        except OSError:
            os._exit(0)
        if not message:
            os._exit(0)  # pizarra has gone
        if len(fds) != 4:
            for fd in fds:
                os.close(fd)
            conn.send(b"")
            continue
        request = json.loads(message)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            conn.close()
            _become_launcher(request, fds)
        for fd in fds:
            os.close(fd)
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            conn.send(b"")
            continue
        socket.send_fds(conn, [json.dumps({"pid": pid}).encode()], [pidfd])
        os.close(pidfd)


def _become_launcher(request: dict[str, object], fds: list[int]) -> None:
    try:
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 3:
                os.close(fd)
        os.chdir(cast(str, request["cwd"]))
        os.environ.clear()
        os.environ.update(cast(dict[str, str], request["env"]))
        from pizarra import kernel_launcher

        sys.argv = [str(kernel_launcher.__file__), str(request["memory"]), "3"]
        kernel_launcher.main(sys.argv)
    finally:
        os._exit(70)


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] != 0:
            pass


if __name__ == "__main__":
    main(sys.argv)
