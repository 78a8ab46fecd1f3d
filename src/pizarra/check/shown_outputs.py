"""What the page shows for a cell with no ``{output}`` block: what this build's run
printed (Jupyter Book shows a re-executed notebook's outputs the same way)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pizarra.base.errors import SourcePos

if TYPE_CHECKING:
    from pizarra.check.code_cells import CellOutcome


def cell_printed(outcomes: Sequence[CellOutcome]) -> dict[SourcePos, str]:
    """What each cell with no ``{output}`` block printed, for the page to show as this
    build's output (not under ``remove-output``)."""
    hidden = {"remove-output", "remove-cell"}
    return {
        o.cell.pos: o.result.stdout
        for o in outcomes
        if o.cell.output is None and o.result.ok and o.result.stdout and not o.cell.tags & hidden
    }
