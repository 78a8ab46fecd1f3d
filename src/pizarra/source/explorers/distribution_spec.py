"""A ``distribution`` explorer's validated declaration: categories whose weights come
from the parameters, normalised to probabilities (softmax of scores at a temperature)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pizarra.base.errors import SourcePos
from pizarra.source.explorers.expr import Expr
from pizarra.source.explorers.shared_spec import Param, Texts


@dataclass(frozen=True)
class Category:
    """One outcome: a bar, a row of the table."""

    id: str
    """Its name; ``p_<id>`` is its probability in formulas."""
    label: str
    """What the bar and the table call it."""
    score: Expr
    """Its score, a number or a formula in the parameters."""
    probability: Expr
    """``weight(score) / sum of weights``, a formula in the parameters."""


@dataclass(frozen=True)
class DistributionSpec:
    """A ``distribution`` explorer."""

    id: str
    """Prefix of every element id, unique in the page."""
    lang: str
    """The lesson's language."""
    params: tuple[Param, ...]
    """One or two sliders."""
    categories: tuple[Category, ...]
    """Two to eight outcomes, in the order shown."""
    texts: Texts
    """Readouts, counted words, choices and the summary."""
    score_label: str
    """Header of the table's score column."""
    probability_label: str
    """Header of the probability column and the bars' title."""
    table_caption: str
    """Caption of the data table."""
    alt: str
    """The bars' text alternative; empty means a generated description."""
    decimals: int
    """Fraction digits of the percentages shown."""
    score_decimals: int
    """Fraction digits of the scores shown."""
    pos: SourcePos
    """The opening fence."""


PERCENT = Fraction(100)
