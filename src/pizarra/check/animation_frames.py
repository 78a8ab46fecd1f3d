"""What the check says about an animation a cell drew as frames.

The kernel shows an animation left as a cell's value as some of its frames
(:mod:`pizarra.check.kernel.animation`): when it has more than can be shown, the frames
left out are not silently lost, a warning at the cell says how many there were.
"""

from __future__ import annotations

from collections.abc import Sequence

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.source.blocks import Figure


def shown_figures(figures: Sequence[Figure]) -> list[Figure | tuple[Figure, ...]]:
    """A cell's figures as a reader meets them: each still figure, and the frames of each
    animation as one item (an animation's first frame is frame 1; the kernel always
    shows it)."""
    shown: list[Figure | list[Figure]] = []
    for figure in figures:
        last = shown[-1] if shown else None
        if not figure.frames:
            shown.append(figure)
        elif isinstance(last, list) and figure.frame != 1 and last[-1].frames == figure.frames:
            last.append(figure)
        else:
            shown.append([figure])
    return [tuple(item) if isinstance(item, list) else item for item in shown]


def animations(figures: Sequence[Figure]) -> list[tuple[Figure, ...]]:
    """The frames of each animation among ``figures``, in order."""
    return [item for item in shown_figures(figures) if isinstance(item, tuple)]


def dropped_frames(pos: SourcePos, figures: Sequence[Figure]) -> list[Diagnostic]:
    """A warning at the cell for each animation shown with fewer frames than it has."""
    found = []
    for frames in animations(figures):
        total, shown = frames[0].frames, len(frames)
        if shown < total:
            found.append(
                Diagnostic(
                    pos,
                    f"the animation has {total} frames: {shown} of them, evenly spaced, "
                    f"are shown and {total - shown} are left out",
                    hint="to show other moments, draw them as figures of their own, or "
                    "give the animation fewer frames (`frames=`)",
                    severity=Severity.WARNING,
                )
            )
    return found
