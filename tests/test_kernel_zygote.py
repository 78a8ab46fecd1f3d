"""Kernels forked by the zygote are the kernels a fresh launcher makes, and none outlives
pizarra."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pizarra import kernel_zygote
from pizarra.execute import CellRequest, KernelRunner, Session

KEY = (os.getpid(), sys.executable)


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
    zygote = kernel_zygote._zygotes[KEY]
    lesson("print(2)")
    assert kinds == ["Forked", "Forked"]
    assert kernel_zygote._zygotes[KEY] is zygote  # started once, used again


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
        """
    )
    [forked] = lesson(code)
    kernel_zygote._stop(KEY)  # no zygote from now on in this process: launchers started anew
    try:
        [started] = lesson(code)
    finally:
        del kernel_zygote._zygotes[KEY]
    assert forked == started
    assert forked.splitlines()[:2] == ["True", str(2 * 1024**3)]


def test_the_zygote_ends_when_pizarra_does(tmp_path: Path) -> None:
    driver = (
        "import os, sys\n"
        "from pizarra import kernel_zygote\n"
        "from pizarra.execute import CellRequest, KernelRunner\n"
        "[r] = KernelRunner()([CellRequest('print(1)', 30)], 60)\n"
        "print(r.stdout, kernel_zygote._zygotes[(os.getpid(), sys.executable)][1].pid)\n"
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


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for its new parent to reap it."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return b"pizarra.kernel_zygote" in cmdline and state != "Z"
