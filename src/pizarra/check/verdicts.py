"""A disk cache of claim verdicts, so a warm check proves nothing twice.

Symbolic proofs cost milliseconds each and a lesson has dozens; the verdict of a
formula depends only on its TeX, the lesson's declared context and the checker's
own code, which is what the key hashes. Entries live in :mod:`pizarra.base.cache`, best
effort: a cache that cannot be written only makes the next run slower.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from pizarra.base.cache import Cache
from pizarra.math.exact.context import Context
from pizarra.math.exact.judge import Status, Verdict


class VerdictCache:
    """Verdicts of formulas by hash, as JSON in the ``claims`` kind of a :class:`Cache`."""

    KIND = "claims"

    def __init__(self, store: Cache) -> None:
        self.store = store
        """Where the entries live."""

    @classmethod
    def under(cls, root: Path) -> VerdictCache:
        """The cache in ``root`` (pizarra's cache folder)."""
        return cls(Cache(root))

    def keys(self, texs: Iterable[str], context: Context) -> list[str]:
        """The key of each of ``texs`` in ``context`` (the context is read once)."""
        version, fingerprint = _checker_version(), context.fingerprint()
        return [
            hashlib.sha256(json.dumps([version, tex, fingerprint]).encode()).hexdigest()
            for tex in texs
        ]

    def get_many(self, keys: Iterable[str]) -> dict[str, list[Verdict]]:
        """The verdicts kept under those of ``keys`` that have readable ones."""
        found = {}
        for key, raw in self.store.get_many(self.KIND, keys).items():
            verdicts = _verdicts(raw)
            if verdicts is not None:
                found[key] = verdicts
        return found

    def put(self, key: str, verdicts: list[Verdict]) -> None:
        data = [
            {
                "claim": v.claim,
                "status": v.status.name,
                "message": v.message,
                "hint": v.hint,
                "offset": v.offset,
            }
            for v in verdicts
        ]
        self.store.put(self.KIND, key, json.dumps(data).encode())


def _verdicts(raw: bytes) -> list[Verdict] | None:
    try:
        data = json.loads(raw)
        return [
            Verdict(v["claim"], Status[v["status"]], v["message"], v["hint"], v["offset"])
            for v in data
        ]
    except (OSError, ValueError, KeyError, TypeError):
        return None


@cache
def _checker_version() -> str:
    """A hash of the checker's source: a change to it invalidates every verdict."""
    digest = hashlib.sha256()
    package = resources.files("pizarra")
    files = sorted((package / "math" / "exact").iterdir(), key=lambda f: f.name)
    for source in [*files, package / "check" / "claims.py"]:
        if source.name.endswith(".py"):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()
