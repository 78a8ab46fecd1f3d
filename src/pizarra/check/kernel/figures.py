"""The matplotlib backend of the kernel: figures become SVG documents, never windows.

The kernel's environment names this module as ``MPLBACKEND`` (``module://...``), so it
is imported only by matplotlib itself, when a cell first draws. ``plt.show()`` and the
end of every cell both hand the open figures over, in order, and close them, as the
inline backend of Jupyter does. The SVG is made deterministic: a fixed ``svg.hashsalt``
(the ids of clip paths and glyphs), no date in the metadata, text drawn as paths (no
font needs to exist on the reader's machine), and a white figure background that the
page's dark mode inverts.

Dense figures (a scatter of a million draws) would be SVGs of tens of megabytes, one
element per point. Their heavy artists are rasterized instead, as matplotlib's
``set_rasterized`` does for vector output: the SVG then embeds one PNG, at a fixed dpi,
for the data, while axes, ticks, text and legend stay vector. An artist with more than
``DENSE_POINTS`` points is rasterized before the first save; a figure whose SVG still
passes ``SVG_BUDGET`` is saved again with all but its sparsest plotted data rasterized,
and the smaller of the two is kept. What is still
too large after that (a huge image) meets the figure limit of :mod:`pizarra.check.kernel.execute`.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import Collection, QuadMesh
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from numpy.typing import ArrayLike

FigureCanvas = FigureCanvasAgg

DENSE_POINTS = 50_000
"""Points (vertices and markers) past which one artist is drawn as an image."""

SVG_BUDGET = 2 * 1024 * 1024
"""Bytes of SVG past which a figure is saved again with all its data rasterized."""

SPARSE_POINTS = 64
"""Points up to which an artist stays vector in any case (a reference line, a bar)."""

RASTER_DPI = 192
"""Pixels per inch of the rasterized parts: two device pixels per CSS pixel."""

Shown = tuple[bytes, int, int, tuple[int, int] | None]
"""A figure handed over: its SVG, width, height, and ``(k, n)`` for frame k of n of an
animation (:mod:`pizarra.check.kernel.animation`), else None."""

_shown: list[Shown] = []

warnings.filterwarnings("ignore", message=r'Creating legend with loc="best" can be slow')
"""matplotlib says so when placing a legend took over a second: a fact about the
machine's load, not the lesson, which would make a cell's stderr differ between runs."""

_SIZE = re.compile(rb'<svg[^>]*?width="([\d.]+)pt" height="([\d.]+)pt"')


def show(*args: object, **kwargs: object) -> None:
    """``plt.show()``: render every open figure now, in order, and close them."""
    _shown.extend(_render_open())


def add_shown(svg: bytes, width: int, height: int, frame: tuple[int, int] | None = None) -> None:
    """Hand over one rendered figure (a frame of an animation) after those shown so far."""
    _shown.append((svg, width, height, frame))


def take_figures() -> list[Shown]:
    """Every figure shown or left open since the last call (see :data:`Shown`)."""
    figures = [*_shown, *_render_open()]
    _shown.clear()
    return figures


def render_svg(figure: Figure) -> bytes:
    """The figure as a deterministic SVG, its dense data rasterized (see the module)."""
    dense = [artist for artist in _data_artists(figure) if _points(artist) > DENSE_POINTS]
    svg = _save(figure, dense)
    if len(svg) > SVG_BUDGET:
        rest = [artist for artist in _data_artists(figure) if _points(artist) > SPARSE_POINTS]
        raster = _save(figure, rest)
        svg = min(svg, raster, key=len)
    return svg


def css_size(svg: bytes) -> tuple[int, int]:
    """The SVG's width and height in CSS pixels (from its points), 640 by 480 if unsaid."""
    match = _SIZE.search(svg)
    if match is None:
        return 640, 480
    return round(float(match.group(1)) * 4 / 3), round(float(match.group(2)) * 4 / 3)


def _render_open() -> list[Shown]:
    rendered: list[Shown] = []
    for number in plt.get_fignums():
        svg = render_svg(plt.figure(number))
        rendered.append((svg, *css_size(svg), None))
    plt.close("all")
    return rendered


def _save(figure: Figure, rasterized: list[Artist]) -> bytes:
    """Save as SVG with ``rasterized`` drawn as images (at ``RASTER_DPI``)."""
    for artist in rasterized:
        artist.set_rasterized(True)
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "pizarra", "svg.fonttype": "path"}):
        figure.savefig(
            buffer,
            format="svg",
            bbox_inches="tight",
            metadata={"Date": None},
            dpi=RASTER_DPI if rasterized else None,
        )
    return buffer.getvalue()


def _data_artists(figure: Figure) -> Iterator[Artist]:
    """What the axes plot: lines, collections and patches, not their frame or text."""
    for axes in figure.axes:
        frame = {axes.patch, *axes.spines.values()}
        for artist in axes.get_children():
            if isinstance(artist, Line2D | Collection | Patch) and artist not in frame:
                yield artist


def _points(artist: Artist) -> int:
    """How many vertices and markers the artist draws, each an element or path step."""
    if isinstance(artist, Line2D):
        return _count(artist.get_xydata())
    if isinstance(artist, QuadMesh):
        return _count(artist.get_coordinates())
    if isinstance(artist, Collection):
        paths = artist.get_paths()
        return _count(artist.get_offsets()) + sum(_count(path.vertices) for path in paths)
    if isinstance(artist, Patch):
        return _count(artist.get_path().vertices)
    return 0


def _count(points: ArrayLike) -> int:
    """How many 2-D points an array of coordinates holds."""
    return int(np.size(points)) // 2
