"""The wheel works alone: built with ``python -m build``, installed into a fresh venv.

This is what catches package-data mistakes (a template, the bundled course or the font
subsets left out of the wheel) and undeclared dependencies: the fresh venv holds only
what the wheel declares. Dependencies are installed with ``--no-index`` from a wheelhouse
(``$PIZARRA_WHEELHOUSE``, else one kept in pytest's cache), which ``pip wheel``
fills from the usual index the first time, or whenever a dependency changes.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SKIP = (
    *(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pizarra-cache"),
    "templates_code",  # a checkout's compiled templates: the wheel's build must make its own
)
LESSON = """---
title: One lesson
lesson: 1
lang: en
summary: A single lesson file.
---

Doubling $n$ quadruples $n^2$: $2^2=4$.
"""

pytestmark = pytest.mark.slow  # queued together, so that one worker makes the venv for all


def run(args: list[str | Path], cwd: Path, env: dict[str, str], timeout: int = 600) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def installed(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> tuple[Path, dict[str, str]]:
    """A fresh venv with nothing but the wheel of this checkout and its dependencies, made
    once a run: parallel workers share it (each with a cache of its own)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if "PYTEST_XDIST_WORKER" in os.environ else base  # one run's folder
    root = shared / "wheel"
    with open(shared / "wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second worker waits for the first one's venv
        if not (root / "ready").exists():
            shutil.rmtree(root, ignore_errors=True)  # what a failed attempt left
            _install(root, request)
            (root / "ready").touch()
    env = _clean_env()
    env["PIZARRA_CACHE_DIR"] = str(tmp_path_factory.mktemp("wheel-cache"))
    return root / "venv", env


def _clean_env() -> dict[str, str]:
    # PYTHONPATH would put a checkout's sources before the installed wheel
    skip = ("PIZARRA_", "VIRTUAL_ENV", "PYTHONPATH")
    return {k: v for k, v in os.environ.items() if not k.startswith(skip)}


def _install(root: Path, request: pytest.FixtureRequest) -> None:
    """Build the wheel from a copy of the checkout and install it into ``root/venv``."""
    root.mkdir()
    source = root / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*SKIP))
    env = _clean_env()
    env["PIZARRA_CACHE_DIR"] = str(root / "cache")
    dist = root / "dist"
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o", dist, source], root, env)
    [wheel] = dist.glob("pizarra-*.whl")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], root, env)
    cache = getattr(request.config, "cache", None)
    house = os.environ.get("PIZARRA_WHEELHOUSE") or (
        cache.mkdir("wheelhouse") if cache is not None else root / "wheelhouse"
    )
    requirements = root / "requirements.txt"
    pip = [sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q"]
    offline = [*pip, "--no-index", "--find-links", house, wheel]
    try:
        run(offline, root, env)
    except AssertionError:
        fill = [sys.executable, "-m", "pip", "wheel", "-q", "-w", house, "-r", requirements]
        (root / "requirements.txt").write_text(_requirements(wheel), encoding="utf-8")
        run(fill, root, env)
        run(offline, root, env)


def _requirements(wheel: Path) -> str:
    """The wheel's declared dependencies, one requirement a line."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(name).decode()
    wanted = [
        line.removeprefix("Requires-Dist:").strip()
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    ]
    return "\n".join(wanted) + "\n"


def test_the_wheel_carries_the_package_data(installed: tuple[Path, dict[str, str]]) -> None:
    [wheel] = (installed[0].parent / "dist").glob("pizarra-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "pizarra/render/templates/lesson.html",
        "pizarra/render/static/pizarra.css",
        "pizarra/source/bundled/math-for-ai/course.yaml",
        "pizarra/render/fonts/math.woff2",
        "pizarra/render/fonts/math-extra.woff2",
        "pizarra/render/fonts/keys.json",
        "pizarra/render/explorers/growth.html",
    ):
        assert needed in names
    package = REPO / "src" / "pizarra" / "render"
    templates = [*package.glob("templates/*.html"), *package.glob("explorers/*.html")]
    compiled = [n for n in names if n.startswith("pizarra/render/templates_code/")]
    assert len(compiled) == len(templates)


SHIPPED = """
from pizarra.render.templating import growth_environment, page_environment
for env in (page_environment(), growth_environment()):
    loader, code = env.loader, env.bytecode_cache
    for name in env.list_templates(extensions=["html"]):
        source, filename, _ = loader.get_source(env, name)
        assert code.get_bucket(env, name, filename, source).code is not None, name
print("shipped")
"""


def test_the_installed_templates_come_compiled(installed: tuple[Path, dict[str, str]]) -> None:
    """Compiled by the wheel's build, and found where pip put them: a build compiles none."""
    venv, env = installed
    assert "shipped" in run([venv / "bin" / "python", "-c", SHIPPED], venv, env)


def test_a_fresh_venv_builds_the_bundled_course_and_one_lesson(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    venv, env = installed
    pizarra = venv / "bin" / "pizarra"
    out = run([pizarra, "build", "--example", "-o", tmp_path / "site"], tmp_path, env)
    assert "pizarra build: wrote" in out
    pages = sorted((tmp_path / "site").glob("*/index.html"))
    assert (tmp_path / "site" / "indice" / "index.html") in pages  # the course's index
    lesson = next(page for page in pages if page.parent.name not in ("indice", "en"))
    assert "<math" in lesson.read_text(encoding="utf-8")
    assert (tmp_path / "site" / "assets" / "math.woff2").stat().st_size > 50_000
    assert not list(Path(env["PIZARRA_CACHE_DIR"]).glob("fonts.sqlite3")), "subset at run time"
    (tmp_path / "one.md").write_text(LESSON, encoding="utf-8")
    run([pizarra, "check", tmp_path / "one.md"], tmp_path, env)
    run([pizarra, "build", tmp_path / "one.md", "-o", tmp_path / "one"], tmp_path, env)
    assert "<math" in (tmp_path / "one" / "one" / "index.html").read_text(encoding="utf-8")


def test_the_newcomers_path_works_from_the_wheel_alone(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """``pizarra init``, then ``pizarra build`` with no SRC inside the new course; an edit
    is checked at once; ``--version`` names the installed version."""
    venv, env = installed
    pizarra = venv / "bin" / "pizarra"
    assert run([pizarra, "--version"], tmp_path, env).startswith("pizarra 0.")
    run([pizarra, "init", "course"], tmp_path, env)
    course = tmp_path / "course"
    out = run([pizarra, "build"], course, env)
    assert "0 error(s), 0 warning(s)" in out and (course / "_site" / "doubling").is_dir()
    lesson = course / "lessons" / "01-doubling.md"
    lesson.write_text(lesson.read_text("utf-8").replace("2^3 = 2 \\times", "2^3 = 3 \\times"))
    failed = subprocess.run(
        [pizarra, "check"], cwd=course, env=env, capture_output=True, text=True, check=False
    )
    assert failed.returncode == 1 and "claim is false" in failed.stderr, failed.stderr
