"""A markdown cell's attachments (images pasted into the notebook) -> image files.

Jupyter stores a pasted image in the cell itself (``attachments``, base64) and the
cell shows it as ``![alt](attachment:name.png)``. ``pizarra import`` writes each one
beside the lesson, in ``<lesson>-images/``, and points the image at that file. Only the
raster types pizarra shows are kept (an SVG can carry scripts); anything else is
dropped with a note, like an attachment too large or not valid base64.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from pizarra.source.syntax.figure import IMAGE_TYPES, MAX_IMAGE_BYTES

_REFERENCE = re.compile(r"\]\(attachment:([^()\s]+)\)")
_TYPES = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp"}
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def attached_images(
    cell: Any, text: str, stem: str, index: int, notes: list[str], files: list[tuple[str, bytes]]
) -> str:
    """``text`` with ``attachment:`` images pointing at files added to ``files``."""
    if "attachment:" not in text:
        return text
    raw = cell.get("attachments") if hasattr(cell, "get") else None
    attachments = raw if isinstance(raw, dict) else {}

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        found = _decoded(attachments.get(name))
        if found is None:
            notes.append(f"cell {index}: the attachment {name!r} is missing or not an image")
            return f"]({name})"
        data, suffix = found
        if suffix not in IMAGE_TYPES or len(data) > MAX_IMAGE_BYTES:
            notes.append(f"cell {index}: dropped the attachment {name!r} (type or size)")
            return f"]({name})"
        base = _SAFE.sub("-", name.rsplit(".", 1)[0]).strip("-.") or "image"
        path = f"{stem}-images/cell{index}-{base}{suffix}"
        if all(existing != path for existing, _ in files):
            files.append((path, data))
        return f"]({path})"

    return _REFERENCE.sub(replace, text)


def _decoded(bundle: object) -> tuple[bytes, str] | None:
    if not isinstance(bundle, dict):
        return None
    for mime, suffix in _TYPES.items():
        value = bundle.get(mime)
        if isinstance(value, list):
            value = "".join(str(v) for v in value)
        if isinstance(value, str):
            try:
                return base64.b64decode(value, validate=False), suffix
            except (binascii.Error, ValueError):
                return None
    return None
