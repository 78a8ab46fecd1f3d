"""States of the explorer kinds with parameters (``function``, ``distribution``): which
states there are, how a query names one, and what a state says in words.

A state is a tuple of indices, one per parameter. Its query is the parameters'
values as plain decimals (``?T=0.5``), read strictly: a value that is not one of
the parameter's gets a 400 page that lists what is allowed. Every text is made
here from CLDR data (Babel): numbers with a fixed count of fraction digits, and
counted words in the plural form CLDR's rules give for the number as shown.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from babel import Locale
from markupsafe import Markup

from pizarra.base.i18n.numbers import decimal_string, format_number
from pizarra.base.i18n.strings import t
from pizarra.source.explorers.shared_parse import FIELD, value_at
from pizarra.source.explorers.shared_spec import Condition, Param, Texts, ValueReadout
from pizarra.source.explorers.texts_parse import holds

State = tuple[int, ...]
"""One index per parameter."""

MAX_QUERY_VALUE = 32
"""Longest query value read; anything longer is rejected unread."""
NBSP = "\u00a0"


class StateError(Exception):
    """A query that names no state of the explorer."""

    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.message = message
        """What is allowed, for the reader of the 400 page."""
        self.param = param
        """The query parameter at fault."""


def plain_value(param: Param, value: Fraction) -> str:
    """A parameter value as the query and the script write it (``0.05``)."""
    return decimal_string(value, param.decimals)


def all_states(params: Sequence[Param]) -> list[State]:
    """Every state, the last parameter varying fastest (the order of the JSON data)."""
    return list(itertools.product(*(range(len(p.values)) for p in params)))


def initial_state(params: Sequence[Param]) -> State:
    return tuple(p.values.index(p.initial) for p in params)


def env_of(params: Sequence[Param], state: State) -> dict[str, Fraction]:
    return {p.name: p.values[i] for p, i in zip(params, state, strict=True)}


def query_of(params: Sequence[Param], state: State) -> dict[str, str]:
    return {p.name: plain_value(p, p.values[i]) for p, i in zip(params, state, strict=True)}


def state_page(ident: str, params: Sequence[Param], state: State) -> str:
    """The file, beside the lesson page, that shows ``state`` (``softmax-T-0.5.html``)."""
    parts = (f"{name}-{value}" for name, value in query_of(params, state).items())
    return f"{ident}-{'-'.join(parts)}.html"


def state_href(ident: str, params: Sequence[Param], state: State) -> str:
    """The lesson itself for the initial state, else the state's own page."""
    page = "./" if state == initial_state(params) else state_page(ident, params, state)
    return f"{page}#{ident}"


def state_pages(ident: str, params: Sequence[Param]) -> tuple[tuple[str, dict[str, str]], ...]:
    """Each state but the initial one: its page's name and its query."""
    first = initial_state(params)
    return tuple(
        (state_page(ident, params, s), query_of(params, s))
        for s in all_states(params)
        if s != first
    )


def resolve(params: Sequence[Param], lang: str, query: Mapping[str, str]) -> State:
    """The state ``query`` names; a parameter it leaves out keeps its initial value."""
    state = list(initial_state(params))
    for index, param in enumerate(params):
        raw = query.get(param.name)
        if raw is None:
            continue
        plain = {plain_value(param, v): i for i, v in enumerate(param.values)}
        text = raw.strip()
        if len(text) <= MAX_QUERY_VALUE and text in plain:
            state[index] = plain[text]
            continue
        allowed = ", ".join(plain)
        raise StateError(t(lang, "allowed_values", name=param.name, values=allowed), param.name)
    return tuple(state)


def fixed(value: Fraction, lang: str, digits: int) -> str:
    """``value`` with exactly ``digits`` fraction digits, as
    ``Intl.NumberFormat(lang, {minimumFractionDigits: d, maximumFractionDigits: d})``."""
    text = format_number(value, lang, digits)
    if digits == 0:
        return text
    decimal = format_number(Fraction(1, 2), lang, 1)[1]
    whole, _, fraction = text.partition(decimal)
    return whole + decimal + fraction.ljust(digits, "0")


def plain_fixed(value: Fraction, digits: int) -> str:
    """The locale-free decimal of ``value`` with exactly ``digits`` fraction digits."""
    text = decimal_string(value, digits)
    whole, _, fraction = text.partition(".")
    return whole + ("." + fraction.ljust(digits, "0") if digits else "")


def plural_category(lang: str, plain: str) -> str:
    """CLDR's plural category of a number written ``plain``: the digits shown count
    (in English ``1`` is ``one`` and ``1.0`` is ``other``)."""
    return str(Locale.parse(lang, sep="-").plural_form(Decimal(plain.lstrip("-"))))


def with_unit(text: str, unit: str) -> str:
    return f"{text}{NBSP}{unit}" if unit else text


def param_text(param: Param, value: Fraction, lang: str) -> str:
    """A parameter value as the control shows and speaks it: exactly, without
    trailing zeros (``0,25``, ``0,5``, ``1``)."""
    return with_unit(format_number(value, lang, param.decimals), param.unit)


def readout_value(readout: ValueReadout, env: Mapping[str, Fraction]) -> Fraction:
    return value_at(readout.formula, env, readout.decimals)


def state_words(
    texts: Texts, params: Sequence[Param], env: Mapping[str, Fraction], lang: str
) -> dict[str, str]:
    """Field -> text of one state: parameters, readouts, counted words, chosen texts."""
    values = {r.id: readout_value(r, env) for r in texts.readouts}
    result = {p.name: param_text(p, env[p.name], lang) for p in params}
    result |= {
        r.id: with_unit(fixed(values[r.id], lang, r.decimals), r.unit) for r in texts.readouts
    }
    digits = {r.id: r.decimals for r in texts.readouts}
    for word in texts.words:
        plain = plain_fixed(values[word.count], digits[word.count])
        result[word.id] = word.form(plural_category(lang, plain))
    for choice in texts.choices:
        result[choice.id] = choice_text(choice.cases, env)
    return result


def choice_index(cases: Sequence[tuple[Condition | None, str]], env: Mapping[str, Fraction]) -> int:
    """The first case whose condition holds (the last has none and always does)."""
    for index, (condition, _) in enumerate(cases):
        if condition is None or holds(condition, env):
            return index
    return len(cases) - 1


def choice_text(cases: Sequence[tuple[Condition | None, str]], env: Mapping[str, Fraction]) -> str:
    return cases[choice_index(cases, env)][1]


def state_data(texts: Texts, env: Mapping[str, Fraction]) -> dict[str, object]:
    """What the script needs of one state's words: plain readouts and chosen cases."""
    return {
        "readouts": {r.id: plain_fixed(readout_value(r, env), r.decimals) for r in texts.readouts},
        "choices": {c.id: choice_index(c.cases, env) for c in texts.choices},
    }


def texts_data(texts: Texts) -> dict[str, object]:
    """What the script needs to write any state's words (the same for every state)."""
    return {
        "summary": texts.summary,
        "readouts": [{"id": r.id, "digits": r.decimals, "unit": r.unit} for r in texts.readouts],
        "words": [{"id": w.id, "count": w.count, "forms": dict(w.forms)} for w in texts.words],
        "choices": [{"id": c.id, "texts": [text for _, text in c.cases]} for c in texts.choices],
    }


def fill(template: str, values: Mapping[str, str]) -> str:
    """Choices first (their texts may hold fields), then every other field."""
    once = FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), template)
    return FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), once)


def initial_data(params: Sequence[Param]) -> list[int]:
    """The initial state's indices: the script drops the query when it is shown again."""
    return list(initial_state(params))


def params_data(params: Sequence[Param], lang: str) -> list[dict[str, object]]:
    return [
        {
            "name": p.name,
            "values": [plain_value(p, v) for v in p.values],
            "digits": p.decimals,
            "unit": p.unit,
        }
        for p in params
    ]


def json_script(data: object) -> Markup:
    """JSON safe inside ``<script>``: ``<``, ``>`` and ``&`` escaped as ``\\u`` codes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


def controls(
    ident: str, params: Sequence[Param], state: State, lang: str
) -> list[dict[str, object]]:
    """What the template needs for each slider and its no-JavaScript links."""
    result = []
    for index, param in enumerate(params):
        suffix = "" if index == 0 else f"-{index + 1}"
        options = []
        for i, value in enumerate(param.values):
            other = (*state[:index], i, *state[index + 1 :])
            options.append(
                {
                    "href": state_href(ident, params, other),
                    "text": param_text(param, value, lang),
                    "selected": i == state[index],
                }
            )
        texts = [param_text(param, value, lang) for value in param.values]
        result.append(
            {
                "suffix": suffix,
                "name": param.name,
                "label": param.label,
                "hint": param.hint,
                "options": options,
                "max": len(param.values) - 1,
                "index": state[index],
                "text": texts[state[index]],
                "widest": max(texts, key=len),
            }
        )
    return result


def digits_needed(value: Fraction) -> int:
    """Fraction digits that write ``value`` exactly (at most 6)."""
    digits = 0
    while (value * 10**digits).denominator != 1 and digits < 6:
        digits += 1
    return digits
