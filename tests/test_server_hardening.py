"""``pizarra serve`` against hostile clients: hosts, repeated parameters, slow or broken
requests, security headers, a failing rebuild, and restarting on the same port."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from starlette.testclient import TestClient

from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.tools import Tools
from pizarra.serve import protocol
from pizarra.serve.app import create_app, server_config
from tests.support import FIXTURES, fake_math, wait_until

COURSE = FIXTURES / "site" / "course"
PAGE = "/primera/"


def tools() -> Tools:
    return Tools(fake_math, KernelRunner(), None)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(COURSE, tools(), watch=False)
    with TestClient(app, base_url="http://127.0.0.1:8000") as test_client:
        yield test_client


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, Path]]:
    """A real server (uvicorn, our protocol) on a free port, serving a copy of the course."""
    monkeypatch.setattr(protocol, "HEADER_TIMEOUT", 0.5)
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    sock = protocol.listen(0)
    port = int(sock.getsockname()[1])
    server = uvicorn.Server(server_config(create_app(course, tools()), port, log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield port, course
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _raw(port: int, data: bytes, wait: float = 5) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as conn:
        conn.sendall(data)
        chunks = []
        while True:
            try:
                chunk = conn.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example"])
def test_a_foreign_host_header_is_refused(client: TestClient, host: str) -> None:
    response = client.get(PAGE, headers={"host": host})
    assert response.status_code == 400
    assert "Primera" not in response.text


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "localhost"])
def test_local_host_headers_are_served(client: TestClient, host: str) -> None:
    assert client.get(PAGE, headers={"host": host}).status_code == 200


@pytest.mark.parametrize("query", ["n=2048&n=4096", "a=1&a=1", "x=1&y=2&x=3"])
def test_a_repeated_query_parameter_is_a_400(client: TestClient, query: str) -> None:
    response = client.get(f"{PAGE}?{query}")
    assert response.status_code == 400
    assert "más de una vez" in response.text


@pytest.mark.parametrize("path", [PAGE, "/", "/assets/pizarra.css", "/no-such-page/"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    csp = response.headers["content-security-policy"]
    for directive in (
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ):
        assert directive in csp
    assert "unsafe-inline" not in csp


def test_the_header_policy_allows_the_pages_own_style_attributes(client: TestClient) -> None:
    page = client.get(PAGE)
    header = page.headers["content-security-policy"]
    assert '<meta http-equiv="Content-Security-Policy"' in page.text
    meta = page.text.split('http-equiv="Content-Security-Policy" content="')[1].split('"')[0]
    assert header == meta + "; frame-ancestors 'none'"


def test_incomplete_request_headers_time_out(live: tuple[int, Path]) -> None:
    port, _ = live
    started = time.monotonic()
    answer = _raw(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1", wait=10)
    waited = time.monotonic() - started
    assert answer == b"", "the connection is closed without an answer"
    assert waited < 5, f"held open for {waited:.1f} s"


def test_a_silent_connection_times_out(live: tuple[int, Path]) -> None:
    port, _ = live
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        started = time.monotonic()
        assert conn.recv(100) == b""
        assert time.monotonic() - started < 5


def test_answers_leave_without_waiting_for_acknowledgements(
    live: tuple[int, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nagle's algorithm is off on every connection (an asset's body would otherwise wait
    for the client's delayed acknowledgement of its headers)."""
    settings: list[int] = []
    made = protocol.BoundedH11Protocol.connection_made

    def spy(self: protocol.BoundedH11Protocol, transport: asyncio.Transport) -> None:
        made(self, transport)
        sock = transport.get_extra_info("socket")
        settings.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    monkeypatch.setattr(protocol.BoundedH11Protocol, "connection_made", spy)
    port, _ = live
    for _ in range(2):
        answer = _raw(
            port,
            b"GET /assets/pizarra.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            5,
        )
        assert answer.startswith(b"HTTP/1.1 200")
    assert len(settings) == 2 and all(settings)


def test_a_malformed_chunk_size_is_a_400_without_a_traceback(
    live: tuple[int, Path], caplog: pytest.LogCaptureFixture
) -> None:
    port, _ = live
    request = (
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"zz\r\nabc\r\n0\r\n\r\n"
    )
    assert _raw(port, request).startswith(b"HTTP/1.1 400 ")
    time.sleep(0.3)
    assert httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
    assert not [r for r in caplog.records if r.exc_info], "no traceback is logged"
    assert "Invalid HTTP request received." in caplog.messages


def test_the_watcher_survives_a_crashing_build_and_reports_it(
    live: tuple[int, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pizarra.serve import app as server

    port, course = live
    base = f"http://127.0.0.1:{port}"

    def crash(*args: object, **kwargs: object) -> object:
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")

    real = server.verify
    monkeypatch.setattr(server, "verify", crash)
    lesson = course / "lessons" / "01-primera.md"
    with httpx.stream("GET", base + "/_pizarra/events", timeout=20) as events:
        lines = events.iter_lines()
        assert next(lines).startswith("retry:")
        time.sleep(0.3)
        lesson.write_text(lesson.read_text() + "\nUno.\n", encoding="utf-8")
        _event(lines, "reload")
    page = httpx.get(base + PAGE, timeout=20).text  # answered once the build is over
    assert "internal error while building the site" in page.split("data-pizarra-errors", 1)[1]
    monkeypatch.setattr(server, "verify", real)
    with httpx.stream("GET", base + "/_pizarra/events", timeout=20) as events:
        lines = events.iter_lines()
        assert next(lines).startswith("retry:")
        lesson.write_text(lesson.read_text().replace("\nUno.\n", "\nDos.\n"), encoding="utf-8")
        _event(lines, "reload")
    page = httpx.get(base + PAGE, timeout=20).text
    assert "Dos." in page
    assert "data-pizarra-errors" not in page


def test_a_failing_cache_write_is_reported_and_serving_goes_on(
    live: tuple[int, Path], monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from pizarra.pipeline import build

    def broken(*args: object) -> None:
        raise OSError("no space left on device")

    monkeypatch.setattr(build, "_write_caches", broken)
    port, course = live
    lesson = course / "lessons" / "01-primera.md"
    for word in ("Tres.", "Cuatro."):
        text = lesson.read_text(encoding="utf-8")
        lesson.write_text(text + f"\n{word}\n", encoding="utf-8")
        wait_until(lambda w=word: w in httpx.get(f"http://127.0.0.1:{port}{PAGE}", timeout=20).text)
    wait_until(lambda: "keeping the caches failed" in capfd.readouterr().err)


def _save_during_a_held_build(
    monkeypatch: pytest.MonkeyPatch, course: Path, line: str, then_fail: bool = False
) -> threading.Event:
    """Add ``line`` to the first lesson and return once the rebuild it brings has begun.
    That build waits for the event returned; ``then_fail`` makes it crash after that."""
    from pizarra.serve import app as server

    started, release = threading.Event(), threading.Event()
    real = server.verify

    def held(*args: object, **kwargs: object) -> object:
        started.set()
        release.wait(30)
        if then_fail:
            raise ValueError("the build broke")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(server, "verify", held)
    lesson = course / "lessons" / "01-primera.md"
    lesson.write_text(lesson.read_text() + f"\n{line}\n", encoding="utf-8")
    assert started.wait(20)
    return release


def test_a_page_asked_for_during_a_rebuild_is_the_rebuilt_one(
    live: tuple[int, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # This is what lets a save reload the page at once: the reload's request waits.
    port, course = live
    release = _save_during_a_held_build(monkeypatch, course, "Mientras tanto.")
    answers: list[str] = []
    asking = threading.Thread(
        target=lambda: answers.append(httpx.get(f"http://127.0.0.1:{port}{PAGE}", timeout=20).text)
    )
    asking.start()
    asking.join(0.5)
    assert answers == [], "answered before the build was done"
    release.set()
    asking.join(20)
    assert "Mientras tanto." in answers[0]


def test_a_rebuild_that_takes_too_long_does_not_hang_requests(
    live: tuple[int, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pizarra.serve import app as server

    port, course = live
    monkeypatch.setattr(server, "HOLD", 0.3)
    release = _save_during_a_held_build(monkeypatch, course, "Tarde.")
    try:
        begun = time.monotonic()
        page = httpx.get(f"http://127.0.0.1:{port}{PAGE}", timeout=20)
        assert time.monotonic() - begun < 5
        assert page.status_code == 200
        assert "Tarde." not in page.text  # the last good build answered
    finally:
        release.set()


def test_a_page_that_connects_during_a_failing_build_is_told_its_errors(
    live: tuple[int, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A page loaded just before a save may open its event stream after the rebuild
    # began: it missed the reload, so the build's end must reach it.
    port, course = live
    release = _save_during_a_held_build(monkeypatch, course, "Roto.", then_fail=True)
    with httpx.stream("GET", f"http://127.0.0.1:{port}/_pizarra/events", timeout=20) as events:
        lines = events.iter_lines()
        assert next(lines).startswith("retry:")
        release.set()
        assert "the build broke" in _event(lines, "errors")


def _event(lines: Iterator[str], name: str) -> str:
    current, data = "", []
    for line in lines:
        if line.startswith("event: "):
            current = line.removeprefix("event: ")
        elif line.startswith("data: "):
            data.append(line.removeprefix("data: "))
        elif not line and current:
            if current == name:
                return "\n".join(data)
            current, data = "", []
    raise AssertionError(f"no {name} event")


def test_serve_restarts_at_once_on_the_same_port(tmp_path: Path) -> None:
    """Ctrl+C with a connection open leaves TIME_WAIT sockets; a restart must not care."""
    sock = protocol.listen(0)
    port = int(sock.getsockname()[1])
    sock.close()
    env = {**os.environ, "PIZARRA_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "pizarra", "serve", str(COURSE), "--port", str(port)]
    for attempt in range(2):
        process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    with httpx.Client() as http:
                        if http.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                            break
                except httpx.TransportError:
                    assert process.poll() is None, f"attempt {attempt}: {process.stderr.read()}"
                    time.sleep(0.1)
        finally:
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=30)
        assert "is in use" not in err, f"attempt {attempt}: {err}"
