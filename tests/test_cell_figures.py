"""Figures drawn by code cells: SVG files next to the page, alt text, byte-identical rebuilds."""

from __future__ import annotations

import re
from pathlib import Path

from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.build import build
from pizarra.pipeline.tools import Tools
from tests.support import fake_math

COURSE = """\
title: Curso
lang: es
description: Una lección con una figura.
lessons:
  - number: 1
    file: lessons/01-figura.md
"""

LESSON = """\
---
title: "Figura"
lesson: 1
lang: es
summary: "Una figura."
---

## Figura

```{code-cell} ipython3
import matplotlib.pyplot as plt
xs = [1, 2, 4, 8]
```

```{code-cell} ipython3
---
caption: "n y n² crecen a ritmos distintos"
alt: "Dos curvas: una recta y una parábola"
---
fig, ax = plt.subplots(figsize=(4, 3))
ax.plot(xs, xs)
ax.plot(xs, [x * x for x in xs]);
```
"""


def write_course(root: Path, lesson: str = LESSON) -> Path:
    (root / "lessons").mkdir(parents=True)
    (root / "course.yaml").write_text(COURSE, encoding="utf-8")
    (root / "lessons" / "01-figura.md").write_text(lesson, encoding="utf-8")
    return root


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_figure_is_published_as_svg_with_its_caption_and_alt_text(tmp_path: Path) -> None:
    course = write_course(tmp_path / "course")
    tools = Tools(fake_math, KernelRunner(), None)
    first, second = tmp_path / "one", tmp_path / "two"
    report = build(course, first, tools)
    assert [d.format() for d in report.diagnostics] == []
    build(course, second, tools)
    assert files(first) == files(second)
    [lesson_page] = [p for p in first.glob("*/index.html") if (p.parent / "..").exists()][:1]
    html = lesson_page.read_text("utf-8")
    [name] = re.findall(r'<img src="(fig-[0-9a-f]{16}\.svg)"', html)
    assert 'alt="Dos curvas: una recta y una parábola"' in html
    assert "<figcaption>n y n² crecen a ritmos distintos</figcaption>" in html
    svg = (lesson_page.parent / name).read_bytes()
    assert svg.startswith(b"<?xml") and b"<svg" in svg and b"<script" not in svg


def test_a_figure_without_alt_text_is_a_warning(tmp_path: Path) -> None:
    course = write_course(
        tmp_path / "course", LESSON.replace('alt: "Dos curvas: una recta y una parábola"\n', "")
    )
    report = build(course, tmp_path / "out", Tools(fake_math, KernelRunner(), None))
    [warning] = [d.format() for d in report.diagnostics]
    assert warning.endswith(
        "/lessons/01-figura.md:15:1: warning: the code cell draws a figure without a text "
        "alternative\n    hint: describe what the figure shows in an `:alt:` option"
    )
