"""Writing a file whole or not at all: what sources, caches and sites all need."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``path`` through a temporary file in its folder and one rename.

    A reader (or a crash) sees the old file or the new one, never half of one.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def write_cache(path: Path, data: bytes) -> None:
    """:func:`write_atomic` for caches: a read-only or full disk only costs time later."""
    with contextlib.suppress(OSError):
        write_atomic(path, data)
