"""pizarra and MkDocs side by side on the same lessons: cold, warm, one-line edit.

    python bench/bench_vs_mkdocs.py [--rounds 3] [--sizes 1 20] [--no-serve]
    python bench/bench_vs_mkdocs.py --serve-only [--saves 9]

MkDocs 1.6 with Material is installed into a bench-only venv (``bench/.venv-mkdocs``,
from PyPI) the first time. Lessons are generated from the bundled lesson 7, each made
distinct (its own title, number, prose, code-cell comments and declared variable, which
is part of every claim's verdict key), so no cache can answer one lesson from another's
entry: each lesson proves its own claims and runs its own cells. MkDocs gets the same
Markdown with the math left as raw ``$...$`` (all it does by itself). pizarra's modules
and templates are first compiled as installing its wheel does. Printed: medians
of ``--rounds`` runs, the ratios pizarra / MkDocs (wall time, and CPU time, which a
loaded machine disturbs less), the median of each round's cold ratio (the two cold
builds run one right after the other, so a host whose speed drifts moves both), peak
memory, the load average, and the time from saving a one-line edit to the reloaded
page's DOM in Chromium under ``pizarra serve``, by Chromium's clock (saves 1.5 s apart,
so the search index a save brings after the reload is not counted against the next save).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = (
    ROOT
    / "src"
    / "pizarra"
    / "source"
    / "bundled"
    / "math-for-ai"
    / "lessons"
    / "07-potencias-para-la-ia.md"
)
MKDOCS_VENV = ROOT / "bench" / ".venv-mkdocs"
MKDOCS_PINS = ["mkdocs==1.6.1", "mkdocs-material==9.8.2"]
PIZARRA = Path(sys.executable).parent / "pizarra"


def lessons(count: int) -> dict[str, str]:
    """``count`` distinct lessons: file name -> text."""
    text = SOURCE.read_text(encoding="utf-8")
    made = {}
    for n in range(1, count + 1):
        body = re.sub(r"^lesson: \d+$", f"lesson: {n + 10}", text, count=1, flags=re.M)
        body = re.sub(r"^title: .*$", f'title: "Lección de prueba {n}"', body, count=1, flags=re.M)
        # A variable of its own changes the lesson's claim context, so no verdict is
        # shared: every lesson proves its claims itself, as distinct lessons would.
        body = body.replace("variables:\n", f"variables:\n  w_{{{n}}}: positive\n", 1)
        body = body.replace("```{code-cell} python\n", f"```{{code-cell}} python\n# lección {n}\n")
        body += f"\n\n## Nota {n}\n\nEsta es la lección generada número {n}: $2^{{{n}}}={2**n}$.\n"
        made[f"l{n:02d}.md"] = body
    return made


def write_pizarra(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True)
    entries = "".join(  # the lesson refers to lessons 2 and 8: announced, not generated
        f"  - number: {n}\n    title: Próxima {n}\n    summary: Pronto.\n" for n in range(1, 11)
    )
    entries += "".join(
        f"  - number: {n + 10}\n    file: l{n:02d}.md\n" for n in range(1, count + 1)
    )
    (folder / "course.yaml").write_text(f"title: Bench\nlang: es\nlessons:\n{entries}")
    for name, text in lessons(count).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def write_mkdocs(folder: Path, count: int) -> Path:
    (folder / "docs").mkdir(parents=True)
    (folder / "mkdocs.yml").write_text("site_name: Bench\ntheme:\n  name: material\n")
    for name, text in lessons(count).items():
        (folder / "docs" / name).write_text(text, encoding="utf-8")
    return folder


def timed(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int, float]:
    """Wall seconds, peak RSS (MB) of its largest process, and CPU seconds of one command
    (its own and its reaped children's: less sensitive than wall time to a loaded machine)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(
            f"{args} failed:\n{process.stderr.read().decode() if process.stderr else ''}"
        )
    return seconds, usage.ru_maxrss // 1024, usage.ru_utime + usage.ru_stime


def ensure_venv(venv: Path, command: str, pins: list[str]) -> Path:
    """``command`` of a bench-only venv holding ``pins``, made the first time."""
    binary = venv / "bin" / command
    if not binary.exists():
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([venv / "bin" / "pip", "install", "-q", *pins], check=True)
    return binary


def ensure_mkdocs() -> Path:
    return ensure_venv(MKDOCS_VENV, "mkdocs", MKDOCS_PINS)


def install_like_pip() -> None:
    """Byte-compile pizarra's modules and templates as installing its wheel does (and
    as pip did for MkDocs): a checkout run with ``PYTHONDONTWRITEBYTECODE`` set would
    otherwise compile every module from source in every build it times."""
    package = ROOT / "src" / "pizarra"
    subprocess.run([sys.executable, "-m", "compileall", "-q", package], check=True)
    quiet = subprocess.DEVNULL
    subprocess.run([sys.executable, "-m", "pizarra.render.templating"], check=True, stdout=quiet)


def median(values: list[float]) -> float:
    return statistics.median(values)


def bench_size(count: int, rounds: int, mkdocs: Path, work: Path) -> dict[str, float]:
    env = dict(os.environ)
    results: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    peak = {"pizarra": 0, "mkdocs": 0}

    def record(name: str, seconds: float, rss: int, used: float, tool: str) -> None:
        results.setdefault(name, []).append(seconds)
        cpu.setdefault(name, []).append(used)
        peak[tool] = max(peak[tool], rss)

    for r in range(rounds):
        course = write_pizarra(work / f"p{count}-{r}", count)
        site = write_mkdocs(work / f"m{count}-{r}", count)
        env["PIZARRA_CACHE_DIR"] = str(work / f"cache{count}-{r}")
        out = work / f"out{count}-{r}"
        build = [str(PIZARRA), "build", str(course), "-o", str(out)]
        mkdocs_build = [str(mkdocs), "build", "-q"]
        # The two cold builds one right after the other: a host whose speed drifts
        # moves both alike, which the per-round ratio below shows.
        record("cold", *timed(build, work, env), "pizarra")
        record("mk cold", *timed(mkdocs_build, site, env), "mkdocs")
        timed(build, work, env)  # confirms the code cells: only now are lessons kept whole
        record("warm", *timed(build, work, env), "pizarra")
        record("mk warm", *timed([*mkdocs_build, "--dirty"], site, env), "mkdocs")
        first = course / "l01.md"
        first.write_text(first.read_text() + f"\nUna línea más {r}.\n")
        record("edit", *timed(build, work, env), "pizarra")
        page = site / "docs" / "l01.md"
        page.write_text(page.read_text() + f"\nUna línea más {r}.\n")
        record("mk edit", *timed([*mkdocs_build, "--dirty"], site, env), "mkdocs")
    m = {name: median(values) for name, values in results.items()}
    c = {name: median(values) for name, values in cpu.items()}
    print(f"\n{count} lesson(s), medians of {rounds} run(s), wall time (CPU time):")
    head = f"{'pizarra':>9} {'MkDocs':>9} {'ratio':>7}"
    print(f"{'':>18} {head}   {head}")
    for label, ours, theirs in (
        ("cold", "cold", "mk cold"),
        ("nothing changed", "warm", "mk warm"),
        ("one-line edit", "edit", "mk edit"),
    ):
        print(
            f"{label:>18} {m[ours]:8.2f}s {m[theirs]:8.2f}s {m[ours] / m[theirs]:6.2f}x"
            f"  ({c[ours]:7.2f}s {c[theirs]:8.2f}s {c[ours] / c[theirs]:6.2f}x)"
        )
    paired = sorted(a / b for a, b in zip(results["cold"], results["mk cold"], strict=True))
    print(
        f"{'cold, per round':>18} median ratio {median(paired):.2f}x"
        f" (each round's two cold builds side by side: {', '.join(f'{x:.2f}' for x in paired)})"
    )
    print(f"{'peak memory':>18} {peak['pizarra']:7d}MB {peak['mkdocs']:7d}MB")
    return m


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


MOMENTS = """(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const at = (ms) => performance.timeOrigin + ms;
  const dom = at(nav.domContentLoadedEventStart);
  return [at(nav.responseStart), dom, paint ? at(paint.startTime) : null];
})()"""
"""When the page's first byte came, when its DOM was ready (DOMContentLoaded) and when it
was first painted, as Chromium recorded them: milliseconds since the epoch, as
``time.time`` counts them."""


def bench_serve(count: int, work: Path, rounds: int) -> None:
    """Save a one-line edit; time until the DOM of the reloaded page, which shows the new
    line, is ready in Chromium (its DOMContentLoaded), split where the new page's first
    byte reached Chromium: before it, pizarra's part (watching, rebuilding, answering);
    after it, the browser's (replacing the document, parsing, styling).

    The moments are Chromium's own (the page's navigation timing), not when this script
    hears of them: Playwright relays an event through its driver process, which on a
    loaded two-core host adds 0.1-0.25 s. That relayed time is printed too."""
    from chromium import CHROMIUM, LAUNCH_ARGS  # bench/chromium.py, beside this script
    from playwright.sync_api import sync_playwright

    course = write_pizarra(work / f"serve{count}", count)
    env = dict(os.environ, PIZARRA_CACHE_DIR=str(work / "serve-cache"))
    timed([str(PIZARRA), "build", str(course), "-o", str(work / "serve-out")], work, env)
    port = free_port()
    server = subprocess.Popen(
        [str(PIZARRA), "serve", str(course), "--port", str(port)],
        cwd=work,
        env=env,
        stderr=subprocess.DEVNULL,
    )
    ready, answered, painted, relayed = [], [], [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            page = browser.new_page()
            deadline = time.monotonic() + 60
            while True:
                try:
                    page.goto(f"http://127.0.0.1:{port}/l01/", wait_until="load")
                    break
                except Exception:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            page.wait_for_timeout(3000)  # the first build's search index is made after it
            lesson = course / "l01.md"
            for r in range(rounds):
                mark = f"marca{r}x{time.time_ns()}"
                saved = time.time()
                lesson.write_text(lesson.read_text() + f"\n{mark}\n")
                # Each reload's DOMContentLoaded, until the DOM holds the new line.
                while True:
                    page.wait_for_event("domcontentloaded", timeout=60_000)
                    if page.get_by_text(mark).count():
                        break
                relayed.append(time.time() - saved)
                # Read through DevTools, which the page's CSP does not govern.
                first_byte, dom, paint = page.evaluate(MOMENTS)
                answered.append(first_byte / 1000 - saved)
                ready.append(dom / 1000 - saved)
                if paint is not None:
                    painted.append(paint / 1000 - saved)
                page.wait_for_timeout(1500)  # as an author would: the index catches up
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(
        f"\nserve, {count} lessons: save -> reloaded DOM in Chromium, median of {rounds}: "
        f"{median(ready):.2f} s (all: {', '.join(f'{t:.2f}' for t in ready)})"
    )
    browser_part = [t - a for t, a in zip(ready, answered, strict=True)]
    print(
        f"{'':>7}of which until the new page's first byte (pizarra): {median(answered):.2f} s,"
        f" then to its DOM (Chromium): {median(browser_part):.2f} s"
    )
    if painted:
        print(f"{'':>7}first paint of the new page: {median(painted):.2f} s after the save")
    print(f"{'':>7}as this script heard of the DOM (through Playwright): {median(relayed):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 20])
    parser.add_argument("--no-serve", action="store_true")
    parser.add_argument(
        "--serve-only", action="store_true", help="only the save-to-reload figure, no builds"
    )
    parser.add_argument("--saves", type=int, help="saves timed under serve (default: --rounds)")
    args = parser.parse_args()
    install_like_pip()
    print("load average (1, 5, 15 min) at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with tempfile.TemporaryDirectory(prefix="pizarra-bench-") as tmp:
        work = Path(tmp)
        if not args.serve_only:
            mkdocs = ensure_mkdocs()
            for count in args.sizes:
                bench_size(count, args.rounds, mkdocs, work)
        if not args.no_serve:
            bench_serve(max(args.sizes), work, args.saves or args.rounds)
        shutil.rmtree(work, ignore_errors=True)
    print("load average (1, 5, 15 min) at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
