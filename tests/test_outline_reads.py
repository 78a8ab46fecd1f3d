"""A build whose lessons' results are kept reads those lessons as outlines only, and the
site it makes is the one a build from nothing makes."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from pizarra.base.cache import Cache
from pizarra.base.errors import Severity
from pizarra.check.kernel.execute import KernelRunner
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline import lessons, parsed
from pizarra.pipeline.build import verify
from pizarra.pipeline.reading import load_course
from pizarra.pipeline.tools import Tools
from pizarra.render.pages import lesson_path
from pizarra.source.lesson_file import read_lesson_file
from tests.test_crew import PNG
from tests.test_lessons import write_course
from tests.test_translations import COURSE as TRANSLATED
from tests.test_translations import TRANSLATION


def tools(store: Cache, jobs: int = 2) -> Tools:
    return Tools(MathCoreRenderer(), KernelRunner(), None, None, store, jobs=jobs)


def new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget what this process keeps in memory, as the next command would."""
    monkeypatch.setattr(parsed, "_MEMORY", parsed.Recent(parsed.MEMORY, per_group=2))
    monkeypatch.setattr(parsed, "_OUTLINES", parsed.Recent(parsed.MEMORY, per_group=2))
    monkeypatch.setattr(lessons, "_MEMORY", lessons.Recent(lessons.MEMORY, per_group=2))


def kinds_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The cache kinds read from now on, one entry per value asked for."""
    asked: list[str] = []
    real = Cache.get

    def get(self: Cache, kind: str, key: str) -> bytes | None:
        asked.append(kind)
        return real(self, kind, key)

    monkeypatch.setattr(Cache, "get", get)
    return asked


def built_before(src: Path, store: Path) -> Path:
    """``src``, built once with its caches in ``store``."""
    assert not verify(src, tools(Cache(store)), outlines=True).failed()
    return src


def test_after_a_one_line_edit_only_the_edited_lesson_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = built_before(write_course(tmp_path / "c"), tmp_path / "cache")
    edited = src / "l2.md"
    edited.write_text(edited.read_text().replace("Sabemos", "Sabemos bien"), encoding="utf-8")
    new_process(monkeypatch)
    asked = kinds_read(monkeypatch)
    again = verify(src, tools(Cache(tmp_path / "cache")), outlines=True)
    assert not again.failed()
    assert asked.count(parsed.OUTLINES) == 1 + 3, "whether a parse is kept (no crew), then each"
    assert asked.count(parsed.KIND) == 1, "the edited lesson's own parse, missed"
    monkeypatch.undo()
    new_process(monkeypatch)
    fresh = verify(src, tools(Cache(tmp_path / "fresh")), outlines=True)
    assert again.files == fresh.files
    assert again.course is not None
    (two,) = [ln for ln in again.course.lessons() if ln.path.name == "l2.md"]
    assert b"Sabemos bien" in again.files[lesson_path(two)]


def test_a_lesson_verified_again_gets_its_body_from_its_kept_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The course changed around the lessons (their results' keys changed), so every
    lesson is verified again from its kept parse, not from an outline."""
    src = built_before(write_course(tmp_path / "c"), tmp_path / "cache")
    manifest = src / "course.yaml"
    manifest.write_text(manifest.read_text().replace("Curso", "Otro curso"), encoding="utf-8")
    new_process(monkeypatch)
    asked = kinds_read(monkeypatch)
    again = verify(src, tools(Cache(tmp_path / "cache"), jobs=1), outlines=True)
    assert asked.count(parsed.KIND) == 3
    monkeypatch.undo()
    new_process(monkeypatch)
    fresh = verify(src, tools(Cache(tmp_path / "fresh")), outlines=True)
    assert [d.format() for d in again.diagnostics] == [d.format() for d in fresh.diagnostics]
    assert again.files == fresh.files
    manifest.write_text(manifest.read_text().replace("Otro curso", "Tercero"), encoding="utf-8")
    new_process(monkeypatch)
    pooled = verify(src, tools(Cache(tmp_path / "cache")), outlines=True)  # bodies in workers
    assert pooled.rebuilt == [str(src / f"l{n}.md") for n in (1, 2, 3)]
    new_process(monkeypatch)
    fresh = verify(src, tools(Cache(tmp_path / "fresh")), outlines=True)
    assert pooled.files == fresh.files


def test_a_parse_gone_from_the_store_is_made_again_from_the_outlines_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = built_before(write_course(tmp_path / "c"), tmp_path / "cache")
    new_process(monkeypatch)
    reader = parsed.ParseCache(Cache(tmp_path / "cache"), outlines=True)
    course, errors = load_course(src, reader)
    assert course is not None and errors == []
    shown = next(course.lessons())
    assert shown.math == () and shown.source_text
    real = Cache.get
    monkeypatch.setattr(
        Cache, "get", lambda self, kind, key: None if kind == parsed.KIND else real(self, kind, key)
    )
    whole = reader.whole(shown)
    made, _ = read_lesson_file(shown.path, src)
    assert made is not None
    assert whole.blocks == made.blocks and whole.math == made.math
    assert whole.title == shown.title


def test_an_edited_translation_is_compared_with_its_originals_body(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "course"
    shutil.copytree(TRANSLATED, src)
    store = Cache(tmp_path / "cache")
    first = verify(src, tools(store), search=False, outlines=True)
    assert [d.format() for d in first.diagnostics if d.severity is Severity.ERROR] == []
    translation = src / TRANSLATION
    text = translation.read_text(encoding="utf-8")
    translation.write_text(text.replace("67,108,864", "67,108,865", 1), encoding="utf-8")
    new_process(monkeypatch)
    again = verify(src, tools(Cache(tmp_path / "cache")), search=False, outlines=True)
    errors = [d.format() for d in again.diagnostics if d.severity is Severity.ERROR]
    assert len(errors) == 1 and "the original has 67.108.864 here" in errors[0]


@pytest.mark.parametrize("outlines", [True, False])
def test_a_server_holds_every_lesson_of_a_course_larger_than_its_memory_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outlines: bool
) -> None:
    """Read in the same order at every rebuild, a course of more lessons than an LRU's
    bound found none of them there: each save unpickled every parse and result."""
    for memory in ("_MEMORY", "_OUTLINES"):
        monkeypatch.setattr(parsed, memory, parsed.Recent(1, per_group=2))
    monkeypatch.setattr(lessons, "_MEMORY", lessons.Recent(1, per_group=2))
    monkeypatch.setattr(parsed, "MEMORY", 0)
    monkeypatch.setattr(lessons, "MEMORY", 0)
    src = write_course(tmp_path / "c")
    store = Cache(tmp_path / "cache")
    for _ in range(2):  # the first parses (a crew, with outlines), the second reads them
        assert not verify(src, tools(store), outlines=outlines).failed()
    asked = kinds_read(monkeypatch)
    again = verify(src, tools(store), outlines=outlines)
    assert not again.failed() and len(again.rebuilt) == 0
    assert [k for k in asked if k in (parsed.KIND, parsed.OUTLINES, lessons.KIND)] == []


def test_a_lesson_made_from_another_finds_its_own_images(tmp_path: Path) -> None:
    """A lesson finds its images once; a lesson made from it with another body does not
    inherit what it found."""
    src = write_course(tmp_path / "c")
    (src / "fig.png").write_bytes(PNG)
    lesson_file = src / "l1.md"
    lesson_file.write_text(lesson_file.read_text() + "\n![Una figura](fig.png)\n", "utf-8")
    course, errors = load_course(src)
    assert course is not None and errors == []
    lesson = next(course.lessons())
    found = lesson.images()
    assert [i.file.name for i in found] == ["fig.png"] and lesson.images() is found
    assert dataclasses.replace(lesson, blocks=(), inline_images=()).images() == ()
