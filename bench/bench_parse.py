"""Parse time against lesson size for the shapes that were quadratic, and a few others.

Prints, for each shape, the seconds ``parse_lesson`` takes at 1x, 2x, 4x and 8x a
base size (default 250 KB, so 8x is the 2 MB limit), the share of it spent inside
markdown-it itself, and the ratio between consecutive sizes (2.0 means linear).

    .venv/bin/python bench/bench_parse.py [BASE_BYTES]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pizarra.source.lower import MAX_SOURCE_BYTES, parse_lesson
from pizarra.source.markdown import parser

FRONT = "---\ntitle: Bench\nlesson: 1\nlang: en\nsummary: Parse time.\n---\n\n"
SHAPES = {
    "lone $ per line": "$a\n",
    "emphasis runs per line": "*a **a\n",
    "inline math per line": "$a$\n",
    "lesson role per line": "{lesson}`1`\n",
    "anchor link per line": "[a](#b)\n",
    "lone $ on one line": "$a ",
    "emphasis runs on one line": "*a **a ",
    "table rows": "| $a$ | b |\n",
    "headings": "## a\n\n",
    "unclosed $$ with blank lines": "$$a\n\n",
    "task items": "- [x] a\n",
    "spans with a class": "[a]{.c} ",
    "inline footnotes": "a^[b] ",
}


def lesson(unit: str, size: int) -> str:
    body = unit * ((size - len(FRONT)) // len(unit))
    return FRONT + body


def timed(text: str) -> tuple[float, float, int]:
    started = time.perf_counter()
    parser().parse(text)
    markdown_it = time.perf_counter() - started
    started = time.perf_counter()
    _, diagnostics = parse_lesson(Path("bench.md"), "bench.md", text)
    return time.perf_counter() - started, markdown_it, len(diagnostics)


def main() -> None:
    base = int(sys.argv[1]) if len(sys.argv) > 1 else MAX_SOURCE_BYTES // 8
    print(f"{'shape':<28}{'size':>10}{'parse s':>10}{'md-it s':>10}{'ratio':>7}{'diags':>8}")
    for name, unit in SHAPES.items():
        previous = 0.0
        for factor in (1, 2, 4, 8):
            size = base * factor
            seconds, markdown_it, diagnostics = timed(lesson(unit, size))
            ratio = f"{seconds / previous:.1f}" if previous else ""
            print(
                f"{name:<28}{size:>10,}{seconds:>10.2f}{markdown_it:>10.2f}{ratio:>7}"
                f"{diagnostics:>8}",
                flush=True,
            )
            previous = seconds


if __name__ == "__main__":
    main()
