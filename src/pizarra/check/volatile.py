"""Outputs that change from one build to another although two runs in a row agree.

Kernels are forked from one warm process, so two runs of a lesson often place objects
at the same addresses, and ``<Figure at 0x7f3a…>`` passes the two-run check of
``--update-outputs`` only to differ at a later build. Timings (``%time``'s ``Wall time:
1.2 ms``) differ even within one run. Such an output is never pinned: the cell is
reported with the nondeterministic hint instead.
"""

from __future__ import annotations

import re

_ADDRESS = re.compile(r"\bat 0x[0-9a-fA-F]{6,16}\b|\b0x[0-9a-fA-F]{9,16}\b")
_UNIT = r"\d+(?:\.\d+)? ?(?:ns|µs|us|ms|s)"
_TIMING = re.compile(rf"\b(?:Wall time|CPU times):|{_UNIT} ± {_UNIT}")


def volatile(text: str) -> str | None:
    """What in ``text`` changes between builds (an address, a timing), or None."""
    if _ADDRESS.search(text):
        return "a memory address"
    if _TIMING.search(text):
        return "a timing"
    return None
