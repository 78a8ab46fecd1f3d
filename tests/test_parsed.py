"""Parsed lessons kept between runs: a build keeps them, the next run reads them back."""

from __future__ import annotations

from pathlib import Path

import pytest

from pizarra.base.cache import Cache
from pizarra.check.kernel.execute import KernelRunner
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline import parsed
from pizarra.pipeline import reading as course_module
from pizarra.pipeline.build import verify
from pizarra.pipeline.reading import load_course
from pizarra.pipeline.tools import Tools
from pizarra.source import lesson_file
from tests.test_lessons import write_course


def test_a_build_keeps_every_parse_for_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = write_course(tmp_path / "c")
    tools = Tools(MathCoreRenderer(), KernelRunner(), None, None, Cache(tmp_path / "cache"), jobs=2)
    assert not verify(src, tools).failed()
    monkeypatch.setattr(parsed, "_MEMORY", parsed.Recent(parsed.MEMORY))  # a new process
    calls = _count_parses(monkeypatch)
    course, _ = load_course(src, parsed.ParseCache(Cache(tmp_path / "cache")))
    assert course is not None and len(list(course.lessons())) == 3
    assert calls == []


def test_parses_noted_for_later_are_kept_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pizarra.pipeline.reading import parse_lesson_file

    src = write_course(tmp_path / "c")
    store = Cache(tmp_path / "cache")
    later = parsed.ParseCache(store, later=True)
    files = sorted(src.glob("l*.md"))
    for path in files:
        lesson, errors = parse_lesson_file(path, src, later)
        assert lesson is not None and not errors
    assert store.size(parsed.KIND) == 0, "nothing pickled while parsing"
    asked: list[int] = []
    later.keep(stop=lambda: len(asked.append(1) or asked) > 2)  # stops before the third
    store.flush()
    first = store.size(parsed.KIND)
    assert first > 0
    later.keep()
    store.flush()
    assert store.size(parsed.KIND) > first
    monkeypatch.setattr(parsed, "_MEMORY", parsed.Recent(parsed.MEMORY))  # from disk only
    fresh = parsed.ParseCache(store)
    for path in files:
        raw = path.read_bytes()
        assert fresh.get(path, course_module.display_path(path), src, raw) is not None


def test_a_first_build_knows_no_parse_is_kept_without_hashing_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pizarra.pipeline.reading import parse_lesson_file

    monkeypatch.setattr(parsed, "_MEMORY", parsed.Recent(parsed.MEMORY))
    src = write_course(tmp_path / "c")
    store = Cache(tmp_path / "cache")
    assert parsed.ParseCache(store).keeps_none()

    def no_key(*args: object) -> str:
        raise AssertionError("a fresh cache computes no key")

    monkeypatch.setattr(parsed, "_key", no_key)
    fresh = parsed.ParseCache(store, later=True, fresh=True)
    path = src / "l1.md"
    lesson, errors = parse_lesson_file(path, src, fresh)
    assert lesson is not None and not errors
    monkeypatch.undo()
    monkeypatch.setattr(parsed, "_MEMORY", parsed.Recent(parsed.MEMORY))
    fresh.keep()
    store.flush()
    assert not parsed.ParseCache(store).keeps_none()
    shown = course_module.display_path(path)
    assert parsed.ParseCache(store).get(path, shown, src, path.read_bytes()) is not None


def test_a_kept_parse_loads_equal_with_its_tokens_pickled_as_arguments() -> None:
    """Tokens are pickled as their constructor's arguments (what a kept parse mostly is):
    the lesson loads back equal, every token field included, in less space."""
    import pickle
    import zlib

    from pizarra import BUNDLED
    from pizarra.pipeline.reading import parse_lesson_file
    from pizarra.source.blocks import Prose, walk

    path = BUNDLED / "lessons" / "07-potencias-para-la-ia.md"
    lesson, errors = parse_lesson_file(path, BUNDLED)
    assert lesson is not None and not errors
    raw = zlib.decompress(parsed._dumps(lesson))
    assert pickle.loads(raw) == lesson
    assert len(raw) < 0.8 * len(pickle.dumps(lesson, pickle.HIGHEST_PROTOCOL))
    assert len(parsed._dumps(lesson)) < 0.5 * len(raw), "and stored compressed"
    tokens = [t for b in walk(lesson.blocks) if isinstance(b, Prose) for t in b.tokens]
    shown = {(t.type, bool(t.attrs), bool(t.meta), bool(t.children), t.hidden) for t in tokens}
    assert any(attrs for _, attrs, _, _, _ in shown) and any(meta for _, _, meta, _, _ in shown)
    assert any(children for _, _, _, children, _ in shown)


def test_memory_keeps_two_parses_of_a_file_saved_again_and_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = parsed.Recent(parsed.MEMORY, per_group=parsed.VERSIONS)
    monkeypatch.setattr(parsed, "_MEMORY", kept)
    src = write_course(tmp_path / "c")
    lesson = src / "l1.md"
    texts = [lesson.read_text(encoding="utf-8") + f"\nLínea {n}.\n" for n in range(5)]
    for text in texts:
        lesson.write_text(text, encoding="utf-8")
        found, errors = course_module.parse_lesson_file(lesson, src, parsed.ParseCache())
        assert found is not None and errors == []
    assert len(kept) == parsed.VERSIONS
    calls = _count_parses(monkeypatch)
    lesson.write_text(texts[-2], encoding="utf-8")  # an undo: still in memory
    course_module.parse_lesson_file(lesson, src, parsed.ParseCache())
    assert calls == []
    lesson.write_text(texts[0], encoding="utf-8")  # long gone
    course_module.parse_lesson_file(lesson, src, parsed.ParseCache())
    assert calls == [lesson]


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files parsed from now on (not taken from a kept parse), in order."""
    calls: list[Path] = []
    real = lesson_file.parse_lesson

    def counted(path: Path, *args: object, **kwargs: object) -> object:
        calls.append(path)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lesson_file, "parse_lesson", counted)
    return calls


def test_a_kept_parse_is_not_used_once_a_csv_file_it_read_changes(tmp_path: Path) -> None:
    from pizarra.pipeline.reading import parse_lesson_file

    src = write_course(tmp_path / "c")
    lesson_path = sorted(src.glob("l*.md"))[0]
    (src / "datos.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    text = lesson_path.read_text(encoding="utf-8")
    lesson_path.write_text(text + "\n```{csv-table} Datos\n:file: datos.csv\n```\n", "utf-8")
    cache = parsed.ParseCache(Cache(tmp_path / "cache"))
    lesson, errors = parse_lesson_file(lesson_path, src, cache)
    assert lesson is not None and not errors
    assert lesson.data_files == ((src / "datos.csv").resolve(),)
    raw, shown = lesson_path.read_bytes(), course_module.display_path(lesson_path)
    assert cache.get(lesson_path, shown, src, raw) is not None
    (src / "datos.csv").write_text("a,b\n1,3\n", encoding="utf-8")
    assert cache.get(lesson_path, shown, src, raw) is None
