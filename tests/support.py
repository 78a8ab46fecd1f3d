"""Helpers shared by the tests: fixture files, a fake math renderer, small courses."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import uvicorn
from markupsafe import escape
from starlette.types import ASGIApp

from pizarra.source.lower import parse_lesson
from pizarra.source.model import Course, CourseEntry, Lesson

FIXTURES = Path(__file__).parent / "fixtures"


def read_fixtures(path: Path) -> list[tuple[str, str, str]]:
    """Cases of a markdown-it style fixture file: title, ``.``, input, ``.``, expected, ``.``."""
    lines = path.read_text(encoding="utf-8").split("\n")
    cases, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "":
            i += 1
            continue
        title = lines[i]
        assert lines[i + 1] == ".", f"{path.name}: expected '.' after title {title!r}"
        i += 2
        source: list[str] = []
        while lines[i] != ".":
            source.append(lines[i])
            i += 1
        i += 1
        expected: list[str] = []
        while lines[i] != ".":
            expected.append(lines[i])
            i += 1
        i += 1
        cases.append((title, "\n".join(source) + "\n", "\n".join(expected) + "\n"))
    return cases


def fake_math(tex: str, display: bool) -> str:
    """A stand-in for math-core: deterministic, escaped, marks display math."""
    return f'<math display="{"block" if display else "inline"}">{escape(tex)}</math>'


FRONT = """---
title: Prueba
lesson: 1
lang: {lang}
summary: Una lección de prueba.
sources:
  - id: libro
    title: Un libro
    url: https://example.org/libro
---
"""


def lesson_from(
    body: str, tmp: Path | None = None, lang: str = "es", name: str = "prueba.md"
) -> tuple[Lesson | None, list[str]]:
    """Parse ``body`` under a standard front matter; returns the lesson and formatted errors."""
    text = FRONT.format(lang=lang) + body
    path = (tmp or Path(".")) / name
    lesson, diagnostics = parse_lesson(path, name, text)
    return lesson, [d.format() for d in diagnostics]


def small_course(lesson: Lesson) -> Course:
    """Lesson 1 (given), lesson 2 published, lesson 3 upcoming."""
    other = replace(lesson, number=2, title="Otra", slug="otra", blocks=())
    return Course(
        "Curso de prueba",
        lesson.lang,
        "",
        Path("."),
        (
            CourseEntry(1, lesson.title, lesson.summary, lesson),
            CourseEntry(2, "Otra", "Otra lección.", other),
            CourseEntry(3, "Futura", "Todavía no.", None),
        ),
    )


def wait_until(condition: Callable[[], bool], seconds: float = 20) -> None:
    """Return once ``condition()`` holds; fail the test after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@contextmanager
def serving(app: ASGIApp) -> Iterator[str]:
    """``app`` run by uvicorn in a thread on a free port: its base URL, until the block
    ends (the server is stopped then)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started or not thread.is_alive(), seconds=60)
        assert server.started, "the server did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
