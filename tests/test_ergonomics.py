"""What an author meets first: where a command looks for the course, `--version`,
"did you mean" for a misspelt name, duplicate YAML keys, what to install."""

from __future__ import annotations

from pathlib import Path

import pytest

from pizarra.base.suggest import did_you_mean
from pizarra.check.install_hint import extras, install_command, missing_module
from pizarra.cli import main, source_of
from pizarra.source.lower import parse_lesson
from tests.support import lesson_from


def test_no_src_outside_a_course_is_an_error_not_the_bundled_course(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert "no course.yaml" in err
    assert "--example" in err and "pizarra init" in err


def test_no_src_inside_a_course_is_that_course(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "course.yaml").write_text("title: T\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert source_of(None, False, "check") == Path(".")


def test_the_bundled_course_only_with_example(capsys: pytest.CaptureFixture[str]) -> None:
    from pizarra import BUNDLED

    assert source_of(None, True, "serve") == BUNDLED
    assert source_of(Path("x.md"), True, "serve") is None
    assert "not both" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("pizarra ")


def test_did_you_mean_names_the_close_one_else_the_list() -> None:
    assert did_you_mean("notee", ["note", "warning"], "all") == "did you mean `note`?"
    assert did_you_mean("zzz", ["note", "warning"], "all") == "all"


@pytest.mark.parametrize(
    ("body", "message", "hint"),
    [
        (":::{notee}\nx\n:::\n", "unknown directive {notee}", "did you mean `{note}`?"),
        ("See {lessn}`2`.\n", "unknown role {lessn}", "did you mean `{lesson}`?"),
        (":::{note}\n:clas: x\nT\n:::\n", "unknown option :clas:", "did you mean `:class:`?"),
        (
            "```{code-cell} python\n---\ntimout: 3\n---\n1\n```\n",
            "unknown cell option 'timout'",
            "did you mean `timeout`?",
        ),
    ],
)
def test_misspelt_names_get_the_close_name(body: str, message: str, hint: str) -> None:
    _, errors = lesson_from(body)
    found = [e for e in errors if message in e]
    assert found, errors
    assert hint in found[0], found[0]
    assert len(found[0]) < 300


def _front(extra: str) -> list[str]:
    text = f"---\ntitle: T\nlesson: 1\nlang: en\nsummary: S\n{extra}---\nBody.\n"
    _, diagnostics = parse_lesson(Path("f.md"), "f.md", text)
    return [d.format() for d in diagnostics]


def test_a_misspelt_front_matter_field_gets_the_close_name() -> None:
    errors = _front("sumary: x\n")
    assert any("unknown front matter field 'sumary'" in e and "`summary`" in e for e in errors)


def test_a_duplicate_key_is_an_error_at_the_second() -> None:
    errors = _front("summary: again\n")
    assert any(
        e.startswith("f.md:6:1: error: the front matter gives 'summary' twice") for e in errors
    ), errors


def test_the_missing_package_hint_names_the_extra() -> None:
    assert "notebook" in extras().values()
    assert install_command(("matplotlib",)) == "pip install 'pizarra[notebook]'"
    assert install_command(("pandas",)) == "pip install 'pizarra[notebook]'"
    assert install_command(("seaborn",)) == "pip install seaborn"
    assert install_command(("pytest",)) == "pip install pytest"  # test extra: never
    assert missing_module("ModuleNotFoundError: No module named 'scipy.sparse'") == "scipy"
    assert missing_module("ValueError: x") is None


def test_importing_a_package_not_installed_is_a_warning_that_cells_are_not_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = tmp_path / "m.md"
    lesson.write_text(
        "---\ntitle: M\nlesson: 1\nlang: en\nsummary: S.\n---\n"
        "```{code-cell} python\nimport pizarra_no_such_package\n```\n\n"
        "```{code-cell} python\nprint(1)\n```\n",
        encoding="utf-8",
    )
    assert main(["check", "--no-cache", str(lesson)]) == 0
    err = capsys.readouterr().err
    assert "m.md:7:1: warning: not run: the lesson needs pizarra_no_such_package" in err
    assert "0 run" in err and "1 warning(s)" in err


def test_a_magic_the_kernel_does_not_run_is_a_plain_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = tmp_path / "m.md"
    lesson.write_text(
        "---\ntitle: M\nlesson: 1\nlang: en\nsummary: S.\n---\n"
        "```{code-cell} python\n%prun sum(range(10))\n```\n",
        encoding="utf-8",
    )
    assert main(["check", "--no-cache", str(lesson)]) == 1
    err = capsys.readouterr().err
    assert "m.md:8:1: error: the %prun magic is not available in pizarra's kernel" in err
    assert "MagicError" not in err and "skip-execution" in err


def test_init_writes_a_course_that_builds_and_refuses_to_overwrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", str(tmp_path / "c")]) == 0
    assert "pizarra serve" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path / "c")
    assert main(["build", "--no-cache", "-o", "site"]) == 0
    err = capsys.readouterr().err
    assert "0 error(s), 0 warning(s)" in err and "code cells: 1 run" in err
    page = (tmp_path / "c" / "site" / "doubling" / "index.html").read_text(encoding="utf-8")
    assert "<math" in page and 'class="exercise"' in page and "explorer" in page
    assert 'class="answer-field"' in page, "a question the learner answers in the page"
    assert main(["init"]) == 2
    assert "already holds a course" in capsys.readouterr().err


def test_the_progress_line_counts_lessons_and_cells_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from types import SimpleNamespace

    from pizarra.cli import Progress

    progress = Progress()
    ran = SimpleNamespace(outcomes=[SimpleNamespace(cached=False), SimpleNamespace(cached=True)])
    progress(object(), ran, 3)
    progress(object(), ran, 3)
    err = capsys.readouterr().err
    assert err.startswith("\r\x1b[Kpizarra: 1 of 3 lesson(s) checked, 1 cell(s) run, ")
    assert "\r\x1b[Kpizarra: 2 of 3 lesson(s) checked, 2 cell(s) run, " in err
    lesson = tmp_path / "q.md"
    lesson.write_text("---\ntitle: Q\nlesson: 1\nlang: en\nsummary: S.\n---\nText.\n", "utf-8")
    assert main(["check", str(lesson)]) == 0
    assert "\x1b[K" not in capsys.readouterr().err  # not a terminal: quiet


def test_a_run_tells_its_progress_each_lesson_done_of_how_many(tmp_path: Path) -> None:
    from dataclasses import replace

    from pizarra.cli import default_tools
    from pizarra.pipeline.build import verify

    assert main(["init", str(tmp_path / "c")]) == 0
    told: list[tuple[str, int]] = []
    tools = replace(
        default_tools(no_cache=True, progress=False),
        progress=lambda lesson, result, total: told.append((lesson.title, total)),
    )
    report = verify(tmp_path / "c", tools)
    assert not report.failed()
    assert [total for _, total in told] == [1] and told[0][0]


def test_a_lesson_that_fails_to_read_does_not_fail_the_references_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = tmp_path / "c"
    course.mkdir()
    (course / "course.yaml").write_text(
        "title: C\nlang: en\nlessons:\n  - number: 1\n    file: one.md\n"
        "  - number: 2\n    file: two.md\n",
        encoding="utf-8",
    )
    (course / "one.md").write_text(
        "---\ntitle: One\nlesson: 1\nlang: en\nsummary: S.\n---\nSee {lesson}`2` and {doc}`two`.\n",
        encoding="utf-8",
    )
    (course / "two.md").write_text("---\ntitle: [unclosed\n---\nText.\n", encoding="utf-8")
    assert main(["check", str(course)]) == 1
    err = capsys.readouterr().err
    assert "two.md:2:" in err and "not valid YAML" in err
    assert err.count(": error: ") == 1, err  # none at one.md


def test_help_prints_a_guide_and_suggests_a_topic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help"]) == 0
    assert "pizarra help authoring" in capsys.readouterr().out
    assert main(["help", "math"]) == 0
    assert capsys.readouterr().out.startswith("# Math")
    assert main(["help", "mth"]) == 2
    assert "did you mean `math`?" in capsys.readouterr().err


def test_a_front_matter_error_does_not_hide_the_lessons_other_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = tmp_path / "f.md"
    lesson.write_text(
        "---\ntitle: F\nlesson: 1\nlang: en\nsummary: S.\ncolour: red\n---\n"
        "So $2 + 2 = 5$.\n\n```{code-cell} python\n1/0\n```\n",
        encoding="utf-8",
    )
    assert main(["check", "--no-cache", str(lesson)]) == 1
    err = capsys.readouterr().err
    assert "f.md:6:1: error: unknown front matter field 'colour'" in err
    assert "claim is false" in err and "ZeroDivisionError" in err


def test_broken_links_are_reported_in_the_same_run_as_other_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = tmp_path / "c"
    course.mkdir()
    (course / "course.yaml").write_text(
        "title: C\nlang: en\nlessons:\n  - number: 1\n    file: one.md\n"
        "  - number: 2\n    file: two.md\n",
        encoding="utf-8",
    )
    front = "---\ntitle: {t}\nlesson: {n}\nlang: en\nsummary: S.\n---\n"
    (course / "one.md").write_text(
        front.format(t="One", n=1) + "See [there](#nowhere) and {doc}`two`.\n", encoding="utf-8"
    )
    (course / "two.md").write_text(front.format(t="Two", n=2) + ":::{notee}\nx\n:::\n", "utf-8")
    assert main(["check", "--no-cache", str(course)]) == 1
    err = capsys.readouterr().err
    assert "two.md:7:1: error: unknown directive {notee}" in err
    assert "one.md:7:" in err and "broken link in one/index.html: #nowhere" in err, err
    assert err.count(": error: ") == 2, err  # the link into lesson two is not judged
