"""First page of a fresh install: ``pip install`` the wheel, ``pizarra serve``, first answer.

    python bench/bench_first_page.py [--runs 5]

Builds the wheel of this checkout (``python -m build --wheel --no-isolation``), installs
it into a fresh venv with nothing else (dependencies from a wheelhouse kept in
``bench/.wheelhouse``, filled from the index the first time), then starts
``pizarra serve`` of the bundled course ``--runs`` times, each with an empty cache (as
on a fresh install), and times from starting the command to the first 200 answer for
``/`` and then for the first lesson's page. Printed: the median and every run.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "bench" / ".wheelhouse"
SKIP = (".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".pizarra-cache")
LESSON = "/potencias-para-la-ia/"
TIMEOUT = 60.0


def run(args: list[str | Path], cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"{args} failed:\n{done.stdout.decode()}\n{done.stderr.decode()}")


def requirements(wheel: Path) -> str:
    """The wheel's declared dependencies, one requirement a line."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(name).decode()
    return "".join(
        line.removeprefix("Requires-Dist:").strip() + "\n"
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    )


def install(work: Path, env: dict[str, str]) -> Path:
    """A fresh venv holding the wheel of this checkout and its dependencies only."""
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*SKIP))
    dist = work / "dist"
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o", dist, source], work, env)
    [wheel] = dist.glob("pizarra-*.whl")
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], work, env)
    pip: list[str | Path] = [sys.executable, "-m", "pip", "--python", venv / "bin" / "python"]
    pip += ["install", "-q"]
    offline = [*pip, "--no-index", "--find-links", HOUSE, wheel]
    if subprocess.run([str(a) for a in offline], cwd=work, env=env, capture_output=True).returncode:
        (work / "requirements.txt").write_text(requirements(wheel), encoding="utf-8")
        HOUSE.mkdir(parents=True, exist_ok=True)
        fill: list[str | Path] = [sys.executable, "-m", "pip", "wheel", "-q", "-w", HOUSE]
        run([*fill, "-r", work / "requirements.txt"], work, env)
        run(offline, work, env)
    return venv / "bin" / "pizarra"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answered(port: int, path: str) -> bool:
    """True once ``path`` answers 200 (False while the server is not listening yet)."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        connection.request("GET", path)
        status = connection.getresponse().status
        connection.close()
    except OSError:
        return False
    return status == 200


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of process ``pid`` and of its children it has reaped.

    On a shared machine wall time depends on the load; this does not.
    """
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return float("nan")
    ticks = sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def first_page(
    pizarra: Path, work: Path, env: dict[str, str], run_no: int
) -> tuple[float, float, float]:
    """Seconds from starting ``pizarra serve`` to the index page, then to the lesson page,
    and the CPU seconds the server had used by the first answer."""
    env = dict(env, PIZARRA_CACHE_DIR=str(work / f"cache{run_no}"))
    port = free_port()
    start = time.perf_counter()
    server = subprocess.Popen(
        [str(pizarra), "serve", "--example", "--port", str(port)],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while not answered(port, "/"):
            if server.poll() is not None or time.perf_counter() - start > TIMEOUT:
                raise SystemExit("pizarra serve did not answer")
            time.sleep(0.005)
        index = time.perf_counter() - start
        cpu = cpu_seconds(server.pid)
        if not answered(port, LESSON):
            raise SystemExit(f"{LESSON} did not answer 200")
        return index, time.perf_counter() - start, cpu
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIZARRA_", "VIRTUAL_ENV"))}
    with tempfile.TemporaryDirectory(prefix="pizarra-first-page-") as tmp:
        work = Path(tmp)
        pizarra = install(work, env)
        times = [first_page(pizarra, work, env, n) for n in range(args.runs)]
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs")
    for label, values in (
        ("first answer for /", [t[0] for t in times]),
        (f"first answer for {LESSON}", [t[1] for t in times]),
        ("CPU seconds used by the first answer", [t[2] for t in times]),
    ):
        print(
            f"fresh install, pizarra serve, {label}: median of {args.runs} "
            f"{statistics.median(values):.2f} s (all: {', '.join(f'{v:.2f}' for v in values)})"
        )


if __name__ == "__main__":
    main()
