"""``wiki:Title`` links, read as mystmd reads them: the English Wikipedia's page."""

from __future__ import annotations

from pathlib import Path

import pytest

from pizarra.cli import main


def _build(tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str]) -> str:
    course = tmp_path / "course"
    course.mkdir()
    (course / "course.yaml").write_text(
        "title: C\nlang: en\nlessons:\n  - number: 1\n    file: 01-a.md\n", encoding="utf-8"
    )
    (course / "01-a.md").write_text(
        "---\ntitle: A\nlesson: 1\nlang: en\nsummary: S.\n---\n" + body, encoding="utf-8"
    )
    out = tmp_path / "site"
    assert main(["build", str(course), "-o", str(out)]) == 0, capsys.readouterr().err
    return next(out.glob("*/index.html")).read_text(encoding="utf-8")


def test_a_wiki_link_goes_to_wikipedia(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = _build(
        tmp_path,
        "See [Fortran](wiki:Fortran), [](wiki:Gravitational_wave) and"
        " [the list](wiki:List_of_programming_languages#F).\n",
        capsys,
    )
    assert '<a href="https://en.wikipedia.org/wiki/Fortran">Fortran</a>' in page
    assert (
        '<a href="https://en.wikipedia.org/wiki/Gravitational_wave">Gravitational wave</a>' in page
    )
    assert 'href="https://en.wikipedia.org/wiki/List_of_programming_languages#F"' in page
    assert "wiki:" not in page


def test_a_wiki_autolink_shows_the_title(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = _build(tmp_path, "See <wiki:Monte_Carlo_method>.\n", capsys)
    assert (
        '<a href="https://en.wikipedia.org/wiki/Monte_Carlo_method">Monte Carlo method</a>' in page
    )
