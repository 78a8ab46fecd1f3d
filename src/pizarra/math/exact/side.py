"""One side of a relation, read once and shared by the judge and the arithmetic that decides it."""

from __future__ import annotations

from dataclasses import dataclass

from pizarra.math.exact.ast import Node
from pizarra.math.exact.cursor import Unsupported


@dataclass(frozen=True)
class Side:
    """One side of a link, read: its tree (or why there is none) and its free letters."""

    node: Node | Unsupported
    """The expression tree."""
    free: frozenset[str]
    """Letters not bound by a sum or a function."""
