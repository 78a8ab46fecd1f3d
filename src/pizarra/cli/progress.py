"""The progress line a long run prints on a terminal."""

from __future__ import annotations

import sys


class Progress:
    """One line on a terminal, rewritten as lessons are done: how many, the cells run,
    the time so far. Cleared before the report is printed; never on a pipe or a file."""

    def __init__(self) -> None:
        import time

        self.clock = time.perf_counter
        self.started = self.clock()
        self.lessons = 0
        self.cells = 0
        self.shown = False

    def __call__(self, lesson: object, result: object, total: int = 0) -> None:
        self.lessons += 1
        self.cells += sum(1 for o in getattr(result, "outcomes", ()) if not o.cached)
        seconds = self.clock() - self.started
        done = f"{self.lessons} of {total}" if total >= self.lessons else str(self.lessons)
        line = f"pizarra: {done} lesson(s) checked, {self.cells} cell(s) run, {seconds:.0f} s"
        sys.stderr.write("\r\033[K" + line)
        sys.stderr.flush()
        self.shown = True
