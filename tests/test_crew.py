"""A crew (lessons parsed and verified by the workers that hold them) makes the same site,
the same diagnostics and the same caches as one process, even when a worker dies."""

from __future__ import annotations

import base64
import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pizarra import BUNDLED
from pizarra.base.cache import Cache
from pizarra.check.kernel.execute import KernelRunner
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline import crew, outlines
from pizarra.pipeline import reading as course_module
from pizarra.pipeline.build import build, verify
from pizarra.pipeline.crew import share, start_crew
from pizarra.pipeline.outlines import outline
from pizarra.pipeline.parsed import ParseCache
from pizarra.pipeline.tools import Report, Tools
from pizarra.source.course import load_course
from tests.support import fake_math

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
COURSE = """title: Curso
lang: es
lessons:
  - number: 1
    file: uno.md
  - number: 2
    file: dos.md
  - number: 3
    title: Tres
    summary: Pronto.
    labels: [futuro]
  - number: 4
    file: cuatro.md
"""
FRONT = "---\ntitle: {title}\nlesson: {n}\nlang: es\nsummary: Lección {n}.\n---\n\n"
LESSONS = {
    "uno.md": (
        "Uno",
        1,
        "(potencias)=\n## Potencias\n\nSabemos que $2^{10}=1024$ y que $3^2=9$.\n\n"
        "```{figure} img/punto.png\n:name: fig-punto\n:alt: Un punto\n\nUn {index}`punto`.\n```\n\n"
        "Ver {numref}`fig-punto`, {doc}`uno`, {doc}`dos` y {ref}`raices`.\n",
    ),
    "dos.md": (
        "Dos",
        2,
        "(raices)=\n## Raíces\n\n$$\\sqrt{16}=4$$ (eq-raiz)\n\n"
        "Como en {ref}`potencias` y {eq}`eq-raiz`; después, {ref}`futuro`.\n\n"
        "```{code-cell} python\nprint(2**8)\n```\n\n```{output}\n256\n```\n",
    ),
    "cuatro.md": (
        "Cuatro",
        4,
        "## Cuatro\n\nVuelve a la {lesson}`1` ($4^2=16$).\n\n"
        "```{exercise}\n:label: ej-uno\n\n¿Cuánto es $2^3$?\n```\n",
    ),
}


def write_course(root: Path, broken: str = "") -> Path:
    (root / "img").mkdir(parents=True)
    (root / "img" / "punto.png").write_bytes(PNG)
    (root / "course.yaml").write_text(COURSE, encoding="utf-8")
    for name, (title, n, body) in LESSONS.items():
        text = FRONT.format(title=title, n=n) + body
        (root / name).write_text(text + (broken if name == "dos.md" else ""), encoding="utf-8")
    return root


def tools(store: Cache | None = None, jobs: int = 2) -> Tools:
    return Tools(MathCoreRenderer(), KernelRunner(), None, None, store, jobs=jobs)


def outcome(report: Report) -> tuple[dict[str, bytes], list[str], list[str]]:
    return report.files, [d.format() for d in report.diagnostics], report.rebuilt


def crewed(report: Report) -> bool:
    """True when the report's course holds outlines: in a first build, its lessons were
    parsed by a crew (a later build reads the lessons whose results are kept as outlines
    too)."""
    assert report.course is not None
    return all(lesson.math == () for lesson in report.course.lessons())


def test_a_crew_makes_the_same_site_as_one_process(tmp_path: Path) -> None:
    src = write_course(tmp_path / "c")
    alone = verify(src, tools(jobs=1), outlines=True)
    together = verify(src, tools(), outlines=True)
    assert crewed(together) and not crewed(alone)
    assert [d.format() for d in alone.diagnostics] == []
    assert outcome(together) == outcome(alone)
    assert together.inputs == alone.inputs
    assert together.claims == alone.claims


def test_a_crew_reports_the_same_errors_as_one_process(tmp_path: Path) -> None:
    broken = "\nMal: $2^{10}=1000$ y {ref}`nada`.\n\n```{nota}\nx\n```\n"
    src = write_course(tmp_path / "c", broken)
    alone = verify(src, tools(jobs=1), outlines=True)
    together = verify(src, tools(), outlines=True)
    assert crewed(together)
    errors = [d.format().split("\n")[0] for d in together.diagnostics]
    assert any("dos.md:23:6: error: claim is false" in e for e in errors), errors
    assert any("dos.md:25:1: error: unknown directive" in e for e in errors), errors
    assert outcome(together) == outcome(alone)


def test_the_golden_site_built_by_a_crew_matches_the_one_built_alone(tmp_path: Path) -> None:
    site = Path(__file__).parent / "fixtures" / "site" / "course"
    one = build(site, tmp_path / "one", Tools(fake_math, KernelRunner(), None, jobs=1))
    pair = Tools(fake_math, KernelRunner(), None, jobs=2)
    two = build(site, tmp_path / "two", pair, outlines=True)
    assert crewed(two) and outcome(two) == outcome(one)


def test_the_bundled_course_built_by_a_crew_is_the_same(tmp_path: Path) -> None:
    src = BUNDLED
    alone = build(src, tmp_path / "one", tools(jobs=1), outlines=True)
    together = build(src, tmp_path / "two", tools(), outlines=True)
    assert crewed(together) and outcome(together) == outcome(alone)
    assert not alone.failed()


def test_the_crew_keeps_its_parses_for_the_next_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = write_course(tmp_path / "c")
    store = Cache(tmp_path / "cache")
    first = verify(src, tools(store), outlines=True)
    store.flush()
    assert crewed(first)
    assert start_crew(src, tools(store), ParseCache(store)) is None  # parsed before
    started: list[object] = []
    real = crew.Crew
    monkeypatch.setattr(crew, "Crew", lambda *a, **k: started.append(a) or real(*a, **k))
    second = verify(src, tools(store), outlines=True)
    assert started == []
    assert second.rebuilt == [str(src / "dos.md")]  # its cell's output is kept once confirmed
    assert outcome(second)[:2] == outcome(first)[:2]


def test_no_crew_for_one_cpu_one_lesson_or_a_lesson_file(tmp_path: Path) -> None:
    src = write_course(tmp_path / "c")
    assert start_crew(src, tools(jobs=1), None) is None
    assert start_crew(src / "uno.md", tools(), None) is None
    single = tmp_path / "single"
    single.mkdir()
    (single / "course.yaml").write_text(COURSE.split("  - number: 2")[0], encoding="utf-8")
    shutil.copy(src / "uno.md", single / "uno.md")
    assert start_crew(single, tools(), None) is None


def dying(when: str, name: str) -> Callable[..., None]:
    """A crew worker that ends abruptly if it holds ``name``: at once ("parsing"), once it
    sent its outlines ("outlined"), or once asked to verify ("verifying")."""
    work = crew._work

    def run(connection, files, root, tools, parent):  # type: ignore[no-untyped-def]
        if not any(path.name == name for path in files):
            time.sleep(0.3)  # the death is seen while this worker's outlines are awaited
            return work(connection, files, root, tools, parent)
        if when == "parsing":
            os._exit(3)
        real_recv = connection.recv

        def recv() -> object:
            if when == "verifying":
                real_recv()
            os._exit(3)

        connection.recv = recv
        return work(connection, files, root, tools, parent)

    return run


@pytest.mark.parametrize("when", ["parsing", "outlined", "verifying"])
@pytest.mark.parametrize("name", ["uno.md", "dos.md"])
def test_lessons_of_a_worker_that_died_are_done_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str, name: str
) -> None:
    """Whether its death is seen before or after the course took its outlines."""
    src = write_course(tmp_path / "c")
    alone = verify(src, tools(jobs=1), outlines=True)
    monkeypatch.setattr(crew, "_work", dying(when, name))
    together = verify(src, tools(), outlines=True)
    assert outcome(together) == outcome(alone)


def test_a_lesson_file_the_course_does_not_take_is_drained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker parses every file the manifest names; one whose entry is rejected is
    never asked for, and its outline, larger than a pipe holds, must not block the
    worker that also holds a lesson of the course."""
    src = write_course(tmp_path / "c")
    for name in ("uno.md", "dos.md"):  # a course too large for a pipe, too
        with (src / name).open("a", encoding="utf-8") as lesson:
            lesson.write("\n" + "palabra " * 50_000 + "\n")
    big = FRONT.format(title="Grande", n=5) + "palabra " * 100_000 + "\n"
    (src / "grande.md").write_text(big, encoding="utf-8")
    manifest = (src / "course.yaml").read_text() + "  - file: grande.md\n"
    (src / "course.yaml").write_text(manifest, encoding="utf-8")
    pairs = [[src / "uno.md", src / "dos.md"], [src / "cuatro.md", src / "grande.md"]]
    monkeypatch.setattr(crew, "share", lambda files, workers: pairs)
    parse = course_module.parse_lesson_file

    def slow(path: Path, *args: object) -> object:
        if path.name == "grande.md":
            time.sleep(0.5)  # its outline comes once the course is sent
        return parse(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(course_module, "parse_lesson_file", slow)
    done: list[Report] = []
    run = threading.Thread(target=lambda: done.append(verify(src, tools(), outlines=True)))
    run.daemon = True  # a deadlocked crew must fail the test, not hang the suite
    run.start()
    run.join(60)
    [report] = done
    assert crewed(report)
    assert [d.message for d in report.diagnostics] == ["lesson entry 5 needs a `number`"]
    assert len(report.rebuilt) == 3


def test_an_outline_keeps_what_other_lessons_read(tmp_path: Path) -> None:
    src = write_course(tmp_path / "c")
    course, errors = load_course(src)
    assert course is not None and errors == []
    lesson = next(course.lessons())
    shown = outline(lesson)
    assert shown.math == () and [b.file for b in shown.blocks] == [i.file for i in lesson.images()]
    for name in ("title", "slug", "targets", "sections", "index", "source_text", "lesson_refs"):
        assert getattr(shown, name) == getattr(lesson, name), name
    assert outlines.filled(shown, lesson) == lesson


def test_workers_are_sent_the_course_without_the_lessons_text(tmp_path: Path) -> None:
    """A worker has the text of the lessons it parsed; the others' text is not sent."""
    src = write_course(tmp_path / "c")
    course, errors = load_course(src)
    assert course is not None and errors == []
    sent = outlines.textless(course)
    assert [lesson.source_text for lesson in sent.lessons()] == ["", "", ""]
    for lesson, shown in zip(course.lessons(), sent.lessons(), strict=True):
        assert lesson.source_text and outlines.filled(outline(shown), lesson) == lesson


def test_files_go_in_course_order_to_the_group_with_fewest_bytes(tmp_path: Path) -> None:
    sizes = {"a": 900, "b": 100, "c": 500, "d": 450, "e": 50, "f": 10, "g": 10}
    files = []
    for name, size in sizes.items():
        (tmp_path / name).write_text("x" * size)
        files.append(tmp_path / name)
    groups = share(files[:5], 2)
    assert [[p.name for p in g] for g in groups] == [["a", "e"], ["b", "c", "d"]]
    assert share(files[:1], 2) == [files[:1]]
    alike = share(files[5:] + files[5:], 2)  # lessons of one size alternate
    assert [[p.name for p in g] for g in alike] == [["f", "f"], ["g", "g"]]


def test_a_file_listed_twice_gives_the_errors_of_one_process(tmp_path: Path) -> None:
    src = write_course(tmp_path / "c")
    manifest = (src / "course.yaml").read_text() + "  - number: 5\n    file: uno.md\n"
    (src / "course.yaml").write_text(manifest, encoding="utf-8")
    alone = verify(src, tools(jobs=1), outlines=True)
    together = verify(src, tools(), outlines=True)
    assert any("share the URL slug" in d.message for d in alone.diagnostics)
    assert outcome(together) == outcome(alone)


@pytest.mark.parametrize("kept", [True, False])
def test_a_crew_build_parses_no_lesson_in_the_main_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: bool
) -> None:
    """The crew's workers hold the bodies and verify them; only a page rendered after
    the run (a server's) gets a lesson's body back here, by parsing its text again."""
    parses: list[Path] = []
    real = outlines.read_lesson_file

    def counted(path: Path, *args: object) -> object:
        parses.append(path)  # a forked worker counts into its own copy
        return real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(outlines, "read_lesson_file", counted)
    monkeypatch.setattr(course_module, "read_lesson_file", counted)
    src = write_course(tmp_path / "c")
    report = verify(src, tools(Cache(tmp_path / "cache") if kept else None), outlines=True)
    assert crewed(report) and parses == []
    assert report.whole is not None and report.course is not None
    first = next(report.course.lessons())
    assert report.whole(first).math != () and parses == [first.path]


def test_the_workers_leave_their_parses_in_the_database_file(tmp_path: Path) -> None:
    """Not in the write-ahead log, which the main process would otherwise copy over
    when it closes the cache, after the site is written."""
    from tests.test_cache import entries_in_file

    src = write_course(tmp_path / "c")
    store = Cache(tmp_path / "cache")
    assert crewed(verify(src, tools(store), outlines=True))
    kept = entries_in_file(tmp_path / "cache" / "parsed.sqlite3", tmp_path / "copy.sqlite3")
    assert len(kept) == 3
    store.close()


def test_a_crew_build_stages_each_lesson_as_it_comes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pizarra.site import write as site

    src = write_course(tmp_path / "c")
    soon: list[list[str]] = []
    real = site.StagedSite.write_soon

    def write_soon(self: site.StagedSite, files: dict[str, bytes]) -> None:
        soon.append(sorted(files))
        real(self, files)

    monkeypatch.setattr(site.StagedSite, "write_soon", write_soon)
    report = build(src, tmp_path / "out", tools(), outlines=True)
    assert crewed(report) and not report.failed()
    lessons = ["uno/index.html", "dos/index.html", "cuatro/index.html"]
    assert [page for pages in soon for page in pages if page in lessons] == lessons
    assert len(soon) == 3
    written = {str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*.html")}
    assert {page for pages in soon for page in pages} <= written


def test_a_site_frame_that_fails_fails_the_crew_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pizarra.pipeline.build

    def broken(course: object) -> None:
        raise RuntimeError("frame")

    monkeypatch.setattr(pizarra.pipeline.build, "site_frame", broken)
    src = write_course(tmp_path / "c")
    with pytest.raises(RuntimeError, match="frame"):
        build(src, tmp_path / "out", tools(), outlines=True)
    assert list(tmp_path.iterdir()) == [tmp_path / "c"]


def test_workers_pay_their_first_use_costs_while_the_course_is_assembled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pizarra.pipeline.lesson

    marks = tmp_path / "marks"
    marks.mkdir()

    def paying(lessons: object) -> None:
        (marks / str(os.getpid())).write_text(
            " ".join(sorted(ln.path.name for ln in lessons)),  # type: ignore[attr-defined]
            encoding="utf-8",
        )

    monkeypatch.setattr(pizarra.pipeline.lesson, "pay_first_use", paying)
    src = write_course(tmp_path / "c")
    assert crewed(verify(src, tools(), outlines=True))
    paid = [p.read_text(encoding="utf-8").split() for p in marks.iterdir()]
    assert paid, "a worker that waits for the course pays meanwhile"  # unless asked at once
    assert all(set(names) <= {"uno.md", "dos.md", "cuatro.md"} for names in paid)
