"""Files of the course a directive reads (a ``{csv-table}``'s CSV, an ``{include}``d part).

They must lie inside the course folder, be UTF-8 and not too large; each one read is
recorded in the context, so the build treats it as an input of the lesson (a change to
it is a change to the lesson).
"""

from __future__ import annotations

from pathlib import Path

from pizarra.base.errors import SourcePos
from pizarra.source.syntax.context import LowerContext

MAX_FILE_BYTES = 1_000_000


def read_course_file(ctx: LowerContext, pos: SourcePos, name: str) -> tuple[str, Path] | None:
    """The text and path of ``name`` (next to the lesson, or from the course folder with a
    leading ``/``); None, with an error at ``pos``, if it cannot be used."""
    root = ctx.root.resolve()
    base = root if name.startswith("/") else ctx.lesson_file.parent.resolve()
    path = (base / name.lstrip("/")).resolve()
    if not name.strip() or not path.is_relative_to(root):
        ctx.error(
            pos, f"{name!r} is outside the course folder", hint="name a file in the course folder"
        )
        return None
    ctx.data_files.append(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        ctx.error(pos, f"cannot read {name}: {exc.strerror}")
        return None
    if len(raw) > MAX_FILE_BYTES:
        ctx.error(pos, f"{name} is larger than {MAX_FILE_BYTES:,} bytes")
        return None
    try:
        return raw.decode("utf-8-sig").replace("\r\n", "\n"), path
    except UnicodeDecodeError as exc:
        ctx.error(pos, f"{name} is not UTF-8 text (byte {exc.start})")
        return None
