"""``pizarra serve``: the built site from memory, explorer states, live reload.

A thin Starlette app. The site is built once, held in memory and replaced only
by a build that passes, so a broken edit never takes down the page being read;
the build's errors are shown on the page instead. Route handlers only map
requests to the build's output or to ``render_lesson_page``.

A save makes open pages reload at once, while the site is rebuilt: the browser's
request for the page waits for the rebuild, so it is answered the moment the new
page exists instead of one event and one request later (0.02 s of a save's reload).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from uvicorn.config import LOGGING_CONFIG

from pizarra.base.errors import SourcePos, display_path
from pizarra.base.guard import internal_error
from pizarra.pipeline.build import verify
from pizarra.pipeline.editions import index_editions
from pizarra.pipeline.indexing import index_site
from pizarra.pipeline.tools import Report, Tools
from pizarra.serve.answers import (
    LIVE_JS,
    file_answer,
    file_name,
)
from pizarra.serve.headers import SecurityHeaders
from pizarra.serve.memory import settle_memory, warm_up
from pizarra.serve.protocol import BoundedH11Protocol, listen
from pizarra.serve.respond import respond
from pizarra.serve.state import SiteState, search_file

LOCAL_HOSTS = ("127.0.0.1", "localhost")
"""``Host`` names the development server answers to."""
WATCH_RETRY = 1.0
"""Seconds before watching the sources again after the watcher failed."""
WATCH_STEP = 10
"""Milliseconds without a new change after which a save's changes are acted on. A save
is seen 10 to 20 ms after it (20 to 40 with 20 ms); an editor writes a file, or renames
its copy over it, in one burst well inside that."""
HOLD = 10.0
"""Seconds a request made during a rebuild waits for it before the last good build
answers it (a long rebuild, such as one running slow code cells, never hangs a page)."""
SEARCH_HOLD = 90.0
"""Seconds a request for a search file waits for the index being made, when the
served site has none yet (just after ``serve`` starts): the search a learner opens
then works once the index is there, instead of failing on a 404 that the page
never asks again. Past it, a 503 says to try again."""
SEARCH_POLL = 0.05
INDEX_DELAY = 0.5
"""Seconds a build's search index waits, so a burst of saves is indexed once."""
AFTER_DELAY = 0.3
"""Seconds the cache writes, the collector's pass (:func:`settle_memory`) and the search
index of a rebuild wait after it: the reloaded page and what it asks for next (its
font) are answered first, without them holding the interpreter (0.01-0.02 s of each)."""


def create_app(
    src: Path,
    tools: Tools,
    strict: bool = False,
    watch: bool = True,
    strict_claims: bool = False,
    hosts: Sequence[str] = LOCAL_HOSTS,
) -> Starlette:
    """The app for ``src``; ``watch`` rebuilds on file changes (off in tests).

    Requests whose ``Host`` is not in ``hosts`` get a 400: a page on another site
    that rebinds its own name to 127.0.0.1 must not be able to read this server.
    """
    state = SiteState()
    changed = asyncio.Condition()
    settled = asyncio.Event()
    """Set while no rebuild runs: requests wait for it."""
    settled.set()
    indexing: set[asyncio.Task[None]] = set()
    writes: list[Callable[[], None]] = []
    """Cache writes the last rebuilds left for after the reload."""

    def rebuild() -> Report | None:
        """Rebuild (unchanged lessons come from memory); the passing report, or None."""
        try:
            report = verify(src, tools, strict_claims, search=False, outlines=True, later=writes)
        except Exception as exc:
            where = SourcePos(display_path(src), 1, 1)
            report = Report(diagnostics=[internal_error(where, "building the site", exc)])
        for diagnostic in report.diagnostics:
            print(diagnostic.format(), file=sys.stderr)
        accepted = state.accept(report, strict)
        status = "ok" if accepted else "failed; still serving the last good build"
        print(f"pizarra serve: build {status} ({report.seconds:.2f} s)", file=sys.stderr)
        return report if accepted else None

    def index(started: int) -> None:
        """The search index of the build being served, unless it has it, or a rebuild
        started since ``started`` (whose own catching up then does it: a save that comes
        meanwhile is not slowed by Pagefind)."""
        time.sleep(INDEX_DELAY)
        served, course, texts = state.served, state.course, state.search_texts
        if state.indexed == served or state.started != started or course is None:
            return
        files = {k: v for k, v in state.files.items() if not search_file(k)}
        for diagnostic in index_site(course, files, tools.store, background=True, texts=texts):
            print(diagnostic.format(), file=sys.stderr)
        state.add_index({k: v for k, v in files.items() if search_file(k)}, served)
        if course.editions:  # the original's search works meanwhile
            for diagnostic in index_editions(course, files, tools.store, background=True):
                print(diagnostic.format(), file=sys.stderr)
            state.add_index({k: v for k, v in files.items() if search_file(k)}, served)

    def write_caches() -> None:
        """Do the writes the rebuilds left, each once (two threads may be at it)."""
        while True:
            try:
                write = writes.pop(0)
            except IndexError:
                return
            try:
                write()
            except Exception as exc:  # a cache only makes the next rebuild faster
                print(f"pizarra serve: keeping the caches failed ({exc!r})", file=sys.stderr)

    def after(report: Report | None, started: int, first: bool) -> None:
        write_caches()
        if first and report is not None:
            warm_up(report)
        settle_memory()
        index(started)

    async def catch_up(report: Report | None, started: int, first: bool) -> None:
        await asyncio.sleep(AFTER_DELAY)
        await anyio.to_thread.run_sync(after, report, started, first)

    async def rebuild_async() -> None:
        first = state.version == 0
        settled.clear()
        try:
            if not first:
                async with changed:
                    state.started += 1
                    changed.notify_all()
            report = await anyio.to_thread.run_sync(rebuild)
        finally:
            settled.set()
        async with changed:
            changed.notify_all()
        # The page has its answer; the cache writes, then search, catch up after.
        task = asyncio.create_task(catch_up(report, state.started, first))
        indexing.add(task)
        task.add_done_callback(indexing.discard)

    async def watcher() -> None:
        from watchfiles import awatch

        root = src if src.is_dir() else src.parent
        while True:
            try:
                changes = awatch(
                    root, watch_filter=lambda _change, path: not _ignored(path), step=WATCH_STEP
                )
                async for _ in changes:
                    await rebuild_async()
            except Exception as exc:
                print(f"pizarra serve: watching {root} failed ({exc!r}); retrying", file=sys.stderr)
            await asyncio.sleep(WATCH_RETRY)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await rebuild_async()
        task = asyncio.create_task(watcher()) if watch else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()

    def newer_than(version: int, started: int) -> Callable[[], bool]:
        return lambda: state.version != version or state.started != started

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            seen, begun = state.version, state.started
            yield "retry: 1000\n\n"
            while not await request.is_disconnected():
                try:
                    async with changed:
                        wait = changed.wait_for(newer_than(seen, begun))
                        await asyncio.wait_for(wait, timeout=15)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if state.started != begun:  # the page reloads; its request waits
                    yield "event: reload\ndata: \n\n"
                    return
                if state.version != seen:
                    seen = state.version
                    if state.errors:
                        yield (
                            "event: errors\n"
                            + "".join(f"data: {line}\n" for line in state.errors.splitlines())
                            + "\n"
                        )
                    else:
                        yield "event: reload\ndata: \n\n"

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    async def live_script(request: Request) -> Response:
        return file_answer(request, LIVE_JS, "text/javascript")

    def index_pending(name: str | None) -> bool:
        """``name`` is a search file the index being made will bring."""
        return (
            name is not None
            and search_file(name)
            and name not in state.files
            and any(not task.done() for task in indexing)
        )

    async def page(request: Request) -> Response:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(settled.wait(), HOLD)
        name = file_name(request.url.path)
        waited = 0.0
        while index_pending(name):
            if waited >= SEARCH_HOLD:
                headers = {"Retry-After": "5", "Cache-Control": "no-store"}
                return Response("search index not ready", 503, headers, "text/plain")
            await asyncio.sleep(SEARCH_POLL)
            waited += SEARCH_POLL
        return await anyio.to_thread.run_sync(lambda: respond(state, tools, request, watch))

    return Starlette(
        routes=[
            Route("/_pizarra/events", events),
            Route("/_pizarra/live.js", live_script),
            Route("/{path:path}", page),
        ],
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)),
            Middleware(SecurityHeaders),
        ],
        lifespan=lifespan,
    )


def _ignored(path: str) -> bool:
    parts = Path(path).parts
    return any(p.startswith(".") or p in ("__pycache__", "_site") for p in parts)


def serve(
    src: Path, port: int, tools: Tools, strict: bool = False, strict_claims: bool = False
) -> int:
    """Run the development server until interrupted."""
    try:
        sock = listen(port)
    except OSError:
        print(
            f"pizarra serve: port {port} on 127.0.0.1 is in use\n"
            f"    hint: stop the other server, or choose another port: --port {port + 1}",
            file=sys.stderr,
        )
        return 1
    with sock:
        app = create_app(src, tools, strict, strict_claims=strict_claims)
        print(f"pizarra serve: http://127.0.0.1:{port}/  (Ctrl+C to stop)", file=sys.stderr)
        uvicorn.Server(server_config(app, port)).run(sockets=[sock])
    return 0


def server_config(app: Starlette, port: int, log: bool = True) -> uvicorn.Config:
    """How uvicorn runs the app: bounded h11 protocol, short keep-alive, warnings only.

    ``log=False`` leaves uvicorn's loggers to the caller's logging set-up.
    """
    return uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        http=BoundedH11Protocol,
        timeout_keep_alive=5,
        log_level="warning",
        log_config=LOGGING_CONFIG if log else None,
    )
