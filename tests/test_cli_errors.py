"""Every kind of author error: ``pizarra check`` prints ``file:line:col`` and exits 1."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pizarra.cli import main
from tests.support import FIXTURES

ERRORS = FIXTURES / "errors"
CASES = sorted(p.stem for p in ERRORS.glob("*.md"))


@pytest.mark.parametrize("name", CASES)
def test_check_reports_error_at_position(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(ERRORS / f"{name}.md", tmp_path / f"{name}.md")
    monkeypatch.chdir(tmp_path)
    code = main(["check", f"{name}.md"])
    err = capsys.readouterr().err
    heads = [line for line in err.splitlines() if ": error: " in line]
    expected = (ERRORS / f"{name}.expected").read_text(encoding="utf-8").splitlines()
    assert code == 1, err
    for line in expected:
        assert any(head.startswith(line) for head in heads), f"missing {line!r} in:\n{err}"
    assert len(heads) == len(expected), err
    assert "hint: " in err
    assert "pizarra check:" in err.splitlines()[-1]


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("missing.md", None, "missing.md:1:1: error: no such file or folder"),
        (
            "binary.md",
            b"\xff\xfe\x00",
            "binary.md:1:1: error: the lesson is not UTF-8 text (byte 0)",
        ),
        (
            "empty-dir",
            b"",
            "empty-dir:1:1: error: no course.yaml here, and this is not a lesson file",
        ),
    ],
)
def test_unreadable_sources_are_reported(
    name: str,
    content: bytes | None,
    expected: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    if name == "empty-dir":
        (tmp_path / name).mkdir()
    elif content is not None:
        (tmp_path / name).write_bytes(content)
    assert main(["check", name]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[0] == expected
    assert "hint: " in err


def test_build_refuses_a_folder_it_did_not_make(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ERRORS / "drifted-output.md", "lesson.md")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.txt").write_text("keep")
    assert main(["build", "lesson.md", "-o", "out"]) == 1
    assert "refusing to replace it" in capsys.readouterr().err
    assert (tmp_path / "out" / "mine.txt").read_text() == "keep"


def test_failed_build_says_the_site_was_left_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ERRORS / "false-claim.md", "lesson.md")
    assert main(["build", "lesson.md", "-o", "out"]) == 1
    assert "failed; the site in out was not created" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


COURSE_ERRORS = [
    (
        "title: X\nlang: es\nlessons:\n  - number: 1\n    file: ../fuera.md\n",
        "must be a path inside",
    ),
    ("title: X\nlang: es\nlessons:\n  - number: 1\n    file: nada.md\n", "no such file 'nada.md'"),
    (
        "title: X\nlang: es\nlessons:\n  - number: 2\n    title: A\n    summary: a\n"
        "  - number: 2\n    title: B\n    summary: b\n",
        "lesson number 2 is used twice",
    ),
    (
        "title: X\nlang: es\nlessons:\n  - number: 3\n    title: A\n    summary: a\n"
        "  - number: 1\n    title: B\n    summary: b\n",
        "lesson 1 is listed after lesson 3",
    ),
    ("title: X\nlang: xx\nlessons: []\n", "the course needs a `lang`"),
    (
        "title: X\nlang: es\ncolor: red\nlessons:\n  - number: 1\n    title: A\n    summary: a\n",
        "unknown course field 'color'",
    ),
    ("title: [unclosed\n", "course.yaml is not valid YAML"),
]


@pytest.mark.parametrize(("manifest", "message"), COURSE_ERRORS)
def test_course_manifest_errors_have_positions_and_hints(
    manifest: str,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "curso").mkdir()
    (tmp_path / "curso" / "course.yaml").write_text(manifest, encoding="utf-8")
    assert main(["check", "curso"]) == 1
    err = capsys.readouterr().err
    heads = [line for line in err.splitlines() if ": error: " in line]
    assert any(message in head for head in heads), err
    assert all(head.startswith("curso/course.yaml:") for head in heads), err
    assert err.count("hint: ") >= len(heads), err


def test_course_entry_errors_point_at_the_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "curso").mkdir()
    manifest = (
        "title: X\nlang: es\nlessons:\n"
        "  - number: 1\n    title: A\n    summary: a\n"
        "  - number: 2\n    file: nada.md\n"
    )
    (tmp_path / "curso" / "course.yaml").write_text(manifest, encoding="utf-8")
    assert main(["check", "curso"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("curso/course.yaml:7:5: error: lesson 2: no such file 'nada.md'"), err


def test_an_uncited_source_is_a_warning_at_its_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ERRORS.parent / "site" / "course" / "lessons" / "03-tercera.md", "x.md")
    text = Path("x.md").read_text(encoding="utf-8")
    text = text.replace(
        "summary: Un cálculo con código.\n",
        "summary: Un cálculo con código.\nsources:\n  - id: a\n    title: A\n"
        "    url: https://example.org/a\n",
    ).replace("Vuelve a la {lesson}`1`.", "Sin referencias.")
    Path("x.md").write_text(text, encoding="utf-8")
    assert main(["check", "x.md"]) == 0
    first = capsys.readouterr().err.splitlines()[0]
    assert first == "x.md:7:5: warning: source 'a' is never cited"
    assert main(["check", "--strict", "x.md"]) == 1


def test_update_outputs_rewrites_the_lesson_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ERRORS / "drifted-output.md", "lesson.md")
    before = Path("lesson.md").read_text(encoding="utf-8")
    assert main(["check", "lesson.md"]) == 1
    assert Path("lesson.md").read_text(encoding="utf-8") == before
    assert main(["check", "--update-outputs", "lesson.md"]) == 0
    err = capsys.readouterr().err
    assert "updated the outputs in lesson.md" in err
    after = Path("lesson.md").read_text(encoding="utf-8")
    assert after == before.replace("```{output}\n1000\n```", "```{output}\n1024\n```")
    assert main(["check", "lesson.md"]) == 0


def test_update_outputs_refuses_an_output_that_changes_between_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PIZARRA_CACHE_DIR", str(tmp_path / "cache"))
    text = (
        "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S\n---\n\n"
        "```{code-cell} ipython3\nimport random\nprint(random.random())\n```\n\n"
        "```{code-cell} ipython3\nprint(6 * 7)\n```\n"
    )
    Path("lesson.md").write_text(text, encoding="utf-8")
    assert main(["check", "--update-outputs", "lesson.md"]) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if ": error: " in line]
    assert errors == [
        "lesson.md:8:1: error: the code cell's output changes between runs, so it cannot be checked"
    ]
    after = Path("lesson.md").read_text(encoding="utf-8")
    assert after == text + "\n```{output}\n42\n```\n"


def test_the_command_exits_with_the_runs_code_after_freezing_what_it_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``pizarra`` (the console script and ``python -m pizarra``) is :func:`run`: the
    exit code is :func:`main`'s, the garbage collector's young generation is collected
    less often, and the run's objects are left to reference counting at shutdown."""
    import gc

    import pizarra.cli

    frozen: list[bool] = []
    thresholds: list[tuple[int, ...]] = []
    monkeypatch.setattr(pizarra.cli, "main", lambda: 3)
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    monkeypatch.setattr(gc, "set_threshold", lambda *t: thresholds.append(t))
    with pytest.raises(SystemExit) as ended:
        pizarra.cli.run()
    assert ended.value.code == 3 and frozen == [True]
    assert thresholds == [(pizarra.cli.YOUNG_COLLECTION, *gc.get_threshold()[1:])]
    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert 'pizarra = "pizarra.cli:run"' in pyproject
    main_module = Path(pizarra.__file__).with_name("__main__.py").read_text(encoding="utf-8")
    assert "run()" in main_module
