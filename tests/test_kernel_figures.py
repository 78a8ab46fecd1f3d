"""The kernel's figure backend: dense data becomes one embedded PNG, the rest stays vector."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest
from matplotlib.figure import Figure

from pizarra.check.kernel import figures as kernel_figures
from pizarra.check.kernel.figures import render_svg


def scatter(points: int, groups: int = 1) -> Figure:
    figure = Figure(figsize=(8, 5))
    axes = figure.add_subplot()
    draws = np.random.default_rng(7).normal(size=points)
    for group in range(groups):
        axes.scatter(np.arange(group, points, groups), draws[group::groups], s=8, alpha=0.5)
    axes.axhline(0.0, ls="--", label="media")
    axes.set_xlabel("número de tiradas")
    # A fixed place: with loc="best", matplotlib warns when placing it took over a
    # second, which a loaded machine reaches, and the suite makes warnings errors.
    axes.legend(loc="upper right")
    return figure


def images(svg: bytes) -> int:
    return svg.count(b"<image ")


def test_a_light_figure_stays_all_vector() -> None:
    svg = render_svg(scatter(500))
    assert images(svg) == 0 and svg.count(b"<use ") > 500


def test_an_artist_with_very_many_points_is_rasterized_and_text_stays_vector() -> None:
    svg = render_svg(scatter(300_000))
    assert len(svg) < 1024 * 1024 and images(svg) == 1
    assert b"data:image/png;base64," in svg and b"<script" not in svg
    assert b"<!-- n\xc3\xbamero de tiradas -->" in svg and b"<!-- media -->" in svg
    assert re.search(rb'<use xlink:href="#DejaVuSans-[0-9a-f]+"', svg)
    assert b"stroke-dasharray" in svg  # the mean's line is still a vector path
    assert render_svg(scatter(300_000)) == svg


def test_many_middling_artists_are_rasterized_when_the_svg_passes_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    svg = render_svg(scatter(40_000, groups=8))
    assert images(svg) == 1 and len(svg) < kernel_figures.SVG_BUDGET
    budget = kernel_figures.SVG_BUDGET
    monkeypatch.setattr(kernel_figures, "SVG_BUDGET", 2**40)
    vector = render_svg(scatter(40_000, groups=8))
    assert images(vector) == 0 and len(vector) > budget > len(svg)
    assert b"<!-- n\xc3\xbamero de tiradas -->" in svg and b"stroke-dasharray" in svg


def test_the_smaller_of_vector_and_raster_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    def ramp() -> Figure:
        figure = Figure(figsize=(8, 5))
        figure.add_subplot().plot(np.linspace(0.0, 1.0, 100))
        return figure

    vector = render_svg(ramp())
    monkeypatch.setattr(kernel_figures, "SVG_BUDGET", len(vector) // 2)
    assert render_svg(ramp()) == vector and images(vector) == 0


def test_the_rasterized_parts_have_a_fixed_resolution() -> None:
    svg = render_svg(scatter(60_000))
    [(encoded, points)] = re.findall(
        rb'<image xlink:href="data:image/png;base64,\n([^"]+)"[^>]* width="([\d.]+)"', svg
    )
    png = base64.b64decode(encoded.replace(b"\n", b""))
    pixels = int.from_bytes(png[16:20], "big")  # the width in the PNG's IHDR chunk
    assert pixels / (float(points) / 72) == pytest.approx(kernel_figures.RASTER_DPI, rel=0.01)
