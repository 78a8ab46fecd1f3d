"""The ``distribution`` explorer: a categorical distribution computed from parameters
(softmax of scores at a temperature), drawn as horizontal bars, with its table.

Complete without JavaScript like every kind: state links, bars, readouts, summary
and table show the selected state; the script swaps in other states' numbers
(plain decimals, formatted with ``Intl``) and bar lengths.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from markupsafe import Markup

import pizarra.render.explorers.states as st
from pizarra.base.i18n.strings import t
from pizarra.render.explorers.function_chart import number
from pizarra.render.explorers.growth_chart import label_width
from pizarra.render.explorers.growth_html import growth_environment_template
from pizarra.source.explorers.distribution_spec import PERCENT, DistributionSpec
from pizarra.source.explorers.expr import BinOp, Num
from pizarra.source.explorers.shared_parse import value_at

WIDTH = 400
"""viewBox width, as the other kinds' charts."""
ROW = 40
"""Height of one bar's row, in user units."""
VALUE_ROOM = 84
"""Room at the right for the percentage, at the narrow screens' font."""


@dataclass(frozen=True)
class _Shared:
    data: Markup
    words: tuple[dict[str, str], ...]
    summaries: tuple[str, ...]
    percents: tuple[tuple[str, ...], ...]
    widths: tuple[tuple[str, ...], ...]
    scores: tuple[tuple[str, ...], ...]
    left: float


def percent_text(spec: DistributionSpec, plain: str, lang: str) -> str:
    """``55,2 %``: the percentage as the bars and the table show it."""
    return st.with_unit(st.fixed(Fraction(plain), lang, spec.decimals), "%")


@lru_cache(maxsize=32)
def _shared(spec: DistributionSpec, lang: str) -> _Shared:
    """Computed once per explorer: its lesson page and every state page share it."""
    states = st.all_states(spec.params)
    envs = [st.env_of(spec.params, s) for s in states]
    left = 12 + math.ceil(max(label_width(c.label) for c in spec.categories))
    room = WIDTH - left - VALUE_ROOM
    in_percent = [BinOp("*", Num(PERCENT), c.probability) for c in spec.categories]
    percents, widths, scores = [], [], []
    for env in envs:
        shares = [value_at(c.probability, env, 12) for c in spec.categories]
        percents.append(
            tuple(
                st.plain_fixed(value_at(p, env, spec.decimals), spec.decimals) for p in in_percent
            )
        )
        widths.append(tuple(number(max(float(p) * room, 0.5)) for p in shares))
        digits = spec.score_decimals
        scores.append(
            tuple(st.plain_fixed(value_at(c.score, env, digits), digits) for c in spec.categories)
        )
    words = tuple(st.state_words(spec.texts, spec.params, env, lang) for env in envs)
    data = {
        "lang": lang,
        "params": st.params_data(spec.params, lang),
        "initial": st.initial_data(spec.params),
        "texts": st.texts_data(spec.texts),
        "digits": spec.decimals,
        "scoreDigits": spec.score_decimals,
        "states": [
            {
                **st.state_data(spec.texts, env),
                "bars": list(widths[i]),
                "percents": list(percents[i]),
                "scores": list(scores[i]),
            }
            for i, env in enumerate(envs)
        ],
    }
    return _Shared(
        data=st.json_script(data),
        words=words,
        summaries=tuple(st.fill(spec.texts.summary, w) for w in words),
        percents=tuple(percents),
        widths=tuple(widths),
        scores=tuple(scores),
        left=left,
    )


def render(spec: DistributionSpec, lang: str, state: st.State) -> Markup:
    """The explorer's HTML showing ``state``."""
    shared = _shared(spec, lang)
    index = st.all_states(spec.params).index(state)
    percents = [percent_text(spec, p, lang) for p in shared.percents[index]]
    scores = [st.fixed(Fraction(s), lang, spec.score_decimals) for s in shared.scores[index]]
    height = 8 + ROW * len(spec.categories)
    return Markup(
        growth_environment_template("distribution.html").render(
            id=spec.id,
            controls=st.controls(spec.id, spec.params, state, lang),
            title=spec.probability_label,
            desc=spec.alt or t(lang, "explorer_bars_desc"),
            width=WIDTH,
            height=height,
            row_height=ROW,
            left=shared.left,
            rows=[
                {"label": c.label, "width": w, "percent": p, "score": s}
                for c, w, p, s in zip(
                    spec.categories, shared.widths[index], percents, scores, strict=True
                )
            ],
            widest_percent=max(
                (percent_text(spec, p, lang) for ps in shared.percents for p in ps), key=len
            ),
            readouts=spec.texts.readouts,
            words=shared.words[index],
            widest={
                r.id: max((w[r.id] for w in shared.words), key=len) for r in spec.texts.readouts
            },
            summary=shared.summaries[index],
            widest_summary=max(shared.summaries, key=len),
            show_table=t(lang, "show_table"),
            caption=spec.table_caption,
            category=t(lang, "category"),
            score_label=spec.score_label,
            probability_label=spec.probability_label,
            data=shared.data,
        )
    )
