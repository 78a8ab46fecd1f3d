"""Reading what a state says in words: readouts, counted words (CLDR plural forms
from Babel), texts chosen by comparisons, and the summary that uses them.

Each comparison is decided at every state when the declaration is read; one too
close to call (the sides may be equal) is an error, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from babel import Locale
from yaml.nodes import Node

from pizarra.source.explorers.expr import BinOp, Expr, ExprError, parse_expr
from pizarra.source.explorers.reals import sign
from pizarra.source.explorers.rewrite import substitute
from pizarra.source.explorers.shared_parse import (
    FIELD,
    Env,
    at_text,
    digits_of,
    read_formula,
    read_name,
    value_at,
)
from pizarra.source.explorers.shared_spec import (
    Choice,
    Comparison,
    Condition,
    PluralCategory,
    Texts,
    ValueReadout,
    Word,
)
from pizarra.source.explorers.yamlread import Reader

_COMPARISON = re.compile(r"<=|>=|==|!=|<|>")
_CATEGORIES: tuple[PluralCategory, ...] = ("zero", "one", "two", "few", "many", "other")


def read_condition(
    reader: Reader,
    node: Node,
    names: frozenset[str],
    envs: Sequence[Env],
    stats: Mapping[str, Expr] | None = None,
) -> Condition | None:
    """``left op right`` (``T < 1``), decided at every env."""
    text = reader.text(node, "when", 200)
    if text is None:
        return None
    found = _COMPARISON.search(text)
    if found is None:
        reader.error(reader.pos(node), "when needs a comparison: <, <=, >, >=, == or !=")
        return None
    sides = (text[: found.start()], text[found.end() :])
    try:
        left, right = (
            substitute(parse_expr(side, names | frozenset(stats or {}), powers=True), stats or {})
            for side in sides
        )
    except ExprError as exc:
        reader.error(reader.pos(node), f"when: {exc.message}", exc.hint)
        return None
    op: Comparison = found.group(0)  # type: ignore[assignment]
    condition = Condition(op, left, right)
    for env in envs:
        try:
            holds(condition, env)
        except ExprError as exc:
            reader.error(
                reader.pos(node),
                f"when at {at_text(env)}: {exc.message}",
                "the two sides may be equal there: compare with a margin",
            )
            return None
    return condition


def holds(condition: Condition, env: Env) -> bool:
    """Whether ``condition`` is true at ``env``, decided exactly (or raises)."""
    s = sign(BinOp("-", condition.left, condition.right), env)
    return {"<": s < 0, "<=": s <= 0, ">": s > 0, ">=": s >= 0, "==": s == 0, "!=": s != 0}[
        condition.op
    ]


def read_texts(
    reader: Reader,
    keys: Mapping[str, Node],
    names: frozenset[str],
    envs: Sequence[Env],
    decimals: int,
    lang: str,
    stats: Mapping[str, Expr] | None = None,
) -> Texts | None:
    """``readouts``, ``words``, ``choices`` and ``summary`` of a declaration; formulas may
    use the names of ``stats`` (a kind's own quantities), replaced by their formulas."""
    readouts = _read_readouts(reader, keys["readouts"], names, envs, decimals, stats)
    ids = {r.id for r in readouts or ()}
    words = _read_words(reader, keys.get("words"), ids, lang)
    choices = _read_choices(reader, keys.get("choices"), names, envs, stats)
    summary = reader.text(keys["summary"], "summary", 1000)
    if readouts is None or words is None or choices is None or summary is None:
        return None
    fields = ids | {w.id for w in words} | {c.id for c in choices} | set(names)
    if len(fields) != len(readouts) + len(words) + len(choices) + len(names):
        reader.error(
            reader.pos(keys["summary"]),
            "parameters, readouts, words and choices need distinct names",
            "a parameter is a field of the summary already: {" + min(names) + "}",
        )
        return None
    for text, node in [
        (summary, keys["summary"]),
        *((t, keys["choices"]) for c in choices for _, t in c.cases),
    ]:
        check_template(reader, node, text, fields)
    return Texts(readouts, words, choices, summary)


def check_template(reader: Reader, node: Node, text: str, fields: set[str]) -> None:
    for match in FIELD.finditer(text):
        if match.group(1) not in fields:
            reader.error(
                reader.pos(node),
                f"field {{{match.group(1)}}} is not a parameter, readout, word or choice",
                "fields: " + ", ".join("{" + f + "}" for f in sorted(fields)),
            )
    rest = FIELD.sub("", text)
    if "{" in rest or "}" in rest:
        reader.error(reader.pos(node), "a text has an unmatched brace")


def _read_readouts(
    reader: Reader,
    node: Node,
    names: frozenset[str],
    envs: Sequence[Env],
    decimals: int,
    stats: Mapping[str, Expr] | None,
) -> tuple[ValueReadout, ...] | None:
    items = reader.sequence(node, "readouts", 12)
    if items is None:
        return None
    result: list[ValueReadout] = []
    taken: set[str] = set()
    for item in items:
        keys = reader.mapping(item, "a readout", ("id", "label", "value"), ("decimals", "unit"))
        if keys is None:
            continue
        ident = read_name(reader, keys["id"], "readout id", taken)
        label = reader.text(keys["label"], "readout label", 200)
        unit = reader.text(keys["unit"], "readout unit", 20) if "unit" in keys else ""
        expr = read_formula(reader, keys["value"], "readout value", names, envs, stats)
        digits = decimals
        if "decimals" in keys:
            digits = reader.integer(keys["decimals"], "decimals", 0, 6) or 0
        elif expr is not None:
            digits = min(decimals, max(digits_of(value_at(expr, env)) for env in envs))
        if ident is not None and label is not None and expr is not None and unit is not None:
            result.append(ValueReadout(ident, label, expr, digits, unit))
    return tuple(result) if len(result) == len(items) else None


def _read_words(
    reader: Reader, node: Node | None, readouts: set[str], lang: str
) -> tuple[Word, ...] | None:
    if node is None:
        return ()
    items = reader.sequence(node, "words", 12)
    if items is None:
        return None
    known = Locale.parse(lang, sep="-").plural_form.tags | {"other"}
    result: list[Word] = []
    for item in items:
        keys = reader.mapping(item, "a word", ("id", "count", "other"), _CATEGORIES[:-1])
        if keys is None:
            continue
        ident = reader.text(keys["id"], "word id", 16)
        count = reader.text(keys["count"], "word count", 16)
        if count is not None and count not in readouts:
            reader.error(reader.pos(keys["count"]), f"word count {count!r} is not a readout")
            count = None
        forms: list[tuple[PluralCategory, str]] = []
        for category in _CATEGORIES:
            if category in keys:
                if category not in known:
                    reader.error(
                        reader.pos(keys[category]),
                        f"{lang!r} has no plural form {category!r}",
                        "its CLDR categories: " + ", ".join(sorted(known)),
                    )
                    continue
                form = reader.text(keys[category], f"form {category}", 100)
                if form is not None:
                    forms.append((category, form))
        if ident is not None and count is not None and len(forms) == len(keys) - 2:
            result.append(Word(ident, count, tuple(forms)))
    return tuple(result) if len(result) == len(items) else None


def _read_choices(
    reader: Reader,
    node: Node | None,
    names: frozenset[str],
    envs: Sequence[Env],
    stats: Mapping[str, Expr] | None,
) -> tuple[Choice, ...] | None:
    if node is None:
        return ()
    items = reader.sequence(node, "choices", 12)
    if items is None:
        return None
    result: list[Choice] = []
    for item in items:
        keys = reader.mapping(item, "a choice", ("id", "cases"))
        if keys is None:
            continue
        ident = reader.text(keys["id"], "choice id", 16)
        cases_nodes = reader.sequence(keys["cases"], "cases", 8)
        if ident is None or cases_nodes is None:
            continue
        cases: list[tuple[Condition | None, str]] = []
        for index, case in enumerate(cases_nodes):
            last = index == len(cases_nodes) - 1
            case_keys = reader.mapping(case, "a case", ("text",), () if last else ("when",))
            if case_keys is None:
                break
            text = reader.text(case_keys["text"], "case text", 300)
            if not last and "when" not in case_keys:
                reader.error(reader.pos(case), "only the last case may go without 'when'")
                break
            condition = None
            if not last:
                condition = read_condition(reader, case_keys["when"], names, envs, stats)
                if condition is None:
                    break
            if text is None:
                break
            cases.append((condition, text))
        if len(cases) == len(cases_nodes):
            result.append(Choice(ident, tuple(cases)))
    return tuple(result) if len(result) == len(items) else None
