"""Golden files for the renderer: source fragment -> expected HTML."""

from __future__ import annotations

import pytest

from pizarra.render.pages import render_lesson_body
from tests.support import FIXTURES, fake_math, lesson_from, read_fixtures, small_course

CASES = [
    pytest.param(source, expected, id=f"{path.stem}:{title}")
    for path in sorted((FIXTURES / "render").glob("*.md"))
    for title, source, expected in read_fixtures(path)
]


@pytest.mark.parametrize(("source", "expected"), CASES)
def test_render(source: str, expected: str) -> None:
    lesson, errors = lesson_from(source)
    assert errors == []
    assert lesson is not None
    html = render_lesson_body(small_course(lesson), lesson, fake_math)
    assert normalise(str(html)) == normalise(expected)


def normalise(html: str) -> str:
    return "\n".join(line.strip() for line in html.strip().splitlines() if line.strip())
