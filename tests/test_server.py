"""``pizarra serve``: pages, explorer states, bad requests, and rebuild + reload."""

from __future__ import annotations

import gc
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from pizarra.base.cache import Cache
from pizarra.check.code_cells import ResultCache
from pizarra.check.kernel.execute import KernelRunner
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline import lessons, parsed
from pizarra.pipeline.tools import Tools
from pizarra.serve.answers import LIVE_JS, LIVE_URL
from pizarra.serve.app import create_app
from pizarra.source.course import BUNDLED
from tests.support import fake_math, serving, wait_until

LESSON = "/potencias-para-la-ia/"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    course = tmp_path_factory.mktemp("course") / "math-for-ai"
    shutil.copytree(BUNDLED, course)
    tools = Tools(MathCoreRenderer(), KernelRunner(), ResultCache.under(course))
    app = create_app(course, tools, watch=False)
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client


def test_course_and_lesson_pages(client: TestClient) -> None:
    home = client.get("/")
    assert home.status_code == 200
    assert "Potencias para la IA" in home.text
    lesson = client.get(LESSON)
    assert lesson.status_code == 200
    assert lesson.headers["content-type"].startswith("text/html")
    assert "/_pizarra/live.js" not in lesson.text, "no live reload without watching"
    assert client.get("/assets/pizarra.css").headers["content-type"].startswith("text/css")


def test_the_search_index_follows_the_build(client: TestClient) -> None:
    deadline = time.monotonic() + 60
    while client.get("/pagefind/pagefind-entry.json").status_code != 200:
        assert time.monotonic() < deadline, "the search index never came"
        time.sleep(0.1)
    assert client.get("/pagefind/pagefind-ui.js").status_code == 200


def test_search_asked_for_before_its_index_exists_waits_for_it(tmp_path: Path) -> None:
    """Just after ``serve`` starts the index is still being made: a learner who opens
    search then gets it once it is there (each edition's), not a 404 the page never
    asks again; a search file the index does not have is still a 404."""
    course = tmp_path / "math-for-ai"
    shutil.copytree(BUNDLED, course)
    tools = Tools(MathCoreRenderer(), KernelRunner(), ResultCache.under(course))
    with TestClient(create_app(course, tools, watch=False), base_url="http://127.0.0.1") as c:
        first = c.get("/en/pagefind/pagefind-ui.js")
        assert first.status_code == 200, first.text[:200]
        assert c.get("/pagefind/pagefind-ui.js").status_code == 200
        assert c.get("/pagefind/pagefind-absent.js").status_code == 404


def test_explorer_state_is_rendered_on_the_server(client: TestClient) -> None:
    page = client.get(LESSON, params={"n": "2048"})
    assert page.status_code == 200
    assert "4.194.304" in page.text
    assert 'aria-current="true">2048</a>' in page.text


def test_explorer_state_is_rendered_from_a_course_served_as_outlines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server whose lessons' parses are kept holds their outlines only; a state page
    rendered on request gets its lesson's body back from the kept parse."""
    course = tmp_path / "math-for-ai"
    shutil.copytree(BUNDLED, course)

    def app() -> Starlette:
        store = Cache(tmp_path / "cache")
        tools = Tools(MathCoreRenderer(), KernelRunner(), ResultCache.under(course), None, store)
        return create_app(course, tools, watch=False)

    with TestClient(app(), base_url="http://127.0.0.1") as first:
        assert first.get(LESSON).status_code == 200
    monkeypatch.setattr(parsed, "_MEMORY", parsed.Recent(parsed.MEMORY, per_group=2))
    monkeypatch.setattr(parsed, "_OUTLINES", parsed.Recent(parsed.MEMORY, per_group=2))
    monkeypatch.setattr(lessons, "_MEMORY", lessons.Recent(lessons.MEMORY, per_group=2))
    with TestClient(app(), base_url="http://127.0.0.1") as again:
        page = again.get(LESSON, params={"n": "2048"})
        assert page.status_code == 200
        assert 'aria-current="true">2048</a>' in page.text and "4.194.304" in page.text
        assert again.get(LESSON, params={"n": "3"}).status_code == 400


@pytest.mark.parametrize("value", ["3", "abc", "1e3", "-128", "2048.0", "9" * 400, ""])
def test_explorer_state_outside_domain_is_400(client: TestClient, value: str) -> None:
    page = client.get(LESSON, params={"n": value})
    assert page.status_code == 400
    assert "128, 256, 512, 1024, 2048, 4096, 8192" in page.text


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/no-such-page/", 404),
        ("GET", "/assets/../../etc/passwd", 404),
        ("GET", "/%2e%2e/%2e%2e/etc/passwd", 404),
        ("GET", "/a%00b", 404),
        ("POST", "/", 405),
        ("DELETE", LESSON, 405),
        ("GET", "/?" + "x" * 5000, 414),
        ("GET", "/potencias-para-la-ia", 308),
    ],
)
def test_bad_requests_get_4xx_or_redirect(
    client: TestClient, method: str, path: str, status: int
) -> None:
    response = client.request(method, path, follow_redirects=False)
    assert response.status_code == status


@pytest.mark.parametrize(
    ("path", "location"),
    [
        ("/potencias-para-la-ia", "/potencias-para-la-ia/"),
        ("//potencias-para-la-ia", "/potencias-para-la-ia/"),
        ("///potencias-para-la-ia?n=2048", "/potencias-para-la-ia/?n=2048"),
    ],
)
def test_a_folder_redirects_to_a_path_on_this_host(
    client: TestClient, path: str, location: str
) -> None:
    """``//slug`` must not become ``Location: //slug/``, which a browser reads as a host."""
    response = client.get("http://127.0.0.1" + path, follow_redirects=False)
    assert response.status_code == 308
    assert response.headers["location"] == location


def test_head_is_answered(client: TestClient) -> None:
    assert client.head(LESSON).status_code == 200


LESSON_TEXT = """---
title: Vivo
lesson: 1
lang: es
summary: Prueba de recarga.
---

Versión {version}: $2^{exp}={value}$.
"""


def test_rebuilds_on_change_and_keeps_last_good_site(tmp_path: Path) -> None:
    source = tmp_path / "vivo.md"
    source.write_text(LESSON_TEXT.format(version="uno", exp=3, value=8), encoding="utf-8")
    app = create_app(source, Tools(fake_math, KernelRunner(), None))
    with serving(app) as base:
        wait_until(lambda: _get(base + "/vivo/") is not None)
        first = _get(base + "/vivo/") or ""
        assert "Versión uno" in first
        head = first.split("</head>", 1)[0]
        assert f'<script type="module" src="{LIVE_URL}">' in head, "found as the page starts"
        script = httpx.get(base + LIVE_URL, timeout=5)
        assert script.content == LIVE_JS
        assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
        plain = httpx.get(base + "/_pizarra/live.js", timeout=5)
        assert plain.headers["cache-control"] == "no-cache", "only a URL naming it is kept"
        with httpx.stream("GET", base + "/_pizarra/events", timeout=20) as events:
            lines = events.iter_lines()
            assert next(lines).startswith("retry:")
            time.sleep(0.3)
            source.write_text(LESSON_TEXT.format(version="dos", exp=4, value=16), encoding="utf-8")
            assert _next_event(lines) == "reload"  # at once: the page's request waits
            assert "Versión dos" in (_get(base + "/vivo/") or "")
            with pytest.raises(AssertionError, match="ended"):
                _next_event(lines)  # the reloaded page opens a stream of its own
        with httpx.stream("GET", base + "/_pizarra/events", timeout=20) as events:
            lines = events.iter_lines()
            assert next(lines).startswith("retry:")
            source.write_text(LESSON_TEXT.format(version="tres", exp=4, value=15), encoding="utf-8")
            assert _next_event(lines) == "reload"
        page = _get(base + "/vivo/") or ""
        assert "Versión dos" in page, "a failed build must not replace the served site"
        assert "<div data-pizarra-errors" in page, "every page shows the failed build's errors"
        assert "vivo.md:" in page.split("data-pizarra-errors", 1)[1]
        missing = httpx.get(base + "/no-existe/", timeout=5).text
        assert "<div data-pizarra-errors" in missing


def test_a_build_followed_at_once_by_a_failing_one_still_gets_its_search_index(
    tmp_path: Path,
) -> None:
    # The good build's index is put off while the next rebuild runs; that rebuild fails,
    # so the good build stays served, and its index must still come.
    source = tmp_path / "vivo.md"
    source.write_text(LESSON_TEXT.format(version="uno", exp=3, value=8), encoding="utf-8")
    app = create_app(source, Tools(fake_math, KernelRunner(), None))
    with serving(app) as base:
        entry = base + "/pagefind/pagefind-entry.json"
        wait_until(lambda: _get(entry) is not None, seconds=60)
        first = _get(entry)
        time.sleep(0.3)  # the watcher is watching
        source.write_text(LESSON_TEXT.format(version="dos", exp=4, value=16), encoding="utf-8")
        wait_until(lambda: "Versión dos" in (_get(base + "/vivo/") or ""), seconds=20)
        source.write_text(LESSON_TEXT.format(version="tres", exp=4, value=15), encoding="utf-8")
        wait_until(lambda: "data-pizarra-errors" in (_get(base + "/vivo/") or ""), seconds=20)
        assert "Versión dos" in (_get(base + "/vivo/") or "")
        wait_until(lambda: _get(entry) not in (None, first), seconds=30)


def test_what_a_build_leaves_in_memory_is_set_aside_from_the_collector(tmp_path: Path) -> None:
    source = tmp_path / "vivo.md"
    source.write_text(LESSON_TEXT.format(version="uno", exp=3, value=8), encoding="utf-8")
    gc.unfreeze()
    try:
        app = create_app(source, Tools(fake_math, KernelRunner(), None), watch=False)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            assert client.get("/vivo/").status_code == 200
            wait_until(lambda: gc.get_freeze_count() > 0)
    finally:
        gc.unfreeze()


def _next_event(lines: Iterator[str]) -> str:
    for line in lines:
        if line.startswith("event: "):
            return line.removeprefix("event: ")
    raise AssertionError("the event stream ended")


def _get(url: str) -> str | None:
    try:
        response = httpx.get(url, timeout=5)
    except httpx.TransportError:
        return None
    return response.text if response.status_code == 200 else None


def test_serve_on_a_busy_port_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    from pizarra.cli import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--example", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert f"port {port} on 127.0.0.1 is in use" in err
    assert "hint: " in err


def test_a_first_build_that_fails_shows_the_courses_own_error_page(tmp_path: Path) -> None:
    """No good build yet: the errors on the course's styled status page (503), its
    stylesheet served, as a later failure shows them on the last good page."""
    (tmp_path / "bad.md").write_text(
        "---\ntitle: Bad\nlesson: 1\nlang: en\nsummary: S.\n---\n:::{notee}\nx\n:::\n",
        encoding="utf-8",
    )
    tools = Tools(fake_math, KernelRunner(), None)
    app = create_app(tmp_path / "bad.md", tools, watch=False)
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        page = test_client.get("/")
        assert page.status_code == 503
        assert "The build failed" in page.text and "unknown directive {notee}" in page.text
        css = next(part.split('"')[0] for part in page.text.split('href="')[1:] if ".css" in part)
        sheet = test_client.get("/" + css.lstrip("./").lstrip("/"))
        assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/css")
