"""Measure math rendering: math-core speed and output size, font sizes, subset times, and
(with ``--browser``) how the lesson formulas look in headless Chromium.

    python bench/bench_math.py [--browser] [--out DIR]

The figures go into docs/math.md.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import importlib.metadata
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path

from chromium import CHROMIUM, LAUNCH_ARGS  # bench/chromium.py, beside this script
from fontTools.ttLib import TTFont

from pizarra.math.mathml import MathCoreRenderer
from pizarra.render import assets

ROOT = Path(__file__).resolve().parents[1]
FORMULAS = ROOT / "tests" / "fixtures" / "math" / "formulas.txt"


def load_formulas() -> list[tuple[str, bool]]:
    """The fixture's blocks: ``$...$`` inline, ``$$...$$`` display."""
    blocks = FORMULAS.read_text(encoding="utf-8").split("\n\n")
    formulas = []
    for block in blocks:
        text = "\n".join(line for line in block.splitlines() if not line.startswith("# "))
        text = text.strip()
        if text:
            fence = "$$" if text.startswith("$$") else "$"
            formulas.append((text[len(fence) : -len(fence)].strip("\n"), fence == "$$"))
    return formulas


def timed(label: str, seconds: float) -> None:
    print(f"{label:<46} {seconds * 1000:9.1f} ms")


def bench_converter(formulas: list[tuple[str, bool]], rounds: int) -> None:
    version = importlib.metadata.version("math-core")
    print(f"math-core {version}; {len(formulas)} lesson formulas")
    start = time.perf_counter()
    renderer = MathCoreRenderer()
    renderer("x", False)
    timed("start-up (import + first formula)", time.perf_counter() - start)
    for display, label in ((True, "display"), (False, "inline")):
        start = time.perf_counter()
        for _ in range(rounds):
            for tex, _ in formulas:
                renderer(tex, display)
        rate = rounds * len(formulas) / (time.perf_counter() - start)
        print(f"{'formulas/s, ' + label + ' mode':<46} {rate:9.0f}")
    as_written = [renderer(tex, display) for tex, display in formulas]
    for display, label in ((True, "display"), (False, "inline")):
        sizes = [
            len(out.encode())
            for out, (_, d) in zip(as_written, formulas, strict=True)
            if d is display
        ]
        print(
            f"{'bytes per ' + label + ' formula (mean / max)':<46} "
            f"{statistics.mean(sizes):9.0f} / {max(sizes)}"
        )
    total = sum(len(out.encode()) for out in as_written)
    print(f"{'bytes for all formulas':<46} {total:9d}")


def bench_font() -> None:
    source = assets.math_font_source()
    font_bytes = source.read_bytes()
    print(f"\nMath font {source.name}: {len(font_bytes):,} bytes (TTF, hinted)")
    start = time.perf_counter()
    full = TTFont(BytesIO(font_bytes))
    full.flavor = "woff2"
    out = BytesIO()
    full.save(out)
    timed(f"whole font as woff2: {len(out.getvalue()):,} bytes", time.perf_counter() - start)
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp)
        for face in assets.FONT_FACES:
            start = time.perf_counter()
            data = assets.math_font_woff2(face, cache=cache)
            cold = time.perf_counter() - start
            start = time.perf_counter()
            assets.math_font_woff2(face, cache=cache)
            warm = time.perf_counter() - start
            glyphs = len(TTFont(BytesIO(data)).getGlyphOrder())
            print(f"{face.file:<22} {len(data):>9,} bytes, {glyphs} glyphs", end="")
            print(f"   subset cold {cold * 1000:.0f} ms, warm {warm * 1000:.1f} ms")


PAGE = """<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>pizarra math</title>
<link rel="stylesheet" href="math.css">
<style>body{{font:18px/1.6 system-ui,sans-serif;max-width:44rem;margin:1rem auto}}
.n{{color:#555;font-size:12px}}</style></head><body>
<h1>Fórmulas de «Potencias para la IA»</h1>
{body}
</body></html>
"""


def write_page(folder: Path, formulas: list[tuple[str, bool]]) -> None:
    """A page with every formula, the display ones in order and the inline ones in prose."""
    renderer = MathCoreRenderer()
    parts = []
    for number, (tex, display) in enumerate(formulas, start=1):
        out = renderer(tex, display)
        label = f'<span class="n">{number}</span> '
        parts.append(f"<div>{label}{out}</div>" if display else f"<p>{label}Texto {out}.</p>")
    (folder / "index.html").write_text(PAGE.format(body="\n".join(parts)), encoding="utf-8")
    for name, data in assets.site_assets().items():
        (folder / name).write_bytes(data)


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


ALIGNMENT_JS = """() => [...document.querySelectorAll('mtable')].map(t =>
  [...t.querySelectorAll(':scope > mtr')].map(r => {
    const cell = r.children[1];
    const first = cell.querySelector('mo');
    return {x: first.getBoundingClientRect().left, text: first.textContent};
  }))"""


RADICAL_SPACE_JS = """() => [...document.querySelectorAll('msqrt, mroot')].map(root => {
  const radicand = root.tagName === 'msqrt' ? root.lastElementChild : root.firstElementChild;
  const size = parseFloat(getComputedStyle(root).fontSize);
  const space = root.getBoundingClientRect().right - radicand.getBoundingClientRect().right;
  const tex = root.closest('math').querySelector('annotation').textContent;
  return {tex, px: space, em: space / size};
})"""
"""Per radical: the space Chromium leaves between the radicand and the radical's right edge
(docs/math.md, "Radicals leave space after them")."""


def bench_browser(formulas: list[tuple[str, bool]], out: Path) -> None:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    write_page(out, formulas)
    with serve(out) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 900})
        fetched: list[str] = []
        page.on("request", lambda request: fetched.append(request.url.rsplit("/", 1)[-1]))
        page.goto(url, wait_until="networkidle")
        page.evaluate("document.fonts.ready")
        shot = out / "formulas.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"\nChromium {browser.version}: screenshot {shot}")
        print("files fetched:", ", ".join(sorted(set(fetched) - {""})))
        print("font loaded:", page.evaluate("document.fonts.check('16px \"pizarra math\"')"))
        for number, rows in enumerate(page.evaluate(ALIGNMENT_JS), start=1):
            xs = [round(row["x"], 2) for row in rows]
            same = max(xs) - min(xs) < 0.5
            print(f"aligned #{number}: x of '{rows[0]['text']}' per row {xs} -> {same}")
        seen = set()
        for row in page.evaluate(RADICAL_SPACE_JS):
            key = (row["tex"], round(row["px"], 2))
            if key not in seen:
                seen.add(key)
                print(f"space after radical {row['px']:5.2f} px ({row['em']:.3f} em): {row['tex']}")
        for number in (1, 2):
            math = page.locator("math:has(mtable)").nth(number - 1)
            math.screenshot(path=str(out / f"aligned-{number}.png"))
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--browser", action="store_true", help="also screenshot in Chromium")
    parser.add_argument("--out", type=Path, help="folder for the --browser page and shots")
    args = parser.parse_args()
    formulas = load_formulas()
    bench_converter(formulas, args.rounds)
    bench_font()
    if args.browser:
        bench_browser(formulas, args.out or Path(tempfile.mkdtemp(prefix="pizarra-math-")))


if __name__ == "__main__":
    main()
