"""Author macros: ``macros:`` in the front matter and in course.yaml reach every formula."""

from __future__ import annotations

from pathlib import Path

from pizarra.cli import default_tools, main
from pizarra.pipeline.build import build

LESSON = """---
title: Macros
lesson: 1
lang: en
summary: A lesson with macros.
{macros}---

Vectors $\\vect{{x}}\\in\\R^n$ and $\\N$.
"""

COURSE = """title: Course
lang: en
{macros}lessons:
  - number: 1
    file: one.md
"""


def write_course(root: Path, course_macros: str, lesson_macros: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "course.yaml").write_text(COURSE.format(macros=course_macros), encoding="utf-8")
    (root / "one.md").write_text(LESSON.format(macros=lesson_macros), encoding="utf-8")
    return root


def test_course_and_lesson_macros_render(tmp_path: Path) -> None:
    src = write_course(
        tmp_path / "c",
        "macros:\n  R: \\mathbb{R}\n  N: \\mathbb{Z}\n",
        "macros:\n  vect: \\mathbf{#1}\n  N: \\mathbb{N}\n",
    )
    report = build(src, tmp_path / "site", default_tools(no_cache=True))
    assert [d.format() for d in report.diagnostics] == []
    page = (tmp_path / "site" / "one" / "index.html").read_text(encoding="utf-8")
    assert "<mi>𝐱</mi>" in page and "<mi>ℝ</mi>" in page
    assert "<mi>ℕ</mi>" in page and "ℤ" not in page
    assert "\\vect{x}\\in\\R^n</annotation>" in page


def test_unknown_macro_is_an_error_at_its_column(
    tmp_path: Path, capsys: object, monkeypatch: object
) -> None:
    src = write_course(tmp_path / "c", "", "")
    assert main(["check", str(src)]) == 1
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert f'{src / "one.md"}:8:10: error: invalid LaTeX: Unknown command "\\vect"' in err


def test_bad_macros_point_at_their_key(tmp_path: Path, capsys: object) -> None:
    src = write_course(tmp_path / "c", "macros:\n  a: \\b\n  b: \\a\n", "macros:\n  9x: y\n")
    assert main(["check", str(src)]) == 1
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "course.yaml:3:1: error: macros: macro \\a expands to itself" in err
    assert "one.md:6:1: error: macros: invalid macro name '9x'" in err


def test_definitions_inside_formulas_are_refused(tmp_path: Path, capsys: object) -> None:
    lesson = tmp_path / "l.md"
    lesson.write_text(
        LESSON.format(macros="").replace("and $\\N$", "and $x \\def\\y{z}$"), encoding="utf-8"
    )
    assert main(["check", str(lesson)]) == 1
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert f"{lesson}:8:34: error: \\def is not allowed inside a formula" in err
    assert "hint: define macros under `macros:`" in err
