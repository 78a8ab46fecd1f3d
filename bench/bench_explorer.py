"""Budget of the explorers: every kind's asset bytes, and the growth explorer's
input-to-readout time in Chromium.

Run: ``python bench/bench_explorer.py [iterations]``. It prints the JS and CSS
sizes (raw, gzip, brotli) and, for a page holding the reference lesson's
explorer, the time from an ``input`` event to updated readouts: the handler
alone, and the handler plus the style and layout it causes. One frame at
60 Hz is 16.7 ms.
"""

from __future__ import annotations

import gzip
import re
import statistics
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import brotli
from chromium import CHROMIUM, LAUNCH_ARGS  # bench/chromium.py, beside this script
from playwright.sync_api import sync_playwright

from pizarra.base.errors import SourcePos
from pizarra.render.explorers import ASSETS, asset_names, explorer_assets, render_explorer
from pizarra.source.blocks import Explorer
from pizarra.source.explorers import parse_explorer

ROOT = Path(__file__).resolve().parents[1]
DECLARATION = ROOT / "tests" / "fixtures" / "explorers" / "potencias.md"
FRAME_MS = 1000 / 60

MEASURE = """(iterations) => {
  const range = document.querySelector("input.px-range");
  const out = document.querySelector('[data-readout="scores"]');
  const low = Number(range.min), high = Number(range.max);
  const handler = [], layout = [];
  let expected = null;
  for (let i = 0; i < iterations; i++) {
    const value = low + (i % (high - low + 1));
    range.value = String(value);
    const t0 = performance.now();
    range.dispatchEvent(new Event("input", { bubbles: true }));
    const t1 = performance.now();
    document.body.getBoundingClientRect();
    void out.offsetWidth;
    const t2 = performance.now();
    handler.push(t1 - t0);
    layout.push(t2 - t0);
  }
  return { handler, layout, last: out.textContent };
}"""


def sizes() -> None:
    """Every kind's assets (the growth stylesheet is shared by all kinds)."""
    assets = explorer_assets()
    print(f"{'asset':24} {'raw':>7} {'gzip':>7} {'brotli':>7}")
    names = dict.fromkeys(n for kind in ASSETS for n in asset_names(kind))
    for name in names:
        data = assets[name]
        gz = len(gzip.compress(data, 9))
        br = len(brotli.compress(data))
        print(f"{name:24} {len(data):7d} {gz:7d} {br:7d}")


def page(folder: Path) -> None:
    text = DECLARATION.read_text(encoding="utf-8")
    match = re.search(r"^:::\{explorer\} (\w+)\n(.*?)^:::$", text, re.S | re.M)
    assert match is not None
    spec, diagnostics = parse_explorer(match.group(1), match.group(2), SourcePos("x", 1), "es")
    assert spec is not None, diagnostics
    fragment = render_explorer(Explorer("growth", spec, SourcePos("x", 1)), "es")
    for name, data in explorer_assets().items():
        (folder / name).write_bytes(data)
    (folder / "index.html").write_text(
        '<!doctype html><html lang="es"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>bench</title>'
        '<link rel="stylesheet" href="explorer-growth.css">'
        '<script type="module" src="explorer-growth.js"></script></head>'
        f"<body><main>{fragment}</main></body></html>",
        encoding="utf-8",
    )


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timing(iterations: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        page(folder)
        handler = partial(_Quiet, directory=str(folder))
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
                tab = browser.new_page()
                tab.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
                tab.wait_for_selector("input.px-range:not([hidden])")
                tab.evaluate(MEASURE, 50)  # warm up the JIT
                result = tab.evaluate(MEASURE, iterations)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    print(f"\ninput event -> updated readouts, {iterations} events (ms)")
    for key, label in (("handler", "handler"), ("layout", "handler + style/layout")):
        values = result[key]
        print(
            f"{label:24} median {statistics.median(values):.3f}  "
            f"p95 {percentile(values, 0.95):.3f}  max {max(values):.3f}"
        )
    worst = percentile(result["layout"], 0.95)
    verdict = "fits" if worst < FRAME_MS else "does NOT fit"
    print(f"p95 {verdict} in one frame ({FRAME_MS:.1f} ms)")


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    sizes()
    timing(iterations)


if __name__ == "__main__":
    main()
