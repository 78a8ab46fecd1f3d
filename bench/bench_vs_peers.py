"""pizarra beside MkDocs, Sphinx and mystmd on the same lessons: cold, rebuilds, one-line edit.

    python bench/bench_vs_peers.py [--sizes 20 200] [--rounds 3] [--peers mkdocs sphinx mystmd]

The lessons are those of ``bench_vs_mkdocs.py`` (``lessons()``): N distinct copies of the
bundled lesson 7, so no cache answers one lesson from another's entry. Each peer is set up
in a bench-only folder under ``bench/`` the first time, at pinned versions:

- MkDocs 1.6 + Material (``bench/.venv-mkdocs``, from PyPI), rebuilt with ``--dirty``;
- Sphinx + myst-parser (``bench/.venv-sphinx``, from PyPI) with MyST's ``dollarmath``, one
  reader process a core (``-j auto``), rebuilt incrementally as ``sphinx-build`` does by
  itself (the same output and doctree folders: only sources newer than their doctree
  are read again);
- mystmd, the engine of Jupyter Book 2 (``bench/.node-mystmd``, from npm), ``myst build
  --html`` (its static HTML export), rebuilt in the same folder with its own cache. Its
  site template (the book theme, the default of ``myst build --html``) is a separate
  download that ``myst`` fetches from mystmd's template service; where that service
  cannot be reached, give a built copy of the theme with ``--mystmd-template`` (or put
  one at ``bench/.node-mystmd/book-theme``): mystmd is then skipped only if there is none.
  Such a copy is the ``themes/book`` folder of the myst-theme repository after its
  ``npm run prod:build`` (``build/``, ``public/``), with the ``server.js``,
  ``package.json`` and ``template.yml`` of the published book theme, its runtime
  packages installed by ``npm install``, and a ``public/favicon.ico`` (the export
  fetches one and fails without it). Node is needed for this peer alone; pizarra needs
  none.

Equivalent input. Every peer gets the generated Markdown as it is, math as ``$...$``.
MkDocs leaves the math as text (all it does without extensions); Sphinx reads it with
myst-parser's ``dollarmath``; mystmd reads ``$`` natively. The lessons' ``{code-cell}``
stays as it is for mystmd, which shows it without running it (no ``--execute``), and for
MkDocs, where it is a fenced block; for Sphinx, whose myst-parser without myst-nb does
not know the directive, it becomes a plain fenced ``python`` block, as a peer that does
not execute would show it. pizarra's own directives and roles (exercises, answers,
explorers, ``{lesson}``, ``{cite}`` without a bibliography) are left in: each peer
reports what it does not know as a warning and goes on, so every peer does less than
pizarra, which also checks every claim and runs every code cell.

Cold means every cache empty: a new project folder (and for pizarra a new cache folder)
each round; the installed tools and the mystmd theme are kept, as an author's are.
The rows: cold; the first rebuild with nothing changed, right after the cold one; a
second one; a one-line edit of one lesson. Rounds are interleaved (in each round every
row is run for every tool before the next row, the tools' order turning from round to
round) and the medians printed, with the ratio pizarra / each peer, CPU time (the
command's and its reaped children's), peak memory, output size and the load average.
Peak memory is the largest sum of the proportional set size (PSS, so pages shared
between a process and its forked workers count once) over the command's whole process
tree, sampled every 0.1 s; the largest single process's max RSS is printed beside it.
Last, a line per size checks the targets of the comparison as met or not met.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_vs_mkdocs import (  # bench/bench_vs_mkdocs.py, beside this script
    PIZARRA,
    ROOT,
    ensure_mkdocs,
    ensure_venv,
    install_like_pip,
    lessons,
    write_mkdocs,
    write_pizarra,
)

SPHINX_VENV = ROOT / "bench" / ".venv-sphinx"
SPHINX_PINS = ["sphinx==9.0.4", "myst-parser==5.2.0"]
MYSTMD_DIR = ROOT / "bench" / ".node-mystmd"
MYSTMD_PIN = "mystmd@1.8.3"
MYSTMD_THEME = MYSTMD_DIR / "book-theme"
TOOLS = {"pizarra": "pizarra", "mkdocs": "MkDocs", "sphinx": "Sphinx", "mystmd": "mystmd"}
ROWS = {
    "cold": "cold",
    "first": "nothing changed, 1st",
    "second": "nothing changed, 2nd",
    "edit": "one-line edit",
}


@dataclass
class Run:
    seconds: float
    cpu: float
    largest_rss: int  # MB, the largest single process (ru_maxrss)
    tree_pss: int  # MB, the largest sampled sum over the process tree


@dataclass
class Tally:
    runs: dict[tuple[str, str], list[Run]] = field(default_factory=dict)
    sizes: dict[str, tuple[float, int]] = field(default_factory=dict)  # MB, files

    def add(self, tool: str, row: str, run: Run) -> None:
        self.runs.setdefault((tool, row), []).append(run)

    def wall(self, tool: str, row: str) -> float:
        return statistics.median(r.seconds for r in self.runs[(tool, row)])

    def cpu(self, tool: str, row: str) -> float:
        return statistics.median(r.cpu for r in self.runs[(tool, row)])

    def peak(self, tool: str) -> tuple[int, int]:
        mine = [r for (t, _), runs in self.runs.items() if t == tool for r in runs]
        return max(r.tree_pss for r in mine), max(r.largest_rss for r in mine)


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    todo.extend(int(child) for child in handle.read().split())
        except OSError:
            continue
    return found


def tree_pss_kb(pid: int) -> int:
    total = 0
    for member in descendants(pid):
        try:
            with open(f"/proc/{member}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total


def measure(args: list[str], cwd: Path, env: dict[str, str]) -> Run:
    """Run one command to its end: wall and CPU seconds, the largest process's max RSS
    and the process tree's sampled peak PSS. Its output goes to a file, not a pipe, so
    a peer's many warnings cannot fill a pipe and stall it."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.1):
                peak[0] = max(peak[0], tree_pss_kb(process.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        done.set()
        sampler.join()
        if status != 0:
            errors.seek(0)
            text = errors.read().decode(errors="replace")
            lines, problems, inside = text.splitlines(), [], False
            for line in lines:  # each error with its indented hint and detail
                inside = ": error: " in line or (inside and line.startswith("    "))
                if inside:
                    problems.append(line)
            tail = "\n".join(problems[:60]) + "\n...\n" + text[-1500:]
            raise SystemExit(f"{args} failed in {cwd}:\n{tail}")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, peak[0] // 1024)


def folder_size(folder: Path) -> tuple[float, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 1e6, len(files)


def ensure_sphinx() -> Path:
    return ensure_venv(SPHINX_VENV, "sphinx-build", SPHINX_PINS)


def ensure_mystmd(template: Path | None) -> tuple[Path, Path | None]:
    """The ``myst`` command and a built book theme, or None where none can be had."""
    binary = MYSTMD_DIR / "node_modules" / ".bin" / "myst"
    if not binary.exists():
        if shutil.which("npm") is None:
            raise SystemExit("mystmd needs node and npm (for this benchmark only)")
        MYSTMD_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--prefix", MYSTMD_DIR, "--no-audit", "--no-fund", MYSTMD_PIN],
            check=True,
        )
    theme = template or MYSTMD_THEME
    if not (theme / "template.yml").exists():
        # As `myst build --html` would fetch it on first use.
        got = subprocess.run(
            [binary, "templates", "download", "--site", "book-theme", theme],
            cwd=MYSTMD_DIR,
            capture_output=True,
        )
        if got.returncode != 0 or not (theme / "template.yml").exists():
            return binary, None
    if not (theme / "node_modules").exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=theme, check=True)
    return binary, theme


def plain_code_cells(text: str) -> str:
    """A ``{code-cell}`` as a plain fenced block, for a peer that neither knows nor runs it."""
    return re.sub(r"^```\{code-cell\} ?(\w*)", r"```\1", text, flags=re.M)


def write_sphinx(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True)
    (folder / "conf.py").write_text(
        'project = "Bench"\nlanguage = "es"\nextensions = ["myst_parser"]\n'
        'myst_enable_extensions = ["dollarmath"]\nexclude_patterns = ["_build"]\n'
    )
    made = lessons(count)
    toc = "".join(f"{Path(name).stem}\n" for name in made)
    (folder / "index.md").write_text(f"# Bench\n\n```{{toctree}}\n{toc}```\n")
    for name, text in made.items():
        (folder / name).write_text(plain_code_cells(text), encoding="utf-8")
    return folder


def write_mystmd(folder: Path, count: int, theme: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "myst.yml").write_text(
        f"version: 1\nproject:\n  title: Bench\nsite:\n  template: {theme}\n"
    )
    for name, text in lessons(count).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@dataclass
class Setup:
    """For one tool in one round: its command, the file a one-line edit changes and the
    folder its site is written to."""

    command: list[str]
    cwd: Path
    lesson: Path
    output: Path
    env: dict[str, str]


def setups(count: int, work: Path, bins: dict[str, Path], theme: Path | None) -> dict[str, Setup]:
    env = dict(os.environ)
    made: dict[str, Setup] = {}
    course = write_pizarra(work / "pizarra", count)
    out = work / "pizarra-site"
    cache = {"PIZARRA_CACHE_DIR": str(work / "pizarra-cache")}
    made["pizarra"] = Setup(
        [str(PIZARRA), "build", str(course), "-o", str(out)],
        work,
        course / "l01.md",
        out,
        env | cache,
    )
    if "mkdocs" in bins:
        site = write_mkdocs(work / "mkdocs", count)
        made["mkdocs"] = Setup(
            [str(bins["mkdocs"]), "build", "-q"], site, site / "docs" / "l01.md", site / "site", env
        )
    if "sphinx" in bins:
        src = write_sphinx(work / "sphinx", count)
        html, doctrees = src / "_build" / "html", src / "_build" / "doctrees"
        sphinx = [str(bins["sphinx"]), "-q", "-j", "auto", "-b", "html", "-d", str(doctrees)]
        made["sphinx"] = Setup(
            [*sphinx, str(src), str(html)],
            src,
            src / "l01.md",
            html,
            env,
        )
    if "mystmd" in bins and theme is not None:
        project = write_mystmd(work / "mystmd", count, theme)
        made["mystmd"] = Setup(
            [str(bins["mystmd"]), "build", "--html"],
            project,
            project / "l01.md",
            project / "_build" / "html",
            env,
        )
    return made


def bench_size(
    count: int, rounds: int, bins: dict[str, Path], theme: Path | None, work: Path
) -> Tally:
    tally = Tally()
    for r in range(rounds):
        folder = work / f"{count}-{r}"
        tools = setups(count, folder, bins, theme)
        names = list(tools)
        order = names[r % len(names) :] + names[: r % len(names)]
        for row in ROWS:
            for name in order:
                tool = tools[name]
                if row == "edit":
                    tool.lesson.write_text(tool.lesson.read_text() + f"\nUna línea más {r}.\n")
                tally.add(name, row, measure(tool.command, tool.cwd, tool.env))
                if row == "cold":
                    tally.sizes[name] = folder_size(tool.output)
            print(f"  {count} lessons, round {r + 1}: {ROWS[row]} done", file=sys.stderr)
        shutil.rmtree(folder)  # the round's folders are no longer needed: free the disk
    report(count, rounds, tally)
    return tally


def report(count: int, rounds: int, tally: Tally) -> None:
    tools = [t for t in TOOLS if (t, "cold") in tally.runs]
    peers = tools[1:]
    print(f"\n{count} lessons, medians of {rounds} round(s), wall seconds:")
    head = "".join(f"{TOOLS[t]:>9}" for t in tools)
    ratios = "".join(f"{'pizarra/' + TOOLS[t]:>16}" for t in peers)
    print(f"{'':>22}{head}{ratios}")
    for row, label in ROWS.items():
        cells = "".join(f"{tally.wall(t, row):8.2f}s" for t in tools)
        mine = tally.wall("pizarra", row)
        rel = "".join(f"{mine / tally.wall(t, row):15.2f}x" for t in peers)
        print(f"{label:>22}{cells}{rel}")
    print(f"{count} lessons, CPU seconds (the command's and its children's):")
    for row, label in ROWS.items():
        cells = "".join(f"{tally.cpu(t, row):8.2f}s" for t in tools)
        mine = tally.cpu("pizarra", row)
        rel = "".join(f"{mine / tally.cpu(t, row):15.2f}x" for t in peers)
        print(f"{label:>22}{cells}{rel}")
    tree = "".join(f"{tally.peak(t)[0]:7d}MB" for t in tools)
    print(
        f"{'peak memory, tree PSS':>22}{tree}"
        + "".join(f"{tally.peak('pizarra')[0] / tally.peak(t)[0]:15.2f}x" for t in peers)
    )
    largest = "".join(f"{tally.peak(t)[1]:7d}MB" for t in tools)
    print(f"{'largest process RSS':>22}{largest}")
    size = "".join(f"{tally.sizes[t][0]:7.1f}MB" for t in tools)
    print(
        f"{'output size':>22}{size}"
        + "".join(f"{tally.sizes['pizarra'][0] / tally.sizes[t][0]:15.2f}x" for t in peers)
    )
    files = "".join(f"{tally.sizes[t][1]:9d}" for t in tools)
    print(f"{'output files':>22}{files}")


def verdict(label: str, ratio: float | None, limit: float, unit: str = "x") -> str:
    if ratio is None:
        return f"{label} <= {limit:g}{unit}: not measured"
    met = "met" if ratio <= limit else "NOT MET"
    shown = f"{ratio:.0f}" if unit == " MB" else f"{ratio:.2f}"
    return f"{label} <= {limit:g}{unit}: {met} ({shown}{unit})"


def targets(tallies: dict[int, Tally]) -> None:
    print("\ntargets:")
    for count, tally in tallies.items():

        def ratio(row: str, peer: str, t: Tally = tally) -> float | None:
            if (peer, row) not in t.runs:
                return None
            return t.wall("pizarra", row) / t.wall(peer, row)

        lines = []
        if count in (20, 200):
            lines.append(verdict("cold vs MkDocs", ratio("cold", "mkdocs"), 1.0))
        if count == 200:
            mystmd = ratio("cold", "mystmd")
            lines.append(
                "cold below mystmd: not measured"
                if mystmd is None
                else f"cold below mystmd: {'met' if mystmd < 1 else 'NOT MET'} ({mystmd:.2f}x)"
            )
            for row in ("first", "second"):
                lines.append(verdict(f"{ROWS[row]} vs MkDocs --dirty", ratio(row, "mkdocs"), 0.1))
        lines.append(verdict("one-line edit vs MkDocs --dirty", ratio("edit", "mkdocs"), 0.5))
        if count == 200:
            lines.append(verdict("peak memory (tree PSS)", tally.peak("pizarra")[0], 250, " MB"))
        size = tally.sizes.get("mkdocs")
        lines.append(
            verdict(
                "output size vs MkDocs",
                None if size is None else tally.sizes["pizarra"][0] / size[0],
                1.5,
            )
        )
        if count == 200 and 20 in tallies:
            scale = tally.wall("pizarra", "cold") / tallies[20].wall("pizarra", "cold")
            lines.append(verdict("cold at 200 vs cold at 20", scale, 10.5))
        print(f"  N={count}: " + "; ".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 200])
    parser.add_argument("--peers", nargs="+", choices=list(TOOLS)[1:], default=list(TOOLS)[1:])
    parser.add_argument("--mystmd-template", type=Path, help="a built mystmd book theme")
    args = parser.parse_args()
    install_like_pip()
    bins: dict[str, Path] = {}
    theme = None
    for peer in args.peers:
        started = time.perf_counter()
        if peer == "mkdocs":
            bins[peer] = ensure_mkdocs()
        elif peer == "sphinx":
            bins[peer] = ensure_sphinx()
        else:
            bins[peer], theme = ensure_mystmd(args.mystmd_template)
            if theme is None:
                print(
                    "mystmd skipped: no book theme (its template service cannot be reached;"
                    " give a built theme with --mystmd-template)"
                )
        print(f"{TOOLS[peer]} ready in {time.perf_counter() - started:.1f} s")
    print("load average (1, 5, 15 min) at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    tallies = {}
    with tempfile.TemporaryDirectory(prefix="pizarra-peers-") as tmp:
        for count in args.sizes:
            tallies[count] = bench_size(count, args.rounds, bins, theme, Path(tmp))
            print("load average now: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    targets(tallies)
    print("load average (1, 5, 15 min) at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
