"""Declarations every explorer kind but ``growth`` shares: parameters on sliders,
readouts, counted words, choices of text by comparison, and the summary.

Each is read once, at parse time (:mod:`pizarra.source.explorers.shared_parse`),
with every formula already evaluated at every state, so a declaration that parses
can always be rendered.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pizarra.source.explorers.expr import Expr

MAX_STATES = 64
"""Most states one explorer may have (the product of its parameters' value counts).

Each state but the initial one is a page of its own beside the lesson (the
no-JavaScript links go there), and every page carries all states' numbers for the
script: 64 keeps a lesson's build and its pages small (measured in the report)."""

LineStyle = Literal["solid", "dashed", "dotted"]
Comparison = Literal["<", "<=", ">", ">=", "==", "!="]
PluralCategory = Literal["zero", "one", "two", "few", "many", "other"]


@dataclass(frozen=True)
class Param:
    """A quantity the learner chooses on a slider, among a finite list of values."""

    name: str
    """Its letter in formulas and its query parameter (``?T=0.5``)."""
    label: str
    """The control's visible label."""
    unit: str
    """Spoken after the value; may be empty."""
    values: tuple[Fraction, ...]
    """The allowed values, ascending."""
    initial: Fraction
    """The value the page opens with."""
    hint: str
    """A sentence under the label: the range and how the keys move."""
    decimals: int
    """Fraction digits that write every value exactly."""


@dataclass(frozen=True)
class Condition:
    """``left op right``, decided exactly (or by proven intervals) at every state."""

    op: Comparison
    """The comparison."""
    left: Expr
    """Left side."""
    right: Expr
    """Right side."""


@dataclass(frozen=True)
class Choice:
    """A text chosen by the first condition that holds (``{trend}`` in the summary)."""

    id: str
    """Its field name in the summary."""
    cases: tuple[tuple[Condition | None, str], ...]
    """(condition, text) in order; the last has no condition and always applies."""


@dataclass(frozen=True)
class Word:
    """A counted word: its form follows CLDR's plural rules for a readout's value."""

    id: str
    """Its field name in the summary (``{mitades_palabra}``)."""
    count: str
    """The readout whose shown value counts it."""
    forms: tuple[tuple[PluralCategory, str], ...]
    """Category -> form; ``other`` is always there and stands in for a missing one."""

    def form(self, category: str) -> str:
        found: dict[str, str] = dict(self.forms)
        return found.get(category, found["other"])


@dataclass(frozen=True)
class ValueReadout:
    """A named number shown beside the figure and usable in the summary."""

    id: str
    """Its name in the summary template and in table columns."""
    label: str
    """What the reader sees next to the number."""
    formula: Expr
    """A formula in the parameters (and, for ``distribution``, its statistics)."""
    decimals: int
    """Fraction digits shown (rounded half away from zero, trailing zeros kept)."""
    unit: str
    """Text after the number (``%``, ``bits``); may be empty."""


@dataclass(frozen=True)
class Texts:
    """Readouts, counted words, choices and the summary: what a state says in words."""

    readouts: tuple[ValueReadout, ...]
    """Numbers shown in the readout list, in order."""
    words: tuple[Word, ...]
    """Counted words."""
    choices: tuple[Choice, ...]
    """Texts chosen by comparisons."""
    summary: str
    """The sentence with ``{field}`` fields (readouts, words, choices)."""
