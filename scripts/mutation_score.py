"""Print the mutation score per module after ``mutmut run``; fail below the bar.

Reads mutmut's results, leaves out the mutants listed as equivalent in
docs/testing.md (a mutant that behaves exactly like the original cannot be
killed), and prints each surviving mutant's diff so it can be judged.
Usage: ``python scripts/mutation_score.py [--min 90]``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DETECTED = {"killed", "timeout", "segfault", "caught by type check", "suspicious"}
UNDETECTED = {"survived", "no tests"}
KNOWN = {"detected", "equivalent"} | UNDETECTED
EQUIVALENT = re.compile(r"^- `(?P<function>[\w.ǁ]+)`: `(?P<line>.+?)` -- ", re.MULTILINE)
"""A line of docs/testing.md's list: ``- `module.function`: `mutated line` -- why``."""


def results() -> dict[str, tuple[str, Path]]:
    """Mutant name -> (status, source file), read from mutmut's own records."""
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code
    from mutmut.utils.file_utils import walk_mutatable_files

    found = {}
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        for name, code in data.exit_code_by_key.items():
            found[name] = (status_by_exit_code[code], path)
    return found


def mutated_line(name: str, path: Path) -> str:
    """The line as the mutant changed it (the ``+`` line of its diff), or ``removed: `` and
    the first line it took away when it only removes lines (a ``case`` dropped)."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    diff = get_diff_for_mutant(name, path=path)
    lines = diff.splitlines()
    added = [line[1:].strip() for line in lines if line.startswith("+") and line[:3] != "+++"]
    removed = [line[1:].strip() for line in lines if line.startswith("-") and line[:3] != "---"]
    if added:
        return added[0]
    return f"removed: {removed[0]}" if removed else ""


def function_of(name: str) -> str:
    """``pizarra.math.exact.real.x_sign__mutmut_3`` -> ``pizarra.math.exact.real.sign``."""
    module, _, mangled = name.rpartition(".")
    mangled = re.sub(r"__mutmut_\d+$", "", mangled)
    mangled = mangled[2:] if mangled.startswith("x_") else mangled.lstrip("x")
    return f"{module}.{mangled.strip('ǁ').replace('ǁ', '.')}"


def equivalents() -> set[tuple[str, str]]:
    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    return {(m["function"], m["line"]) for m in EQUIVALENT.finditer(text)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min", type=float, default=90.0, help="lowest acceptable score, in %%")
    args = parser.parse_args()
    excluded = equivalents()
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    survivors: list[tuple[str, str, str]] = []
    used: set[tuple[str, str]] = set()
    os.chdir(ROOT)
    for name, (status, path) in sorted(results().items()):
        module = name.rpartition(".")[0]
        if status in UNDETECTED:
            key = (function_of(name), mutated_line(name, path))
            if key in excluded:
                counts[module]["equivalent"] += 1
                used.add(key)
                continue
            survivors.append((name, status, key[1]))
        counts[module]["detected" if status in DETECTED else status] += 1
    lowest = 100.0
    print(f"{'module':34} {'detected':>8} {'survived':>8} {'equiv.':>6} {'score':>7}")
    for module, count in sorted(counts.items()):
        undetected = count["survived"] + count["no tests"]
        judged = count["detected"] + undetected
        score = 100.0 * count["detected"] / judged if judged else 100.0
        lowest = min(lowest, score)
        detected, equivalent = count["detected"], count["equivalent"]
        print(f"{module:34} {detected:8} {undetected:8} {equivalent:6} {score:6.1f}%")
        unknown = {k: v for k, v in count.items() if k not in KNOWN}
        if unknown:
            print(f"{'':34} not run: {dict(unknown)}")
    for name, status, line in survivors:
        print(f"{status}: {name}: {line}")
    for function, line in sorted(excluded - used):
        print(f"note: equivalent mutant no longer produced: {function}: {line}")
    if lowest < args.min:
        print(f"mutation score below {args.min:.0f}% in at least one module")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
