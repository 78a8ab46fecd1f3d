"""What a kernel sends back, checked before it is believed.

A cell runs in the very process that writes the kernel's answers, so it can write on
that pipe too (it can find the pipe in the kernel's frames). Whatever arrives there is
therefore untrusted: anything that is not one well-formed answer (malformed or deeply
nested JSON, a list, unknown keys, a bad figure) is a :class:`ProtocolError`, the cell's
fault, reported at the cell. The kernel's exit and the isolation report come on another
pipe, the launcher's, which the kernel never holds, so no cell can forge them.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from pizarra.source.blocks import Figure

MAX_FIGURES = 200
"""Figures one answer may carry."""

MAX_HTML = 512 * 1024
"""Characters of a table's HTML (as :data:`pizarra.check.kernel.jupyter_defaults.MAX_HTML`)."""

MAX_SIDE = 100_000
"""Pixels of a figure's width or height."""

MAX_FRAMES = 1_000_000
"""Frames an animation's frame numbers may count up to."""


class ProtocolError(ValueError):
    """Something on the kernel's answer pipe that the kernel itself does not write."""


@dataclass(frozen=True)
class Answer:
    """The kernel's answer to one cell."""

    ok: bool
    figures: tuple[Figure, ...]
    missing: tuple[str, ...]
    html: str = ""
    """A DataFrame value's ``text/html``: untrusted, rebuilt before it is shown."""

    @property
    def figure_bytes(self) -> int:
        return sum(len(figure.svg) for figure in self.figures)


def parse_answer(line: bytes) -> Answer:
    """One answer line, or :class:`ProtocolError`."""
    message = _json(line)
    if not isinstance(message, dict) or set(message) - {"html"} != {"ok", "figures", "missing"}:
        raise ProtocolError("a message that is not an answer")
    html = message.get("html", "")
    if not isinstance(html, str) or len(html) > MAX_HTML:
        raise ProtocolError("an answer with a table that is not text or too long")
    ok, figures, missing = message["ok"], message["figures"], message["missing"]
    if not isinstance(ok, bool) or not isinstance(figures, list) or not isinstance(missing, list):
        raise ProtocolError("an answer with fields of the wrong type")
    if len(figures) > MAX_FIGURES or len(missing) > 20:
        raise ProtocolError("an answer with too many entries")
    if not all(isinstance(name, str) for name in missing):
        raise ProtocolError("an answer with a package name that is not text")
    figures_found = tuple(_figure(item) for item in figures)
    return Answer(ok, figures_found, tuple(m[:100] for m in missing), html)


def parse_status(line: bytes) -> dict[str, Any]:
    """One line from the launcher: ``{"isolation": ..., "details": [...]}`` or
    ``{"exit": code}``; an empty dict for anything else (it never writes anything else)."""
    try:
        message = _json(line)
    except ProtocolError:
        return {}
    if not isinstance(message, dict):
        return {}
    if isinstance(message.get("exit"), int):
        return {"exit": message["exit"], "error": str(message.get("error", ""))}
    if isinstance(message.get("isolation"), str) and isinstance(message.get("details"), list):
        return {"isolation": message["isolation"], "details": [str(d) for d in message["details"]]}
    return {}


def _json(line: bytes) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("a line that is not JSON") from exc


def _figure(item: object) -> Figure:
    if not isinstance(item, dict) or set(item) - {"frame", "frames"} != {"svg", "width", "height"}:
        raise ProtocolError("a figure that is not a figure")
    svg, width, height = item["svg"], item["width"], item["height"]
    if not isinstance(svg, str) or not all(
        type(side) is int and 0 <= side <= MAX_SIDE for side in (width, height)
    ):
        raise ProtocolError("a figure with fields of the wrong type")
    frame, frames = item.get("frame", 0), item.get("frames", 0)
    if ("frame" in item) != ("frames" in item) or not (
        type(frame) is int and type(frames) is int and 0 <= frame <= frames <= MAX_FRAMES
    ):
        raise ProtocolError("a figure with a frame number that is not one")
    try:
        data = base64.b64decode(svg, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ProtocolError("a figure that is not base64") from exc
    return Figure(data, width, height, frame, frames)
