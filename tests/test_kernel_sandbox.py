"""Hostile cells run through pizarra's kernel are held: each test runs what an attacker's
pull request could put in a lesson and checks what it reached.

Where the system allows user namespaces (Debian does, and so does the machine these tests
run on in CI), the kernel must be in them; where it does not, the tests check what the
subreaper fallback promises instead (``docs/authoring.md``)."""

from __future__ import annotations

import os
import socket
import sys
import uuid
from pathlib import Path

import pytest

from pizarra.base.errors import Diagnostic, Severity
from pizarra.check.code_cells import CellOutcome, check_code_cells
from pizarra.check.kernel import launcher, namespaces
from pizarra.check.kernel.execute import CellRequest, KernelRunner, RunResult
from pizarra.check.kernel.pump import LESSON_FIGURE_LIMIT
from pizarra.source.lower import parse_lesson


def run(*codes: str, memory: int | None = None) -> tuple[list[RunResult], KernelRunner]:
    """Run the cells in one kernel; their results and the runner (for its isolation)."""
    runner = KernelRunner()
    return runner([CellRequest(c, 60) for c in codes], 120, memory), runner


def out(code: str) -> tuple[str, KernelRunner]:
    results, runner = run(code)
    assert results[-1].ok, results[-1].stderr
    return results[-1].stdout, runner


def namespaced(runner: KernelRunner) -> bool:
    mode = runner.isolation[0]
    assert mode in ("namespaces", "subreaper"), mode
    return mode == "namespaces"


def test_the_kernel_cannot_unmount_its_proc_and_sees_only_its_own_processes() -> None:
    shown, runner = out(
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "print(libc.umount2(b'/proc', 2), ctypes.get_errno())\n"
        "print(*sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))\n"
    )
    if namespaced(runner):
        result, listed = shown.splitlines()
        processes = [int(p) for p in listed.split()]
        assert result.startswith("-1 ")
        assert max(processes) < 10 and os.getpid() not in processes


def test_a_cell_can_make_no_namespace_of_its_own() -> None:
    shown, runner = out(
        "import ctypes\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "for flag in (0x10000000, 0x00020000, 0x40000000, 0x10000000 | 0x00020000):\n"
        "    print(libc.unshare(flag))\n"
    )
    if namespaced(runner):
        assert "no further namespaces" in runner.isolation[1]
        assert shown.split() == ["-1"] * 4


def test_the_kernel_holds_no_capability_and_cannot_gain_one() -> None:
    shown, runner = out(
        "status = dict(l.split(':\\t') for l in open('/proc/self/status').read().splitlines()"
        " if ':\\t' in l)\n"
        "print(status['CapEff'], status['CapPrm'], status['CapBnd'], status['NoNewPrivs'])\n"
    )
    caps = shown.split()
    assert caps[3] == "1"
    if namespaced(runner) or os.getuid() == 0:
        assert caps[:3] == ["0000000000000000"] * 3


def test_the_launchers_memory_cannot_be_opened_from_a_cell() -> None:
    shown, _ = out(
        "import os\n"
        "for pid in [p for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid()]:\n"
        "    try:\n"
        "        os.close(os.open(f'/proc/{pid}/mem', os.O_RDWR)); print('opened', pid)\n"
        "    except OSError as exc:\n"
        "        print('refused', exc.errno)\n"
    )
    assert "opened" not in shown


def test_as_root_the_kernel_is_nobody_and_the_venv_is_read_only() -> None:
    marker = f"zz_pizarra_test_{uuid.uuid4().hex}.pth"
    site = next(p for p in sys.path if p.endswith("site-packages"))
    shown, runner = out(
        "import os\n"
        "try:\n    open('/etc/shadow').read(1); print('shadow read')\n"
        "except OSError as exc:\n    print('shadow', exc.errno)\n"
        f"try:\n    open({site + '/' + marker!r}, 'w').write('import os')\n    print('planted')\n"
        "except OSError as exc:\n    print('pth', exc.errno)\n"
    )
    assert not Path(site, marker).exists()
    assert "planted" not in shown
    if os.getuid() == 0:
        assert "host uid 65534" in runner.isolation[1]
        assert "shadow read" not in shown


def test_the_kernel_has_no_network_not_even_loopback() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        shown, runner = out(
            "import socket\n"
            "try:\n"
            f"    socket.create_connection(('127.0.0.1', {port}), timeout=3); print('connected')\n"
            "except OSError as exc:\n    print('refused', exc.errno)\n"
        )
        listener.settimeout(0.2)
        with pytest.raises(TimeoutError):
            listener.accept()  # nothing arrived at the host's loopback
    if namespaced(runner):
        assert shown.startswith("refused")


def test_the_kernel_has_a_dev_of_its_own_and_a_loopback_of_its_own() -> None:
    shown, runner = out(
        "import os, socket\n"
        "print(*sorted(os.listdir('/dev')))\n"
        "server = socket.socket(); server.bind(('127.0.0.1', 0)); server.listen()\n"
        "socket.create_connection(server.getsockname()).close(); print('loopback')\n"
    )
    if namespaced(runner):
        devices, loopback = shown.splitlines()
        assert set(devices.split()) <= {
            *namespaces.DEVICES,
            "fd",
            "shm",
            "stdin",
            "stdout",
            "stderr",
        }
        assert loopback == "loopback"


def test_tmp_and_dev_shm_are_private_bounded_and_gone_after_the_lesson() -> None:
    name = f"pizarra-test-{uuid.uuid4().hex}"
    shown, runner = out(
        f"open('/tmp/{name}', 'w').write('x')\n"
        "n = 0\n"
        "try:\n"
        f"    with open('/dev/shm/{name}', 'wb') as f:\n"
        "        for _ in range(200):\n"
        "            f.write(b'\\1' * 2**20); f.flush(); n += 1\n"
        "except OSError as exc:\n    print('stopped', exc.errno)\n"
        "print(n)\n"
    )
    assert not Path("/tmp", name).exists() and not Path("/dev/shm", name).exists()
    if namespaced(runner):
        assert int(shown.split()[-1]) <= launcher.SCRATCH // 2**20


def test_the_work_folder_has_a_quota() -> None:
    shown, _ = out(
        "n = 0\n"
        "try:\n"
        "    with open('big', 'wb') as f:\n"
        "        for _ in range(400):\n"
        "            f.write(b'\\0' * 2**20); f.flush(); n += 1\n"
        "except OSError as exc:\n    print('stopped', exc.errno)\n"
        "print(n)\n"
    )
    assert shown.startswith("stopped") and int(shown.split()[-1]) <= launcher.WORK_QUOTA // 2**20


def test_a_fork_bomb_meets_the_process_limit() -> None:
    shown, runner = out(
        "import os, time\n"
        "n = 0\n"
        "for i in range(400):\n"
        "    try:\n        pid = os.fork()\n"
        "    except OSError:\n        break\n"
        "    if pid == 0:\n        time.sleep(60); os._exit(0)\n"
        "    n += 1\n"
        "print(n)\n"
    )
    if namespaced(runner) or os.getuid() == 0:
        assert int(shown) < launcher.PROCESS_LIMIT


@pytest.mark.slow
@pytest.mark.parametrize(
    "code",
    [
        "import mmap\nm = mmap.mmap(-1, 2 * 1024**3, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)\n"
        "for i in range(0, len(m), 4096): m[i] = 1\nprint('touched')\n",
        "import os\nfd = os.memfd_create('x')\nchunk = b'\\1' * 2**24\n"
        "for _ in range(128): os.write(fd, chunk)\nprint('touched')\n",
        "import os, select, time\nr, w = os.pipe()\nfor _ in range(4):\n    if os.fork() == 0:\n"
        "        b = bytearray(400 * 1024**2)\n"
        "        for i in range(0, len(b), 4096): b[i] = 1\n"
        "        os.write(w, b'k'); time.sleep(30); os._exit(0)\n"
        "ready, end = 0, time.monotonic() + 20\n"
        "while ready < 4 and select.select([r], [], [], max(0, end - time.monotonic()))[0]:\n"
        "    ready += len(os.read(r, 4))\n"
        "print('touched' if ready == 4 else ready)\n",
    ],
    ids=["shared mapping", "memfd", "forks"],
)
def test_memory_beyond_the_limit_is_refused_whatever_holds_it(code: str) -> None:
    results, runner = run(code, memory=512 * 1024**2)
    groups = "memory cgroup" in runner.isolation[1]
    if groups or "fork" not in code:  # rlimits are per process: forks need the cgroup
        assert "touched" not in results[-1].stdout


def test_the_kernel_cannot_leave_or_change_its_cgroups() -> None:
    shown, _ = out(
        "import os\n"
        "for root, dirs, files in os.walk('/sys/fs/cgroup'):\n"
        "    for name in ('cgroup.procs', 'pids.max', 'memory.max', 'memory.limit_in_bytes'):\n"
        "        if name in files:\n"
        "            try:\n"
        "                open(os.path.join(root, name), 'w').write('max' if 'max' in name or"
        " 'limit' in name else str(os.getpid()))\n"
        "                print('wrote', root, name)\n"
        "            except OSError:\n                pass\n"
        "    if root.count('/') > 5: dirs.clear()\n"
    )
    assert "wrote" not in shown


PRE = (
    "import sys\n"
    "f = sys._getframe()\n"
    "while 'responses' not in f.f_locals: f = f.f_back\n"
    "resp = f.f_locals['responses']\n"
)


@pytest.mark.parametrize(
    "garbage",
    [
        b"{not json\n",
        b"[1, 2]\n",
        b'{"exit": "x"}\n',
        b'{"exit": 0}\n',
        b"[" * 100_000 + b"]" * 100_000 + b"\n",
        b'{"isolation": "none", "details": []}\n',
        b'{"ok": true, "figures": [{"svg": "@@@", "width": 1, "height": 1}], "missing": []}\n',
    ],
    ids=["malformed", "list", "exit text", "forged exit", "deep", "isolation", "bad figure"],
)
def test_garbage_on_the_answer_pipe_is_the_cells_fault(garbage: bytes) -> None:
    code = PRE + f"resp.write({garbage!r}); resp.flush()\nprint(1)\n"
    results, runner = run(code, "print(2)\n")
    assert len(results) == 1 and results[0].protocol_error and not results[0].ok
    assert runner.isolation[0] in ("namespaces", "subreaper")


def diagnose(
    tmp_path: Path, code: str, memory: int | None = None
) -> tuple[Diagnostic, KernelRunner]:
    """Run a one-cell lesson through the kernel; the one diagnostic of its check."""
    fence = "```"
    (tmp_path / "l.md").write_text(
        '---\ntitle: "T"\nlesson: 1\nlang: en\nsummary: "s"\nslug: t\n---\n\n'
        f"{fence}{{code-cell}} python\n{code}\n{fence}\n"
    )
    lesson, _ = parse_lesson(tmp_path / "l.md", "l.md")
    cell = next(iter(lesson.code_cells()))
    results, runner = run(cell.code, memory=memory)
    [diagnostic] = check_code_cells(lesson, [CellOutcome(cell, results[0], False)])
    assert cell.pos.line <= diagnostic.pos.line <= cell.fence_end_line  # at the cell
    return diagnostic, runner


def test_a_kernel_killed_for_its_memory_is_told_how_to_fix_it(tmp_path: Path) -> None:
    code = (
        "import mmap\nm = mmap.mmap(-1, 2 * 1024**3, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)\n"
        "for i in range(0, len(m), 4096): m[i] = 1"
    )
    diagnostic, runner = diagnose(tmp_path, code, memory=256 * 1024**2)
    assert diagnostic.severity == Severity.ERROR
    if "memory cgroup" in runner.isolation[1]:  # the kernel was killed, not refused
        assert "SIGKILL" in diagnostic.message and "kernel_memory" in diagnostic.hint


def test_a_protocol_error_is_reported_at_the_cell_with_a_hint(tmp_path: Path) -> None:
    diagnostic, _ = diagnose(tmp_path, PRE + "resp.write(b'[1]\\n'); resp.flush()")
    assert diagnostic.severity == Severity.ERROR
    assert "private answer channel" in diagnostic.message and diagnostic.hint
    assert "bug in pizarra" not in diagnostic.message


def test_a_lessons_figures_together_are_bounded() -> None:
    flood = (
        "import matplotlib.pyplot as plt, pizarra.check.kernel.figures as kf, os\n"
        "kf.take_figures = lambda: [(b'<svg>' + os.urandom(5_000_000).hex().encode() + b'</svg>',"
        " 10, 10)]\n"
    )
    cells = [flood] + ["print(1)\n"] * 12
    results, _ = run(*cells)
    assert results[-1].lesson_figures_too_large and not results[-1].ok
    assert len(results) < len(cells)
    assert sum(len(f.svg) for r in results for f in r.figures) <= LESSON_FIGURE_LIMIT
