"""The ``growth`` explorer: choose a power of a base, compare series on log-log axes.

:func:`resolve` reads a state from a query (``?n=2048``), strictly: only the
domain's values in plain decimal are accepted, so a bad link gets a 400 page
that lists what is allowed. :func:`render` prints the whole explorer for one
state; the browser script receives every state's numbers in a JSON block.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup

from pizarra.base.i18n.numbers import format_integer
from pizarra.base.i18n.strings import t
from pizarra.render.explorers.growth_chart import HEIGHT, WIDTH, Chart, layout
from pizarra.render.explorers.growth_data import (
    GrowthState,
    fill,
    plain,
    readout_texts,
    rows,
    value_text,
    valuetext_template,
)
from pizarra.render.explorers.growth_html import growth_parts, growth_template
from pizarra.source.explorers.spec import GrowthSpec

MAX_QUERY_VALUE = 64
"""Longest query value read; anything longer is rejected unread."""


class StateError(Exception):
    """A query that names no state of the explorer."""

    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.message = message
        """What is allowed, for the reader of the 400 page."""
        self.param = param
        """The query parameter at fault."""


def state_page(spec: GrowthSpec, value: int) -> str:
    """The file, beside the lesson page, that shows the explorer at ``value``."""
    return f"{spec.id}-{spec.variable.name}-{value}.html"


def state_href(spec: GrowthSpec, value: int) -> str:
    """The link to a state: the lesson itself for the initial one, else its own page."""
    page = "./" if value == spec.variable.initial else state_page(spec, value)
    return f"{page}#{spec.id}"


def state_values(spec: GrowthSpec) -> tuple[int, ...]:
    """Every state but the initial one (which the lesson page shows)."""
    return tuple(v for v in spec.variable.values if v != spec.variable.initial)


def params(spec: GrowthSpec) -> tuple[str, ...]:
    """The query parameters that select a state."""
    return (spec.variable.name,)


def resolve(spec: GrowthSpec, query: Mapping[str, str]) -> GrowthState:
    """The state named by ``query``; the initial state when the parameter is absent."""
    variable = spec.variable
    values = variable.values
    raw = query.get(variable.name)
    if raw is None:
        return GrowthState(values.index(variable.initial), variable.initial)
    text = raw.strip()
    if len(text) <= MAX_QUERY_VALUE and text.isascii() and text.isdigit() and int(text) in values:
        value = int(text)
        return GrowthState(values.index(value), value)
    allowed = ", ".join(str(v) for v in values)
    raise StateError(
        t(spec.lang, "allowed_values", name=variable.name, values=allowed), variable.name
    )


def _json(data: object) -> Markup:
    """JSON safe inside ``<script>``: ``<``, ``>`` and ``&`` are escaped as ``\\u`` codes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


def _widest(texts: list[str]) -> str:
    """The longest of the texts a slot can show, to reserve its width."""
    return max(texts, key=len)


def _description(spec: GrowthSpec, chart: Chart, lang: str) -> str:
    if spec.alt:
        return spec.alt
    labelled = [tick.label for tick in chart.y_ticks if tick.label]
    ymin = chart.y_ticks[0].label or labelled[0]
    ymax = chart.y_ticks[-1].label or labelled[-1]
    lines = " ".join(
        t(lang, "explorer_line_desc", label=s.label, style=t(lang, f"line_{s.line}"))
        for s in spec.series
    )
    values = spec.variable.values
    unit = f" {spec.variable.unit}" if spec.variable.unit else ""
    return t(
        lang,
        "explorer_chart_desc",
        base=spec.variable.base,
        variable=spec.variable.label,
        low=format_integer(values[0], lang),
        high=format_integer(values[-1], lang) + unit,
        axis=chart.y_title,
        ymin=ymin,
        ymax=ymax,
        lines=lines,
    )


@dataclass(frozen=True)
class _Shared:
    """What every state's HTML of one explorer shares: its numbers and texts, and the
    markup that does not change with the state (``growth_parts.html``)."""

    texts: tuple[dict[str, str], ...]
    summaries: tuple[str, ...]
    value_texts: tuple[str, ...]
    chart: Chart
    data: Markup
    legend: Markup
    frame: Markup
    """The chart's frame: its title, grid and axes."""
    shapes: tuple[Markup, ...]
    """Each series' line, points and label (its dot moves with the state)."""
    rows: tuple[tuple[Markup, Markup], ...]
    """Each row of the data table, as another state's and as the current state's."""


@lru_cache(maxsize=64)
def _shared(spec: GrowthSpec, lang: str) -> _Shared:
    """Computed once per explorer, not once per state: a lesson page and its state
    pages render the same explorer 25 times at most."""
    variable = spec.variable
    data_rows = rows(spec)
    texts = [readout_texts(spec, row, lang) for row in data_rows]
    chart = layout(spec, lang)
    data = {
        "lang": lang,
        "name": variable.name,
        "initial": str(variable.initial),
        "decimals": spec.decimals,
        "low": variable.exponents[0],
        "times": t(lang, "times"),
        "mark": spec.table.mark or t(lang, "selected"),
        "summary": spec.summary,
        "valuetext": valuetext_template(spec, lang),
        "readouts": [{"id": r.id, "kind": r.kind} for r in spec.readouts],
        "states": [
            {
                "value": str(row.value),
                "readouts": {k: plain(spec, v) for k, v in row.readouts.items()},
                "x": x,
                "ys": ys,
            }
            for row, x, ys in zip(data_rows, chart.xs, chart.marker_ys, strict=True)
        ],
    }
    title = t(
        lang,
        "explorer_chart_title",
        series=", ".join(s.label for s in spec.series),
        variable=variable.label,
    )
    parts = growth_parts()
    mark = spec.table.mark or t(lang, "selected")
    cells = [[row_texts[c.readout] for c in spec.table.columns] for row_texts in texts]
    desc = _description(spec, chart, lang)
    return _Shared(
        texts=tuple(texts),
        summaries=tuple(fill(spec.summary, row_texts) for row_texts in texts),
        value_texts=tuple(format_integer(v, lang) for v in variable.values),
        chart=chart,
        data=_json(data),
        legend=parts.legend(chart),
        frame=parts.chart_frame(spec.id, chart, chart.plot, WIDTH, HEIGHT, title, desc),
        shapes=tuple(parts.series_shapes(line, i) for i, line in enumerate(chart.lines)),
        rows=tuple(
            (parts.table_row(c, False, mark), parts.table_row(c, True, mark)) for c in cells
        ),
    )


def render(spec: GrowthSpec, lang: str, state: GrowthState) -> Markup:
    """The explorer's HTML showing ``state``."""
    variable = spec.variable
    shared = _shared(spec, lang)
    texts, value_texts, chart = shared.texts, shared.value_texts, shared.chart
    return Markup(
        growth_template().render(
            id=spec.id,
            label=variable.label,
            hint=variable.hint,
            options=[
                {"href": state_href(spec, v), "text": text, "selected": i == state.index}
                for i, (v, text) in enumerate(zip(variable.values, value_texts, strict=True))
            ],
            low=variable.exponents[0],
            high=variable.exponents[-1],
            exponent=variable.exponents[state.index],
            valuetext=value_text(spec, state.value, lang),
            value_text=value_texts[state.index],
            widest_value=_widest(list(value_texts)),
            legend=shared.legend,
            frame=shared.frame,
            shapes=shared.shapes,
            plot=chart.plot,
            marker={"x": chart.xs[state.index], "ys": chart.marker_ys[state.index]},
            readouts=spec.readouts,
            texts=texts[state.index],
            widest_readouts={r.id: _widest([tx[r.id] for tx in texts]) for r in spec.readouts},
            summary=shared.summaries[state.index],
            widest_summary=_widest(list(shared.summaries)),
            show_table=t(lang, "show_table"),
            table=spec.table,
            current_label=spec.table.current_label or t(lang, "current_state"),
            rows=[row[i == state.index] for i, row in enumerate(shared.rows)],
            data=shared.data,
        )
    )
