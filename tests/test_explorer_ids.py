"""Every id an explorer's page gives its parts is declared in ``ELEMENT_SUFFIXES``, so a
heading or a label can never take one of them: read from real renders, two sliders
included, not from a list written beside the templates."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pizarra.base.errors import Severity, SourcePos
from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.build import verify
from pizarra.pipeline.tools import Tools
from pizarra.render.explorers import render_explorer, state_pages
from pizarra.source.blocks import Explorer
from pizarra.source.explorers import parse_explorer
from pizarra.source.syntax.explorer import ELEMENT_SUFFIXES
from tests.support import FIXTURES, FRONT, fake_math

BLOCK = re.compile(r"^:::\{explorer\} (\w+)\n(.*?)^:::$", re.S | re.M)
SECOND_TEMPERATURE = (
    "weight: exp(score / T)\n",
    "weight: exp(s*score / T)\n",
)
SECOND_PARAM = """  - name: s
    label: Escala s
    values: [1, 2]
    initial: 1
    hint: Elige la escala de las puntuaciones.
categories:
"""


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.extend(v for k, v in attrs if k == "id" and v is not None)


def _fixture(name: str) -> tuple[str, str]:
    match = BLOCK.search((FIXTURES / "explorers" / name).read_text(encoding="utf-8"))
    assert match is not None
    return match.group(1), match.group(2)


def _two_slider_distribution() -> tuple[str, str]:
    kind, body = _fixture("softmax.md")
    body = body.replace(*SECOND_TEMPERATURE).replace("categories:\n", SECOND_PARAM, 1)
    return kind, body


def _explorer(kind: str, body: str) -> Explorer:
    spec, errors = parse_explorer(kind, body, SourcePos("ids.md", 3), "es")
    assert errors == [] and spec is not None
    return Explorer(kind, spec, spec.pos)


def _rendered_ids(explorer: Explorer) -> set[str]:
    """The ids of its initial render and of every state page's."""
    pages = [str(render_explorer(explorer, "es"))]
    pages += [str(render_explorer(explorer, "es", query)) for query in _queries(explorer)]
    found: set[str] = set()
    for html in pages:
        scan = _Ids()
        scan.feed(html)
        found.update(scan.ids)
    return found


def _queries(explorer: Explorer) -> list[dict[str, str]]:
    return [query for _, query in state_pages(explorer.spec)][:5]


CASES = {
    "growth": lambda: _fixture("potencias.md"),
    "function, two sliders": lambda: _fixture("interes.md"),
    "distribution, two sliders": _two_slider_distribution,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_generated_id_is_an_element_suffix(case: str) -> None:
    explorer = _explorer(*CASES[case]())
    ident = explorer.spec.id
    ids = _rendered_ids(explorer)
    assert ident in ids
    parts = {i.removeprefix(ident) for i in ids if i != ident}
    assert all(i.startswith(ident + "-") for i in ids if i != ident), ids
    assert parts - set(ELEMENT_SUFFIXES) == set()


def test_two_slider_explorers_do_render_a_second_slider() -> None:
    for case in ("function, two sliders", "distribution, two sliders"):
        explorer = _explorer(*CASES[case]())
        ids = _rendered_ids(explorer)
        assert {explorer.spec.id + s for s in ("-range-2", "-label-2", "-hint-2")} <= ids


def test_a_heading_named_like_a_second_slider_makes_the_explorer_an_error(
    tmp_path: Path,
) -> None:
    explorer = (FIXTURES / "explorers" / "interes.md").read_text(encoding="utf-8")
    explorer = explorer[explorer.index(":::{explorer}") :]
    lesson = tmp_path / "ids.md"
    body = "\n## interes range 2\n\n" + explorer
    lesson.write_text(FRONT.format(lang="es") + body, encoding="utf-8")
    report = verify(lesson, Tools(fake_math, KernelRunner(), None))
    errors = [d.message for d in report.diagnostics if d.severity is Severity.ERROR]
    assert errors == [
        "the explorer's id 'interes' gives an element the id 'interes-range-2', "
        "already used in this page"
    ]
