"""The matplotlib backend of the kernel: figures become SVG documents, never windows.

The kernel's environment names this module as ``MPLBACKEND`` (``module://...``), so it
is imported only by matplotlib itself, when a cell first draws. ``plt.show()`` and the
end of every cell both hand the open figures over, in order, and close them, as the
inline backend of Jupyter does. The SVG is made deterministic: a fixed ``svg.hashsalt``
(the ids of clip paths and glyphs), no date in the metadata, text drawn as paths (no
font needs to exist on the reader's machine), and a white figure background that the
page's dark mode inverts.
"""

from __future__ import annotations

import io
import re

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.backends.backend_agg import FigureCanvasAgg

FigureCanvas = FigureCanvasAgg

_shown: list[tuple[bytes, int, int]] = []

_SIZE = re.compile(rb'<svg[^>]*?width="([\d.]+)pt" height="([\d.]+)pt"')


def show(*args: object, **kwargs: object) -> None:
    """``plt.show()``: render every open figure now, in order, and close them."""
    _shown.extend(_render_open())


def take_figures() -> list[tuple[bytes, int, int]]:
    """Every figure shown or left open since the last call: ``(svg, width, height)``."""
    figures = [*_shown, *_render_open()]
    _shown.clear()
    return figures


def _render_open() -> list[tuple[bytes, int, int]]:
    rendered = []
    for number in plt.get_fignums():
        figure = plt.figure(number)
        buffer = io.BytesIO()
        with matplotlib.rc_context({"svg.hashsalt": "pizarra", "svg.fonttype": "path"}):
            figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
        svg = buffer.getvalue()
        match = _SIZE.search(svg)
        width, height = (
            (round(float(match.group(1)) * 4 / 3), round(float(match.group(2)) * 4 / 3))
            if match
            else (640, 480)
        )
        rendered.append((svg, width, height))
    plt.close("all")
    return rendered
