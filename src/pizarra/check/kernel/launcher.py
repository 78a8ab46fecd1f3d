"""The launcher between pizarra and a lesson's kernel: limits, isolation, a clean end.

``python -s -P -m pizarra.check.kernel.launcher MEMORY ANSWERS STATUS`` is started by
:mod:`pizarra.check.kernel.execute` (or forked by the zygote) in a new session, with a
minimal environment, the request pipe on fd 0, the cells' stdout and stderr on fds 1 and
2, the kernel's answer pipe on ``ANSWERS`` (moved to fd 3) and the launcher's own status
pipe on ``STATUS`` (fd 4: the isolation report and the kernel's exit, which the kernel
never holds, so no cell can forge them). Four processes, each with one job:

1. the *launcher* stays on the host, non-dumpable: it makes the kernel's memory and
   pids cgroups where it can (:mod:`pizarra.check.kernel.cgroups`), and at the end (or
   on SIGTERM, the parent's timeout, or the parent's death) kills what is left and
   removes them;
2. the *sandbox* joins those cgroups, becomes ``nobody`` when pizarra runs as root (so
   the kernel is never host root: no ``/etc/shadow``, no writing the venv), sets the
   rlimits and enters new namespaces (:func:`pizarra.check.kernel.namespaces.enter`);
3. the *init*, first process of the new PID namespace, seals the file system
   (:func:`~pizarra.check.kernel.namespaces.seal`), reports the isolation on fd 4 and
   supervises the kernel: when it ends, the system kills every process left in the
   namespace, including those a cell detached with ``setsid``;
4. the *kernel* locks itself in (:func:`~pizarra.check.kernel.namespaces.lock_in`: no
   capability, every mount locked) and serves the cells (:mod:`pizarra.check.kernel.child`).

Where user namespaces are not available, the sandbox becomes the kernel's *child
subreaper* instead, so detached descendants are still found and killed at the end; it
keeps the cgroups, the uid drop, ``no_new_privs`` and the rlimits (see ``docs/authoring.md``).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import resource
import signal
import sys

from pizarra.check.kernel import cgroups, namespaces
from pizarra.check.kernel import syscalls as sc

WORK_QUOTA = 256 * 1024**2
"""Bytes the kernel may write to its work folder, and to any one file (``RLIMIT_FSIZE``)."""

SCRATCH = 64 * 1024**2
"""Bytes of each of the kernel's private ``/tmp`` and ``/dev/shm``."""

PROCESS_LIMIT = 256
"""Tasks (processes and threads) of one kernel, all its descendants included."""

MEMORY_SLACK = 256 * 1024**2
"""The memory cgroup's bytes beyond the kernel's data limit: the interpreter itself and
its tmpfs files, so that one big array still ends in ``MemoryError``, not a kill."""

ADDRESS_HEADROOM = 1024**3
"""Without a memory cgroup: address space beyond the data limit (``RLIMIT_AS``). A kernel
with NumPy and matplotlib maps under 200 MB more than its data."""

NOBODY = 65534

FOLDER, ROOT = "PIZARRA_LESSON_FOLDER", "PIZARRA_COURSE_FOLDER"
"""The environment variables naming the lesson's folder and its course's (see
:func:`pizarra.check.kernel.execute._child_env`), taken out before the kernel runs."""

_child = 0
"""In each process: the one it supervises (0 before it forked it)."""
_groups: list[cgroups.Group] = []
"""In the launcher: the cgroups it made, removed at the end."""


def main(argv: list[str]) -> None:
    memory, answers, status = int(argv[1]), int(argv[2]), int(argv[3])
    move_fds({answers: 3, status: 4})
    sc.prctl(sc.PR_SET_PDEATHSIG, signal.SIGTERM)
    sc.prctl(sc.PR_SET_DUMPABLE, 0)
    sc.prctl(sc.PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGTERM, _terminate)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    global _child
    _groups.extend(cgroups.create(memory + MEMORY_SLACK, PROCESS_LIMIT))
    _child = os.fork()
    if _child == 0:
        _sandbox(memory, _groups)
    _wait(_child)
    _kill_children()
    cgroups.remove(_groups)
    os._exit(0)


def _sandbox(memory: int, groups: list[cgroups.Group]) -> None:
    """The sandbox process: cgroups, user, rlimits, namespaces (never returns)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    limited = {c for group in cgroups.join(groups) for c in group.controllers}
    _groups.clear()  # the launcher's to remove
    uid, gid = os.getuid(), os.getgid()
    report = []
    folder, root = os.environ.pop(FOLDER, ""), os.environ.pop(ROOT, "")
    root = root or folder
    if uid == 0:
        with contextlib.suppress(OSError):
            os.chown(".", NOBODY, NOBODY)  # the work folder, where no namespace hides it
        try:
            namespaces.expose_interpreter([root] if root else [])
        except OSError as exc:
            report.append(f"Python's folders not reachable by nobody: {exc}")
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)
        uid = gid = NOBODY
    sc.prctl(sc.PR_SET_PDEATHSIG, signal.SIGKILL)  # a change of user resets it
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (WORK_QUOTA, WORK_QUOTA))
    if "memory" not in limited:
        space = memory + ADDRESS_HEADROOM
        resource.setrlimit(resource.RLIMIT_AS, (space, space))
    report += [f"host uid {uid}", *(f"{c} cgroup" for c in sorted(limited))]
    sc.prctl(sc.PR_SET_DUMPABLE, 1)  # else its /proc/self is root's: no maps written
    try:
        entered = namespaces.enter(uid, gid)
    except OSError as exc:
        _say({"exit": 71, "error": f"cannot enter the kernel's namespaces: {exc}"})
        os._exit(71)
    sc.prctl(sc.PR_SET_DUMPABLE, 0)  # now the namespace's root owns it: nothing above
    if entered:
        global _child
        # Opened before the fork: the child, in this same mount namespace, is about to
        # lay a /dev of its own, and opened after, it was now and then that one's
        # unfinished /dev/null (a plain file, or none yet), so that the child's /dev
        # could not be made read-only (EBUSY), or this process ended at once.
        null = os.open(os.devnull, os.O_RDWR)
        _child = os.fork()
        if _child == 0:
            os.close(null)
            _init(report, folder, root)
        _quiet(keep_status=False, null=null)
        _wait(_child)
        os._exit(0)
    if folder:
        report.append(
            "an empty working folder: without a mount namespace, the lesson's "
            "folder could not be made read-only"
        )
    _subreaper(report, nproc=uid == NOBODY)


def _init(report: list[str], folder: str, root: str) -> None:
    """The PID namespace's first process: seal, report, supervise (never returns)."""
    sc.prctl(sc.PR_SET_PDEATHSIG, signal.SIGKILL)
    try:
        left = namespaces.seal(os.getcwd(), WORK_QUOTA, SCRATCH, folder, root)
    except OSError as exc:
        _say({"exit": 71, "error": f"cannot seal the kernel's file system: {exc}"})
        os._exit(71)
    resource.setrlimit(resource.RLIMIT_NPROC, (PROCESS_LIMIT, PROCESS_LIMIT))
    if folder:
        layered = namespaces.writable_layer(folder, os.getcwd())
        try:
            os.chdir(folder)
            report.append(
                "the lesson's folder as its working folder, read-only"
                + (
                    ": what cells write there goes to a private layer, dropped after"
                    if layered
                    else ""
                )
            )
        except OSError as exc:
            report.append(f"an empty working folder: the lesson's is out of reach ({exc})")
    details = [
        *report,
        "user, pid, mount, network, ipc, uts and cgroup namespaces",
        "a /dev of its own",
        f"file system {namespaces.report_mounts_left(left)}",
        "private /proc, /tmp and /dev/shm",
        f"{PROCESS_LIMIT} tasks",
    ]
    if namespaces.limit_nesting():
        details.append("no further namespaces")
    if namespaces.loopback_up():
        details.append("a loopback device of its own")
    _say({"isolation": "namespaces", "details": details})
    global _child
    _child = os.fork()
    if _child == 0:
        os.close(4)
        try:
            sc.prctl(sc.PR_SET_DUMPABLE, 1)  # its own /proc/self, for its maps and for cells
            namespaces.lock_in()
        except OSError as exc:
            os.write(2, f"pizarra: cannot lock the kernel in: {exc}\n".encode())
            os._exit(71)
        _run_kernel()
    _quiet(keep_status=True)
    _supervise(_child)


def _subreaper(report: list[str], nproc: bool) -> None:
    """Without namespaces: adopt the kernel's orphans, kill them at the end."""
    sc.prctl(sc.PR_SET_CHILD_SUBREAPER, 1)
    if nproc:  # counted per user: only when the kernel's user is ours alone
        resource.setrlimit(resource.RLIMIT_NPROC, (PROCESS_LIMIT, PROCESS_LIMIT))
    signal.signal(signal.SIGTERM, _terminate)
    details = [*report, "no namespaces: the file system, network and processes are shared"]
    _say({"isolation": "subreaper", "details": details})
    global _child
    _child = os.fork()
    if _child == 0:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.close(4)
        sc.prctl(sc.PR_SET_NO_NEW_PRIVS, 1)
        _run_kernel()
    _quiet(keep_status=True)
    _supervise(_child)


def _supervise(kernel: int) -> None:
    """Reap every child until the kernel ends; report its status; kill the rest."""
    status = 0
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if pid == kernel:
            break
    _say({"exit": os.waitstatus_to_exitcode(status)})
    _kill_children()
    os._exit(0)


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


def _wait(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


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
    cgroups.remove(_groups)
    os._exit(0)


def move_fds(targets: dict[int, int]) -> None:
    """Put each fd on its target number, whatever numbers they had (one may be another's
    target): out of the way first, then in place."""
    high = {fcntl.fcntl(fd, fcntl.F_DUPFD, 32): target for fd, target in targets.items()}
    for fd in targets:
        os.close(fd)
    for fd, target in high.items():
        os.dup2(fd, target)
        os.close(fd)


def _quiet(keep_status: bool, null: int | None = None) -> None:
    """Let go of the kernel's pipes, so their ends close when the kernel's processes end
    (``null``: the null device, opened already)."""
    null = os.open(os.devnull, os.O_RDWR) if null is None else null
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    for fd in (3,) if keep_status else (3, 4):
        with contextlib.suppress(OSError):
            os.close(fd)


def _say(message: dict[str, object]) -> None:
    with contextlib.suppress(OSError):
        os.write(4, json.dumps(message).encode() + b"\n")


if __name__ == "__main__":
    main(sys.argv)
