"""Cells run in their lesson's folder, as in Jupyter: the files beside the lesson can be
read, what cells write or remove there goes to a private layer (or is refused, where the
system has no such layer) and never reaches the files, and temporary files go to a private
folder."""

from __future__ import annotations

from pathlib import Path

from pizarra.check.code_cells import check_code_cells, run_code_cells
from pizarra.check.kernel.execute import CellRequest, KernelRunner, RunResult
from pizarra.pipeline.frame import render_site
from pizarra.pipeline.lesson import verify_lesson
from pizarra.pipeline.tools import Tools
from tests.support import fake_math, lesson_from, small_course

RUN = KernelRunner()


def run_in(folder: Path, *codes: str) -> list[RunResult]:
    return RUN([CellRequest(code, 30, folder=str(folder)) for code in codes], 60)


def course_folder(tmp_path: Path) -> Path:
    lesson = tmp_path / "curso" / "lecciones"
    (lesson / "datos").mkdir(parents=True)
    (tmp_path / "curso" / "styles").mkdir()
    (tmp_path / "curso" / "course.yaml").write_text("title: Curso\n", encoding="utf-8")
    (tmp_path / "fuera.txt").write_text("fuera\n", encoding="utf-8")
    (lesson / "data.csv").write_text("x,y\n1,2\n", encoding="utf-8")
    (lesson / "datos" / "b.txt").write_text("dentro\n", encoding="utf-8")
    (tmp_path / "curso" / "styles" / "x.css").write_text("p {}\n", encoding="utf-8")
    return lesson


def test_a_cell_reads_the_files_beside_its_lesson(tmp_path: Path) -> None:
    folder = course_folder(tmp_path)
    [result] = run_in(
        folder,
        "import os\n"
        "print(os.getcwd() == os.path.realpath(os.environ.get('PWD', os.getcwd())))\n"
        "print(open('data.csv').read(), end='')\n"
        "print(open('datos/b.txt').read(), end='')\n"
        "print(open('../styles/x.css').read(), end='')\n"
        "print(any(k.startswith('PIZARRA') for k in os.environ))\n"
        "print(os.path.exists('../../fuera.txt'), os.path.exists('../course.yaml'))\n",
    )
    assert result.ok, result.stderr
    assert result.stdout == "True\nx,y\n1,2\ndentro\np {}\nFalse\nFalse True\n"


def layered() -> bool:
    """Whether this system lays a private writable layer over the lesson's folder."""
    return any("goes to a private layer" in detail for detail in RUN.isolation[1])


def test_the_lesson_folder_is_never_changed_and_tmp_is_private(tmp_path: Path) -> None:
    folder = course_folder(tmp_path)
    write, remove, scratch = run_in(
        folder,
        "try:\n    with open('nuevo.txt', 'w') as f:\n        f.write('n')\n"
        "    print(open('nuevo.txt').read())\n"
        "except OSError as exc:\n    print(type(exc).__name__, exc.strerror)\n",
        "import os\ntry:\n    os.remove('data.csv')\n    print(os.path.exists('data.csv'))\n"
        "except OSError as exc:\n    print(type(exc).__name__)\n",
        "import os, tempfile\n"
        "with tempfile.NamedTemporaryFile('w', delete=False) as f:\n    f.write('t')\n"
        "tmp = os.environ['TMPDIR']\n"
        "print(os.path.dirname(f.name) == tmp, os.getcwd() != tmp)\n",
    )
    assert any(
        detail.startswith("the lesson's folder as its working folder, read-only")
        for detail in RUN.isolation[1]
    )
    if layered():  # as in Jupyter, within the lesson; the files themselves stay as they are
        assert (write.stdout, remove.stdout) == ("n\n", "False\n")
    else:
        assert write.stdout in (
            "OSError Read-only file system\n",
            "PermissionError Permission denied\n",
        )
        assert remove.stdout in ("OSError\n", "PermissionError\n")
    assert scratch.stdout == "True True\n"
    assert (folder / "data.csv").read_text(encoding="utf-8") == "x,y\n1,2\n"
    assert not (folder / "nuevo.txt").exists()
    assert sorted(p.name for p in folder.iterdir()) == ["data.csv", "datos"]


def test_what_one_lesson_writes_beside_it_is_gone_for_the_next(tmp_path: Path) -> None:
    folder = course_folder(tmp_path)
    [first] = run_in(folder, "open('salida.txt', 'w').write('1')\nprint('ok')")
    [second] = run_in(folder, "import os\nprint(os.path.exists('salida.txt'))")
    if layered():
        assert first.stdout == "ok\n"
    assert second.stdout == "False\n"
    assert not (folder / "salida.txt").exists()


def test_a_lesson_reading_its_data_builds_with_the_right_output(tmp_path: Path) -> None:
    folder = course_folder(tmp_path)
    lesson, errors = lesson_from(
        "```{code-cell} python\nprint(open('data.csv').read().split()[1])\n```\n\n"
        "```{output}\n1,2\n```\n",
        folder,
    )
    assert errors == [] and lesson is not None
    outcomes = run_code_cells(lesson, RUN, None)
    assert [o.result.stdout for o in outcomes] == ["1,2\n"]
    assert check_code_cells(lesson, outcomes) == []
    course = small_course(lesson)
    tools = Tools(fake_math, RUN, None)
    results = [verify_lesson(course, e.lesson, tools, False) for e in course.entries if e.lesson]
    page = render_site(course, results)["prueba/index.html"].decode()
    assert "1,2" in page


def test_writefile_goes_to_the_private_work_folder_with_a_home_path(tmp_path: Path) -> None:
    folder = course_folder(tmp_path)
    written, read, refused = run_in(
        folder,
        "%%writefile ~/modulo.py\nVALOR = 7\n",
        "import os, sys\nsys.path.append(os.path.expanduser('~'))\nimport modulo\nmodulo.VALOR",
        "%%writefile aqui.py\nx = 1\n",
    )
    assert written.stdout == "Writing ~/modulo.py\n" and read.stdout == "7\n"
    if layered():
        assert refused.ok and refused.stdout == "Writing aqui.py\n"
    else:
        assert not refused.ok and "Read-only file system" in refused.stderr
    assert not (folder / "aqui.py").exists()


def test_a_module_beside_the_lesson_or_written_by_a_cell_imports_as_in_jupyter(
    tmp_path: Path,
) -> None:
    folder = course_folder(tmp_path)
    (folder / "helpers.py").write_text("ANSWER = 42\n", encoding="utf-8")
    beside, written, used = run_in(
        folder,
        "import helpers\nprint(helpers.ANSWER)\n",
        "%%file mathfoo.py\npi = 3.14\n",
        "import mathfoo\nprint(mathfoo.pi)\n",
    )
    assert beside.ok and beside.stdout == "42\n", beside.stderr
    assert written.ok, written.stderr
    assert used.ok and used.stdout == "3.14\n", used.stderr
    assert not (folder / "mathfoo.py").exists()  # written to the private layer only


def test_run_runs_a_python_file_as_ipython_does(tmp_path: Path) -> None:
    folder = course_folder(tmp_path)
    (folder / "script.py").write_text(
        "import sys\nprint(__name__, sys.argv[1:])\nresult = 6 * 7\n"
        "print(globals().get('seen', 'not seen'))\n",
        encoding="utf-8",
    )
    alone, inside = run_in(
        folder,
        "seen = 'mine'\n%run script.py a 'b c'\nprint(result)\n",
        "del result\n%run -i script.py\nprint(result)\n",
    )
    assert alone.ok, alone.stderr
    assert alone.stdout == "__main__ ['a', 'b c']\nnot seen\n42\n"  # its own namespace
    assert inside.ok and inside.stdout == "__main__ []\nmine\n42\n", inside.stderr
    [missing] = run_in(folder, "%run nothere.py\n")
    assert not missing.ok and "%run cannot read nothere.py" in missing.stderr
    [wrong] = run_in(folder, "%run -m json.tool\n")
    assert not wrong.ok and "%run takes a Python file" in wrong.stderr
