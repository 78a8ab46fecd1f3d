"""Figures from cells are published only as plain drawings: hostile SVG is refused at the cell."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import matplotlib
import pytest
from matplotlib.axes import Axes

from pizarra.check.figure_svg import svg_problem
from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.build import build
from pizarra.pipeline.tools import Tools
from tests.support import fake_math
from tests.test_cell_figures import LESSON, write_course

matplotlib.use("agg")

import matplotlib.pyplot as plt

from pizarra.check.kernel.figures import render_svg

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
PNG = "data:image/png;base64,iVBORw0KGgo="

HOSTILE = {
    "script": "<script>alert(document.domain)</script>",
    "script-in-group": "<g><script>alert(1)</script></g>",
    "xhtml-script": '<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>',
    "foreign-object": "<foreignObject><div>x</div></foreignObject>",
    "onload": '<rect onload="alert(1)" width="1" height="1"/>',
    "mixed-case-handler": '<rect onLoad="alert(1)"/>',
    "handler-in-namespace": '<rect xmlns:e="urn:x" e:onclick="alert(1)"/>',
    "javascript-link": '<a xlink:href="javascript:alert(1)"><rect/></a>',
    "use-external": '<use href="https://evil.example/x.svg#a"/>',
    "use-javascript": '<use xlink:href="javascript:alert(1)"/>',
    "image-svg-data": '<image href="data:image/svg+xml;base64,PHN2Zz4="/>',
    "image-external": '<image href="https://evil.example/track.png"/>',
    "animate-href": '<animate attributeName="href" to="javascript:alert(1)"/>',
    "set-href": '<set attributeName="href" to="javascript:alert(1)"/>',
    "style-import": "<style>@import url(https://evil.example/a.css);</style>",
    "style-url": "<style>rect { fill: url(https://evil.example/x) }</style>",
    "style-attribute-url": '<rect style="fill: url(//evil.example/x)"/>',
    "presentation-url": '<rect fill="url(https://evil.example/#a)"/>',
    "iframe": "<iframe src='https://evil.example'/>",
    "instruction": '<?xml-stylesheet href="https://evil.example/a.xsl"?><rect/>',
    "metadata-outside": '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>',
}


@pytest.mark.parametrize("body", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_parts_are_refused(body: str) -> None:
    assert svg_problem(f"{HEAD}{body}</svg>".encode()) is not None


@pytest.mark.parametrize(
    "document",
    [
        b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>'
        + HEAD.encode()
        + b"<text>&b;</text></svg>",
        b'<!DOCTYPE svg SYSTEM "file:///etc/passwd">' + HEAD.encode() + b"</svg>",
        b"<svg><script>alert(1)</script></svg>",
        b'<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
        HEAD.encode() + b"<rect>",
        b"not xml at all",
        b"",
    ],
    ids=["entities", "external-dtd", "no-namespace", "html-root", "unclosed", "text", "empty"],
)
def test_documents_that_are_not_plain_svg_are_refused(document: bytes) -> None:
    assert svg_problem(document) is not None


def test_internal_links_and_embedded_pictures_are_drawing() -> None:
    svg = (
        f'{HEAD}<defs><clipPath id="c"><rect width="1" height="1"/></clipPath></defs>'
        '<style type="text/css">*{stroke-linejoin: round}</style>'
        f'<g clip-path="url(#c)" style="fill: url(#c)"><use xlink:href="#c"/>'
        f'<image xlink:href="{PNG}" width="1" height="1"/></g>'
        '<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>'
        "<text>&lt;/svg&gt;&lt;script&gt;</text></svg>"
    )
    assert svg_problem(svg.encode()) is None


def _figure(draw: Callable[[Axes], object]) -> bytes:
    figure, axes = plt.subplots(figsize=(3, 2))
    try:
        draw(axes)
        return render_svg(figure)
    finally:
        plt.close(figure)


def _annotated(axes: Axes) -> None:
    axes.hist([1, 2, 2, 3], bins=3)
    axes.annotate("pico", (2, 2), xytext=(1, 1), arrowprops={"arrowstyle": "->"})


def _linked(axes: Axes) -> None:
    axes.bar([1], [1])[0].set_url("javascript:alert(document.domain)")


@pytest.mark.parametrize(
    "draw",
    [
        lambda axes: (axes.plot([1, 2, 3], [1, 4, 9], label="$x^2$"), axes.legend()),
        lambda axes: plt.colorbar(axes.imshow([[0, 1], [1, 0]])),
        lambda axes: (axes.bar(["a", "b"], [1, 2], hatch="//"), axes.set_yscale("log")),
        lambda axes: axes.scatter(range(3000), range(3000)),
        _annotated,
        lambda axes: axes.text(0.5, 0.5, "</svg><script>", bbox={"boxstyle": "round"}),
    ],
    ids=["line", "image", "bars", "dense", "annotated", "escaped-text"],
)
def test_what_matplotlib_draws_is_published(draw: Callable[[Axes], object]) -> None:
    assert svg_problem(_figure(draw)) is None


def test_a_matplotlib_link_is_refused() -> None:
    problem = svg_problem(_figure(_linked))
    assert problem == "it contains the element <a>, which is not part of a drawing"


SCRIPTED = LESSON.replace(
    "ax.plot(xs, [x * x for x in xs]);",
    "bars = ax.bar(xs, xs)\nbars[0].set_url('javascript:alert(document.domain)')",
)
FORGED = LESSON.replace(
    "ax.plot(xs, [x * x for x in xs]);",
    "import pizarra.check.kernel.figures as figures\n"
    "evil = b'<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>'\n"
    "figures.take_figures = lambda: [(evil, 100, 100)]",
)


@pytest.mark.parametrize("lesson", [SCRIPTED, FORGED], ids=["set_url", "forged"])
def test_a_cell_with_a_hostile_figure_fails_at_its_line(tmp_path: Path, lesson: str) -> None:
    course = write_course(tmp_path / "course", lesson)
    out = tmp_path / "site"
    report = build(course, out, Tools(fake_math, KernelRunner(), None))
    errors = [d.format() for d in report.diagnostics if d.severity.name == "ERROR"]
    assert len(errors) == 1, errors
    assert "01-figura.md:15:1:" in errors[0] and "is not published" in errors[0]
    assert not out.exists(), "a failed build publishes nothing"
