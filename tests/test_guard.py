"""No traceback reaches an author: hostile input and internal bugs become diagnostics."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pizarra.check import claims
from pizarra.check.kernel.execute import KernelRunner
from pizarra.cli import main
from pizarra.pipeline.build import build, verify
from pizarra.pipeline.tools import Tools
from tests.support import FIXTURES, fake_math

COURSE = FIXTURES / "site" / "course"
HUGE = "9" * 5000

LESSON = """---
title: Grande
lesson: {number}
lang: es
summary: Un número enorme.
---

Primero $2^{{3}} = 8$.

Luego $x = {value}$.
"""


def tools(math: object = fake_math) -> Tools:
    return Tools(math, KernelRunner(), None)  # type: ignore[arg-type]


def _formatted(src: Path) -> list[str]:
    return [d.format() for d in verify(src, tools()).diagnostics]


def test_a_number_of_5000_digits_in_a_formula_is_an_error_at_its_line(tmp_path: Path) -> None:
    lesson = tmp_path / "grande.md"
    lesson.write_text(LESSON.format(number=1, value=HUGE), encoding="utf-8")
    errors = _formatted(lesson)
    assert len(errors) == 1
    assert errors[0].startswith(f"{lesson}:10:7: error: a number of 5,000 digits is too long")


@pytest.mark.parametrize("where", ["front matter", "course.yaml"])
def test_a_huge_integer_in_yaml_is_an_error_at_its_key(tmp_path: Path, where: str) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    if where == "course.yaml":
        manifest = course / "course.yaml"
        manifest.write_text(
            manifest.read_text().replace("number: 1", f"number: {HUGE}", 1), encoding="utf-8"
        )
    else:
        lesson = course / "lessons" / "01-primera.md"
        lesson.write_text(lesson.read_text().replace("lesson: 1", f"lesson: {HUGE}", 1))
    errors = _formatted(course)
    assert errors, "the huge number must be reported"
    assert any("a number longer than 100 characters" in e for e in errors), errors


def test_cli_check_prints_no_traceback_for_huge_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = tmp_path / "grande.md"
    lesson.write_text(LESSON.format(number=HUGE, value=HUGE), encoding="utf-8")
    assert main(["check", "--no-cache", str(lesson)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "grande.md:3:9: error: the front matter has a number longer than" in err


def test_a_bug_while_checking_a_formula_is_reported_there_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = claims.judge_formula

    def judge(tex: str, context: claims.Context) -> list[claims.Verdict]:
        if "x" in tex:
            raise ZeroDivisionError("boom")
        return real(tex, context)

    monkeypatch.setattr(claims, "judge_formula", judge)
    lesson = tmp_path / "bug.md"
    lesson.write_text(LESSON.format(number=1, value="2^{10} = 1024"), encoding="utf-8")
    report = verify(lesson, tools())
    [error] = report.diagnostics
    assert error.format().splitlines() == [
        f"{lesson}:10:7: error: internal error while checking this formula",
        "    $x = 2^{10} = 1024",
        "    ZeroDivisionError: boom",
        "    hint: this is a bug in pizarra, not in the lesson; please report it with this message",
    ]
    assert report.claims.checked == 1, "the other formulas are still checked"


def test_a_bug_in_the_math_renderer_is_reported_at_the_formula(tmp_path: Path) -> None:
    def math(tex: str, display: bool) -> str:
        if "x" in tex:
            raise KeyError(tex)
        return fake_math(tex, display)

    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    lesson = course / "lessons" / "01-primera.md"
    lesson.write_text(lesson.read_text() + "\nY $x + 1$.\n", encoding="utf-8")
    out = tmp_path / "site"
    report = build(course, out, tools(math))
    [error] = report.diagnostics
    assert error.pos.path.endswith("01-primera.md")
    assert error.message == "internal error while typesetting this formula"
    assert error.detail.splitlines() == ["$x + 1$", "KeyError: 'x + 1'"]
    assert not out.exists(), "nothing is written when a formula could not be typeset"


def test_a_bug_while_rendering_a_page_is_reported_at_its_lesson(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pizarra.pipeline import lesson as lessons

    def broken(*args: object, **kwargs: object) -> str:
        raise RecursionError("too deep")

    monkeypatch.setattr(lessons, "render_lesson_page", broken)
    report = verify(COURSE, tools())
    errors = [d.format() for d in report.diagnostics]
    assert len(errors) == 2, errors
    assert all(":1:1: error: internal error while rendering this lesson" in e for e in errors)
    assert report.failed()


def test_a_bug_while_reading_a_lesson_is_reported_at_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pizarra.source import lesson_file as course_module

    def broken(*args: object, **kwargs: object) -> object:
        raise MemoryError

    monkeypatch.setattr(course_module, "parse_lesson", broken)
    errors = [d.format() for d in verify(COURSE, tools()).diagnostics]
    assert errors
    assert all("internal error while reading this lesson" in e for e in errors)


def test_a_broken_anchor_is_reported_at_its_own_line(tmp_path: Path) -> None:
    body = "\n".join(
        [
            "Texto.",
            "",
            "Ver [la sección](#no-existe) y [otra](#tampoco).",
            "",
            "Y de nuevo [aquí](#no-existe), y [la buena](#contenido).",
            "",
            "[ref]: #tampoco-esta",
            "",
            "Con [referencia][ref] y [acento](#sección).",
        ]
    )
    lesson = tmp_path / "anclas.md"
    lesson.write_text(LESSON.format(number=1, value="1").split("Primero")[0] + body + "\n")
    errors = [
        (d.pos.line, d.pos.col, d.message.split(": ", 1)[1])
        for d in verify(lesson, tools()).diagnostics
    ]
    assert errors == [
        (10, 18, "#no-existe (no element with id 'no-existe' in anclas/index.html)"),
        (10, 39, "#tampoco (no element with id 'tampoco' in anclas/index.html)"),
        (12, 19, "#no-existe (no element with id 'no-existe' in anclas/index.html)"),
        (14, 8, "#tampoco-esta (no element with id 'tampoco-esta' in anclas/index.html)"),
        (16, 34, "#secci%C3%B3n (no element with id 'secci%C3%B3n' in anclas/index.html)"),
    ]
