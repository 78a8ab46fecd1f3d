"""A page found clean is not resolved again while it and what it links to are unchanged,
and is resolved again the moment any of that changes."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from pizarra.base.cache import Cache
from pizarra.check import links
from pizarra.check.html_scan import PageScan
from pizarra.check.links import check_links

LESSON = "lesson/index.html"
TARGET = "other/index.html"


def _scan(ids: set[str], *hrefs: str) -> PageScan:
    return PageScan(frozenset(ids), (), tuple((href, n + 1) for n, href in enumerate(hrefs)))


def _site(target: PageScan, *, with_target: bool = True) -> tuple[dict[str, bytes], dict]:
    lesson = _LESSON_SCAN
    files = {LESSON: b"lesson", "assets/site.css": b"css"}
    ready = {LESSON: lesson}
    if with_target:
        files[TARGET] = b"other"
        ready[TARGET] = target
    return files, ready


_LESSON_SCAN = _scan({"top"}, "#top", "../other/#part", "../assets/site.css", "https://x.org/")
_TARGET_SCAN = _scan({"part"})


@pytest.fixture
def resolved(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages whose links were resolved, call by call."""
    monkeypatch.setattr(links, "_CLEAN", links.Recent(links.CLEAN))
    pages: list[str] = []
    real = links._problems

    def counted(page: str, *args: object) -> list:
        pages.append(page)
        return real(page, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(links, "_problems", counted)
    return pages


def _messages(files: dict[str, bytes], ready: dict) -> list[str]:
    return [d.message for d in check_links(files, {}, ready=ready)]


def test_an_unchanged_clean_page_is_not_resolved_again(resolved: list[str]) -> None:
    assert _messages(*_site(_TARGET_SCAN)) == []
    assert sorted(resolved) == [LESSON, TARGET]
    resolved.clear()
    assert _messages(*_site(_TARGET_SCAN)) == []
    assert resolved == []


def test_a_target_that_lost_the_id_brings_the_page_back(resolved: list[str]) -> None:
    assert _messages(*_site(_TARGET_SCAN)) == []
    assert _messages(*_site(_scan({"elsewhere"}))) == [
        f"broken link in {LESSON}: ../other/#part (no element with id 'part' in {TARGET})"
    ]


def test_a_target_that_vanished_brings_the_page_back(resolved: list[str]) -> None:
    assert _messages(*_site(_TARGET_SCAN)) == []
    assert _messages(*_site(_TARGET_SCAN, with_target=False)) == [
        f"broken link in {LESSON}: ../other/#part (no file {TARGET})"
    ]


def test_a_vanished_asset_brings_the_page_back(resolved: list[str]) -> None:
    assert _messages(*_site(_TARGET_SCAN)) == []
    files, ready = _site(_TARGET_SCAN)
    del files["assets/site.css"]
    assert _messages(files, ready) == [
        f"broken link in {LESSON}: ../assets/site.css (no file assets/site.css)"
    ]


def test_a_page_with_a_broken_link_is_resolved_every_time(resolved: list[str]) -> None:
    files, ready = _site(_TARGET_SCAN)
    ready[LESSON] = _scan({"top"}, "#absent")  # nothing it points to will change
    for _ in range(2):
        resolved.clear()
        assert _messages(files, ready) == [
            f"broken link in {LESSON}: #absent (no element with id 'absent' in {LESSON})"
        ]
        assert LESSON in resolved


def test_a_page_read_anew_is_resolved_again(resolved: list[str]) -> None:
    assert _messages(*_site(_TARGET_SCAN)) == []
    files, ready = _site(_TARGET_SCAN)
    ready[LESSON] = _scan({"top"}, "#top", "../other/#missing")
    assert _messages(files, ready) == [
        f"broken link in {LESSON}: ../other/#missing (no element with id 'missing' in {TARGET})"
    ]


def test_a_page_linking_to_another_without_a_fragment_needs_only_that_it_exists(
    resolved: list[str],
) -> None:
    files, ready = _site(_TARGET_SCAN)
    ready[LESSON] = _scan({"top"}, "../other/", "#top")
    assert _messages(files, ready) == []
    resolved.clear()
    ready[TARGET] = _scan(set())  # another page there: no id of it is needed
    assert _messages(files, ready) == []
    assert resolved == [TARGET]


PAGE = b'<html><body><h1 id="top">T</h1><a href="#top">a</a><a href="../other/#part">b</a>'
OTHER = b'<html><body><h2 id="part">P</h2></body></html>'


def _check_stored(store: Cache, files: dict[str, bytes], version: str = "v1") -> list[str]:
    """A link check in a new process: nothing in memory, ``store`` kept (the ``resolved``
    fixture puts the memory back as it was after the test)."""
    links._CLEAN = links.Recent(links.CLEAN)
    found = check_links(files, {}, scans=links.PageScans(store, version))
    store.flush()
    return [d.message for d in found]


@pytest.fixture
def store(tmp_path: Path, resolved: list[str]) -> Iterator[Cache]:
    with Cache(tmp_path / "cache") as cache:
        yield cache


def test_a_page_found_clean_by_another_run_is_not_resolved(
    store: Cache, resolved: list[str]
) -> None:
    files = {LESSON: PAGE, TARGET: OTHER}
    assert _check_stored(store, files) == []
    assert sorted(resolved) == [LESSON, TARGET]
    resolved.clear()
    assert _check_stored(store, files) == []
    assert resolved == []


def test_another_runs_clean_page_is_judged_again_when_what_it_links_into_changed(
    store: Cache, resolved: list[str]
) -> None:
    assert _check_stored(store, {LESSON: PAGE, TARGET: OTHER}) == []
    moved = OTHER.replace(b'id="part"', b'id="elsewhere"')
    assert _check_stored(store, {LESSON: PAGE, TARGET: moved}) == [
        f"broken link in {LESSON}: ../other/#part (no element with id 'part' in {TARGET})"
    ]
    assert _check_stored(store, {LESSON: PAGE}) == [
        f"broken link in {LESSON}: ../other/#part (no file {TARGET})"
    ]


def test_another_version_of_pizarra_judges_every_page_again(
    store: Cache, resolved: list[str]
) -> None:
    files = {LESSON: PAGE, TARGET: OTHER}
    assert _check_stored(store, files, "v1") == []
    resolved.clear()
    assert _check_stored(store, files, "v2") == []
    assert sorted(resolved) == [LESSON, TARGET]


def test_a_file_is_hashed_once_while_its_bytes_are_the_same_object(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(links, "_DIGESTS", links.Recent(links.CLEAN))
    hashed: list[bytes] = []

    def sha256(data: bytes) -> hashlib._Hash:
        hashed.append(data)
        return hashlib.sha256(data)

    monkeypatch.setattr(links, "hashlib", SimpleNamespace(sha256=sha256))
    page = b"<p id='a'>one</p>" * 3
    first = links._sha256(LESSON, page)
    assert links._sha256(LESSON, page) == first and len(hashed) == 1
    edited = page.replace(b"one", b"two")
    assert links._sha256(LESSON, edited) == hashlib.sha256(edited).hexdigest() != first
    equal = bytes(bytearray(page))  # the same bytes, another object: hashed, never assumed
    assert links._sha256(LESSON, equal) == first and len(hashed) == 3
