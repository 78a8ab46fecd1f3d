"""Where user namespaces are not available, the launcher's fallback still holds what
``docs/authoring.md`` promises: the subreaper kills detached processes, the kernel has
``no_new_privs``, is ``nobody`` when pizarra is root, and its exit is reported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

NO_NAMESPACES = (
    "import sys\n"
    "from pizarra.check.kernel import launcher, namespaces\n"
    "namespaces.enter = lambda uid, gid: False\n"
    "launcher.main(['launcher', sys.argv[1], sys.argv[2], sys.argv[3]])\n"
)

CELL = (
    "import os, time\n"
    "r, w = os.pipe()\n"
    "if os.fork() == 0:\n"
    "    os.setsid()\n"
    "    if os.fork() == 0:\n"
    "        os.write(w, str(os.getpid()).encode()); time.sleep(300); os._exit(0)\n"
    "    os._exit(0)\n"
    "detached = os.read(r, 20).decode()\n"
    "status = open('/proc/self/status').read()\n"
    "print(os.getuid(), status.split('NoNewPrivs:')[1].split()[0], detached)\n"
)


def test_without_namespaces_the_subreaper_fallback_holds(tmp_path: Path) -> None:
    answers_read, answers_write = os.pipe()
    status_read, status_write = os.pipe()
    request = {"code": CELL, "name": "<cell-1>", "raises": False, "marker": "\x1eend\x1e"}
    limits_and_pipes = [str(2**31), str(answers_write), str(status_write)]
    launcher = subprocess.Popen(
        [sys.executable, "-s", "-P", "-c", NO_NAMESPACES, *limits_and_pipes],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        pass_fds=(answers_write, status_write),
        start_new_session=True,
    )
    os.close(answers_write)
    os.close(status_write)
    out, err = launcher.communicate(json.dumps(request).encode() + b"\n", timeout=60)
    with os.fdopen(answers_read, "rb") as answers, os.fdopen(status_read, "rb") as status:
        answer = json.loads(answers.readline())
        reports = [json.loads(line) for line in status]
    assert answer["ok"], err
    assert reports[0]["isolation"] == "subreaper" and reports[-1] == {"exit": 0}
    uid, no_new_privs, detached = out.decode().split("\x1eend\x1e")[0].split()
    assert no_new_privs == "1"
    assert int(uid) == (65534 if os.getuid() == 0 else os.getuid())
    assert not Path(f"/proc/{detached}").exists()  # it died with the lesson
