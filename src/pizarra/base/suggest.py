""" "Did you mean …?" for a misspelt name: the closest known names (:mod:`difflib`).

A hint that names the one likely intended word is read; a list of every directive is
not. The full list stays as the hint only when nothing is close.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

CUTOFF = 0.6
"""difflib's similarity ratio a known name needs to be suggested (its default)."""


def close_names(name: str, known: Iterable[str], n: int = 2) -> list[str]:
    """Up to ``n`` of ``known`` that ``name`` is likely a misspelling of, closest first."""
    return difflib.get_close_matches(name, sorted(set(known)), n=n, cutoff=CUTOFF)


def did_you_mean(
    name: str,
    known: Iterable[str],
    otherwise: str,
    shown: Callable[[str], str] = lambda k: f"`{k}`",
) -> str:
    """A hint: "did you mean X?" when a known name is close to ``name``, else ``otherwise``."""
    close = close_names(name, known)
    if not close:
        return otherwise
    return "did you mean " + " or ".join(shown(k) for k in close) + "?"
