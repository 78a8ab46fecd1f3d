"""Notebooks (or a book folder) imported and built as an author would, with a table.

    python bench/notebook_corpus.py PATH [PATH ...] [--keep FOLDER]

Each PATH is a ``.ipynb`` file (imported alone, as one lesson) or a book folder
(``_toc.yml`` or ``myst.yml``, imported as one course). Each is run through the
commands an author types, ``pizarra import`` then ``pizarra build``, in a fresh
folder, and one row is printed per path: errors (of which about code cells), warnings,
code cells run, cells whose code raised, and the first error. Nothing is edited by hand
between the two commands. With ``--keep`` the imported lessons, and each path's
``build.log`` (everything the two commands said), stay in FOLDER.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

_DIAGNOSTIC = re.compile(r"^(\S.*?):\d+:\d+: (error|warning): (.*)$")
_CELLS = re.compile(r"code cells: (\d+) run, (\d+) cached")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    pizarra = Path(sys.executable).parent / "pizarra"
    print(
        f"{'notebook':44} {'built':>5} {'err':>4} {'cell':>4} {'warn':>4} {'run':>4} {'raised':>6}"
    )
    built = 0
    with tempfile.TemporaryDirectory() as scratch:
        top = args.keep or Path(scratch)
        for index, path in enumerate(args.paths):
            work = top / f"{index:02d}-{path.stem}"
            work.mkdir(parents=True, exist_ok=True)
            target = work / (f"{path.stem}.md" if path.suffix == ".ipynb" else "course")
            imported = _run([pizarra, "import", path.resolve(), "-o", target], work)
            if imported.returncode != 0:
                (work / "build.log").write_text(imported.stderr)
                print(f"{path.stem[:44]:44} import failed: {imported.stderr.strip()[-200:]}")
                continue
            done = _run([pizarra, "build", "--no-cache", target, "-o", work / "site"], work)
            (work / "build.log").write_text(imported.stderr + done.stderr)
            row = _row(done.stderr)
            built += done.returncode == 0
            print(
                f"{path.stem[:44]:44} {'yes' if done.returncode == 0 else 'no':>5} "
                f"{row['errors']:>4} {row['cell_errors']:>4} {row['warnings']:>4} "
                f"{row['run']:>4} {row['raised']:>6}  {str(row['first'])[:90]}"
            )
    print(f"built {built} of {len(args.paths)}")
    return 0


def _run(command: list[object], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(c) for c in command], cwd=cwd, capture_output=True, text=True, check=False
    )


def _row(stderr: str) -> dict[str, object]:
    errors = warnings = cell_errors = raised = 0
    first = ""
    for line in stderr.splitlines():
        match = _DIAGNOSTIC.match(line)
        if match is None:
            continue
        if match.group(2) == "warning":
            warnings += 1
            continue
        errors += 1
        message = match.group(3)
        if any(word in message for word in ("code cell", "output", "magic")):
            cell_errors += 1
        raised += message.startswith("the code cell raised")
        first = first or message
    cells = _CELLS.search(stderr)
    run = int(cells.group(1)) + int(cells.group(2)) if cells else 0
    return {
        "errors": errors,
        "warnings": warnings,
        "cell_errors": cell_errors,
        "raised": raised,
        "run": run,
        "first": first,
    }


if __name__ == "__main__":
    sys.exit(main())
