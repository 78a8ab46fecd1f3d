"""Build time of the bundled course and page weight of its lesson.

Runs ``pizarra check`` and ``pizarra build`` as a user would (fresh processes),
cold (empty caches: font subset, code cells) and warm, then weighs what a reader
of the lesson downloads: HTML, CSS, JS and fonts, raw and gzip-compressed.

    python bench/bench_build.py [--runs N]
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LESSON = "potencias-para-la-ia/index.html"


def run(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pizarra", *args], env=env, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"pizarra {' '.join(args)} failed:\n{done.stderr}")
    return elapsed


def timings(runs: int) -> None:
    print("command                      cold (s)   warm median (s)   warm min (s)")
    for name, args in (
        ("pizarra check", ["check", "--example"]),
        ("pizarra build", ["build", "--example", "-o"]),
    ):
        colds, warms = [], []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as tmp:
                env = {**os.environ, "PIZARRA_CACHE_DIR": str(Path(tmp) / "cache")}
                full = [*args, str(Path(tmp) / "site")] if args[-1] == "-o" else args
                colds.append(run(full, env))
                warms.extend(run(full, env) for _ in range(2))
        print(
            f"{name:<28} {statistics.median(colds):>8.2f}   "
            f"{statistics.median(warms):>15.2f}   {min(warms):>12.2f}"
        )


def weight() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PIZARRA_CACHE_DIR": str(Path(tmp) / "cache")}
        site = Path(tmp) / "site"
        run(["build", "--example", "-o", str(site)], env)
        page = (site / LESSON).read_text(encoding="utf-8")
        assets = re.findall(r'(?:href|src)="\.\./assets/([^"]+)"', page)
        rows = [("HTML", LESSON, (site / LESSON).read_bytes())]
        for name in dict.fromkeys(assets):
            kind = {"css": "CSS", "js": "JS", "woff2": "font"}[name.rsplit(".", 1)[-1]]
            rows.append((kind, name, (site / "assets" / name).read_bytes()))
        print("\nlesson page weight (what a reader of lesson 7 downloads)")
        print(f"{'kind':<6} {'file':<32} {'bytes':>9} {'gzip':>9}")
        totals: dict[str, list[int]] = {}
        for kind, name, data in rows:
            packed = len(gzip.compress(data, 9))
            print(f"{kind:<6} {name:<32} {len(data):>9,} {packed:>9,}")
            totals.setdefault(kind, [0, 0])
            totals[kind][0] += len(data)
            totals[kind][1] += packed
        for kind, (raw, packed) in totals.items():
            print(f"{'total':<6} {kind:<32} {raw:>9,} {packed:>9,}")
        print(
            f"{'total':<6} {'all':<32} {sum(t[0] for t in totals.values()):>9,} "
            f"{sum(t[1] for t in totals.values()):>9,}"
        )
        math = page.count("<math")
        print(f"\nformulas on the page: {math}; <script> elements: {page.count('<script')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="cold runs per command")
    timings(parser.parse_args().runs)
    weight()


if __name__ == "__main__":
    main()
