"""The pipeline end to end: a whole-site snapshot, atomic writes, course rules."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

import pizarra.pipeline.build
import pizarra.pipeline.frame
from pizarra.check.html_scan import PageScan, scan_page
from pizarra.check.kernel.execute import KernelRunner
from pizarra.check.links import check_links
from pizarra.pipeline.build import build, verify
from pizarra.pipeline.frame import lesson_scans
from pizarra.pipeline.lesson import LessonResult
from pizarra.pipeline.tools import Tools
from pizarra.site.write import SiteWriteError, write_site
from tests.support import FIXTURES, fake_math

SITE = FIXTURES / "site"
UPDATE = os.environ.get("PIZARRA_UPDATE_GOLDEN") == "1"


def tools() -> Tools:
    return Tools(fake_math, KernelRunner(), None)


def test_whole_site_matches_the_snapshot(tmp_path: Path) -> None:
    out = tmp_path / "site"
    report = build(SITE / "course", out, tools())
    assert [d.format() for d in report.diagnostics] == []
    pages = sorted(str(p.relative_to(out)) for p in out.rglob("*.html"))
    expected_dir = SITE / "expected"
    if UPDATE:
        shutil.rmtree(expected_dir, ignore_errors=True)
        for page in pages:
            (expected_dir / page).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(out / page, expected_dir / page)
    expected = sorted(str(p.relative_to(expected_dir)) for p in expected_dir.rglob("*.html"))
    assert pages == expected
    for page in pages:
        assert _unversioned(out / page) == _unversioned(expected_dir / page), page
    assets = sorted(p.name for p in (out / "assets").iterdir())
    assert {"pizarra.css", "math.css", "math.woff2"} <= set(assets)


def _unversioned(page: Path) -> str:
    """The page with its assets' versions left out: they change with every edit of a
    stylesheet or script, which the snapshot is not about (test_asset_urls is)."""
    return re.sub(r"\?v=[0-9a-f]{10}\b", "?v=", page.read_text())


def test_failed_build_leaves_the_previous_site_untouched(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(SITE / "course", course)
    out = tmp_path / "site"
    assert not build(course, out, tools()).failed()
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    lesson = course / "lessons" / "01-primera.md"
    lesson.write_text(lesson.read_text().replace("=1024", "=1000"), encoding="utf-8")
    report = build(course, out, tools())
    assert report.failed()
    assert any("claim is false" in d.message for d in report.diagnostics)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site")], "no leftovers"


def test_refuses_to_replace_a_folder_pizarra_did_not_make(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(SiteWriteError):
        write_site({"index.html": b"x"}, out)
    assert (out / "keep.txt").read_text() == "mine"


def test_site_paths_cannot_escape(tmp_path: Path) -> None:
    with pytest.raises(SiteWriteError):
        write_site({"../evil.html": b"x"}, tmp_path / "site")
    assert not (tmp_path / "evil.html").exists()


def test_a_single_lesson_file_is_a_course(tmp_path: Path) -> None:
    lesson = tmp_path / "03-tercera.md"
    shutil.copy(SITE / "course" / "lessons" / "03-tercera.md", lesson)
    report = verify(lesson, tools())
    messages = [d.message for d in report.diagnostics]
    assert messages == ["lesson 1 is not in the course"]


def test_course_rules(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(SITE / "course", course)
    manifest = course / "course.yaml"
    manifest.write_text(
        manifest.read_text().replace("number: 3", "number: 1").replace("Segunda", "Segunda"),
        encoding="utf-8",
    )
    messages = [d.message for d in verify(course, tools()).diagnostics]
    assert "lesson number 1 is used twice" in messages
    assert any("lists it as 1" in m for m in messages)


def test_link_checker_finds_missing_pages_and_anchors() -> None:
    files = {
        "index.html": b'<a href="a/">a</a><a href="a/#nope">x</a>'
        b'<a href="#top">t</a><p id="top"></p>',
        "a/index.html": b'<a href="../b/">b</a><a href="https://example.org/#x">e</a>',
    }
    found = [d.message for d in check_links(files, {})]
    assert found == [
        "broken link in index.html: a/#nope (no element with id 'nope' in a/index.html)",
        "broken link in a/index.html: ../b/ (no file b/index.html)",
    ]


def test_link_checker_takes_ready_scans_and_reads_the_other_pages() -> None:
    files = {
        "index.html": b'<a href="a/#s">a</a><a href="a/#gone">x</a>',
        "a/index.html": b"not read: its scan is ready",
    }
    ready = {"a/index.html": PageScan(frozenset({"s"}), (), (("../b/", 3), ("#s", 4)))}
    found = [d.message for d in check_links(files, {}, ready=ready)]
    assert found == [
        "broken link in index.html: a/#gone (no element with id 'gone' in a/index.html)",
        "broken link in a/index.html: ../b/ (no file b/index.html)",
    ]


def test_a_lesson_scan_counts_only_for_the_page_it_read() -> None:
    mine, other = b'<a href="x">x</a>', b'<a href="y">y</a>'
    scan = scan_page(mine)
    result = LessonResult((), None, (), {"l/index.html": mine}, {"l/index.html": scan})
    assert lesson_scans([result], {"l/index.html": mine}) == {"l/index.html": scan}
    assert lesson_scans([result], {"l/index.html": other}) == {}, "another file replaced it"
    assert lesson_scans([result], {}) == {}


def test_the_math_font_gets_each_lessons_current_characters() -> None:
    """A rebuild reads only the changed lesson's characters again; a text no lesson has
    any more is forgotten, so a server's memory does not grow with its edits."""
    kept, edited = SimpleNamespace(source_text="$2^3=8$"), SimpleNamespace(source_text="ab")
    assert pizarra.pipeline.frame._characters([kept, edited]) == "$238=^ab"
    edited.source_text = "abé"
    assert pizarra.pipeline.frame._characters([kept, edited]) == "$238=^abé"
    assert set(pizarra.pipeline.frame._CHARACTERS) == {"$2^3=8$", "abé"}


def test_a_build_whose_index_fails_after_its_pages_were_staged_keeps_the_old_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pages are written beside the site while Pagefind works; its failure drops them."""
    from pizarra.site import write as site

    out = tmp_path / "site"
    build(SITE / "course", out, tools())
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    staged: list[int] = []
    real_write = site.StagedSite.write

    def write(self: site.StagedSite, files: dict[str, bytes]) -> None:
        staged.append(len(files))
        real_write(self, files)

    monkeypatch.setattr(site.StagedSite, "write", write)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", "/bin/true")
    report = build(SITE / "course", out, tools())
    assert report.failed() and staged and staged[0] > 10
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["site"]
