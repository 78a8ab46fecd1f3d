"""A run starts the kernels' zygote before parsing exactly when the course may run code."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pizarra.check.kernel import zygote as kernel_zygote
from pizarra.check.kernel.execute import KernelRunner
from pizarra.check.kernel.start import may_run_code, start_kernels_early
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline.build import verify
from pizarra.pipeline.tools import Tools

CELL = "# Uno\n\n```{code-cell} python\nprint(1)\n```\n"
PROSE = "# Dos\n\nSin código.\n"


def course(root: Path, *lessons: str, flow: bool = False) -> Path:
    entries = []
    for number, text in enumerate(lessons, start=1):
        (root / "lessons").mkdir(exist_ok=True)
        (root / "lessons" / f"l{number}.md").write_text(text, encoding="utf-8")
        if flow:
            entries.append(f"  - {{number: {number}, file: 'lessons/l{number}.md'}}")
        else:
            entries.append(f"  - number: {number}\n    file: lessons/l{number}.md")
    manifest = "title: Curso\nlang: es\nlessons:\n" + "\n".join(entries) + "\n"
    (root / "course.yaml").write_text(manifest, encoding="utf-8")
    return root


def test_a_course_with_a_code_cell_may_run_code(tmp_path: Path) -> None:
    assert may_run_code(course(tmp_path, PROSE, CELL))


def test_lessons_named_in_flow_style_are_read_too(tmp_path: Path) -> None:
    assert may_run_code(course(tmp_path, PROSE, CELL, flow=True))


def test_a_course_of_prose_runs_no_code(tmp_path: Path) -> None:
    assert not may_run_code(course(tmp_path, PROSE, PROSE))


def test_a_single_lesson_file_is_judged_by_its_text(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(CELL, encoding="utf-8")
    (tmp_path / "b.md").write_text(PROSE, encoding="utf-8")
    assert may_run_code(tmp_path / "a.md")
    assert not may_run_code(tmp_path / "b.md")


def test_no_course_and_missing_lessons_run_no_code(tmp_path: Path) -> None:
    assert not may_run_code(tmp_path / "nothing")
    assert not may_run_code(tmp_path)
    (tmp_path / "course.yaml").write_text("lessons:\n  - number: 1\n    file: gone.md\n")
    assert not may_run_code(tmp_path)


@pytest.fixture
def no_zygotes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A zygote table of the test's own; its interpreter does not exist, so starting one
    only records that it was tried."""
    monkeypatch.setattr(kernel_zygote, "_zygotes", {})


@pytest.mark.usefixtures("no_zygotes")
def test_verify_starts_the_zygote_before_parsing_a_course_with_code(tmp_path: Path) -> None:
    runner = KernelRunner(python=str(tmp_path / "no-python"))
    course(tmp_path, CELL)
    (tmp_path / "lessons" / "l1.md").write_text("---\n: [broken\n---\n" + CELL, encoding="utf-8")
    verify(tmp_path, Tools(MathCoreRenderer(), runner, None), search=False)
    assert kernel_zygote.started(runner.python)  # tried, though the lesson did not parse


@pytest.mark.usefixtures("no_zygotes")
def test_no_zygote_for_a_course_without_code(tmp_path: Path) -> None:
    runner = KernelRunner(python=str(tmp_path / "no-python"))
    start_kernels_early(course(tmp_path, PROSE), runner)
    assert not kernel_zygote.started(runner.python)
    start_kernels_early(course(tmp_path, CELL), runner)
    assert kernel_zygote.started(runner.python)


@pytest.mark.usefixtures("no_zygotes")
def test_a_runner_that_starts_late_starts_no_zygote_before_a_cell_runs(tmp_path: Path) -> None:
    runner = KernelRunner(python=str(tmp_path / "no-python"), early=False)
    start_kernels_early(course(tmp_path, CELL), runner)
    assert not kernel_zygote.started(runner.python)


def test_a_rebuild_starts_the_zygote_only_once_a_cell_runs(tmp_path: Path) -> None:
    """A build after an edit, of a course built before: its cells come from the cache,
    so no zygote is started for them."""
    (tmp_path / "c").mkdir()
    front = "---\ntitle: {}\nlesson: {}\nlang: es\nsummary: Breve.\n---\n\nTexto.\n\n"
    with_cell = front.format("Uno", 1) + CELL.removeprefix("# Uno\n\n")
    prose_only = front.format("Dos", 2)
    src = course(tmp_path / "c", with_cell, prose_only)
    env = dict(os.environ, PIZARRA_CACHE_DIR=str(tmp_path / "cache"))
    build = ["build", str(src), "-o", str(tmp_path / "site")]
    probe = (
        "import sys\nfrom pizarra import cli\n"
        "from pizarra.check.kernel import zygote as kernel_zygote\n"
        f"cli.main({build!r})\n"
        "print(kernel_zygote.started(sys.executable))\n"
    )
    for _ in range(2):  # the second confirms the cell's output: then the build is recorded
        subprocess.run([sys.executable, "-m", "pizarra", *build], env=env, check=True)
    prose = src / "lessons" / "l2.md"
    prose.write_text(prose_only + "Una línea más.\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True
    )
    assert done.stdout.split() == ["False"], done.stderr
    cell = src / "lessons" / "l1.md"
    cell.write_text(with_cell.replace("print(1)", "print(2)"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, check=False, capture_output=True, text=True
    )
    assert "code cells: 1 run" in done.stderr, done.stderr


def test_the_command_starts_the_zygote_before_it_imports_the_pipeline(tmp_path: Path) -> None:
    """``pizarra build`` makes its tools, which start the zygote, before it imports
    ``pizarra.pipeline.build``: the zygote's start-up then overlaps those imports."""
    (tmp_path / "c").mkdir()
    src = course(tmp_path / "c", CELL)
    probe = (
        "import sys\nfrom pizarra import cli\n"
        "from pizarra.check.kernel import zygote as kernel_zygote\n"
        "real = cli._tools_for\n"
        "def tools(*args):\n"
        "    print('pizarra.pipeline.build' in sys.modules)\n"
        "    made = real(*args)\n"
        "    print(kernel_zygote.started(sys.executable))\n"
        "    return made\n"
        "cli._tools_for = tools\n"
        f"cli.main(['build', {str(src)!r}, '-o', {str(tmp_path / 'site')!r}])\n"
    )
    env = dict(os.environ, PIZARRA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True
    )
    assert done.stdout.split() == ["False", "True"], done.stderr
