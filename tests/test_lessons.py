"""Incremental and parallel lesson work: unchanged lessons come from the cache, and
worker processes give the same site as one process."""

from __future__ import annotations

from pathlib import Path

import pytest

from pizarra.base.cache import Cache
from pizarra.check.html_scan import PageScan, scan_page
from pizarra.check.kernel.execute import KernelRunner
from pizarra.check.links import PageScans
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline.build import verify
from pizarra.pipeline.lesson import LessonResult
from pizarra.pipeline.lessons import verify_lessons
from pizarra.pipeline.tools import Tools
from pizarra.source.course import load_course

COURSE = "title: Curso\nlang: es\nlessons:\n" + "".join(
    f"  - number: {n}\n    file: l{n}.md\n" for n in (1, 2, 3)
)
LESSON = """---
title: Lección {n}
lesson: {n}
lang: es
summary: Resumen {n}.
---

Sabemos que $2^{n}={value}$ y que $a^m a^n=a^{{m+n}}$.

## Sección

Véase la {{lesson}}`{other}`.
"""


def write_course(root: Path) -> Path:
    root.mkdir()
    (root / "course.yaml").write_text(COURSE, encoding="utf-8")
    for n in (1, 2, 3):
        text = LESSON.format(n=n, value=2**n, other=n % 3 + 1)
        (root / f"l{n}.md").write_text(text, encoding="utf-8")
    return root


class CountingMath:
    def __init__(self) -> None:
        self.calls = 0
        self.real = MathCoreRenderer()

    def __call__(self, tex: str, display: bool) -> str:
        self.calls += 1
        return self.real(tex, display)


def tools_with(store: Cache, math: CountingMath) -> Tools:
    return Tools(math, KernelRunner(), None, None, store, jobs=1)


def test_unchanged_lessons_are_neither_verified_nor_rendered(tmp_path: Path) -> None:
    src = write_course(tmp_path / "c")
    store = Cache(tmp_path / "cache")
    math = CountingMath()
    first = verify(src, tools_with(store, math))
    assert [d.format() for d in first.diagnostics] == []
    assert math.calls > 0
    course, _ = load_course(src)
    assert course is not None
    math.calls = 0
    again = verify_lessons(course, tools_with(store, math), jobs=1)
    assert math.calls == 0
    assert all(r.cached for r in again)
    second = verify(src, tools_with(store, math))
    assert second.files == first.files

    lesson_two = src / "l2.md"
    lesson_two.write_text(lesson_two.read_text().replace("Sabemos", "Sabemos bien"))
    course, _ = load_course(src)
    assert course is not None
    edited = verify_lessons(course, tools_with(store, math), jobs=1)
    assert [r.cached for r in edited] == [True, False, True]

    manifest = src / "course.yaml"
    manifest.write_text(manifest.read_text().replace("Curso", "Otro curso"))
    course, _ = load_course(src)
    assert course is not None
    retitled = verify_lessons(course, tools_with(store, math), jobs=1)
    assert not any(r.cached for r in retitled), "the manifest is part of every key"


def test_a_line_added_above_a_heading_leaves_the_other_lessons_kept(tmp_path: Path) -> None:
    """The other lessons see a heading's title and anchor, not its line."""
    src = write_course(tmp_path / "c")
    store = Cache(tmp_path / "cache")
    assert not verify(src, tools_with(store, CountingMath())).failed()
    lesson_two = src / "l2.md"
    text = lesson_two.read_text(encoding="utf-8")
    lesson_two.write_text(text.replace("## Sección", "Una línea.\n\n## Sección"), "utf-8")
    course, _ = load_course(src)
    assert course is not None
    edited = verify_lessons(course, tools_with(store, CountingMath()), jobs=1)
    assert [r.cached for r in edited] == [True, False, True]
    lesson_two.write_text(text.replace("## Sección", "## Otra sección"), "utf-8")
    course, _ = load_course(src)
    assert course is not None
    retitled = verify_lessons(course, tools_with(store, CountingMath()), jobs=1)
    assert not any(r.cached for r in retitled), "a heading's title is part of every key"


def test_a_failing_lesson_is_reported_again_from_the_cache(tmp_path: Path) -> None:
    src = write_course(tmp_path / "c")
    broken = src / "l3.md"
    broken.write_text(broken.read_text().replace("=8", "=9"))
    store = Cache(tmp_path / "cache")
    first = verify(src, tools_with(store, CountingMath()))
    second = verify(src, tools_with(store, CountingMath()))
    assert first.failed() and second.failed()
    assert [d.format() for d in second.diagnostics] == [d.format() for d in first.diagnostics]


def test_worker_processes_build_the_same_site(tmp_path: Path) -> None:
    src = write_course(tmp_path / "c")
    course, _ = load_course(src)
    assert course is not None
    serial = verify_lessons(course, Tools(MathCoreRenderer(), KernelRunner(), None), jobs=1)
    pooled = verify_lessons(course, Tools(MathCoreRenderer(), KernelRunner(), None), jobs=3)
    assert [r.pages for r in pooled] == [r.pages for r in serial]
    assert [r.diagnostics for r in pooled] == [r.diagnostics for r in serial]
    assert all(r.pages for r in pooled)


def _read_by_lesson(result: LessonResult) -> dict[str, PageScan]:
    return {p: scan_page(d) for p, d in result.pages.items() if p.endswith(".html")}


def test_each_lesson_reads_the_links_of_its_own_pages(tmp_path: Path) -> None:
    src = write_course(tmp_path / "c")
    course, _ = load_course(src)
    assert course is not None
    store = Cache(tmp_path / "cache")
    pooled = verify_lessons(course, tools_with(store, CountingMath()), jobs=3)
    assert all(len(r.scans) == 2 for r in pooled), "the lesson page and its report"
    assert [r.scans for r in pooled] == [_read_by_lesson(r) for r in pooled]
    serial = verify_lessons(course, Tools(MathCoreRenderer(), KernelRunner(), None), jobs=1)
    assert [r.scans for r in serial] == [r.scans for r in pooled]
    cached = verify_lessons(course, tools_with(store, CountingMath()), jobs=1)
    assert all(r.cached for r in cached)
    assert [r.scans for r in cached] == [r.scans for r in pooled]


def test_link_checking_reads_no_lesson_page_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[bytes] = []
    scan = PageScans.scan

    def spy(self: PageScans, data: bytes) -> PageScan:
        read.append(data)
        return scan(self, data)

    monkeypatch.setattr(PageScans, "scan", spy)
    src = write_course(tmp_path / "c")
    report = verify(src, tools_with(Cache(tmp_path / "cache"), CountingMath()), search=False)
    assert [d.format() for d in report.diagnostics] == []
    lesson_pages = {p for p in report.files if p.startswith("l") and p.endswith(".html")}
    assert len(lesson_pages) == 6
    assert sorted(p for p, d in report.files.items() if d in read) == ["404.html", "index.html"]


@pytest.mark.parametrize("jobs", [1, 3])
def test_results_are_told_in_course_order_as_they_come(tmp_path: Path, jobs: int) -> None:
    src = write_course(tmp_path / "c")
    store = Cache(tmp_path / "cache")
    verify(src, tools_with(store, CountingMath()))
    lesson_two = src / "l2.md"
    lesson_two.write_text(lesson_two.read_text().replace("Sabemos", "Sabemos bien"))
    course, _ = load_course(src)
    assert course is not None
    told: list[tuple[str, bool]] = []
    results = verify_lessons(
        course,
        Tools(MathCoreRenderer(), KernelRunner(), None, None, store),
        jobs=jobs,
        on_result=lambda lesson, result: told.append((lesson.path.name, result.cached)),
    )
    assert told == [("l1.md", True), ("l2.md", False), ("l3.md", True)]
    assert [r.cached for r in results] == [cached for _, cached in told]


def test_a_build_indexes_pages_as_they_are_rendered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pizarra.site.search as search

    given: list[str] = []
    add = search.IndexFeed.add

    def spy(feed: search.IndexFeed, path: str, page: bytes, indexed: bytes | None) -> None:
        given.append(path)
        add(feed, path, page, indexed)

    monkeypatch.setattr(search.IndexFeed, "add", spy)
    src = write_course(tmp_path / "c")
    report = verify(src, Tools(MathCoreRenderer(), KernelRunner(), None, jobs=1))
    assert [d.format() for d in report.diagnostics] == []
    assert given == ["l1/index.html", "l2/index.html", "l3/index.html"]
    assert "pagefind/pagefind-entry.json" in report.files


def test_a_worker_ends_when_pizarra_is_killed() -> None:
    import os
    import signal
    import time

    from pizarra.pipeline.workers import end_with_parent

    read, write = os.pipe()
    parent = os.fork()
    if parent == 0:  # stands for pizarra: starts a worker, then is killed
        pizarra = os.getpid()
        worker = os.fork()
        if worker == 0:
            end_with_parent(pizarra)
            time.sleep(60)
            os._exit(0)
        os.write(write, str(worker).encode())
        os.kill(os.getpid(), signal.SIGKILL)
    os.close(write)
    worker = int(os.read(read, 32))
    os.close(read)
    os.waitpid(parent, 0)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{worker}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.02)
    os.kill(worker, signal.SIGKILL)
    raise AssertionError("the worker outlived pizarra")


def test_a_lesson_converts_each_formula_once_for_its_check_and_its_page(tmp_path: Path) -> None:
    from pizarra.pipeline.lesson import verify_lesson
    from tests.support import fake_math

    src = write_course(tmp_path / "c")
    course, errors = load_course(src)
    assert course is not None and not errors
    lesson = next(iter(course.lessons()))
    calls: list[str] = []

    def counting(tex: str, display: bool) -> str:
        calls.append(tex)
        return fake_math(tex, display)

    result = verify_lesson(course, lesson, Tools(counting, KernelRunner(), None), False)
    assert not result.diagnostics
    # the report page typesets each statement too, once per distinct statement
    statements = {record.claim for record in result.ledger.claims}
    assert statements
    assert sorted(calls) == sorted({item.tex for item in lesson.math} | statements)


def test_first_use_costs_are_paid_ahead_and_never_raise(tmp_path: Path) -> None:
    from pizarra.base.i18n.numbers import _rules
    from pizarra.pipeline.lesson import pay_first_use
    from pizarra.render.highlight import _lexer
    from pizarra.source.lower import parse_lesson

    lesson_file = tmp_path / "l.md"
    lesson_file.write_text(
        "---\ntitle: T\nlesson: 1\nlang: es\nsummary: S.\n---\n\n"
        "```{code-cell} python\nprint(1)\n```\n\n```bash\nls\n```\n\n```\nsin lenguaje\n```\n",
        encoding="utf-8",
    )
    lesson, errors = parse_lesson(lesson_file, "l.md")
    assert lesson is not None and not errors
    _lexer.cache_clear()
    _rules.cache_clear()
    pay_first_use([lesson])
    assert _lexer.cache_info().currsize == 2, "python and bash; a fence without language has none"
    assert _rules.cache_info().currsize == 1
    pay_first_use([object()])  # type: ignore[list-item]


def test_memory_keeps_two_results_of_a_lesson_saved_again_and_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pizarra.pipeline import lessons

    kept = lessons.Recent(lessons.MEMORY, per_group=lessons.VERSIONS)
    monkeypatch.setattr(lessons, "_MEMORY", kept)
    src = write_course(tmp_path / "c")
    tools = tools_with(Cache(tmp_path / "cache"), CountingMath())
    lesson = src / "l1.md"
    text = lesson.read_text(encoding="utf-8")
    for n in range(5):
        lesson.write_text(text + f"\nLínea {n}.\n", encoding="utf-8")
        assert not verify(src, tools).failed()
    assert len(kept) == 2 + lessons.VERSIONS  # the two lessons left alone, and this one
