"""Serve explorer pages to Chromium: a small stand-in for ``pizarra serve``.

Pages are rendered per request with :func:`render_explorer`, so ``?n=`` states
are answered by the server (400 for a value outside the domain), like the real
server does; assets come from :func:`explorer_assets`.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import axe_playwright_python
import pytest
from markupsafe import Markup
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Response,
    expect,
    sync_playwright,
)

from pizarra.base.errors import SourcePos
from pizarra.render.explorers import (
    ExplorerStateError,
    asset_names,
    explorer_assets,
    render_explorer,
)
from pizarra.source.blocks import Explorer
from pizarra.source.explorers import parse_explorer
from tests.support import serving

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "explorers"
AXE = Path(axe_playwright_python.__file__).parent / "axe.min.js"
CHROMIUM = "/usr/bin/chromium"
BLOCK = re.compile(r"^:::\{explorer\} (\w+)\n(.*?)^:::$", re.S | re.M)
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def location(page: Page) -> str:
    """The page's URL as the page has it now: ``page.url`` follows ``history.replaceState``
    only once the browser's event about it has reached Playwright, which under load comes
    after the next line of a test has read it."""
    return str(page.evaluate("location.href"))


class Quiet:
    """A page's requests in flight, counted from its events, so that a sweep of many
    pages waits until none is left instead of for Playwright's ``networkidle`` (none
    for 500 ms: half a second of every page, about a quarter of an axe sweep)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.pending = 0
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def stop(self) -> None:
        """Stop counting (a page opened by :func:`open_quietly` once more counts anew)."""
        self.page.remove_listener("request", self._started)
        self.page.remove_listener("requestfinished", self._ended)
        self.page.remove_listener("requestfailed", self._ended)

    def goto(self, url: str) -> Response | None:
        """Open ``url`` and wait for its load event, its fonts and every request it made."""
        response = self.page.goto(url, wait_until="load")
        self.page.evaluate("document.fonts.ready")
        self.wait()
        return response

    def wait(self, timeout: float = 30.0) -> None:
        """Wait until no request of the page is in flight (its events are taken in while
        Playwright waits)."""
        deadline = time.monotonic() + timeout
        while self.pending > 0:
            assert time.monotonic() < deadline, f"{self.pending} request(s) still in flight"
            self.page.wait_for_timeout(10)

    def _started(self, _: object) -> None:
        self.pending += 1

    def _ended(self, _: object) -> None:
        self.pending -= 1


def open_quietly(page: Page, url: str) -> Response | None:
    """Open ``url`` and wait for its load event, its fonts and every request it made."""
    quiet = Quiet(page)
    try:
        return quiet.goto(url)
    finally:
        quiet.stop()


def load_explorer(name: str, lang: str, edit: tuple[str, str] | None = None) -> Explorer:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    match = BLOCK.search(text)
    assert match is not None
    body = match.group(2) if edit is None else match.group(2).replace(*edit)
    pos = SourcePos(name, text[: match.start()].count("\n") + 1)
    spec, diagnostics = parse_explorer(match.group(1), body, pos, lang)
    assert spec is not None, diagnostics
    return Explorer(match.group(1), spec, pos)


COURSE = ROOT / "src" / "pizarra" / "source" / "bundled" / "math-for-ai" / "lessons"


def course_explorers() -> dict[str, Explorer]:
    """Every explorer of the bundled course, by the path of its test page."""
    found: dict[str, Explorer] = {}
    for lesson in sorted(COURSE.glob("*.md")):
        text = lesson.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            pos = SourcePos(lesson.name, text[: match.start()].count("\n") + 1)
            spec, diagnostics = parse_explorer(match.group(1), match.group(2), pos, "es")
            assert spec is not None, diagnostics
            found[f"/course/{lesson.stem}/{spec.id}"] = Explorer(match.group(1), spec, pos)
    return found


COURSE_EXPLORERS = course_explorers()

PAGES: dict[str, tuple[str, list[Explorer]]] = {
    **{path: ("es", [explorer]) for path, explorer in COURSE_EXPLORERS.items()},
    "/": ("es", [load_explorer("potencias.md", "es")]),
    "/cubic": ("en", [load_explorer("cubic-en.md", "en")]),
    "/logs": ("es", [load_explorer("logaritmos.md", "es")]),
    "/logs-en": ("en", [load_explorer("logaritmos.md", "en")]),
    "/funcion": ("es", [load_explorer("funcion.md", "es")]),
    "/mitades": ("es", [load_explorer("mitades.md", "es")]),
    "/interes": ("es", [load_explorer("interes.md", "es")]),
    "/static-interes": ("es", [load_explorer("interes.md", "es")]),
    "/static-funcion": ("es", [load_explorer("funcion.md", "es")]),
    "/softmax": ("es", [load_explorer("softmax.md", "es")]),
    "/static-softmax": ("es", [load_explorer("softmax.md", "es")]),
    "/softmax-en": ("en", [load_explorer("softmax.md", "en")]),
    "/function-en": ("en", [load_explorer("funcion.md", "en")]),
    "/static-two": ("es", [load_explorer("potencias.md", "es")]),
    "/two": (
        "es",
        [
            load_explorer("potencias.md", "es"),
            load_explorer("potencias.md", "es", ("id: crecimiento-atencion", "id: segundo")),
        ],
    ),
}


def page_html(lang: str, fragments: list[Markup], kinds: tuple[str, ...] = ("growth",)) -> str:
    names = dict.fromkeys(n for kind in kinds for n in asset_names(kind))
    links = "".join(
        f'<script type="module" src="/assets/{n}"></script>'
        if n.endswith(".js")
        else f'<link rel="stylesheet" href="/assets/{n}">'
        for n in names
    )
    body = "\n".join(str(f) for f in fragments)
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Explorer</title>{links}</head><body><main><h1>Explorer</h1>"
        f"<p>Text before the explorer.</p>{body}<p>Text after the explorer.</p>"
        "</main></body></html>"
    )


class Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        assets = explorer_assets()
        name = url.path.removeprefix("/assets/")
        if url.path.startswith("/assets/") and name in assets:
            kind = "text/javascript" if name.endswith(".js") else "text/css"
            self.send(200, assets[name], kind + "; charset=utf-8")
            return
        if url.path not in PAGES:
            self.send(404, b"not found", "text/plain")
            return
        lang, explorers = PAGES[url.path]
        query = dict(parse_qsl(url.query, keep_blank_values=True))
        if url.path.startswith("/static-"):
            query = {}  # a static host: the page is the same whatever the query
        try:
            fragments = [render_explorer(e, lang, query) for e in explorers]
        except ExplorerStateError as exc:
            html = f"<!doctype html><title>400</title><p>{escape(exc.message)}</p>"
            self.send(400, html.encode(), "text/html; charset=utf-8")
            return
        kinds = tuple(dict.fromkeys(e.kind for e in explorers))
        self.send(200, page_html(lang, fragments, kinds).encode(), "text/html; charset=utf-8")


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


PATIENCE_MS = 120_000
"""How long an action or a wait may take before it fails: a page that does what it must
passes however loaded the machine is (Playwright's own 30 s failed under a load of 10 on
two cores); what each test asserts is unchanged."""


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: run `make test` (it installs it)")
    expect.set_options(timeout=PATIENCE_MS)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        opened, paged = chromium.new_context, chromium.new_page

        def patient_context(**options: Any) -> BrowserContext:
            context = opened(**options)
            context.set_default_timeout(PATIENCE_MS)
            return context

        def patient_page(**options: Any) -> Page:
            page = paged(**options)
            page.set_default_timeout(PATIENCE_MS)
            return page

        # Every context and page a test opens, however it opens them.
        chromium.new_context = patient_context  # type: ignore[method-assign]
        chromium.new_page = patient_page  # type: ignore[method-assign]
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    # Reduced motion: the marker does not animate, so positions can be read at once.
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def nojs_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(java_script_enabled=False, reduced_motion="reduce")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def axe_path() -> str:
    if not AXE.exists():
        pytest.fail("axe-core is missing: run `make setup` (axe-playwright-python ships it)")
    return str(AXE)


@dataclass(frozen=True)
class ServedCourse:
    """A course served by the real ``pizarra serve`` app on a free port."""

    url: str
    """Base URL, ending without a slash."""
    root: Path
    """The course's source folder (a copy, safe to edit)."""


def serve_course(src: Path) -> Iterator[ServedCourse]:
    """Run pizarra's own server app for ``src`` in a thread, without file watching."""
    from pizarra.check.code_cells import ResultCache
    from pizarra.check.kernel.execute import KernelRunner
    from pizarra.math.mathml import MathCoreRenderer
    from pizarra.pipeline.tools import Tools
    from pizarra.serve.app import create_app

    root = src if src.is_dir() else src.parent
    tools = Tools(MathCoreRenderer(), KernelRunner(), ResultCache.under(root))
    with serving(create_app(src, tools, watch=False)) as base:
        yield ServedCourse(base, root)


@pytest.fixture(scope="session")
def bundled_course(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedCourse]:
    """The bundled Math for AI course, served by ``pizarra serve``'s app."""
    from pizarra.source.course import BUNDLED

    copy = tmp_path_factory.mktemp("bundled") / "math-for-ai"
    shutil.copytree(BUNDLED, copy)
    yield from serve_course(copy)


@pytest.fixture(scope="session")
def cubic_lesson(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedCourse]:
    """The English cubic-growth test lesson, a course of one lesson."""
    folder = tmp_path_factory.mktemp("cubic")
    shutil.copy(FIXTURES / "cubic-en.md", folder / "cubic-en.md")
    yield from serve_course(folder / "cubic-en.md")


SUB = "/sub"
"""The sub-path the built site is served under, as on a project page of a static host."""


class StaticHost(SimpleHTTPRequestHandler):
    """A plain static file server, answering a missing file with the site's 404.html
    (as GitHub Pages and Netlify do) and caching nothing."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / SUB.strip("/") / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@dataclass(frozen=True)
class BuiltSite:
    """The bundled course as ``pizarra build`` wrote it, on a plain static file server."""

    url: str
    """Base URL: the sub-path, without a trailing slash."""
    out: Path
    """The build's output folder."""


@pytest.fixture(scope="session")
def static_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The bundled course built by ``pizarra build`` and served by a plain static file
    server under :data:`SUB`.

    The build runs in a process of its own: it forks workers, which must not inherit
    the test process's browser threads.
    """
    host = tmp_path_factory.mktemp("host")
    out = host / SUB.strip("/")
    done = subprocess.run(
        [sys.executable, "-m", "pizarra", "build", "--example", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    handler = functools.partial(StaticHost, directory=str(host))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield BuiltSite(f"http://127.0.0.1:{server.server_address[1]}{SUB}", out)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
