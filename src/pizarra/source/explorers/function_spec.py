"""A ``function`` explorer's validated declaration: formulas in ``x`` and one or two
parameters, plotted over an x range on linear or logarithmic axes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pizarra.base.errors import SourcePos
from pizarra.source.explorers.expr import Expr
from pizarra.source.explorers.shared_spec import LineStyle, Param, Texts

Scale = Literal["linear", "log2", "log10"]
SAMPLES = 33
"""Points each curve is drawn through (evenly spaced on the x axis's own scale)."""


@dataclass(frozen=True)
class Axis:
    """One axis: its title, its scale and its range (``None`` ends come from the data)."""

    label: str
    """The axis title."""
    scale: Scale
    """``linear``, or logarithmic in base 2 or 10."""
    low: Fraction | None
    """Lower end; for ``x`` always given."""
    high: Fraction | None
    """Upper end; for ``x`` always given."""
    step: Fraction | None = None
    """The distance between grid lines of a linear axis (``None``: a round one)."""

    @property
    def base(self) -> int:
        return 2 if self.scale == "log2" else 10


@dataclass(frozen=True)
class Curve:
    """One plotted formula."""

    id: str
    """Referred to by marks."""
    formula: Expr
    """A formula in ``x`` and the parameters."""
    label: str
    """Legend and direct-label text."""
    line: LineStyle
    """Dash pattern: curves are told apart by dash and label, not colour alone."""


@dataclass(frozen=True)
class Mark:
    """A marked point of a curve at an x given by the parameters (``x: n``)."""

    curve: str
    """The curve's id."""
    x: Expr
    """Where, as a formula in the parameters."""


@dataclass(frozen=True)
class FunctionSpec:
    """A ``function`` explorer."""

    id: str
    """Prefix of every element id, unique in the page."""
    lang: str
    """The lesson's language."""
    params: tuple[Param, ...]
    """One or two sliders."""
    x_name: str
    """The curves' variable (``x``, ``t``)."""
    x: Axis
    """The horizontal axis."""
    y: Axis
    """The vertical axis."""
    curves: tuple[Curve, ...]
    """One to three formulas."""
    marks: tuple[Mark, ...]
    """Marked points."""
    texts: Texts
    """Readouts, counted words, choices and the summary."""
    table_caption: str
    """Caption of the data table."""
    table_xs: tuple[Fraction, ...]
    """The x of each row of the data table."""
    alt: str
    """The chart's text alternative; empty means a generated description."""
    decimals: int
    """Fraction digits of the curves' values in the table."""
    pos: SourcePos
    """The opening fence."""


def samples(axis: Axis) -> tuple[Fraction, ...]:
    """The x values each curve is evaluated at: exact, evenly spaced on the axis's scale
    (on a log axis, rationals within 1/1000 of the even spacing's powers)."""
    assert axis.low is not None and axis.high is not None
    low, high, steps = axis.low, axis.high, SAMPLES - 1
    if axis.scale == "linear":
        return tuple(low + (high - low) * i / steps for i in range(SAMPLES))
    a, b = math.log(low), math.log(high)
    inner = (
        Fraction(math.exp(a + (b - a) * i / steps)).limit_denominator(1000) for i in range(1, steps)
    )
    return (low, *sorted(set(inner) - {low, high}), high)
