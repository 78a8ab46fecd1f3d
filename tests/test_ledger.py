"""What verification decided, item by item: ``check --claims``, ``--strict-claims``, counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from pizarra.cli import main

LESSON = """---
title: Afirmaciones
lesson: 1
lang: es
summary: Unas cuantas afirmaciones.
{extra}---

## Afirmaciones

Sabemos que $2^{{10}} = 1024$ y que $3 < 4$.

Una ecuación por resolver: $x + 1 = 7$.
"""


def write(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "afirmaciones.md"
    path.write_text(LESSON.format(extra=extra), encoding="utf-8")
    return path


def test_check_claims_lists_every_statement_with_status_and_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path)
    assert main(["check", "--no-cache", "--claims", "afirmaciones.md"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "afirmaciones.md:10:13: checked: 2^{10} = 1024"
    assert out[1].startswith("afirmaciones.md:10:")
    assert out[1].endswith(": checked: 3 < 4")
    assert out[2].startswith("afirmaciones.md:12:")
    assert ": unchecked: x + 1 = 7 -- " in out[2]
    assert len(out) == 3


def test_a_restated_declaration_is_listed_and_counted_as_assumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, "variables:\n  x: positive\n")
    # Declared, x makes x + 1 = 7 a claim about every x: an equation to solve says so.
    text = path.read_text().replace("$x + 1 = 7$", "$x + 1 \\overset{?}{=} 7$")
    path.write_text(text + "\nPara todo $x>0$, $\\sqrt{x^2}=x$.\n", encoding="utf-8")
    assert main(["check", "--no-cache", "--claims", "afirmaciones.md"]) == 0
    captured = capsys.readouterr()
    assert "afirmaciones.md:16:11: assumed: x > 0 -- restates the declaration x: positive" in (
        captured.out.splitlines()
    )
    assert "checked: \\sqrt{x^2} = x" in captured.out
    assert "claims: 3 checked, 1 assumed, 1 unchecked, 0 failed" in captured.err


def test_without_claims_flag_nothing_is_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path)
    assert main(["check", "--no-cache", "afirmaciones.md"]) == 0
    assert capsys.readouterr().out == ""


def test_strict_claims_makes_undecided_statements_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path)
    assert main(["check", "--no-cache", "--strict-claims", "afirmaciones.md"]) == 1
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert len(errors) == 1
    assert errors[0].startswith("afirmaciones.md:12:")
    assert "claim not checked: x + 1 = 7" in errors[0]
    assert "hint: " in err


def test_front_matter_switch_does_the_same_for_one_lesson(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "strict_claims: true\n")
    assert main(["check", "--no-cache", "afirmaciones.md"]) == 1
    assert "claim not checked" in capsys.readouterr().err


def test_front_matter_switch_must_be_a_boolean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "strict_claims: sí\n")
    assert main(["check", "--no-cache", "afirmaciones.md"]) == 1
    assert "afirmaciones.md:6:1: error: `strict_claims` must be true or false" in (
        capsys.readouterr().err
    )


def test_check_prints_counts_per_lesson(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lessons").mkdir()
    for number in (1, 2):
        text = LESSON.format(extra="").replace("lesson: 1", f"lesson: {number}")
        (tmp_path / "lessons" / f"0{number}-{number}a.md").write_text(text, encoding="utf-8")
    (tmp_path / "course.yaml").write_text(
        "title: Curso\nlang: es\ndescription: Prueba.\nlessons:\n"
        "  - number: 1\n    file: lessons/01-1a.md\n"
        "  - number: 2\n    file: lessons/02-2a.md\n",
        encoding="utf-8",
    )
    code = main(["check", "--no-cache", "."])
    err = capsys.readouterr().err
    assert code == 0, err
    for number in (1, 2):
        assert f"0{number}-{number}a.md: claims: 2 checked, 0 assumed, 1 unchecked, 0 failed" in err
    assert "claims: 4 checked, 0 assumed, 2 unchecked, 0 failed" in err.splitlines()[-1]


def test_every_reason_in_the_bundled_course_reads_in_spanish() -> None:
    """The report pages of the Spanish course show no English reason."""
    from pizarra.check.claims import claim_records
    from pizarra.math.exact.status import Status
    from pizarra.render.report_page import reason_text
    from pizarra.source.course import BUNDLED, load_course

    course, errors = load_course(BUNDLED)
    assert course is not None and not errors
    reasons = {
        record.reason
        for lesson in course.lessons()
        for record in claim_records(lesson)[0]
        if record.status is Status.UNCHECKED
    }
    assert reasons
    untranslated = sorted(r for r in reasons if reason_text("es", r) == r)
    assert untranslated == []
