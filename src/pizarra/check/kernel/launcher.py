"""The launcher between pizarra and a lesson's kernel: limits, isolation, a clean end.

``python -s -P -m pizarra.check.kernel.launcher MEMORY FD`` is started by
:mod:`pizarra.check.kernel.execute` in a new session, with a minimal environment, the
request pipe on fd 0, the cells' stdout and stderr on fds 1 and 2 and the answer pipe on
``FD`` (moved to fd 3). It then:

1. limits the data segment (``RLIMIT_DATA``: heap and anonymous mappings, which is where
   NumPy's arrays live) to ``MEMORY`` bytes and disables core files;
2. enters new user, PID and mount namespaces when the system allows it, and mounts a
   fresh ``/proc``: the kernel then sees only its own processes, so no other process's
   environment is readable, and when the namespace's first process ends the system kills
   every process left in it, including those a cell detached with ``setsid``;
3. where namespaces are not available, becomes a *child subreaper* instead, so orphaned
   descendants are re-parented to it and killed when the kernel ends;
4. forks the kernel, waits for it, writes ``{"exit": status}`` on fd 3 and kills what is
   left. On SIGTERM (the parent's timeout) or the parent's death it kills everything.

The pieces that need system calls Python 3.11 does not wrap go through ``ctypes``.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import signal
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 16384, 1 << 18
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36

_libc = ctypes.CDLL(None, use_errno=True)
_child = 0


def main(argv: list[str]) -> None:
    memory, answers = int(argv[1]), int(argv[2])
    if answers != 3:
        os.dup2(answers, 3)
        os.close(answers)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    signal.signal(signal.SIGTERM, _terminate)
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    isolation = "namespaces" if _enter_namespaces() else "subreaper"
    if isolation == "subreaper":
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _say({"isolation": isolation})
    global _child
    _child = os.fork()
    if _child == 0:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if isolation == "namespaces":
            _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            _mount_proc()
            os._exit(_supervise(_fork_kernel(), report=True))
        _run_kernel()
    if isolation == "namespaces":
        os.waitpid(_child, 0)
        _kill_children()
        os._exit(0)
    _supervise(_child, report=True)
    os._exit(0)


def _supervise(kernel: int, report: bool) -> int:
    """Reap every child until the kernel ends; report its status; kill the rest."""
    status = 0
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if pid == kernel:
            break
    if report:
        code = os.waitstatus_to_exitcode(status)
        _say({"exit": code})
    _kill_children()
    return 0


def _fork_kernel() -> int:
    pid = os.fork()
    if pid == 0:
        _run_kernel()
    return pid


def _run_kernel() -> None:
    """Become the kernel (never returns)."""
    try:
        from pizarra.check.kernel.child import serve

        serve()
    except BaseException:
        with contextlib.suppress(BaseException):
            sys.stderr.flush()
        os._exit(70)
    os._exit(0)


def _enter_namespaces() -> bool:
    uid, gid = os.getuid(), os.getgid()
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS) != 0:
        return False
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"0 {uid} 1")
        _write("/proc/self/gid_map", f"0 {gid} 1")
    except OSError:
        return False
    return _libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) == 0  # type: ignore[no-any-return]


def _mount_proc() -> None:
    """A ``/proc`` of the new PID namespace; without it the kernel would not start."""
    flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    if _libc.mount(b"proc", b"/proc", b"proc", flags, None) != 0:
        _say({"exit": 71, "error": f"cannot mount /proc: {os.strerror(ctypes.get_errno())}"})
        os._exit(71)


def _kill_children() -> None:
    """SIGKILL every child, reap, repeat: orphans of killed children come back to us."""
    for _ in range(1000):
        children = _children()
        if not children:
            break
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0] != 0:
                pass


def _children() -> list[int]:
    found: list[int] = []
    task = f"/proc/{os.getpid()}/task"
    with contextlib.suppress(OSError):
        for tid in os.listdir(task):
            with open(f"{task}/{tid}/children", encoding="ascii") as handle:
                found.extend(int(p) for p in handle.read().split())
    return found


def _terminate(signum: int, frame: object) -> None:
    if _child:
        with contextlib.suppress(ProcessLookupError):
            os.kill(_child, signal.SIGKILL)
    _kill_children()
    os._exit(0)


def _prctl(option: int, value: int) -> None:
    _libc.prctl(option, value, 0, 0, 0)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(text)


def _say(message: dict[str, object]) -> None:
    with contextlib.suppress(OSError):
        os.write(3, json.dumps(message).encode() + b"\n")


if __name__ == "__main__":
    main(sys.argv)
