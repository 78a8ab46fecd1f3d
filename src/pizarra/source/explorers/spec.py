"""Validated explorer declarations: what a lesson's ``:::{explorer}`` block says.

Parsing (``growth_parse``) turns the YAML body into these values once; rendering
and the server's state answers only read them, so neither re-validates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pizarra.base.errors import SourcePos
from pizarra.source.explorers.distribution_spec import DistributionSpec
from pizarra.source.explorers.expr import Expr
from pizarra.source.explorers.function_spec import FunctionSpec
from pizarra.source.explorers.shared_spec import LineStyle

__all__ = ["DistributionSpec", "FunctionSpec", "LineStyle"]
ReadoutKind = Literal["value", "growth"]


@dataclass(frozen=True)
class Variable:
    """The quantity the learner chooses, over powers of a base."""

    name: str
    """Its letter in formulas and the query parameter (``n`` -> ``?n=2048``)."""
    label: str
    """The control's visible label."""
    unit: str
    """Spoken after the value (``1024 tokens``); may be empty."""
    base: int
    """Base of the powers and of both log axes."""
    exponents: tuple[int, ...]
    """The allowed exponents, ascending and consecutive."""
    initial: int
    """The value selected when the page loads."""
    baseline: int
    """The value growth is measured against (growth is 1x there)."""
    hint: str
    """A sentence under the label: the range and how the keys move."""

    @property
    def values(self) -> tuple[int, ...]:
        """The allowed values, ascending."""
        return tuple(self.base**e for e in self.exponents)


@dataclass(frozen=True)
class Series:
    """One plotted formula, drawn as growth over its value at the baseline."""

    id: str
    """Referred to by readouts (``growth: quadratic``)."""
    formula: Expr
    """The parsed formula in the variable."""
    source: str
    """The formula as written, for messages."""
    label: str
    """Legend and direct label text."""
    line: LineStyle
    """Dash pattern: series are told apart by dash and label, not colour alone."""


@dataclass(frozen=True)
class Readout:
    """A named number shown beside the chart and usable in the summary and table."""

    id: str
    """Its name in the summary template (``{scores}``) and in table columns."""
    label: str
    """What the reader sees next to the number."""
    kind: ReadoutKind
    """``value``: the formula's value; ``growth``: a series over its baseline, with x."""
    formula: Expr | None
    """For ``value`` readouts."""
    series: str
    """For ``growth`` readouts: the series id; empty otherwise."""


@dataclass(frozen=True)
class Column:
    """A column of the chart-data table."""

    readout: str
    """The readout whose value fills the column."""
    label: str
    """The column header."""


@dataclass(frozen=True)
class Table:
    """The chart data as a table, inside a disclosure."""

    caption: str
    """The table's caption."""
    columns: tuple[Column, ...]
    """Columns in order; a last column marks the current state."""
    current_label: str
    """Header of the current-state column; empty means the UI default."""
    mark: str
    """Text of the current row's mark; empty means the UI default."""


@dataclass(frozen=True)
class GrowthSpec:
    """A ``growth`` explorer: series of a variable over powers of a base, on log-log axes."""

    id: str
    """Prefix of every element id, unique in the page."""
    lang: str
    """The lesson's language (for messages about bad query values)."""
    variable: Variable
    """What the learner moves."""
    series: tuple[Series, ...]
    """Plotted lines, in legend order."""
    readouts: tuple[Readout, ...]
    """Numbers shown for the selected state."""
    summary: str
    """Sentence template with ``{readout_id}`` fields."""
    table: Table
    """The chart-data table."""
    alt: str
    """The chart's text alternative; empty means a generated description."""
    decimals: int
    """Largest number of fraction digits shown (numbers are rounded half away from 0)."""
    pos: SourcePos
    """The opening fence of the declaration."""

    def readout(self, readout_id: str) -> Readout:
        """The readout named ``readout_id`` (validated to exist)."""
        return next(r for r in self.readouts if r.id == readout_id)


ExplorerSpec = GrowthSpec | FunctionSpec | DistributionSpec
"""Every explorer kind's spec."""
