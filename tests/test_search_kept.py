"""What Pagefind reads of a lesson page is made with the page and kept with the lesson's
result: a build whose lessons come from the cache hands it over without reading the
pages again, and the index is the one the pages themselves make."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import pizarra.site.search
from pizarra.base.cache import Cache
from pizarra.check.kernel.execute import KernelRunner
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline.build import verify
from pizarra.pipeline.indexing import index_site
from pizarra.pipeline.lesson import LessonResult
from pizarra.pipeline.tools import Report, Tools
from pizarra.render.pages import lesson_path
from pizarra.site.search import FOLDER, search_index, start_search_index
from pizarra.site.searchable import packed, searchable, unpacked
from pizarra.source.model import Lesson
from tests.support import FIXTURES


def _tools(store: Cache) -> Tools:
    return Tools(MathCoreRenderer(), KernelRunner(), None, None, store, jobs=1)


def _index(files: dict[str, bytes]) -> dict[str, object]:
    """The index's files; its entry file parsed (it lists languages in any order)."""
    found: dict[str, object] = {k: v for k, v in files.items() if k.startswith(f"{FOLDER}/")}
    entry = f"{FOLDER}/pagefind-entry.json"
    found[entry] = json.loads(files[entry])
    return found


def _read_again(page: str) -> str:
    raise AssertionError("a lesson page was read again for the index")


def _course(tmp_path: Path) -> Path:
    src = tmp_path / "course"
    shutil.copytree(FIXTURES / "site" / "course", src)
    return src


def test_a_lesson_result_keeps_what_pagefind_reads_of_its_page(tmp_path: Path) -> None:
    results: list[tuple[Lesson, LessonResult]] = []
    report = verify(
        _course(tmp_path),
        _tools(Cache(tmp_path / "cache")),
        on_lesson=lambda lesson, result: results.append((lesson, result)),
    )
    assert not report.failed() and len(results) >= 2
    for lesson, result in results:
        assert result.indexed is not None
        page = result.pages[lesson_path(lesson)]
        assert unpacked(result.indexed) == searchable(page.decode())


def test_a_rebuild_hands_pagefind_the_kept_texts_and_makes_the_same_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = _course(tmp_path)
    store = Cache(tmp_path / "cache")
    assert not verify(src, _tools(store)).failed()
    edited = sorted((src / "lessons").glob("*.md"))[-1]  # the others come from the cache
    edited.write_text(edited.read_text(encoding="utf-8") + "\nUna línea más.\n", "utf-8")

    monkeypatch.setattr(pizarra.site.search, "searchable", _read_again)
    report: Report = verify(src, _tools(store))
    assert not report.failed(), [d.format() for d in report.diagnostics]
    monkeypatch.undo()
    assert report.course is not None
    pages = [lesson_path(lesson) for lesson in report.course.lessons()]
    assert _index(report.files) == _index(search_index(report.files, pages))


def test_a_bug_preparing_a_page_for_search_is_an_error_at_its_lesson(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pizarra.pipeline.lesson

    def broken(page: bytes) -> bytes:
        raise ValueError("broken on purpose")

    monkeypatch.setattr(pizarra.pipeline.lesson, "packed", broken)
    report = verify(_course(tmp_path), _tools(Cache(tmp_path / "cache")))
    found = [d.format() for d in report.diagnostics if "preparing its page for search" in d.message]
    assert report.failed() and len(found) == 2, found
    assert all(":1:1: " in line for line in found)


def test_an_index_made_after_the_build_reads_no_page_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve`` builds without the index and makes it after the reload, from the texts
    the build's lessons kept."""
    report = verify(_course(tmp_path), _tools(Cache(tmp_path / "cache")), search=False)
    assert not report.failed() and report.course is not None
    pages = [lesson_path(lesson) for lesson in report.course.lessons()]
    assert set(report.search_texts) == set(pages)
    files = dict(report.files)
    monkeypatch.setattr(pizarra.site.search, "searchable", _read_again)
    assert index_site(report.course, files, None, texts=report.search_texts) == []
    monkeypatch.undo()
    assert _index(files) == _index(search_index(report.files, pages))


def test_a_text_kept_for_other_bytes_is_not_used() -> None:
    page = b'<html lang="es"><body><main data-pagefind-body><h1>Nueva</h1></main></body></html>'
    old = page.replace(b"Nueva", b"Vieja")
    index = start_search_index(
        {"a/index.html": page},
        ["a/index.html"],
        None,
        None,
        False,
        {"a/index.html": (old, packed(old))},
    )()
    assert _index(index) == _index(search_index({"a/index.html": page}, ["a/index.html"]))


def test_a_server_makes_its_index_without_reading_its_pages_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from starlette.testclient import TestClient

    from pizarra.serve.app import create_app

    monkeypatch.setattr(pizarra.site.search, "searchable", _read_again)
    app = create_app(_course(tmp_path), _tools(Cache(tmp_path / "cache")), watch=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        entry = client.get("/pagefind/pagefind-entry.json")  # waits for the index
    assert entry.status_code == 200
