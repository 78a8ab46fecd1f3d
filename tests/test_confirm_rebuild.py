"""The build after a first one confirms its cells' outputs by running them again, and
checks and renders nothing else when each shows what it showed."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from pizarra.base.cache import Cache
from pizarra.base.errors import Severity
from pizarra.check.code_cells import ResultCache
from pizarra.check.kernel.execute import CellRequest, RunResult
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline import lesson as lesson_module
from pizarra.pipeline import lessons, parsed
from pizarra.pipeline.build import verify
from pizarra.pipeline.tools import Report, Tools
from pizarra.source.model import Lesson

COURSE = "title: Curso\nlang: es\nlessons:\n" + "".join(
    f"  - number: {n}\n    file: l{n}.md\n" for n in (1, 2)
)
LESSON = """---
title: Lección {n}
lesson: {n}
lang: es
summary: Resumen {n}.
---

Sabemos que $2^{n}={value}$.

```{{code-cell}} python
print({n})
```

```{{output}}
{n}
```
"""


class Printing:
    """Answers each cell with the next of ``outputs`` for its lesson's first line."""

    def __init__(self, outputs: dict[str, list[str]]) -> None:
        self.outputs = outputs
        self.runs = 0

    def __call__(
        self, cells: Sequence[CellRequest], lesson_timeout: float, memory: int | None = None
    ) -> list[RunResult]:
        self.runs += 1
        return [RunResult(self.outputs[c.code].pop(0), "", 0, False, False, 0.01) for c in cells]


def course(root: Path) -> Path:
    root.mkdir()
    (root / "course.yaml").write_text(COURSE, encoding="utf-8")
    for n in (1, 2):
        (root / f"l{n}.md").write_text(LESSON.format(n=n, value=2**n), encoding="utf-8")
    return root


def build(src: Path, root: Path, runner: Printing, monkeypatch: pytest.MonkeyPatch) -> Report:
    """A build in a new process (nothing kept in memory), one lesson at a time."""
    monkeypatch.setattr(parsed, "_MEMORY", parsed.Recent(parsed.MEMORY, per_group=2))
    monkeypatch.setattr(parsed, "_OUTLINES", parsed.Recent(parsed.MEMORY, per_group=2))
    monkeypatch.setattr(lessons, "_MEMORY", lessons.Recent(lessons.MEMORY, per_group=2))
    store = Cache(root)
    tools = Tools(MathCoreRenderer(), runner, ResultCache(store), None, store, jobs=1)
    report = verify(src, tools, outlines=True)
    store.flush()
    return report


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lessons whose pages were rendered, in order."""
    done: list[str] = []
    real = lesson_module._pages

    def counted(course: object, lesson: Lesson, *args: object) -> dict[str, bytes]:
        done.append(lesson.path.name)
        return real(course, lesson, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(lesson_module, "_pages", counted)
    return done


def test_cells_that_show_the_same_confirm_the_first_builds_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rendered: list[str]
) -> None:
    src = course(tmp_path / "c")
    runner = Printing({"print(1)\n": ["1\n"] * 3, "print(2)\n": ["2\n"] * 3})
    first = build(src, tmp_path / "cache", runner, monkeypatch)
    assert not first.failed() and rendered == ["l1.md", "l2.md"] and runner.runs == 2
    rendered.clear()
    second = build(src, tmp_path / "cache", runner, monkeypatch)
    assert not second.failed()
    assert runner.runs == 4, "each lesson's cells ran again"
    assert rendered == [], "and nothing was rendered again"
    assert second.files == first.files and second.cells_run == 2
    assert second.reusable, "the outputs are confirmed"
    third = build(src, tmp_path / "cache", runner, monkeypatch)
    assert runner.runs == 4 and rendered == [] and third.cells_cached == 2


def test_a_cell_that_shows_something_else_is_reported_not_run_a_third_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rendered: list[str]
) -> None:
    src = course(tmp_path / "c")
    runner = Printing({"print(1)\n": ["1\n", "1\n"], "print(2)\n": ["2\n", "7\n"]})
    assert not build(src, tmp_path / "cache", runner, monkeypatch).failed()
    second = build(src, tmp_path / "cache", runner, monkeypatch)
    errors = [d for d in second.diagnostics if d.severity is Severity.ERROR]
    assert [e.message for e in errors] == [
        "the code cell's output changes between runs, so it cannot be checked"
    ]
    assert errors[0].pos.path.endswith("l2.md")
    assert runner.runs == 4, "the second run's outcomes are the ones judged"


def test_a_result_differing_in_any_shown_field_is_verified_again() -> None:
    from pizarra.check.code_cells import CellOutcome
    from tests.test_check_code_cells import parse

    (cell,) = parse("```{code-cell} python\nprint(1)\n```\n").code_cells()
    ran = RunResult("1\n", "", 0, False, False, 0.01)
    seen = (CellOutcome(cell, ran, False, 0),)
    now = (CellOutcome(cell, dataclasses.replace(ran, duration=0.5), False, 0, confirmed=True),)
    assert lesson_module._shows_the_same(now, seen), "a duration is not shown"
    for change in ({"html": "<table></table>"}, {"stderr": "aviso\n"}):
        other = (dataclasses.replace(now[0], result=dataclasses.replace(ran, **change)),)
        assert not lesson_module._shows_the_same(other, seen)
    unconfirmed = (dataclasses.replace(now[0], confirmed=False),)
    assert not lesson_module._shows_the_same(unconfirmed, seen)
