"""Parity check time: the bundled English lessons against their originals, then a lesson
of inline formulas at 1x, 2x, 4x and 8x a base size (the ratio 2.0 means linear).

    .venv/bin/python bench/bench_parity.py [BASE_FORMULAS]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pizarra.check.translation import check_translation
from pizarra.pipeline.editions import parity
from pizarra.source.course import BUNDLED, load_course
from pizarra.source.lower import parse_lesson

FRONT = "---\ntitle: Bench\nlesson: 1\nlang: {lang}\nsummary: Parity.\n---\n\n"


def best(run: object, times: int = 3) -> float:
    found = []
    for _ in range(times):
        started = time.perf_counter()
        run()  # type: ignore[operator]
        found.append(time.perf_counter() - started)
    return min(found)


def main() -> None:
    base = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    course, _ = load_course(BUNDLED)
    assert course is not None and course.editions
    seconds = best(lambda: parity(course, course.editions[0]))
    print(f"bundled course, lessons 7 and 8 in English: {seconds:.3f} s")
    previous = 0.0
    for scale in (1, 2, 4, 8):
        n = base * scale
        es = FRONT.format(lang="es") + "".join(
            f"Con $x={i}{{,}}5$ y 1.024 casos.\n" for i in range(n)
        )
        en = FRONT.format(lang="en") + "".join(
            f"With $x={i}.5$ and 1,024 cases.\n" for i in range(n)
        )
        original, _ = parse_lesson(Path("es.md"), "es.md", es)
        translation, _ = parse_lesson(Path("en.md"), "en.md", en)
        assert original is not None and translation is not None
        seconds = best(lambda a=original, b=translation: check_translation(a, b, False), 1)
        ratio = f"  x{seconds / previous:.2f}" if previous else ""
        print(f"{n:>6} formulas and numbers: {seconds:.3f} s{ratio}")
        previous = seconds


if __name__ == "__main__":
    main()
