"""Warm builds: nothing changed does nothing, an edit redoes only its lesson, and every
guarantee of a full build (links, failed builds, removed pages) still holds."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pizarra.base.cache import Cache
from pizarra.check.kernel.execute import KernelRunner
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline import fingerprint
from pizarra.pipeline.manifest import Summary
from pizarra.pipeline.skip import build_or_skip
from pizarra.pipeline.tools import Report, Tools

from .test_lessons import write_course


def aged(*paths: Path) -> None:
    """Date files a minute back, as if edited well before the build (a file changed
    within the build's first second is always re-read, never trusted by its stat)."""
    past = time.time_ns() - 60 * 10**9
    for path in paths:
        os.utime(path, ns=(past, past))


def course(root: Path) -> Path:
    src = write_course(root)
    aged(*src.iterdir())
    return src


class Counted:
    """Makes the tools of a build and counts the builds that needed them."""

    def __init__(self, store: Cache) -> None:
        self.store = store
        self.calls = 0
        self.rebuilds = 0
        """Builds told they rebuild a course built before (their kernels start late)."""

    def __call__(self, rebuild: bool = False) -> Tools:
        self.calls += 1
        self.rebuilds += rebuild
        return Tools(MathCoreRenderer(), KernelRunner(), None, None, self.store, jobs=1)


def run(src: Path, out: Path, tools: Counted) -> Report | Summary:
    done = build_or_skip(src, out, tools, tools.store)
    tools.store.flush()
    return done


def built(done: Report | Summary) -> Report:
    assert isinstance(done, Report), "expected a build, the manifest skipped it"
    assert [d.format() for d in done.diagnostics] == []
    return done


def stats(out: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(out)): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in out.rglob("*")
        if p.is_file()
    }


@pytest.fixture
def tools(tmp_path: Path) -> Iterator[Counted]:
    with Cache(tmp_path / "cache") as store:
        yield Counted(store)


def test_an_unchanged_build_rewrites_nothing(tmp_path: Path, tools: Counted) -> None:
    src, out = course(tmp_path / "c"), tmp_path / "site"
    first = built(run(src, out, tools))
    before = stats(out)
    again = run(src, out, tools)
    assert isinstance(again, Summary)
    assert tools.calls == 1, "the skip made no tools"
    assert stats(out) == before
    assert again.files == len(first.files) and again.lessons == 3
    (src / "l2.md").touch()  # a new stat, the same bytes: still nothing to do
    assert isinstance(run(src, out, tools), Summary)


def test_a_build_after_an_edit_is_told_it_rebuilds(tmp_path: Path, tools: Counted) -> None:
    src, out = course(tmp_path / "c"), tmp_path / "site"
    built(run(src, out, tools))
    assert tools.rebuilds == 0, "the first build of the course into out"
    lesson = src / "l2.md"
    lesson.write_text(lesson.read_text(encoding="utf-8") + "\nOtra línea.\n", encoding="utf-8")
    built(run(src, out, tools))
    assert (tools.calls, tools.rebuilds) == (2, 1)


def test_an_unchanged_build_imports_no_pipeline(tmp_path: Path) -> None:
    src, out = course(tmp_path / "c"), tmp_path / "site"
    env = dict(os.environ, PIZARRA_CACHE_DIR=str(tmp_path / "cache"))
    command = [sys.executable, "-m", "pizarra", "build", str(src), "-o", str(out)]
    subprocess.run(command, env=env, check=True, capture_output=True)
    probe = (
        "import sys\nfrom pizarra.cli import main\n"
        f"assert main(['build', {str(src)!r}, '-o', {str(out)!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('markdown_it', 'jinja2', 'sympy', 'pagefind', 'math_core')"
        " or m in ('pizarra.pipeline.build', 'pizarra.site.write')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True
    )
    assert "nothing changed" in done.stderr
    assert done.stdout.strip() == "[]"


def test_an_edit_rebuilds_only_its_lesson(tmp_path: Path, tools: Counted) -> None:
    src, out = course(tmp_path / "c"), tmp_path / "site"
    first = built(run(src, out, tools))
    assert len(first.rebuilt) == 3
    edited = src / "l2.md"
    edited.write_text(edited.read_text().replace("Sabemos", "Sabemos bien"))
    second = built(run(src, out, tools))
    assert second.rebuilt == [str(edited)]
    assert (out / "l2" / "index.html").read_text().count("Sabemos bien") == 1
    for page in ("l1/index.html", "l3/index.html"):
        assert second.files[page] == first.files[page]


def test_a_template_change_rebuilds_every_lesson(
    tmp_path: Path, tools: Counted, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "package"
    ignore = shutil.ignore_patterns("bundled", "__pycache__")
    shutil.copytree(fingerprint.PACKAGE, copy, ignore=ignore)
    monkeypatch.setattr(fingerprint, "PACKAGE", copy)
    fingerprint.code_fingerprint.cache_clear()
    try:
        src, out = course(tmp_path / "c"), tmp_path / "site"
        built(run(src, out, tools))
        assert isinstance(run(src, out, tools), Summary)
        template = next((copy / "render" / "templates").glob("*.html"))
        template.write_text(template.read_text() + "\n")
        fingerprint.code_fingerprint.cache_clear()  # what a new process does
        again = built(run(src, out, tools))
        assert len(again.rebuilt) == 3
    finally:
        monkeypatch.undo()
        fingerprint.code_fingerprint.cache_clear()


def test_the_fingerprint_is_made_on_a_thread_and_a_fork_inherits_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A build hashes pizarra's files once, beside its imports; its workers do not."""
    monkeypatch.setattr(fingerprint, "_soon", [])
    fingerprint.code_fingerprint.cache_clear()
    try:
        fingerprint.fingerprint_soon()
        assert [thread.name for thread in fingerprint._soon] == ["fingerprint"]
        read, write = os.pipe()
        child = os.fork()  # the fork waits for the thread (an at-fork hook)
        if child == 0:
            os.write(write, str(fingerprint.code_fingerprint.cache_info().currsize).encode())
            os._exit(0)
        os.waitpid(child, 0)
        assert os.read(read, 8) == b"1", "the child found the fingerprint made"
        assert fingerprint.code_fingerprint.cache_info().misses == 1
        os.close(read)
        os.close(write)
    finally:
        fingerprint.code_fingerprint.cache_clear()


def test_a_broken_link_is_caught_on_a_warm_build(tmp_path: Path, tools: Counted) -> None:
    src, out = course(tmp_path / "c"), tmp_path / "site"
    built(run(src, out, tools))
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    edited = src / "l2.md"
    edited.write_text(edited.read_text() + "\nVéase [otra](../no-existe/).\n")
    for _ in range(2):  # a failed build leaves no manifest behind it
        failed = run(src, out, tools)
        assert isinstance(failed, Report) and failed.failed()
        messages = [d.format() for d in failed.diagnostics]
        assert len(messages) == 1
        assert "l2.md:14:14: error: broken link in l2/index.html: ../no-existe/" in messages[0]
        assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_deleting_a_lesson_removes_its_page(tmp_path: Path, tools: Counted) -> None:
    src, out = course(tmp_path / "c"), tmp_path / "site"
    built(run(src, out, tools))
    assert (out / "l3" / "index.html").is_file()
    manifest_file = src / "course.yaml"
    text = manifest_file.read_text()
    manifest_file.write_text(
        text.replace("file: l3.md", "title: Pronto\n    summary: Más adelante.")
    )
    (src / "l3.md").unlink()
    again = built(run(src, out, tools))
    assert again.rebuilt == [str(src / "l1.md"), str(src / "l2.md")]  # course.yaml changed
    assert not (out / "l3").exists()
    assert (out / "l1" / "index.html").is_file()


def test_a_changed_output_folder_is_rebuilt(tmp_path: Path, tools: Counted) -> None:
    src, out = course(tmp_path / "c"), tmp_path / "site"
    built(run(src, out, tools))
    (out / "index.html").unlink()
    again = built(run(src, out, tools))
    assert again.rebuilt == []
    assert (out / "index.html").is_file()


def test_a_server_rebuild_takes_unchanged_lessons_from_memory(tmp_path: Path) -> None:
    from pizarra.pipeline.build import verify

    src = course(tmp_path / "c")
    with Cache(tmp_path / "one") as one, Cache(tmp_path / "two") as two:
        first = verify(src, Counted(one)(), search=False)
        assert len(first.rebuilt) == 3 and "pagefind/pagefind-entry.json" not in first.files
        edited = src / "l3.md"
        edited.write_text(edited.read_text().replace("Sabemos", "Ya sabemos"))
        again = verify(src, Counted(two)(), search=False)  # an empty store: memory answers
        assert again.rebuilt == [str(edited)]
        assert again.files["l1/index.html"] == first.files["l1/index.html"]


def test_a_link_broken_by_another_lesson_is_caught(tmp_path: Path, tools: Counted) -> None:
    src = course(tmp_path / "c")
    first = src / "l1.md"
    first.write_text(first.read_text() + "\nVéase [la sección](../l2/#seccion).\n")
    aged(first)
    out = tmp_path / "site"
    built(run(src, out, tools))
    second = src / "l2.md"
    second.write_text(second.read_text().replace("## Sección", "## Otra parte"))
    failed = run(src, out, tools)
    assert isinstance(failed, Report) and failed.failed()
    messages = [d.message for d in failed.diagnostics]
    assert messages == [
        "broken link in l1/index.html: ../l2/#seccion (no element with id 'seccion' in "
        "l2/index.html)"
    ]


def test_a_cached_lesson_s_link_broken_by_another_lesson_is_caught(
    tmp_path: Path, tools: Counted
) -> None:
    src = course(tmp_path / "c")
    first, second = src / "l1.md", src / "l2.md"
    first.write_text(first.read_text() + "\nVéase [el ejercicio](../l2/#pregunta-1).\n")
    second.write_text(second.read_text() + "\n::::{exercise}\n¿Cuánto es $2^2$?\n::::\n")
    aged(first, second)
    out = tmp_path / "site"
    built(run(src, out, tools))
    second.write_text(second.read_text().replace("::::{exercise}", "::::{note}"))
    for _ in range(2):  # the second time, every lesson comes from the cache
        failed = run(src, out, tools)
        assert isinstance(failed, Report) and failed.failed()
        assert str(first) not in failed.rebuilt
        assert [d.format().split("\n")[0] for d in failed.diagnostics] == [
            f"{first}:14:22: error: broken link in l1/index.html: ../l2/#pregunta-1 "
            "(no element with id 'pregunta-1' in l2/index.html)"
        ]


def test_a_changed_bibtex_file_rebuilds_the_lesson_citing_it(
    tmp_path: Path, tools: Counted
) -> None:
    src = course(tmp_path / "c")
    bib = src / "refs.bib"
    bib.write_text("@book{knuth, author = {Knuth, Donald}, title = {{Primero}}, year = {1968}}\n")
    lesson = src / "l1.md"
    text = lesson.read_text().replace("summary:", "bibliography: refs.bib\nsummary:")
    lesson.write_text(text + "\nComo dice {cite}`knuth`.\n")
    aged(bib, lesson)
    out = tmp_path / "site"
    assert "Primero" in built(run(src, out, tools)).files["l1/index.html"].decode()
    assert isinstance(run(src, out, tools), Summary)
    bib.write_text(bib.read_text().replace("Primero", "Segundo"))
    again = built(run(src, out, tools))
    assert again.rebuilt == [str(lesson)]
    assert "Segundo" in (out / "l1" / "index.html").read_text()
