"""pizarra's own fingerprint: a hash of its files and version, on which every kept result
depends."""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


PACKAGE = Path(__file__).parents[1]
"""pizarra's own files: code, templates, CSS, scripts, fonts."""


def package_files() -> list[Path]:
    """Every file of pizarra itself except the bundled course and bytecode."""
    found: list[Path] = []
    for folder, subfolders, files in os.walk(PACKAGE):
        subfolders[:] = sorted(
            d for d in subfolders if d not in ("__pycache__", "bundled") and not d.startswith(".")
        )
        found += (Path(folder) / name for name in sorted(files))
    return found


_soon: list[threading.Thread] = []
"""The thread started by :func:`fingerprint_soon`, if any."""


def fingerprint_soon() -> None:
    """Start :func:`code_fingerprint` on a thread of its own.

    Reading and hashing pizarra's files release the GIL, so a run about to import its
    pipeline (0.3 s of one core) gets the fingerprint for next to nothing, and the
    crew workers it forks inherit it: each hashed the files itself (0.015 s, while
    keeping its parses after its last lesson), and the main process did, before
    asking them to verify."""
    if _soon or code_fingerprint.cache_info().currsize:
        return
    import importlib.metadata  # noqa: F401 - here, not on the thread: no import is half done at a fork

    thread = threading.Thread(target=code_fingerprint, name="fingerprint", daemon=True)
    _soon.append(thread)
    thread.start()


def _settle() -> None:
    """Before a fork: the child gets the fingerprint whole, or computes it itself."""
    for thread in _soon:
        thread.join()


os.register_at_fork(before=_settle)


@cache
def code_fingerprint() -> str:
    """A hash of pizarra's own files (code, templates, CSS, scripts) and its version."""
    from importlib.metadata import PackageNotFoundError, version

    digest = hashlib.sha256()
    with contextlib.suppress(PackageNotFoundError):
        digest.update(version("pizarra").encode())
    for path in package_files():
        digest.update(str(path.relative_to(PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
