"""The numbers a ``growth`` explorer shows, exact, and their text in a language.

Values are computed on the server in exact arithmetic, or correctly rounded when
a logarithm makes them irrational (:mod:`pizarra.source.explorers.reals`). The browser
receives them as plain decimal strings (already rounded) and only *formats* them with
``Intl.NumberFormat``; so server and client can differ only in formatting, which
:mod:`pizarra.base.i18n.numbers` makes identical.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from pizarra.base.i18n.numbers import decimal_string, format_number
from pizarra.base.i18n.strings import t
from pizarra.source.explorers.expr import Expr
from pizarra.source.explorers.reals import rounded, rounded_growth
from pizarra.source.explorers.spec import GrowthSpec, Readout, Series

CHART_DECIMALS = 15
"""Fraction digits of an irrational growth when it only places a point on the chart."""

FIELD = re.compile(r"\{([^{}]*)\}")
"""A ``{name}`` field of a template; the browser uses the same expression."""


@dataclass(frozen=True)
class GrowthState:
    """One selectable state: the chosen value of the variable."""

    index: int
    """Position in the domain, 0 for the smallest value."""
    value: int
    """The variable's value."""


@dataclass(frozen=True)
class Row:
    """The exact numbers of one state."""

    value: int
    """The variable's value."""
    readouts: Mapping[str, Fraction]
    """Readout id -> its value, exact or correctly rounded (growth readouts without the x)."""


def series_growth(
    spec: GrowthSpec, series: Series, value: int, decimals: int = CHART_DECIMALS
) -> Fraction:
    """``f(value) / f(baseline)``: what the chart plots on its vertical axis."""
    return _growth(series.formula, spec.variable.name, value, spec.variable.baseline, decimals)


@lru_cache(maxsize=4096)
def _growth(formula: Expr, name: str, value: int, baseline: int, decimals: int) -> Fraction:
    """Kept: the lesson page and each of its explorer's state pages draw the same chart."""
    return rounded_growth(formula, {name: Fraction(value)}, {name: Fraction(baseline)}, decimals)


def readout_value(spec: GrowthSpec, readout: Readout, value: int) -> Fraction:
    """The number a readout shows for ``value``: exact, or correctly rounded to the
    explorer's decimals, so rounding it again for display changes nothing."""
    if readout.formula is not None:
        return _rounded(readout.formula, spec.variable.name, value, spec.decimals)
    series = next(s for s in spec.series if s.id == readout.series)
    return series_growth(spec, series, value, spec.decimals)


@lru_cache(maxsize=4096)
def _rounded(formula: Expr, name: str, value: int, decimals: int) -> Fraction:
    return rounded(formula, {name: Fraction(value)}, decimals)


def rows(spec: GrowthSpec) -> tuple[Row, ...]:
    """Every state's numbers, in domain order (the table's rows)."""
    return tuple(
        Row(v, {r.id: readout_value(spec, r, v) for r in spec.readouts})
        for v in spec.variable.values
    )


def plain(spec: GrowthSpec, amount: Fraction) -> str:
    """The locale-free decimal sent to the browser for ``Intl.NumberFormat``."""
    return decimal_string(amount, spec.decimals)


def format_readout(spec: GrowthSpec, readout: Readout, amount: Fraction, lang: str) -> str:
    """A readout's text: ``"1.048.576"``, or ``"64×"`` for growth."""
    text = format_number(amount, lang, spec.decimals)
    return text + t(lang, "times") if readout.kind == "growth" else text


def readout_texts(spec: GrowthSpec, row: Row, lang: str) -> dict[str, str]:
    """Readout id -> its text for one state."""
    return {r.id: format_readout(spec, r, row.readouts[r.id], lang) for r in spec.readouts}


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``{name}`` replaced; unknown fields stay as written."""
    return FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def value_text(spec: GrowthSpec, value: int, lang: str) -> str:
    """The control's spoken value (``aria-valuetext``): ``"1024 tokens"``."""
    return fill(valuetext_template(spec, lang), {"value": format_number(Fraction(value), lang)})


def valuetext_template(spec: GrowthSpec, lang: str) -> str:
    """``"{value} tokens"``: the template both server and browser fill."""
    if not spec.variable.unit:
        return "{value}"
    return t(lang, "value_with_unit", value="{value}", unit=spec.variable.unit)
