"""Pages and assets -> the output folder, replaced atomically.

The new site is written into a sibling temporary folder; only when every file is
written does it take the old site's place (two renames). A failure at any point
leaves the previous site exactly as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

MARKER = ".pizarra-site"


class SiteWriteError(Exception):
    """The output folder could not be replaced; the old one is untouched."""


def ensure_replaceable(out: Path) -> None:
    """Raise :class:`SiteWriteError` unless ``out`` is absent, empty or a pizarra site."""
    if out.exists() and not _is_replaceable(out):
        raise SiteWriteError(
            f"{out} exists and was not made by pizarra (no {MARKER} file); "
            "refusing to replace it — choose another output folder with -o"
        )


def write_site(files: Mapping[str, bytes], out: Path) -> None:
    """Replace ``out`` by a folder holding exactly ``files`` (relative POSIX paths)."""
    out = out.resolve()
    ensure_replaceable(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        for name, data in {**files, MARKER: b"built by pizarra\n"}.items():
            target = staging / _safe_relative(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        os.chmod(staging, 0o755)
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _is_replaceable(out: Path) -> bool:
    return out.is_dir() and ((out / MARKER).is_file() or not any(out.iterdir()))


def _safe_relative(name: str) -> Path:
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise SiteWriteError(f"refusing to write outside the site: {name!r}")
    return Path(*path.parts)


def _swap(staging: Path, out: Path) -> None:
    if not out.exists():
        staging.rename(out)
        return
    retired = out.with_name(f".{out.name}.old-{os.getpid()}")
    shutil.rmtree(retired, ignore_errors=True)
    out.rename(retired)
    try:
        staging.rename(out)
    except BaseException:
        retired.rename(out)
        raise
    shutil.rmtree(retired, ignore_errors=True)
