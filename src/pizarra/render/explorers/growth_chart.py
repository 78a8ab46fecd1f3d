"""Geometry of the ``growth`` chart: log axes, ticks, lines, labels and markers.

Both axes are logarithmic in the variable's base, so consecutive powers sit at
equal distances and ``n^k`` over a baseline is a straight line of slope ``k``.
Coordinates are in the SVG's user units (the viewBox); they are pure numbers
here so tests can check them without parsing SVG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from pizarra.base.i18n.numbers import format_integer, format_number
from pizarra.base.i18n.strings import t
from pizarra.render.explorers.growth_data import series_growth
from pizarra.source.explorers.exact_values import log_ratio
from pizarra.source.explorers.spec import GrowthSpec

WIDTH = 400
"""viewBox width: small, so labels stay legible when the chart shrinks to 320 px."""
HEIGHT = 280
"""viewBox height."""
RIGHT, TOP, BOTTOM = 14, 44, 44
"""Margins around the plot area, room for tick labels, direct labels and axis titles."""
LABEL_FONT = 17.0
"""The largest font size of tick labels, in user units (``growth.css`` on narrow
screens: at 360 px the chart is drawn at about 0.72 of its viewBox, so 17 units
are over 12 CSS px)."""
WIDE_FONT = 12.0
"""The tick labels' font size in user units on wider screens."""
_EM = {".": 0.32, ",": 0.32, " ": 0.32, "×": 0.84}
"""Advance widths in em of a sans-serif face's narrow and wide characters; digits
and other characters count as 0.64 em (DejaVu Sans' digits, the widest common ones)."""
LABEL_GAP = 6.0
"""The least room between two horizontal-axis labels, in user units."""
MAX_TICK_LABELS = 8
"""More ticks than this and only every k-th one is labelled."""


@dataclass(frozen=True)
class Tick:
    """A labelled position on an axis."""

    at: float
    """x (horizontal axis) or y (vertical axis) in user units."""
    label: str
    """Formatted value; empty for an unlabelled tick."""
    anchor: str = "middle"
    """The label's ``text-anchor``: the first and last labels of the horizontal axis
    sit inside the plot's ends (``start``, ``end``) so none is cut or overlaps."""
    wide: bool = False
    """True for a label shown on wide screens only (too close to its neighbours at
    the larger font of narrow ones)."""


@dataclass(frozen=True)
class Line:
    """One series as drawn."""

    style: str
    """``solid``, ``dashed`` or ``dotted``."""
    points: tuple[tuple[float, float], ...]
    """One (x, y) per domain value."""
    label: str
    """Direct label text."""
    label_at: tuple[float, float]
    """Where the direct label's end sits (text-anchor end)."""


@dataclass(frozen=True)
class Chart:
    """Everything the SVG template draws."""

    x_ticks: tuple[Tick, ...]
    """One per domain value."""
    y_ticks: tuple[Tick, ...]
    """At powers of the base covering every plotted growth."""
    lines: tuple[Line, ...]
    """Series in legend order."""
    xs: tuple[float, ...]
    """The x of each domain value: equal steps."""
    marker_ys: tuple[tuple[float, ...], ...]
    """For each state, the y of each series' marker."""
    x_title: str
    """Horizontal axis title."""
    y_title: str
    """Vertical axis title."""
    plot: tuple[float, float, float, float]
    """Plot area: left, top, right, bottom."""


def _stride(count: int) -> int:
    return max(1, math.ceil(count / MAX_TICK_LABELS))


def label_width(text: str, font: float = LABEL_FONT) -> float:
    """A generous estimate of ``text``'s width at ``font``, in user units."""
    return font * sum(_EM.get(c, 0.64) for c in text)


def _x_ticks(xs: tuple[float, ...], labels: list[str]) -> tuple[Tick, ...]:
    """Ticks labelled every k-th value, the first and last always; a label that would
    come too close to its neighbours is left out, at the phone font only (``wide``)
    or at both fonts."""
    last = len(xs) - 1
    anchors = ["start", *(["middle"] * (last - 1)), "end"]

    def shown(font: float) -> set[int]:
        def extent(i: int) -> tuple[float, float]:
            width = label_width(labels[i], font)
            shift = {"start": 0.0, "middle": width / 2, "end": width}[anchors[i]]
            return xs[i] - shift, xs[i] - shift + width

        kept = [0]
        for i in range(stride, last, stride):
            before = extent(i)[0] - extent(kept[-1])[1]
            after = extent(last)[0] - extent(i)[1]
            if before >= LABEL_GAP and after >= LABEL_GAP:
                kept.append(i)
        return {*kept, last}

    stride = _stride(len(xs))
    phone, wide = shown(LABEL_FONT), shown(WIDE_FONT)
    return tuple(
        Tick(x, labels[i] if i in wide else "", anchors[i], i not in phone)
        for i, x in enumerate(xs)
    )


def _x_positions(count: int, left: float) -> tuple[float, ...]:
    step = (WIDTH - left - RIGHT) / (count - 1)
    return tuple(round(left + i * step, 2) for i in range(count))


def _y_range(spec: GrowthSpec) -> tuple[int, int]:
    logs = [
        log_ratio(series_growth(spec, s, v), spec.variable.base)
        for s in spec.series
        for v in spec.variable.values
    ]
    low, high = math.floor(min(logs) + 1e-9), math.ceil(max(logs) - 1e-9)
    return (low, high) if high > low else (low, low + 1)


def y_of(spec: GrowthSpec, growth: Fraction, y_range: tuple[int, int]) -> float:
    """The y of a growth value on the log axis whose powers span ``y_range``."""
    low, high = y_range
    share = (log_ratio(growth, spec.variable.base) - low) / (high - low)
    return round(HEIGHT - BOTTOM - share * (HEIGHT - TOP - BOTTOM), 2)


def _marker_ys(spec: GrowthSpec, value: int, y_range: tuple[int, int]) -> tuple[float, ...]:
    return tuple(y_of(spec, series_growth(spec, s, value), y_range) for s in spec.series)


def layout(spec: GrowthSpec, lang: str) -> Chart:
    """The chart of ``spec`` with labels in ``lang``."""
    values = spec.variable.values
    y_range = low, high = _y_range(spec)
    y_stride = _stride(high - low + 1)
    base = Fraction(spec.variable.base)
    y_ticks = tuple(
        Tick(
            y_of(spec, base**e, y_range),
            format_number(base**e, lang, spec.decimals) + t(lang, "times")
            if (e - low) % y_stride == 0
            else "",
        )
        for e in range(low, high + 1)
    )
    left = 10 + math.ceil(max(label_width(tick.label) for tick in y_ticks))
    xs = _x_positions(len(values), left)
    x_ticks = _x_ticks(xs, [format_integer(v, lang) for v in values])
    ys = [_marker_ys(spec, v, y_range) for v in values]
    all_points = [tuple((x, ys[i][k]) for i, x in enumerate(xs)) for k in range(len(spec.series))]
    label_ys = _separate([points[-1][1] - 8 for points in all_points])
    chart_lines = tuple(
        Line(s.line, points, s.label, (points[-1][0] - 6, label_y))
        for s, points, label_y in zip(spec.series, all_points, label_ys, strict=True)
    )
    baseline = format_integer(spec.variable.baseline, lang)
    unit = f" {spec.variable.unit}" if spec.variable.unit else ""
    return Chart(
        x_ticks,
        y_ticks,
        chart_lines,
        xs,
        tuple(ys),
        spec.variable.label,
        t(lang, "explorer_growth_axis", baseline=baseline + unit),
        (left, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM),
    )


def _separate(ys: list[float]) -> list[float]:
    """Direct label baselines pushed apart so no two overlap, and kept inside the top."""
    result = list(ys)
    previous = -math.inf
    for i in sorted(range(len(ys)), key=lambda i: ys[i]):
        result[i] = max(ys[i], previous + 15, TOP - 4)
        previous = result[i]
    return result
