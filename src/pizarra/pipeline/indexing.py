"""The search index step: Pagefind fed the lesson pages as they are rendered."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.base.cache import Cache
from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.pipeline.lesson import LessonResult
from pizarra.render.pages import lesson_path
from pizarra.site.search import IndexFeed, SearchIndexError, Texts, start_search_index
from pizarra.source.model import Course, Lesson


def index_site(
    course: Course,
    files: dict[str, bytes],
    store: Cache | None,
    background: bool = False,
    texts: Texts | None = None,
) -> list[Diagnostic]:
    """Add the search index of the lesson pages to ``files``; its failure, if any.
    ``background``: Pagefind runs at a lower CPU priority (``serve``, after a reload);
    ``texts``: what it reads of the pages, kept with their lessons
    (:attr:`~pizarra.pipeline.tools.Report.search_texts`)."""
    return start_index_site(course, files, store, background=background, texts=texts)()


class Feed:
    """Lesson pages for the search index as lessons are done: Pagefind is started at the
    first lesson this run verifies (a run that verifies none reuses the kept index)."""

    def __init__(self) -> None:
        self.pages: list[tuple[str, bytes, bytes | None]] = []
        self.started: IndexFeed | None = None

    def __call__(self, lesson: Lesson, result: LessonResult) -> None:
        path = lesson_path(lesson)
        if path in result.pages:
            self.pages.append((path, result.pages[path], result.indexed))
        if self.started is None and not result.cached:
            self.started = IndexFeed()
            for given in self.pages:
                self.started.add(*given)
        elif self.started is not None and path in result.pages:
            self.started.add(path, result.pages[path], result.indexed)

    def close(self) -> None:
        """Every lesson page is given: Pagefind may write the index."""
        if self.started is not None:
            self.started.close()

    def end(self) -> None:
        if self.started is not None:
            self.started.end()


def start_index_site(
    course: Course,
    files: dict[str, bytes],
    store: Cache | None,
    feed: IndexFeed | None = None,
    background: bool = False,
    texts: Texts | None = None,
) -> Callable[[], list[Diagnostic]]:
    """:func:`index_site`, with Pagefind indexing in the background until the returned
    function adds the index to ``files`` (unchanged until then) and says what failed;
    ``feed`` is Pagefind already given the lesson pages as they were rendered."""
    pages = [lesson_path(ln) for ln in course.lessons()]
    try:
        pending = start_search_index(files, pages, store, feed, background, texts)
    except SearchIndexError as exc:
        failure = _index_failure(course, exc)
        return lambda: failure

    def finish() -> list[Diagnostic]:
        try:
            files.update(pending())
        except SearchIndexError as exc:
            return _index_failure(course, exc)
        return []

    return finish


def _index_failure(course: Course, exc: SearchIndexError) -> list[Diagnostic]:
    hint = "reinstall pizarra: the search index needs the pagefind-bin-extended package"
    return [Diagnostic(SourcePos(str(course.root), 1), str(exc), hint)]
