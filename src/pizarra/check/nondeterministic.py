"""Outputs that differ from run to run by nature: memory addresses and timings.

A cell printing ``<Foo object at 0x7f3a...>`` or ``%timeit``'s ``1.23 ms ± 4 µs per loop``
may show the same text twice in a row by luck (the allocator reuses an address; a timing
rounds alike), pass the two-run check, be pinned, and fail some later build. Such output
is recognised from its text: it is not compared with its ``{output}`` block, and the
author is warned to tag the cell ``nondeterministic`` or hide its output.
"""

from __future__ import annotations

import re

_ADDRESS = re.compile(
    r"\b(?:at|object at|id=?)\s+0x[0-9a-fA-F]{6,}\b|<[^<>\n]*\b0x[0-9a-fA-F]{8,}>"
)
"""A Python ``repr`` naming its object's address: ``<... at 0x7f...>``."""
_UNIT = r"(?:ns|[µu]s|ms|s|sec|min)"
_TIMING = re.compile(
    rf"\d+(?:\.\d+)?\s*{_UNIT}\s*±\s*\d+(?:\.\d+)?\s*{_UNIT}\s+per loop"
    rf"|\b(?:Wall|CPU) times?:\s*(?:user\s+)?\d+(?:\.\d+)?\s*{_UNIT}"
    rf"|\b\d+ loops?, best of \d+:\s*\d+(?:\.\d+)?\s*{_UNIT}"
)
"""``%timeit`` (both of IPython's forms) and ``%time``."""


def nondeterministic_reason(output: str) -> str:
    """What in ``output`` changes between runs ("a memory address", "a timing"), or ""."""
    if _ADDRESS.search(output):
        return "a memory address"
    if _TIMING.search(output):
        return "a timing"
    return ""
