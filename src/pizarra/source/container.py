"""The block of the layout directives: dropdowns, asides, tabs, cards, grids and tables.

They differ in how they are drawn, not in what they hold (a title, blocks and a place),
so one frozen dataclass serves them all, told apart by ``kind``; the checks walk into
their bodies like any other, so a code cell in a tab is run and a formula in a card
is checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pizarra.base.errors import SourcePos

if TYPE_CHECKING:
    from pizarra.source.blocks import Block


@dataclass(frozen=True)
class Container:
    """A layout directive's block."""

    kind: str
    """``dropdown``, ``margin``, ``sidebar``, ``tab-set``, ``tab-item``, ``card``, ``grid``,
    ``table`` (a caption around a table), ``list-table``, ``row``, ``cell``, ``glossary``,
    ``div``..."""
    title: str
    """The title, caption or tab label ("" for none)."""
    body: tuple[Block, ...]
    """What it holds: blocks, or for tables and rows, their rows and cells."""
    pos: SourcePos
    """Where the directive starts."""
    anchor: str = ""
    """Its id, when a label names it."""
    number: int | None = None
    """A table's number."""
    flag: bool = False
    """``dropdown``: open at first; ``row``: a header row; ``tab-item``: the selected tab."""
    group: str = ""
    """``tab-set`` and its items: the name their radio buttons share; ``card``: its link."""
    classes: tuple[str, ...] = ()
    """``div``: the classes its element carries (checked to be class names)."""
