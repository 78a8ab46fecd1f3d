"""``pizarra serve``: the built site from memory, explorer states, live reload.

A thin Starlette app. The site is built once, held in memory and replaced only
by a build that passes, so a broken edit never takes down the page being read;
the build's errors are pushed to the open page instead. Route handlers only map
requests to the build's output or to ``render_lesson_page``.
"""

from __future__ import annotations

import asyncio
import mimetypes
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from pizarra.build import Report, Tools, verify
from pizarra.check.ledger import LessonLedger
from pizarra.explorers import ExplorerStateError, state_params
from pizarra.i18n.strings import t
from pizarra.model import Course, Lesson
from pizarra.render import lesson_path, render_lesson_page, render_status_page

LIVE_SCRIPT = b'<script type="module" src="/_pizarra/live.js"></script>\n</body>'
MAX_QUERY = 2048
MAX_PATH = 1024


@dataclass
class SiteState:
    """The last good build and what the last build said."""

    course: Course | None = None
    """The course of the last good build."""
    files: dict[str, bytes] = field(default_factory=dict)
    """Its files."""
    errors: str = ""
    """The last build's diagnostics, if it failed."""
    version: int = 0
    """Bumped after every build, good or bad: open pages watch it."""
    ledgers: dict[Path, LessonLedger] = field(default_factory=dict)
    """What the last good build verified, per lesson (for pages rendered on request)."""

    def accept(self, report: Report, strict: bool) -> None:
        text = "\n".join(d.format() for d in report.diagnostics)
        if report.failed(strict):
            self.errors = text or "build failed"
        else:
            self.course, self.files, self.errors = report.course, report.files, ""
            self.ledgers = report.ledgers
        self.version += 1


def create_app(
    src: Path, tools: Tools, strict: bool = False, watch: bool = True, strict_claims: bool = False
) -> Starlette:
    """The app for ``src``; ``watch`` rebuilds on file changes (off in tests)."""
    state = SiteState()
    changed = asyncio.Condition()

    def rebuild() -> None:
        report = verify(src, tools, strict_claims)
        for diagnostic in report.diagnostics:
            print(diagnostic.format(), file=sys.stderr)
        state.accept(report, strict)
        status = "failed; still serving the last good build" if state.errors else "ok"
        print(f"pizarra serve: build {status} ({report.seconds:.2f} s)", file=sys.stderr)

    async def rebuild_async() -> None:
        await anyio.to_thread.run_sync(rebuild)
        async with changed:
            changed.notify_all()

    async def watcher() -> None:
        from watchfiles import awatch

        root = src if src.is_dir() else src.parent
        async for _ in awatch(root, watch_filter=lambda _change, path: not _ignored(path)):
            await rebuild_async()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await rebuild_async()
        task = asyncio.create_task(watcher()) if watch else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()

    def newer_than(version: int) -> Callable[[], bool]:
        return lambda: state.version != version

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            seen = state.version
            yield "retry: 1000\n\n"
            while not await request.is_disconnected():
                try:
                    async with changed:
                        await asyncio.wait_for(changed.wait_for(newer_than(seen)), timeout=15)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
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
        script = (Path(__file__).parent / "static" / "live.js").read_bytes()
        return Response(script, media_type="text/javascript")

    async def page(request: Request) -> Response:
        return await anyio.to_thread.run_sync(lambda: respond(state, tools, request, watch))

    return Starlette(
        routes=[
            Route("/_pizarra/events", events),
            Route("/_pizarra/live.js", live_script),
            Route("/{path:path}", page),
        ],
        lifespan=lifespan,
    )


def respond(state: SiteState, tools: Tools, request: Request, live: bool) -> Response:
    """Answer one GET for a page or an asset of the current build."""
    course = state.course
    raw_path = request.url.path
    if len(raw_path) > MAX_PATH or len(request.url.query) > MAX_QUERY:
        message = t(course.lang, "uri_too_long") if course else ""
        return _status(course, 414, "bad_request_title", message, live)
    if course is None:
        return HTMLResponse(_error_page(state.errors), status_code=503)
    name = _file_name(raw_path)
    if name is None:
        return _status(course, 404, "not_found_title", "", live)
    if name not in state.files and f"{name}/index.html" in state.files:
        return RedirectResponse(
            raw_path + "/" + (f"?{request.url.query}" if request.url.query else ""), status_code=308
        )
    data = state.files.get(name)
    if data is None:
        return _status(course, 404, "not_found_title", "", live)
    lesson = _lesson_for(course, name)
    if lesson is not None and request.query_params:
        query = dict(request.query_params)
        params = {p for e in lesson.explorers() for p in state_params(e.spec)}
        if params & set(query):
            try:
                ledger = state.ledgers.get(lesson.path)
                data = render_lesson_page(course, lesson, tools.math, query, ledger).encode()
            except ExplorerStateError as exc:
                return _status(course, 400, "bad_request_title", exc.message, live, root="../")
    media = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if media == "text/html":
        return HTMLResponse(_inject(data, live))
    return Response(data, media_type=media)


def _file_name(path: str) -> str | None:
    parts = PurePosixPath(unquote(path)).parts[1:]
    if any(part in ("..", ".") or "\x00" in part or "\\" in part for part in parts):
        return None
    name = "/".join(parts)
    if path.endswith("/") or not name:
        name = f"{name}/index.html" if name else "index.html"
    return name


def _lesson_for(course: Course, name: str) -> Lesson | None:
    return next((lesson for lesson in course.lessons() if lesson_path(lesson) == name), None)


def _inject(html: bytes, live: bool) -> bytes:
    return html.replace(b"</body>", LIVE_SCRIPT, 1) if live else html


def _status(
    course: Course | None, status: int, title_key: str, message: str, live: bool, root: str = "/"
) -> Response:
    if course is None:
        return HTMLResponse(
            f"<!doctype html><title>{status}</title><p>{status}</p>", status_code=status
        )
    html = render_status_page(course, status, t(course.lang, title_key), message, root).encode()
    return HTMLResponse(_inject(html, live), status_code=status)


def _error_page(errors: str) -> str:
    from markupsafe import escape

    return (
        '<!doctype html><html lang="en"><meta charset="utf-8"><title>pizarra: build failed</title>'
        "<main><h1>The build failed</h1><p>Fix these and save; the page reloads by itself.</p>"
        f"<pre>{escape(errors)}</pre></main>"
        '<script type="module" src="/_pizarra/live.js"></script></html>'
    )


def _ignored(path: str) -> bool:
    parts = Path(path).parts
    return any(p.startswith(".") or p in ("__pycache__", "_site") for p in parts)


def serve(
    src: Path, port: int, tools: Tools, strict: bool = False, strict_claims: bool = False
) -> int:
    """Run the development server until interrupted."""
    import socket

    import uvicorn

    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            print(
                f"pizarra serve: port {port} on 127.0.0.1 is in use\n"
                f"    hint: stop the other server, or choose another port: --port {port + 1}",
                file=sys.stderr,
            )
            return 1
    app = create_app(src, tools, strict, strict_claims=strict_claims)
    print(f"pizarra serve: http://127.0.0.1:{port}/  (Ctrl+C to stop)", file=sys.stderr)
    config: Mapping[str, Any] = {"host": "127.0.0.1", "port": port, "log_level": "warning"}
    uvicorn.run(app, **config)
    return 0
