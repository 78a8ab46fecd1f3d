"""Ids are unique in every page: headings step aside for the template and explorers,
and an explicit id used twice is an error at its line."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

from pizarra.base.errors import Severity
from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.build import verify
from pizarra.pipeline.tools import Tools
from tests.support import FIXTURES, FRONT, fake_math

EXPLORER = (FIXTURES / "explorers" / "potencias.md").read_text(encoding="utf-8")


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(v for k, v in attrs if k == "id" and v is not None)


def _verify(tmp_path: Path, body: str) -> tuple[list[str], dict[str, Counter[str]]]:
    lesson = tmp_path / "ids.md"
    lesson.write_text(FRONT.format(lang="es") + body, encoding="utf-8")
    report = verify(lesson, Tools(fake_math, KernelRunner(), None))
    pages = {}
    for name, data in report.files.items():
        if name.endswith(".html"):
            scan = _Ids()
            scan.feed(data.decode())
            pages[name] = scan.ids
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    return [f"{d.pos.line}:{d.pos.col}: {d.message}" for d in errors], pages


def test_headings_named_like_template_ids_get_other_ids(tmp_path: Path) -> None:
    body = "\n## Contenido\n\nTexto {cite}`libro`.\n\n## fuente-1\n\n## Fuentes\n\n## pregunta 1\n"
    errors, pages = _verify(tmp_path, body)
    assert errors == []
    ids = pages["ids/index.html"]
    assert {"contenido", "fuente-1", "fuentes"} <= set(ids)
    assert [i for i, n in ids.items() if n > 1] == []
    assert {"contenido-2", "fuente-1-2", "fuentes-2", "pregunta-1-2"} <= set(ids)


def test_a_heading_after_an_explorer_steps_aside(tmp_path: Path) -> None:
    errors, pages = _verify(tmp_path, "\n" + EXPLORER + "\n## Crecimiento atención\n")
    assert errors == []
    ids = pages["ids/index.html"]
    assert [i for i, n in ids.items() if n > 1] == []
    assert "crecimiento-atencion-2" in ids


def test_an_explorer_id_taken_by_an_earlier_heading_is_an_error_at_its_line(
    tmp_path: Path,
) -> None:
    errors, _ = _verify(tmp_path, "\n## Crecimiento atención\n\n" + EXPLORER)
    assert len(errors) == 1
    assert errors[0].startswith(
        "15:1: the explorer's id 'crecimiento-atencion' gives an element "
        "the id 'crecimiento-atencion', already used in this page"
    )


def test_two_explorers_with_one_id_is_an_error_at_the_second(tmp_path: Path) -> None:
    errors, _ = _verify(tmp_path, "\n" + EXPLORER + "\n" + EXPLORER)
    assert len(errors) == 1
    second = 12 + EXPLORER.count("\n") + 2
    assert errors[0].startswith(f"{second}:1: the explorer's id")


def test_an_explorer_id_that_is_a_template_id_is_an_error(tmp_path: Path) -> None:
    body = EXPLORER.replace("id: crecimiento-atencion", "id: fuente-2")
    errors, _ = _verify(tmp_path, "\n" + body)
    assert len(errors) == 1 and "'fuente-2'" in errors[0]


def test_a_page_with_a_repeated_id_fails_the_link_check() -> None:
    from pizarra.check.links import check_links

    page = b'<main id="contenido"><h2 id="a">A</h2><p id="a">B</p></main>'
    [error] = check_links({"x/index.html": page}, {"x/index.html": "x.md"})
    assert error.format().startswith("x.md:1:1: error: the id 'a' is used twice in x/index.html")
