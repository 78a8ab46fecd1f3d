"""A matplotlib animation left as a cell's value, drawn as a sequence of still frames.

In Jupyter, an ``Animation`` that ends a cell is shown as a player (``rc('animation',
html='jshtml')``) or a video; a static page has neither. :func:`take_frames` steps the
animation through every one of its frames, as ``Animation.save`` does, and renders some
of them with the kernel's figure machinery (:func:`pizarra.check.kernel.figures.render_svg`):
at most ``MAX_FRAMES``, evenly spaced and always the first and the last, and no more
than fit in ``FRAMES_BUDGET`` bytes of SVG at the size of the first. Each frame is
tagged with its number and the animation's count, so the page shows them as one
ordered sequence and the check says how many were left out.

The work is bounded: an animation with no end (``frames=None`` and no ``save_count``)
is stepped ``MAX_STEPS`` times. Stepping calls the animation's own update function for
every frame, in order, so an update that depends on the previous one draws what the
animation would have. matplotlib is imported only when a value is an animation.

A notebook that shows its animation with ``HTML(anim.to_jshtml())`` or
``HTML(anim.to_html5_video())`` gets the same frames (:func:`install`).
"""

from __future__ import annotations

import itertools
import sys
from typing import Any

MAX_FRAMES = 60
"""Frames of one animation shown at most."""

FRAMES_BUDGET = 6 * 1024 * 1024
"""Bytes of SVG the frames of one animation may take together (estimated from the first)."""

MAX_STEPS = 1000
"""Frames an animation is stepped through at most."""


class FramesShown(str):
    """What ``to_jshtml()`` and ``to_html5_video()`` return in the kernel: no player and
    no video (the kernel has no ffmpeg to rely on, a page no inline script), but an empty
    text whose frames are already among the cell's figures. ``HTML(anim.to_jshtml())``
    left as a cell's value therefore shows them, and prints nothing."""


def install() -> None:
    """Make ``Animation.to_jshtml`` and ``to_html5_video`` hand the frames over instead.

    Called when a cell imports ``matplotlib.animation``
    (:func:`pizarra.check.kernel.jupyter_defaults.install`)."""
    from matplotlib.animation import Animation

    def as_frames(self: Any, *args: object, **kwargs: object) -> FramesShown:
        take_frames(self)
        return FramesShown()

    Animation.to_jshtml = as_frames  # type: ignore[method-assign]
    Animation.to_html5_video = as_frames  # type: ignore[method-assign]


def shown_as_frames(value: object) -> bool:
    """True for the value of ``anim.to_jshtml()``, or an ``HTML`` object holding it."""
    return isinstance(value, FramesShown) or isinstance(getattr(value, "data", None), FramesShown)


class AnimationError(RuntimeError):
    """An animation whose frames could not be drawn (its update function failed)."""


def is_animation(value: object) -> bool:
    """True for a matplotlib ``Animation`` (without importing matplotlib otherwise)."""
    animation = sys.modules.get("matplotlib.animation")
    return animation is not None and isinstance(value, animation.Animation)


def sample(total: int, count: int) -> list[int]:
    """``count`` indices of ``range(total)``, evenly spaced, the first and last among them."""
    if total <= 0 or count <= 0:
        return []
    if count >= total:
        return list(range(total))
    if count == 1:
        return [0]
    return sorted({round(i * (total - 1) / (count - 1)) for i in range(count)})


def take_frames(anim: Any) -> int:
    """Render the frames of ``anim`` into the cell's figures; how many frames it has.

    The animation's figure is closed afterwards: its frames are what the reader sees
    of it, as a player is in Jupyter.
    """
    import matplotlib.pyplot as plt

    from pizarra.check.kernel import figures

    figure = anim._fig
    canvas = figure.canvas
    saving = canvas._is_saving
    canvas._is_saving = True  # as Animation.save: the draw does not start its timer
    try:
        frames = list(itertools.islice(anim.new_saved_frame_seq(), MAX_STEPS))
        anim._init_draw()
        rendered = _render(anim, figure, frames) if frames else []
    except Exception as exc:
        raise AnimationError(
            f"the animation's frames could not be drawn: {type(exc).__name__}: {exc}"
        ) from exc
    finally:
        canvas._is_saving = saving
        anim._draw_was_started = True
        event_source = getattr(anim, "event_source", None)
        if event_source is not None:
            event_source.stop()
    plt.close(figure)
    total = len(frames)
    for number, svg in rendered:
        width, height = figures.css_size(svg)
        figures.add_shown(svg, width, height, frame=(number + 1, total))
    return total


def _render(anim: Any, figure: Any, frames: list[Any]) -> list[tuple[int, bytes]]:
    """Step through every frame; the SVG of the sampled ones, by frame index."""
    from pizarra.check.kernel import figures

    rendered: list[tuple[int, bytes]] = []
    wanted: set[int] = {0}
    for index, data in enumerate(frames):
        anim._draw_next_frame(data, blit=False)
        if index not in wanted:
            continue
        svg = figures.render_svg(figure)
        rendered.append((index, svg))
        if index == 0:
            fit = max(1, FRAMES_BUDGET // max(len(svg), 1))
            wanted = set(sample(len(frames), min(MAX_FRAMES, fit)))
    return rendered
