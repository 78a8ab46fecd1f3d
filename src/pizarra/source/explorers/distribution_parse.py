"""The ``distribution`` explorer's YAML declaration -> :class:`DistributionSpec`.

The schema (for authors in ``docs/authoring.md``)::

    id: softmax
    params: [{name: T, label: Temperatura T, values: [0.5, 1, 2], initial: 1, hint: ...}]
    categories:                   # 2 to 8
      - {id: gato, label: gato, score: 2}      # score: a number or a formula in the params
      - {id: perro, label: perro, score: 1}
    weight: exp(score / T)        # > 0; each probability is its weight over their sum
    readouts:                     # formulas may use p_<id>, top and entropy (in bits)
      - {id: top, label: Probabilidad mayor, value: 100*top, unit: "%", decimals: 1}
    words: ...                    # optional, as for `function`
    choices: ...                  # optional
    summary: ...
    table: {caption: ..., score: Puntuación, probability: Probabilidad}
    chart: {alt: ...}             # optional
    decimals: 1                   # optional: fraction digits of the percentages

Probabilities, ``top`` and ``entropy`` are formulas in the parameters (built here),
so every number shown is exact or correctly rounded from a proven interval.
"""

from __future__ import annotations

from fractions import Fraction

from yaml.nodes import Node

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.source.explorers.distribution_spec import Category, DistributionSpec
from pizarra.source.explorers.expr import BinOp, Call, Expr, ExprError, MaxOf, Neg, Num
from pizarra.source.explorers.reals import sign
from pizarra.source.explorers.rewrite import substitute
from pizarra.source.explorers.shared_parse import (
    NAME,
    at_text,
    digits_of,
    read_alt,
    read_formula,
    read_id,
    read_params,
    state_envs,
    value_at,
)
from pizarra.source.explorers.texts_parse import read_texts
from pizarra.source.explorers.yamlread import Reader

MAX_CATEGORIES = 8


def parse_distribution(
    body: str, pos: SourcePos, lang: str
) -> tuple[DistributionSpec | None, list[Diagnostic]]:
    """Validate a ``distribution`` declaration; every problem is a diagnostic with its place."""
    reader = Reader(pos)
    root = reader.compose(body)
    if root is None:
        return None, reader.diagnostics
    keys = reader.mapping(
        root,
        "the explorer",
        ("params", "categories", "weight", "readouts", "summary", "table"),
        ("id", "words", "choices", "chart", "decimals"),
    )
    if keys is None:
        return None, reader.diagnostics
    ident = read_id(reader, keys.get("id"), pos)
    alt = read_alt(reader, keys.get("chart"))
    decimals = reader.integer(keys["decimals"], "decimals", 0, 4) if "decimals" in keys else 1
    params = read_params(reader, keys["params"], 2)
    table = _read_table(reader, keys["table"])
    if params is None:
        return None, reader.diagnostics
    names = frozenset(p.name for p in params)
    envs = state_envs(params)
    scores = _read_categories(reader, keys["categories"], names, envs)
    weight = read_formula(reader, keys["weight"], "weight", names | {"score"}, [])
    if scores is None or weight is None:
        return None, reader.diagnostics
    weights = [substitute(weight, {"score": score}) for _, _, score in scores]
    if not _positive(reader, keys["weight"], weights, envs):
        return None, reader.diagnostics
    total = _sum(weights)
    probabilities = [BinOp("/", w, total) for w in weights]
    stats: dict[str, Expr] = {
        f"p_{i}": p for (i, _, _), p in zip(scores, probabilities, strict=True)
    }
    stats["top"] = MaxOf(tuple(probabilities))
    ln2 = Call("ln", Num(Fraction(2)))
    stats["entropy"] = Neg(
        _sum([BinOp("*", p, BinOp("/", Call("ln", p), ln2)) for p in probabilities])
    )
    texts = read_texts(reader, keys, names, envs, 2, lang, stats)
    if reader.diagnostics or None in (ident, alt, decimals, texts, table):
        return None, reader.diagnostics
    assert ident and texts and table and alt is not None and decimals is not None
    categories = tuple(
        Category(i, label, score, p)
        for (i, label, score), p in zip(scores, probabilities, strict=True)
    )
    score_digits = max(digits_of(value_at(c.score, env)) for c in categories for env in envs)
    spec = DistributionSpec(
        ident,
        lang,
        params,
        categories,
        texts,
        table[1],
        table[2],
        table[0],
        alt,
        decimals,
        min(score_digits, 3),
        pos,
    )
    return spec, []


def _sum(terms: list[Expr]) -> Expr:
    total = terms[0]
    for term in terms[1:]:
        total = BinOp("+", total, term)
    return total


def _read_categories(
    reader: Reader, node: Node, names: frozenset[str], envs: list[dict[str, Fraction]]
) -> list[tuple[str, str, Expr]] | None:
    items = reader.sequence(node, "categories", MAX_CATEGORIES)
    if items is None:
        return None
    if len(items) < 2:
        reader.error(reader.pos(node), "a distribution needs at least two categories")
        return None
    result: list[tuple[str, str, Expr]] = []
    for item in items:
        keys = reader.mapping(item, "a category", ("id", "label", "score"))
        if keys is None:
            continue
        ident = reader.text(keys["id"], "category id", 14)
        label = reader.text(keys["label"], "category label", 60)
        score = read_formula(reader, keys["score"], "score", names, envs)
        if ident is not None and not NAME.match(ident):
            reader.error(reader.pos(keys["id"]), f"category id {ident!r} is not a name")
            continue
        if ident is not None and any(ident == i for i, _, _ in result):
            reader.error(reader.pos(keys["id"]), f"duplicate category id {ident!r}")
            continue
        if ident is not None and label is not None and score is not None:
            result.append((ident, label, score))
    return result if len(result) == len(items) else None


def _positive(
    reader: Reader, node: Node, weights: list[Expr], envs: list[dict[str, Fraction]]
) -> bool:
    for env in envs:
        for weight in weights:
            try:
                positive = sign(weight, env) > 0
            except ExprError as exc:
                reader.error(reader.pos(node), f"weight at {at_text(env)}: {exc.message}")
                return False
            if not positive:
                reader.error(
                    reader.pos(node),
                    f"weight at {at_text(env)} is not positive",
                    "probabilities are weights over their sum: each weight must be > 0",
                )
                return False
    return True


def _read_table(reader: Reader, node: Node) -> tuple[str, str, str] | None:
    keys = reader.mapping(node, "table", ("caption", "score", "probability"))
    if keys is None:
        return None
    caption = reader.text(keys["caption"], "table caption", 300)
    score = reader.text(keys["score"], "table score", 60)
    probability = reader.text(keys["probability"], "table probability", 60)
    if caption is None or score is None or probability is None:
        return None
    return caption, score, probability
