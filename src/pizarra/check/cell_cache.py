"""Results of earlier runs of a lesson's cells, so a warm build runs nothing.

Cells share one kernel, so what cell k prints depends on every cell before it: an entry
is keyed by the cells *so far* (their code and options), and editing cell k misses from
k on. The kernel cannot start half-way, so a miss runs the lesson from its first cell.

A result is trusted only once two runs agreed on it. The first run of a key stores it as
*seen once*; the next run confirms it (equal output) or proves the cell
nondeterministic (different output, an error at the cell). Only confirmed entries are
hits, so a cached result can never hide a cell whose output changes between runs.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import hashlib
import importlib.metadata
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pizarra.base.cache import Cache
from pizarra.check.kernel.execute import RunResult
from pizarra.source.blocks import CodeCell, Figure

CACHE_FORMAT = 3
"""Bumped whenever the meaning of a cached entry changes."""


@dataclass(frozen=True)
class CachedResult:
    """A stored result and whether a second run has confirmed it."""

    result: RunResult
    """What the cell produced."""
    confirmed: bool
    """True once two runs gave the same output."""


def same_output(a: RunResult, b: RunResult) -> bool:
    """True when a reader would see the same thing: printed text and figures."""
    return a.stdout == b.stdout and a.figures == b.figures


class ResultCache:
    """Results as JSON in the ``cells`` kind of a :class:`~pizarra.base.cache.Cache`.

    The key hashes the cells so far, the Python version and the versions of the
    third-party packages they import (found with :mod:`ast`); the standard library is
    covered by the Python version. Imports hidden from ``ast`` (``__import__``,
    ``importlib``) and the dependencies of imported packages are not part of the key.
    """

    KIND = "cells"

    def __init__(self, store: Cache | Path) -> None:
        self.store = store if isinstance(store, Cache) else Cache(store)
        """Where the entries live (a folder is opened as a :class:`Cache`)."""
        self._distributions: Mapping[str, list[str]] | None = None

    @classmethod
    def under(cls, root: Path) -> ResultCache:
        """The cache in ``root`` (pizarra's cache folder)."""
        return cls(Cache(root))

    def keys(self, cells: Sequence[CodeCell], memory_limit: int | None = None) -> list[str]:
        """One key per cell: a hex digest of everything its result could depend on.

        ``memory_limit`` (the lesson's own, or None) is part of it: a cell that ran out of
        memory may pass with more.
        """
        keys, digest, modules = [], hashlib.sha256(), set()
        head = [CACHE_FORMAT, sys.implementation.name, sys.version]
        digest.update(json.dumps(head if memory_limit is None else [*head, memory_limit]).encode())
        for cell in cells:
            modules |= imported_modules(cell.code)
            options = [cell.code, cell.timeout, sorted(cell.tags & {"raises-exception"})]
            digest.update(json.dumps(options).encode())
            packages = json.dumps(self._package_versions(modules)).encode()
            keys.append(hashlib.sha256(digest.digest() + packages).hexdigest())
        return keys

    def get(self, key: str) -> CachedResult | None:
        """The stored result, or None when absent or unreadable."""
        try:
            raw = self.store.get(self.KIND, key)
            return None if raw is None else _from_json(json.loads(raw))
        except (OSError, ValueError, TypeError, KeyError):
            return None

    def put(self, key: str, result: RunResult, confirmed: bool) -> None:
        """Store a clean run; failures are not kept, since they may be transient.

        Committed at once, since a run costs far more than a commit and the next run
        (maybe another process) must see it. Writing is best effort: a read-only or
        full disk only costs a re-run later.
        """
        if not result.ok:
            return
        text = json.dumps({"format": CACHE_FORMAT, "confirmed": confirmed, **_to_json(result)})
        self.store.put(self.KIND, key, text.encode())
        self.store.flush()

    def _package_versions(self, modules: Iterable[str]) -> list[str]:
        third_party = sorted(m for m in modules if m not in sys.stdlib_module_names)
        return [f"{module}: {', '.join(self._providers(module))}" for module in third_party]

    def _providers(self, module: str) -> list[str]:
        """``dist==version`` of what installs ``module``; ``?`` when nothing does.

        A distribution named like the module (numpy, sympy) is taken at once; only other
        names (``yaml`` from PyYAML) pay for a scan of every installed distribution.
        """
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            return [f"{module}=={importlib.metadata.version(module)}"]
        if self._distributions is None:
            self._distributions = importlib.metadata.packages_distributions()
        found = []
        for dist in sorted(set(self._distributions.get(module, []))):
            with contextlib.suppress(importlib.metadata.PackageNotFoundError):
                found.append(f"{dist}=={importlib.metadata.version(dist)}")
        return found or ["?"]


def imported_modules(code: str) -> set[str]:
    """Top-level names of absolute imports (``import x.y`` and ``from x import y`` give x)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def _to_json(result: RunResult) -> dict[str, object]:
    return {
        "stdout": result.stdout,
        "stderr": result.stderr,
        "duration": result.duration,
        "figures": [
            {
                "svg": base64.b64encode(f.svg).decode(),
                "width": f.width,
                "height": f.height,
                "frame": f.frame,
                "frames": f.frames,
            }
            for f in result.figures
        ],
        "html": result.html,
    }


def _from_json(data: object) -> CachedResult | None:
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return None
    figures = tuple(
        Figure(
            base64.b64decode(f["svg"]),
            int(f["width"]),
            int(f["height"]),
            int(f.get("frame", 0)),
            int(f.get("frames", 0)),
        )
        for f in data["figures"]
    )
    result = RunResult(
        stdout=str(data["stdout"]),
        stderr=str(data["stderr"]),
        exit_code=0,
        timed_out=False,
        truncated=False,
        duration=float(data["duration"]),
        figures=figures,
        html=str(data.get("html", "")),
    )
    return CachedResult(result, bool(data["confirmed"]))
