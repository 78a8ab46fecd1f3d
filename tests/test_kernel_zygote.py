"""Kernels forked by the zygote are the kernels a fresh launcher makes, forked processes
share one zygote without mixing up its answers, and none outlives pizarra."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from pizarra.check.kernel import zygote as kernel_zygote
from pizarra.check.kernel.execute import CellRequest, KernelRunner, Session

PYTHON = sys.executable


def lesson(*codes: str) -> list[str]:
    results = KernelRunner()([CellRequest(code, 30) for code in codes], 60)
    assert all(r.ok for r in results), [r.stderr for r in results]
    return [r.stdout for r in results]


def test_lessons_run_in_forks_of_one_zygote(monkeypatch: pytest.MonkeyPatch) -> None:
    kinds: list[str] = []
    original = Session.__init__

    def spy(self: Session, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        kinds.append(type(self.proc).__name__)

    monkeypatch.setattr(Session, "__init__", spy)
    lesson("print(1)")
    zygote = kernel_zygote._zygotes[PYTHON]
    lesson("print(2)")
    assert kinds == ["Forked", "Forked"]
    assert kernel_zygote._zygotes[PYTHON] is zygote  # started once, used again


def test_forked_lessons_share_nothing_and_draw_their_own_random_numbers() -> None:
    code = "import numpy as np\nprint(globals().get('mine'), np.random.randint(1 << 60))\nmine = 1"
    [first], [second] = lesson(code), lesson(code)
    assert first.split()[0] == second.split()[0] == "None"
    assert first != second


def test_a_forked_kernel_is_as_bounded_and_isolated_as_a_started_one() -> None:
    code = textwrap.dedent(
        """\
        import os, sys, resource
        print(os.getcwd() == os.environ["HOME"] == os.environ["TMPDIR"])
        print(resource.getrlimit(resource.RLIMIT_DATA)[0])
        print(sorted(os.environ)[:3], sys.flags.no_user_site, sys.flags.safe_path)
        {"shown": list(range(30)), "by": "the pretty printer the zygote loaded"}
        """
    )
    [forked] = lesson(code)
    kernel_zygote._fail(PYTHON)  # no zygote from now on in this process: launchers started anew
    try:
        [started] = lesson(code)
    finally:
        kernel_zygote.stop_all()
    assert forked == started
    assert forked.splitlines()[:2] == ["True", str(2 * 1024**3)]
    assert forked.splitlines()[3:5] == ["{'shown': [0,", "  1,"]  # pretty-printed, 79 columns


def test_the_zygote_ends_when_pizarra_does(tmp_path: Path) -> None:
    driver = (
        "import os, sys\n"
        "from pizarra.check.kernel import zygote as kernel_zygote\n"
        "from pizarra.check.kernel.execute import CellRequest, KernelRunner\n"
        "[r] = KernelRunner()([CellRequest('print(1)', 30)], 60)\n"
        "print(r.stdout, kernel_zygote._zygotes[sys.executable].process.pid)\n"
        "sys.stdout.flush()\n"
        "os._exit(0)\n"  # not even atexit: the closed socket alone ends the zygote
    )
    done = subprocess.run(
        [sys.executable, "-c", driver], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    output, pid = done.stdout.split()
    assert output == "1", done.stderr
    deadline = time.monotonic() + 10
    while _alive(int(pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(int(pid))


def test_the_zygote_ends_when_pizarra_is_killed_though_a_worker_lives_on(tmp_path: Path) -> None:
    driver = (
        "import os, signal, sys, time\n"
        "from pizarra.check.kernel import zygote as kernel_zygote\n"
        "kernel_zygote.start()\n"
        "worker = os.fork()\n"
        "if worker == 0:\n"
        "    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)\n"
        "    os.dup2(1, 2)\n"
        "    time.sleep(60)\n"  # holds a copy of the shared socket
        "    os._exit(0)\n"
        "print(kernel_zygote._zygotes[sys.executable].process.pid, worker, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", driver], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    zygote, worker = (int(pid) for pid in done.stdout.split())
    try:
        deadline = time.monotonic() + 10
        while _alive(zygote) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(zygote)
    finally:
        os.kill(worker, signal.SIGKILL)


ROUNDS = 6


def test_two_forked_workers_spawning_at_once_each_get_their_own_launcher() -> None:
    assert kernel_zygote.start(PYTHON)
    zygote = kernel_zygote._zygotes[PYTHON]
    assert zygote is not None
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    problems = context.Queue()
    workers = [
        context.Process(target=_spawn_in_step, args=(barrier, problems, zygote.process.pid))
        for _ in range(2)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    found = [problems.get(timeout=60) for _ in workers]
    assert found == ["", ""]
    assert [worker.exitcode for worker in workers] == [0, 0]


def _spawn_in_step(
    barrier: multiprocessing.synchronize.Barrier,
    problems: multiprocessing.queues.Queue[str],
    zygote: int,
) -> None:
    """In a forked worker: spawn a launcher in the same instant as the other worker, each
    round, and check the answer names the launcher holding this worker's own pipes."""
    try:
        assert kernel_zygote._zygotes[PYTHON].owner == os.getppid()  # type: ignore[union-attr]
        with tempfile.TemporaryDirectory() as workdir:
            for _ in range(ROUNDS):
                barrier.wait(60)
                answers, answer_end = os.pipe()
                status, status_end = os.pipe()
                forked = kernel_zygote.spawn(PYTHON, 2**31, workdir, {}, answer_end, status_end)
                os.close(answer_end)
                os.close(status_end)
                assert forked is not None and forked.stdin is not None
                pipe = f"pipe:[{os.fstat(forked.stdin.fileno()).st_ino}]"
                assert _holds(forked.pid, pipe)
                assert _parent(forked.pid) == zygote
                forked.stdin.close()
                forked.wait(30)
                for stream in (forked.stdout, forked.stderr):
                    assert stream is not None
                    stream.close()
                os.close(answers)
                os.close(status)
        problems.put("")
    except BaseException as exc:
        problems.put(repr(exc))


def _holds(pid: int, target: str) -> bool:
    """Whether the process, or one of its descendants, has a file descriptor pointing to
    ``target`` (forked with the zygote's copies of the pipes, it holds them from its first
    instant, though it moves them to fds 0 to 4 meanwhile: look again if it did so while
    being looked at). The launcher and its sandbox are not dumpable, so another user
    (not root) sees the fds of the kernel only."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for process in _family(pid):
            with contextlib.suppress(OSError):
                for fd in Path(f"/proc/{process}/fd").iterdir():
                    with contextlib.suppress(OSError):
                        if os.readlink(fd) == target:
                            return True
    return False


def _family(pid: int) -> list[int]:
    """The process and its descendants."""
    found, todo = [], [pid]
    while todo:
        process = todo.pop()
        found.append(process)
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{process}/task").iterdir():
                todo.extend(int(p) for p in (task / "children").read_text().split())
    return found


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for its new parent to reap it."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return b"pizarra.check.kernel.zygote" in cmdline and state != "Z"
