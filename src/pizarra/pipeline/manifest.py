"""The build manifest: rebuilding unchanged inputs into an untouched output does nothing.

After a build writes its site, :func:`record` keeps, per source and output folder,
every input the site was made from (the course manifest, each lesson, the images and
bibliographies it uses, pizarra's own files, the folders of installed packages) with
each file's size, modification time and SHA-256, the build's options and Python
version, and every output file with its size and modification time. The next build
first asks :func:`unchanged`: when every input has the same stat (or, its stat
changed, the same hash) and the output folder still holds exactly what was written,
the site already is what the build would write, byte for byte (builds are
deterministic), so the build stops there and repeats what the last one reported.

A file changed less than :data:`RACY_NS` before the recorded build started is never
trusted: the file system's clock is coarse, so such a file may have changed again
during the build with the same stat. This module imports only the standard library
and :mod:`pizarra.base.cache`, so the nothing-changed path stays cheap.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pizarra.base.cache import Cache
from pizarra.base.errors import Severity
from pizarra.pipeline.fingerprint import package_files

if TYPE_CHECKING:
    from pizarra.pipeline.tools import Report

KIND = "builds"
"""The cache kind of build manifests."""

FORMAT = 1
"""Bumped whenever the record's shape changes."""

RACY_NS = 1_000_000_000
"""A file modified this close to the build's start is never trusted: its stamp never
matches, so the next run builds again (its lessons still come from the cache)."""


@dataclass(frozen=True)
class Summary:
    """What a build reported, repeated by a build that finds nothing changed."""

    lines: tuple[str, ...]
    """Its diagnostics and per-lesson lines, as printed."""
    lessons: int
    """Lessons built."""
    claims: str
    """The claim counts (``claims: 12 checked, ...``)."""
    cells: int
    """Code cells (all answered from the cache next time)."""
    errors: int
    """Errors (always 0: only passing builds are recorded)."""
    warnings: int
    """Warnings."""
    files: int
    """Files in the site."""
    cells_run: int = 0
    """Code cells run by this run (none when nothing changed)."""
    seconds: float = 0.0
    """Wall time of this run."""

    def line(self, command: str) -> str:
        """One closing paragraph: lessons, claims, cells, errors, time."""
        return (
            f"pizarra {command}: {self.lessons} lesson(s); {self.claims}; "
            f"code cells: {self.cells_run} run, {self.cells - self.cells_run} cached; "
            f"{self.errors} error(s), {self.warnings} warning(s) in {self.seconds:.2f} s"
        )


@dataclass(frozen=True)
class Stamp:
    """One file as a build saw it."""

    path: str
    size: int
    mtime_ns: int
    digest: str
    """SHA-256 of the bytes; "" for output files and folders (stat only), "racy" when the
    stat cannot be trusted (then it never matches)."""


def report_lines(report: Report) -> list[str]:
    """Every diagnostic, then the claim counts per lesson (for a course of several)."""
    lines = [diagnostic.format() for diagnostic in report.diagnostics]
    if report.course is not None and len(report.ledgers) > 1:
        editions = (report.course, *report.course.editions)
        for lesson in (lesson for course in editions for lesson in course.lessons()):
            ledger = report.ledgers.get(lesson.path)
            if ledger is not None:
                lines.append(f"  {lesson.display_path}: {ledger.counts.summary()}")
    return lines


def summary_of(report: Report) -> Summary:
    """What a run reported, as the manifest keeps it."""
    errors = sum(1 for d in report.diagnostics if d.severity is Severity.ERROR)
    return Summary(
        lines=tuple(report_lines(report)),
        lessons=sum(len(list(c.lessons())) for c in (report.course, *report.course.editions))
        if report.course
        else 0,
        claims=report.claims.summary(),
        cells=report.cells_run + report.cells_cached,
        errors=errors,
        warnings=len(report.diagnostics) - errors,
        files=len(report.files),
        cells_run=report.cells_run,
        seconds=report.seconds,
    )


def build_key(src: Path, out: Path, options: Iterable[str]) -> str:
    """The manifest's key: where from, where to, how."""
    parts = (str(FORMAT), sys.version, str(src.resolve()), str(out.resolve()), *options)
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def recorded(store: Cache, key: str) -> bytes | None:
    """The record of the last build under ``key``, current or not (:func:`unchanged`
    judges it); None when no build was recorded."""
    return store.get(KIND, key)


def unchanged(raw: bytes, out: Path) -> Summary | None:
    """The summary of the build recorded in ``raw`` if its inputs and output are
    untouched since, else None."""
    try:
        data = json.loads(raw)
        inputs = [Stamp(**s) for s in data["inputs"]]
        outputs = {s["path"]: (s["size"], s["mtime_ns"]) for s in data["outputs"]}
        summary = Summary(**{**data["summary"], "lines": tuple(data["summary"]["lines"])})
    except (ValueError, TypeError, KeyError):
        return None
    if _environment() != data.get("environment"):
        return None
    if not all(_same(stamp) for stamp in inputs):
        return None
    if _output_stats(out) != outputs:
        return None
    return summary


def record(
    store: Cache, key: str, started_ns: int, inputs: Iterable[Path], out: Path, summary: Summary
) -> None:
    """Keep what the build that started at ``started_ns`` read and wrote."""
    paths = sorted({str(p) for p in inputs} | {str(p) for p in package_files()})
    stamps = [_stamp(Path(p), started_ns) for p in paths]
    outputs = [
        {"path": name, "size": size, "mtime_ns": mtime}
        for name, (size, mtime) in sorted(_output_stats(out).items())
    ]
    data = {
        "environment": _environment(),
        "inputs": [asdict(s) for s in stamps],
        "outputs": outputs,
        "summary": asdict(replace(summary, cells_run=0, seconds=0.0)),
    }
    store.put(KIND, key, json.dumps(data, sort_keys=True).encode())


def _environment() -> list[list[object]]:
    """The folders packages are installed in, by stat: installing, upgrading or removing
    a package changes the folder's entries, hence its modification time."""
    seen = []
    for entry in sys.path:
        if os.path.basename(entry) not in ("site-packages", "dist-packages"):
            continue
        try:
            info = os.stat(entry or ".")
        except OSError:
            continue
        seen.append([entry, info.st_mtime_ns, info.st_ino])
    return seen


def _stamp(path: Path, started_ns: int) -> Stamp:
    try:
        info = path.stat()
        data = path.read_bytes()
    except OSError:
        return Stamp(str(path), -1, -1, "missing")
    racy = info.st_mtime_ns >= started_ns - RACY_NS
    digest = "racy" if racy else hashlib.sha256(data).hexdigest()
    return Stamp(str(path), info.st_size, info.st_mtime_ns, digest)


def _same(stamp: Stamp) -> bool:
    if stamp.digest == "racy":
        return False
    try:
        info = os.stat(stamp.path)
    except OSError:
        return stamp.digest == "missing"
    if (info.st_size, info.st_mtime_ns) == (stamp.size, stamp.mtime_ns):
        return True
    try:
        return hashlib.sha256(Path(stamp.path).read_bytes()).hexdigest() == stamp.digest
    except OSError:
        return False


def _output_stats(out: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``out`` (relative POSIX path -> size, modification time)."""
    stats: dict[str, tuple[int, int]] = {}
    root = str(out)
    for folder, subfolders, files in os.walk(root):
        subfolders.sort()
        base = os.path.relpath(folder, root)
        for name in files:
            info = os.stat(os.path.join(folder, name), follow_symlinks=False)
            relative = name if base == "." else f"{base}/{name}".replace(os.sep, "/")
            stats[relative] = (info.st_size, info.st_mtime_ns)
    return stats
