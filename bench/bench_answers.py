"""Answer checking: time per typed answer (checker and page module) and the module's weight.

Judges the test corpus (every answer type, Spanish and English, right, wrong and
unreadable inputs) with the Python checker, then with ``answers.js`` in Chromium on
a blank page, and prints the median time per input and the module's size.

    python bench/bench_answers.py [--runs N]
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.chromium import CHROMIUM, LAUNCH_ARGS  # noqa: E402
from tests.answers.corpus import fields, inputs  # noqa: E402

from pizarra.check.answers import judge  # noqa: E402

MODULE = ROOT / "src" / "pizarra" / "render" / "answers" / "answers.js"

TIMED = """async ([source, cases, runs]) => {
  const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
  const module = await import(url);
  const times = [];
  for (let r = 0; r < runs; r += 1) {
    const start = performance.now();
    for (const [key, text] of cases) module.judge(key, text);
    times.push(performance.now() - start);
  }
  return times;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    cases = [(k, t) for i, k in enumerate(fields()) for t in inputs(k, i)]
    python = []
    for _ in range(runs):
        start = time.perf_counter()
        for key, text in cases:
            judge(key, text)
        python.append(time.perf_counter() - start)
    source = MODULE.read_text(encoding="utf-8")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        page = browser.new_page()
        page.goto("about:blank")
        js = page.evaluate(TIMED, [source, [list(c) for c in cases], runs])
        browser.close()
    raw = MODULE.read_bytes()
    per = 1e6 / len(cases)
    print(f"inputs: {len(cases)}")
    print(f"checker (Python): {statistics.median(python) * per:.1f} µs per input")
    print(f"answers.js (Chromium): {statistics.median(js) * 1e-3 * per:.1f} µs per input")
    print(f"answers.js: {len(raw)} bytes, {len(gzip.compress(raw, 9))} gzip")


if __name__ == "__main__":
    main()
