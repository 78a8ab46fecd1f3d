"""How a claim fared, shared by the deciding modules."""

from __future__ import annotations

from enum import Enum
from typing import TypeAlias


class Status(Enum):
    """How a claim fared."""

    CHECKED = "checked"
    ASSUMED = "assumed"
    """True, but only because it restates a declared assumption (``x > 0`` for a positive
    ``x``): nothing was verified beyond the declaration."""
    UNCHECKED = "unchecked"
    FAILED = "failed"


Decision: TypeAlias = tuple[Status, str, str]
"""Status, message (the error, or why unchecked) and hint of one claim."""

CHECKED: Decision = (Status.CHECKED, "", "")
FIX_HINT = "fix the number, or write the relation as text if it is not a claim"
