"""The ``function`` explorer: sliders over one or two parameters, formulas in ``x``
plotted over an x range, readouts, a summary and the data table.

Like ``growth``, the page is complete without JavaScript: links to every state
(pages of their own, or ``?a=2`` on the server), the chart, the readouts and the
table all show the selected state. The browser script receives every state's
numbers as plain decimals and only formats them (``Intl``, CLDR) and moves shapes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from markupsafe import Markup

import pizarra.render.explorers.states as st
from pizarra.base.i18n.numbers import format_number
from pizarra.base.i18n.strings import t
from pizarra.render.explorers.function_chart import HEIGHT, WIDTH, FunctionChart, layout
from pizarra.render.explorers.growth_html import growth_environment_template
from pizarra.source.explorers.function_spec import FunctionSpec
from pizarra.source.explorers.shared_parse import value_at

StateError = st.StateError


def _column_digits(spec: FunctionSpec) -> tuple[int, ...]:
    """Per curve: 0 when every value in its column is a whole number, else the
    explorer's decimals, kept (``9,70`` beside ``10,00``, never ``9,7``)."""
    result = []
    for curve in spec.curves:
        values = [
            value_at(curve.formula, {**st.env_of(spec.params, s), spec.x_name: x}, spec.decimals)
            for s in st.all_states(spec.params)
            for x in spec.table_xs
        ]
        result.append(0 if all(v.denominator == 1 for v in values) else spec.decimals)
    return tuple(result)


def _cells(spec: FunctionSpec, state: st.State, digits: tuple[int, ...]) -> list[list[Fraction]]:
    env = st.env_of(spec.params, state)
    return [
        [
            value_at(c.formula, {**env, spec.x_name: x}, d)
            for c, d in zip(spec.curves, digits, strict=True)
        ]
        for x in spec.table_xs
    ]


@dataclass(frozen=True)
class _Shared:
    chart: FunctionChart
    digits: tuple[int, ...]
    data: Markup
    words: tuple[dict[str, str], ...]
    summaries: tuple[str, ...]
    x_texts: tuple[str, ...]
    desc: str


def _description(spec: FunctionSpec, chart: FunctionChart, lang: str) -> str:
    if spec.alt:
        return spec.alt
    x_labels = [tick.label for tick in chart.x_ticks if tick.label]
    y_labels = [tick.label for tick in chart.y_ticks if tick.label]
    lines = " ".join(
        t(lang, "explorer_line_desc", label=c.label, style=t(lang, f"line_{c.line}"))
        for c in spec.curves
    )
    return t(
        lang,
        "explorer_function_desc",
        x=spec.x.label,
        x_scale=t(lang, f"scale_{spec.x.scale}"),
        x_low=x_labels[0],
        x_high=x_labels[-1],
        y=spec.y.label or ", ".join(c.label for c in spec.curves),
        y_scale=t(lang, f"scale_{spec.y.scale}"),
        y_low=y_labels[0],
        y_high=y_labels[-1],
        lines=lines,
    )


@lru_cache(maxsize=32)
def _shared(spec: FunctionSpec, lang: str) -> _Shared:
    """Computed once per explorer: its lesson page and every state page share it."""
    chart = layout(spec, lang)
    digits = _column_digits(spec)
    states = st.all_states(spec.params)
    envs = [st.env_of(spec.params, s) for s in states]
    words = tuple(st.state_words(spec.texts, spec.params, env, lang) for env in envs)
    data = {
        "lang": lang,
        "params": st.params_data(spec.params, lang),
        "initial": st.initial_data(spec.params),
        "texts": st.texts_data(spec.texts),
        "columns": list(digits),
        "valuetext": t(lang, "value_with_unit", value="{value}", unit="{unit}"),
        "states": [
            {
                **st.state_data(spec.texts, env),
                "paths": list(chart.paths[i]),
                "marks": [list(m) for m in chart.marks[i]],
                "labels": list(chart.label_ys[i]),
                "cells": [
                    [st.plain_fixed(v, d) for v, d in zip(row, digits, strict=True)]
                    for row in _cells(spec, states[i], digits)
                ],
            }
            for i, env in enumerate(envs)
        ],
    }
    x_digits = max(st.digits_needed(x) for x in spec.table_xs)
    return _Shared(
        chart=chart,
        digits=digits,
        data=st.json_script(data),
        words=words,
        summaries=tuple(st.fill(spec.texts.summary, w) for w in words),
        x_texts=tuple(format_number(x, lang, x_digits) for x in spec.table_xs),
        desc=_description(spec, chart, lang),
    )


def resolve(spec: FunctionSpec, query: Mapping[str, str]) -> st.State:
    return st.resolve(spec.params, spec.lang, query)


def render(spec: FunctionSpec, lang: str, state: st.State) -> Markup:
    """The explorer's HTML showing ``state``."""
    shared = _shared(spec, lang)
    index = st.all_states(spec.params).index(state)
    words = shared.words[index]
    chart = shared.chart
    cells = _cells(spec, state, shared.digits)
    return Markup(
        growth_environment_template("function.html").render(
            id=spec.id,
            controls=st.controls(spec.id, spec.params, state, lang),
            valuetexts=[
                st.param_text(p, p.values[i], lang) for p, i in zip(spec.params, state, strict=True)
            ],
            curves=spec.curves,
            chart=chart,
            width=WIDTH,
            height=HEIGHT,
            plot=chart.plot,
            title=t(
                lang,
                "explorer_chart_title",
                series=", ".join(c.label for c in spec.curves),
                variable=spec.x.label,
            ),
            desc=shared.desc,
            x_title=spec.x.label,
            y_title=spec.y.label,
            paths=chart.paths[index],
            label_ys=chart.label_ys[index],
            marks=chart.marks[index],
            mark_series=[
                next(i for i, c in enumerate(spec.curves) if c.id == m.curve) for m in spec.marks
            ],
            readouts=spec.texts.readouts,
            words=words,
            widest={
                r.id: max((w[r.id] for w in shared.words), key=len) for r in spec.texts.readouts
            },
            summary=shared.summaries[index],
            widest_summary=max(shared.summaries, key=len),
            show_table=t(lang, "show_table"),
            caption=spec.table_caption,
            rows=[
                (x_text, [st.fixed(v, lang, d) for v, d in zip(row, shared.digits, strict=True)])
                for x_text, row in zip(shared.x_texts, cells, strict=True)
            ],
            data=shared.data,
        )
    )
