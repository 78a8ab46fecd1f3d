"""A build that does nothing when nothing changed since the last one.

Asking :mod:`~pizarra.pipeline.manifest` costs a stat per input; only when something
changed is the pipeline imported (0.3 s of one core) and the build run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from pizarra.base.cache import Cache
from pizarra.pipeline.manifest import (
    Summary,
    build_key,
    record,
    recorded,
    summary_of,
    unchanged,
)

if TYPE_CHECKING:
    from pizarra.pipeline.tools import Report, Tools


def build_or_skip(
    src: Path,
    out: Path,
    tools: Callable[[bool], Tools],
    store: Cache | None,
    strict: bool = False,
    strict_claims: bool = False,
) -> Report | Summary:
    """The last build's :class:`Summary` when nothing changed since, else a full
    :func:`pizarra.pipeline.build.build` (whose lessons come from the cache when unchanged).

    ``tools`` is called only when building, so the skip imports no pipeline; it is
    told whether this is a rebuild (the manifest holds a build of this course into
    ``out``, whose inputs changed since). Without a ``store`` there is no manifest:
    every call builds.
    """
    started = time.perf_counter()
    started_ns = time.time_ns()
    key = build_key(src, out, (f"strict={strict}", f"strict_claims={strict_claims}"))
    last = recorded(store, key) if store is not None else None
    kept = unchanged(last, out) if last is not None else None
    if kept is not None:
        return replace(kept, seconds=time.perf_counter() - started)
    # First: the tools start the kernels' zygote (unless a rebuild) during the imports below.
    made = tools(last is not None)
    from pizarra.pipeline.build import build

    report = build(src, out, made, strict, strict_claims, outlines=True)
    if store is not None and report.reusable and not report.failed(strict):
        record(store, key, started_ns, report.inputs, out, summary_of(report))
    return report
