"""Time to judge every claim of the bundled course, cold and warm, and its verdicts.

Cold is a fresh process with an empty verdict cache (it includes importing sympy,
needed only for claims that are not plain fractions); warm is a fresh process
reading every verdict from the cache. Prints the counts per lesson and the share
of letter-free claims that are checked (the issue's >= 95 % target).

    python bench/bench_claims.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_JUDGE = r"""
import json, sys, time
from pathlib import Path
started = time.perf_counter()
from pizarra.check.claims import claim_records
from pizarra.check.verdicts import VerdictCache
from pizarra.math.exact.lexer import Kind, lex
from pizarra.math.exact.vocabulary import GREEK
from pizarra.source.lower import parse_lesson

def letter_free(claim, lang):
    tokens = lex(claim, lang)
    greek = any(t.kind is Kind.COMMAND and t.text[1:] in GREEK for t in tokens)
    return not greek and not any(t.kind is Kind.LETTER and t.text != "e" for t in tokens)

cache = VerdictCache.under(Path(sys.argv[1]))
lessons = sorted(Path(sys.argv[2]).glob("lessons/*.md"))
report = {}
for path in lessons:
    lesson, _ = parse_lesson(path, path.name)
    records, _ = claim_records(lesson, cache)
    statuses = [r.status.value for r in records]
    free = [r.status.value for r in records if letter_free(r.claim, lesson.lang)]
    report[path.name] = {
        s: statuses.count(s) for s in ("checked", "unchecked", "failed")
    } | {"letter-free checked": f"{free.count('checked')}/{len(free)}"}
cache.store.flush()  # the verdicts are committed for the warm run, as a build does
report["seconds"] = time.perf_counter() - started
report["sympy loaded"] = "sympy" in sys.modules
print(json.dumps(report))
"""


def judge(cache: Path, course: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _JUDGE, str(cache), str(course)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    course = Path(__file__).resolve().parent.parent / "src/pizarra/source/bundled/math-for-ai"
    cold, warm = [], []
    last: dict[str, object] = {}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            first = judge(Path(folder), course)
            second = judge(Path(folder), course)
        cold.append(float(first["seconds"]))  # type: ignore[arg-type]
        warm.append(float(second["seconds"]))  # type: ignore[arg-type]
        last = second
    for name, counts in last.items():
        if name.endswith(".md"):
            print(f"{name}: {counts}")
    print(f"claims cold: {statistics.median(cold):.2f} s (median of {args.runs})")
    print(f"claims warm: {statistics.median(warm):.2f} s, sympy loaded: {last['sympy loaded']}")


if __name__ == "__main__":
    main()
