"""An animation's frames after the kernel: how the page groups them, what the check says
of the frames left out, and what the answer pipe accepts as a frame."""

from __future__ import annotations

import base64
import json

import pytest

from pizarra.base.errors import Severity, SourcePos
from pizarra.check.animation_frames import animations, dropped_frames, shown_figures
from pizarra.check.kernel.answers import ProtocolError, parse_answer
from pizarra.source.blocks import Figure

POS = SourcePos("lesson.md", 3)


def still(n: int) -> Figure:
    return Figure(f"<svg>{n}</svg>".encode(), 10, 10)


def frame(k: int, n: int) -> Figure:
    return Figure(f"<svg>{k}/{n}</svg>".encode(), 10, 10, k, n)


def test_each_animation_is_one_item_between_the_still_figures() -> None:
    figures = [still(1), frame(1, 3), frame(2, 3), frame(3, 3), frame(1, 9), frame(9, 9), still(2)]
    assert shown_figures(figures) == [
        still(1),
        (frame(1, 3), frame(2, 3), frame(3, 3)),
        (frame(1, 9), frame(9, 9)),
        still(2),
    ]
    assert len(animations(figures)) == 2


def test_frames_left_out_are_a_warning_naming_how_many() -> None:
    whole = [frame(k, 3) for k in (1, 2, 3)]
    assert dropped_frames(POS, whole) == []
    [warning] = dropped_frames(POS, [frame(1, 200), frame(100, 200), frame(200, 200)])
    assert warning.severity == Severity.WARNING and warning.pos == POS
    assert "200 frames: 3 of them, evenly spaced, are shown and 197 are left out" in warning.message


def answer(figure: dict[str, object]) -> bytes:
    svg = base64.b64encode(b"<svg/>").decode()
    message = {
        "ok": True,
        "figures": [{"svg": svg, "width": 1, "height": 1, **figure}],
        "missing": [],
    }
    return json.dumps(message).encode()


def test_the_answer_pipe_takes_a_frame_number_and_nothing_like_one() -> None:
    [figure] = parse_answer(answer({"frame": 2, "frames": 5})).figures
    assert (figure.frame, figure.frames) == (2, 5)
    for bad in ({"frame": 2}, {"frame": 6, "frames": 5}, {"frame": "1", "frames": 5}, {"x": 1}):
        with pytest.raises(ProtocolError):
            parse_answer(answer(bad))
