"""Geometry of the ``function`` chart: axes (linear or logarithmic, each on its own),
ticks, each state's curves as SVG paths, and the marked points.

The axes are the same in every state (the y range covers every state's values), so
moving a slider moves the curves, never the frame they are read against. Values
come from :func:`pizarra.source.explorers.shared_parse.value_at`: exact, or correctly
rounded from proven intervals to 12 digits, far below what a pixel shows.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from pizarra.base.i18n.numbers import format_number
from pizarra.render.explorers.growth_chart import LABEL_FONT, LABEL_GAP, Tick, label_width
from pizarra.render.explorers.states import all_states, env_of
from pizarra.source.explorers.function_spec import Axis, FunctionSpec, samples
from pizarra.source.explorers.shared_parse import CHECK_DECIMALS, value_at

WIDTH, HEIGHT = 400, 280
"""viewBox size, as the growth chart's."""
RIGHT, TOP, BOTTOM = 14, 44, 44
"""Margins around the plot area: room for labels and axis titles."""
CHART_DIGITS = CHECK_DECIMALS
"""Fraction digits of the values that place points on the chart."""
MAX_TICKS = 7
"""Most labelled ticks on an axis."""


@dataclass(frozen=True)
class FunctionChart:
    """Everything the SVG template draws, for every state."""

    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    plot: tuple[float, float, float, float]
    """Plot area: left, top, right, bottom."""
    paths: tuple[tuple[str, ...], ...]
    """For each state, each curve's SVG path data."""
    marks: tuple[tuple[tuple[str, str], ...], ...]
    """For each state, each mark's (x, y), written as the script writes numbers."""
    label_ys: tuple[tuple[str, ...], ...]
    """For each state, each curve's direct label baseline (at the right end)."""


def _position(axis: Axis, value: Fraction, low: Fraction, high: Fraction) -> float:
    """Where ``value`` sits between ``low`` (0) and ``high`` (1) on ``axis``'s scale."""
    if axis.scale == "linear":
        return float((value - low) / (high - low))
    a, b = math.log(low), math.log(high)
    return (_log(value) - a) / (b - a)


def _log(value: Fraction) -> float:
    return math.log(value.numerator) - math.log(value.denominator)


def _nice_step(span: Fraction, count: int) -> Fraction:
    """A 1, 2 or 5 times a power of ten that cuts ``span`` into at most ``count`` steps."""
    raw = span / count
    power = Fraction(10) ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if power * factor >= raw:
            return power * factor
    return power * 10


def linear_ticks(
    low: Fraction, high: Fraction, step: Fraction | None = None
) -> tuple[Fraction, Fraction, list[Fraction]]:
    """Ends widened to whole steps (the author's, or a round one), and the tick values
    from one end to the other."""
    step = step or _nice_step(high - low, MAX_TICKS - 1)
    start, stop = math.floor(low / step), math.ceil(high / step)
    return start * step, stop * step, [k * step for k in range(start, stop + 1)]


def log_ticks(axis: Axis, low: Fraction, high: Fraction) -> list[Fraction]:
    """Powers of the base from ``low`` to ``high`` (ends are powers); every k-th is
    labelled so that the last one is, and gaps between labels stay equal."""
    base = axis.base
    lo, hi = round(_log(low) / math.log(base)), round(_log(high) / math.log(base))
    return [Fraction(base) ** e for e in range(lo, hi + 1)]


ROUND_STRIDES = (1, 2, 5, 10, 20, 25, 50)
"""Strides tried first on a linear axis, so labels go up in round steps (0, 5, 10)."""


def _stride(count: int, fits: Callable[[int], bool], linear: bool) -> int:
    """Label every k-th tick, the last one always: k divides the gaps, so labelled gaps
    are all equal; the smallest such k with at most :data:`MAX_TICKS` labels that fit."""
    gaps = count - 1
    order: list[int] = list(range(1, gaps + 1))
    if linear:
        order = [
            *(k for k in ROUND_STRIDES if k <= gaps),
            *(k for k in order if k not in ROUND_STRIDES),
        ]
    for stride in order:
        if gaps % stride == 0 and gaps // stride + 1 <= MAX_TICKS and fits(stride):
            return stride
    return max(gaps, 1)


def _digits(values: list[Fraction]) -> int:
    digits = 0
    while any((v * 10**digits).denominator != 1 for v in values) and digits < 6:
        digits += 1
    return digits


def _ticks(
    axis: Axis,
    values: list[Fraction],
    place: Callable[[Fraction], float],
    lang: str,
    horizontal: bool,
) -> tuple[Tick, ...]:
    last = len(values) - 1
    digits = _digits(values)
    texts = [format_number(v, lang, digits) for v in values]
    at = [place(v) for v in values]

    def fits(stride: int) -> bool:
        """Labels at the narrow screens' font keep :data:`LABEL_GAP` apart (or, on the
        vertical axis, a line's height)."""
        shown = list(range(last, -1, -stride))[::-1]
        for a, b in itertools.pairwise(shown):
            room = abs(at[b] - at[a])
            need = (label_width(texts[a]) + label_width(texts[b])) / 2 + LABEL_GAP
            if room < (need if horizontal else LABEL_FONT + 2):
                return False
        return True

    stride = _stride(len(values), fits, axis.scale == "linear")
    return tuple(
        Tick(at[i], texts[i] if (last - i) % stride == 0 else "") for i in range(len(values))
    )


def _y_extent(spec: FunctionSpec, values: list[Fraction]) -> tuple[Fraction, Fraction]:
    if spec.y.low is not None and spec.y.high is not None:
        return spec.y.low, spec.y.high
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    return low, high


def layout(spec: FunctionSpec, lang: str) -> FunctionChart:
    """The chart of every state of ``spec``."""
    states = all_states(spec.params)
    xs = samples(spec.x)
    curve_values = [
        [
            [
                value_at(c.formula, {**env_of(spec.params, s), spec.x_name: x}, CHART_DIGITS)
                for x in xs
            ]
            for c in spec.curves
        ]
        for s in states
    ]
    flat = [v for state in curve_values for curve in state for v in curve]
    y_low, y_high = _y_extent(spec, flat)
    if spec.y.scale == "linear":
        y_low, y_high, y_values = linear_ticks(y_low, y_high, spec.y.step)
    else:
        e = spec.y.base
        y_low = Fraction(e) ** math.floor(_log(y_low) / math.log(e) + 1e-9)
        y_high = Fraction(e) ** math.ceil(_log(y_high) / math.log(e) - 1e-9)
        y_values = log_ticks(spec.y, y_low, y_high)
    assert spec.x.low is not None and spec.x.high is not None
    x_low, x_high = spec.x.low, spec.x.high
    if spec.x.scale == "linear":
        x_values = [v for v in linear_ticks(x_low, x_high, spec.x.step)[2] if x_low <= v <= x_high]
    else:
        x_values = [v for v in log_ticks(spec.x, x_low, x_high) if x_low <= v <= x_high]

    def y_px(value: Fraction) -> float:
        share = _position(spec.y, value, y_low, y_high)
        return round(HEIGHT - BOTTOM - share * (HEIGHT - TOP - BOTTOM), 2)

    y_ticks = _ticks(spec.y, y_values, y_px, lang, horizontal=False)
    left = 10 + math.ceil(max(label_width(tick.label) for tick in y_ticks))

    def x_px(value: Fraction) -> float:
        share = _position(spec.x, value, x_low, x_high)
        return round(left + share * (WIDTH - left - RIGHT), 2)

    x_ticks = _ticks(spec.x, x_values, x_px, lang, horizontal=True)
    paths = tuple(
        tuple(
            _path([(x_px(x), v) for x, v in zip(xs, curve, strict=True)], y_low, y_high, y_px)
            for curve in state
        )
        for state in curve_values
    )
    marks = []
    for s in states:
        env = env_of(spec.params, s)
        row = []
        for mark in spec.marks:
            curve = next(c for c in spec.curves if c.id == mark.curve)
            at = value_at(mark.x, env, CHART_DIGITS)
            y = value_at(curve.formula, {**env, spec.x_name: at}, CHART_DIGITS)
            y = min(max(y, y_low), y_high)
            row.append((number(x_px(at)), number(y_px(y))))
        marks.append(tuple(row))
    label_ys = tuple(
        _separate([y_px(min(max(curve[-1], y_low), y_high)) - 8 for curve in state])
        for state in curve_values
    )
    return FunctionChart(
        x_ticks, y_ticks, (left, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM), paths, tuple(marks), label_ys
    )


def _path(
    points: list[tuple[float, Fraction]],
    low: Fraction,
    high: Fraction,
    y_px: Callable[[Fraction], float],
) -> str:
    """``M x,y L x,y ...``; a point outside the y range breaks the line there."""
    parts: list[str] = []
    pen_down = False
    for x, value in points:
        if not low <= value <= high:
            pen_down = False
            continue
        parts.append(f"{'L' if pen_down else 'M'}{number(x)},{number(y_px(value))}")
        pen_down = True
    return " ".join(parts)


def _separate(ys: list[float]) -> tuple[str, ...]:
    """Direct-label baselines pushed at least 15 units apart, kept inside the top."""
    result = list(ys)
    previous = -math.inf
    for i in sorted(range(len(ys)), key=lambda i: ys[i]):
        result[i] = round(max(ys[i], previous + 15, TOP - 4), 2)
        previous = result[i]
    return tuple(number(y) for y in result)


def number(value: float) -> str:
    """A coordinate as JavaScript's ``String(x)`` writes it (``180``, ``215.26``)."""
    text = f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
