"""Worker processes that parse the lessons of a cold build, then verify the lessons they parsed.

A parsed lesson costs half its parse to pickle and a quarter to unpickle, so parsing
in workers and handing whole lessons back to pizarra saves almost nothing. A crew
worker keeps the lessons it parsed and hands back only their outlines
(:func:`outline`: the lesson without its body), which is all that verifying or
rendering *another* lesson reads of it. Once every outline is in, the course is
assembled from them, and each worker verifies and renders its own lessons
(:func:`filled` gives the body back) while the course's other stages run.

A crew is started only for a build in which no lesson file was parsed before (see
:func:`pizarra.pipeline.build.verify`); the report of such a build holds outlines. A lesson
whose worker died is parsed and verified by pizarra itself, so a crash costs time,
never a result.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pizarra.base.errors import Diagnostic
from pizarra.pipeline.outlines import outline, textless, with_bodies
from pizarra.source.model import Course, Lesson

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from pizarra.pipeline.lesson import LessonResult
    from pizarra.pipeline.parsed import ParseCache
    from pizarra.pipeline.tools import Tools


def start_crew(src: Path, tools: Tools, parsed: ParseCache | None) -> Crew | None:
    """A crew parsing the lessons of the course folder ``src``, when there are several,
    more than one CPU to share them, and none of them was parsed before (a lesson kept
    parsed is whole here: it is verified by workers forked after it was read). A file
    the course lists twice is two lessons, each whole here: no crew either."""
    from pizarra.pipeline.reading import kept_parse
    from pizarra.pipeline.workers import cpu_count
    from pizarra.source.course import lesson_files

    files = lesson_files(src) if src.is_dir() else []
    workers = min(len(files), tools.jobs if tools.jobs is not None else cpu_count())
    if workers < 2 or len(set(files)) < len(files):
        return None
    fresh = parsed is None or parsed.keeps_none()
    if parsed is not None and not fresh and any(kept_parse(f, src, parsed) for f in files):
        return None
    return Crew(files, src, tools, workers, fresh)


def share(files: Sequence[Path], workers: int) -> list[list[Path]]:
    """``files`` in ``workers`` groups: each file, in the course's order, to the group
    with the fewest bytes so far.

    Lessons then start, and mostly finish, in the course's order, which is the order
    their pages must reach Pagefind (the index depends on it): shared by size, largest
    first, a lesson's page waited for an earlier lesson the other worker had left for
    later, and the last pages reached Pagefind together, at the end of the build."""
    groups: list[list[Path]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for path in files:
        lightest = loads.index(min(loads))
        groups[lightest].append(path)
        loads[lightest] += _size(path)
    return [group for group in groups if group]


@dataclass
class _Member:
    process: BaseProcess
    connection: Connection
    files: list[Path]
    parsed: dict[Path, tuple[Lesson | None, list[Diagnostic]]] = field(default_factory=dict)
    """Outlines received, by file."""
    alive: bool = True


class Crew:
    """Workers forked now, each parsing its share of ``files`` at once."""

    def __init__(
        self, files: Sequence[Path], root: Path, tools: Tools, workers: int, fresh: bool = False
    ) -> None:
        """``fresh``: no parse at all was kept when the run began (see ``start_crew``)."""
        import multiprocessing

        context = multiprocessing.get_context("fork")
        parent = os.getpid()
        self.members: list[_Member] = []
        for group in share(files, workers):
            mine, theirs = context.Pipe()
            process = context.Process(
                target=_work, args=(theirs, group, root, tools, parent, fresh), daemon=True
            )
            process.start()
            theirs.close()
            self.members.append(_Member(process, mine, group))
        self.owner = {path: member for member in self.members for path in member.files}
        """The worker of each file."""

    def holds(self, path: Path) -> bool:
        """True when a worker sent the outline of ``path``: the course has no more of it,
        so its worker, or else :func:`~pizarra.pipeline.lessons.verify_lessons`, gives it its
        body."""
        member = self.owner.get(path)
        return member is not None and path in member.parsed

    def parsed(self, path: Path) -> tuple[Lesson | None, list[Diagnostic]] | None:
        """The outline of ``path`` and its parse's diagnostics, once its worker sent them;
        None if no worker has it or its worker died first (pizarra parses it itself)."""
        member = self.owner.get(path)
        while member is not None and member.alive and path not in member.parsed:
            self._receive()
        if member is None or path not in member.parsed:
            return None
        return member.parsed[path]

    def verify(
        self,
        course: Course,
        strict: bool,
        paths: Sequence[Path],
        meanwhile: Callable[[], None] | None = None,
    ) -> Iterator[tuple[Path, LessonResult | None]]:
        """Each of ``paths`` (lessons of ``course`` its workers hold) with its result, as
        they come; None for each lesson whose worker died before sending it.

        ``meanwhile`` is called once every worker has its lessons, before any result is
        read: what it does costs the workers nothing until the first result waits."""
        for member in self.members:  # a worker sends its outlines before it reads again
            for path in member.files:
                self.parsed(path)
        waiting: dict[Path, _Member] = {}
        sent = textless(course)
        for member in self.members:
            mine = [path for path in paths if self.owner.get(path) is member]
            if mine and member.alive:
                try:
                    member.connection.send(("verify", sent, strict, mine))
                except OSError:
                    self._lost(member)
            waiting.update((path, member) for path in mine)
        if meanwhile is not None:
            meanwhile()
        while waiting:
            for path, member in list(waiting.items()):
                if not member.alive:
                    del waiting[path]
                    yield path, None
            live = {id(m): m for m in waiting.values()}.values()
            ready = wait([m.connection for m in live]) if live else []
            for member in live:
                if member.connection in ready:
                    message = self._recv(member)
                    if message is not None and message[0] == "result":
                        path = message[1]
                        if waiting.pop(path, None) is not None:
                            yield path, message[2]

    def stop(self) -> None:
        """End every worker (they end by themselves once their lessons are sent)."""
        for member in self.members:
            member.connection.close()
            member.alive = False
        for member in self.members:
            member.process.join(1)
            if member.process.is_alive():
                member.process.kill()
                member.process.join()

    def _receive(self) -> None:
        """Take the next message of each worker that has one."""
        live = [m for m in self.members if m.alive]
        if not live:
            return
        ready = wait([m.connection for m in live])
        for member in live:
            if member.connection in ready:
                self._recv(member)

    def _recv(self, member: _Member) -> tuple[Any, ...] | None:
        try:
            message = member.connection.recv()
        except (EOFError, OSError):
            self._lost(member)
            return None
        if message[0] == "parsed":
            member.parsed[message[1]] = (message[2], message[3])
        return tuple(message)

    def _lost(self, member: _Member) -> None:
        member.alive = False
        member.connection.close()


def _work(
    connection: Connection,
    files: list[Path],
    root: Path,
    tools: Tools,
    parent: int,
    fresh: bool = False,
) -> None:
    """A worker: parse ``files``, send their outlines, then verify those it is sent."""
    from pizarra.pipeline.lesson import pay_first_use, verify_lesson
    from pizarra.pipeline.parsed import ParseCache
    from pizarra.pipeline.reading import parse_lesson_file
    from pizarra.pipeline.workers import end_with_parent

    end_with_parent(parent)
    # Parses are pickled for the next build only once the outlines are sent, so the main
    # process gets them sooner: while it assembles the course, then after the results.
    cache = ParseCache(tools.store, later=True, fresh=fresh) if tools.store is not None else None
    mine: dict[Path, Lesson] = {}
    for path in files:
        lesson, diagnostics = parse_lesson_file(path, root, cache)
        if lesson is not None:
            mine[path] = lesson
        shown = outline(lesson) if lesson is not None else None
        connection.send(("parsed", path, shown, diagnostics))
    if not connection.poll(0):  # the main process is still assembling the course
        pay_first_use(mine.values())
    if cache is not None:
        cache.keep(stop=lambda: connection.poll(0))
    if tools.store is not None:
        tools.store.flush()
    try:
        request = connection.recv()
    except EOFError:
        request = None  # the run ended before verifying (an error, or nothing to verify)
    if request is not None:
        _, course, strict, paths = request
        course = with_bodies(course, mine)
        lessons = {lesson.path: lesson for lesson in course.lessons()}
        for path in paths:
            result = verify_lesson(course, lessons[path], tools, strict)
            if tools.store is not None:
                tools.store.flush()
            connection.send(("result", path, result))
    if cache is not None:
        cache.keep()
    if tools.store is not None:
        tools.store.checkpoint()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
