"""The ``function`` explorer's YAML declaration -> :class:`FunctionSpec`, with positions.

The schema (for authors in ``docs/authoring.md``)::

    id: interes                   # optional; prefix of element ids
    params:                       # one or two sliders
      - name: r
        label: Tipo de interés anual r
        values: {from: 0.01, to: 0.1, step: 0.01}   # or a list: [0.5, 1, 2]
        initial: 0.05
        hint: Elige un tipo entre el 1 % y el 10 %.
        unit: ""                  # optional
    x: {name: t, label: Años, from: 0, to: 30, scale: linear}   # scale: linear, log2, log10
    y: {label: Capital, scale: linear}    # optional from / to (else from the data)
    curves:                       # 1 to 3, each with its own line style
      - {id: capital, formula: 1000*(1+r)^t, label: Capital, line: solid}
    marks: [{curve: capital, x: 10}]      # optional: points at x given by the parameters
    readouts: [{id: c10, label: Capital a 10 años, value: 1000*(1+r)^10}]
    words: [{id: w, count: c10, one: euro, other: euros}]   # optional, CLDR plural forms
    choices: [{id: c, cases: [{when: r > 0.05, text: ...}, {text: ...}]}]  # optional
    summary: Con r = ... {c10} {w} ...
    table: {caption: ..., x: [0, 10, 20, 30]}
    chart: {alt: ...}             # optional
    decimals: 2                   # optional: fraction digits of the table's values

Every curve is evaluated here at every sample of every state, every readout and
comparison at every state; a declaration that parses can always be rendered.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from yaml.nodes import Node

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.source.explorers.expr import Expr
from pizarra.source.explorers.function_spec import Axis, Curve, FunctionSpec, Mark, Scale, samples
from pizarra.source.explorers.reals import rounded, sign
from pizarra.source.explorers.shared_parse import (
    Env,
    check_formula,
    read_alt,
    read_formula,
    read_id,
    read_name,
    read_number,
    read_params,
    state_envs,
)
from pizarra.source.explorers.shared_spec import LineStyle
from pizarra.source.explorers.texts_parse import read_texts
from pizarra.source.explorers.yamlread import Reader

_LINES: tuple[LineStyle, ...] = ("solid", "dashed", "dotted")
_SCALES: tuple[Scale, ...] = ("linear", "log2", "log10")


def parse_function(
    body: str, pos: SourcePos, lang: str
) -> tuple[FunctionSpec | None, list[Diagnostic]]:
    """Validate a ``function`` declaration; every problem is a diagnostic with its place."""
    reader = Reader(pos)
    root = reader.compose(body)
    if root is None:
        return None, reader.diagnostics
    keys = reader.mapping(
        root,
        "the explorer",
        ("params", "x", "curves", "readouts", "summary", "table"),
        ("id", "y", "marks", "words", "choices", "chart", "decimals"),
    )
    if keys is None:
        return None, reader.diagnostics
    ident = read_id(reader, keys.get("id"), pos)
    alt = read_alt(reader, keys.get("chart"))
    decimals = reader.integer(keys["decimals"], "decimals", 0, 6) if "decimals" in keys else 2
    params = read_params(reader, keys["params"], 2)
    if params is None:
        return None, reader.diagnostics
    taken = {p.name for p in params}
    x_keys = reader.mapping(keys["x"], "x", ("name", "label", "from", "to"), ("scale", "step"))
    x_name = read_name(reader, x_keys["name"], "x name", taken) if x_keys else None
    x_axis = _read_axis(reader, keys["x"], x_keys, needs_range=True)
    y_axis: Axis | None = Axis("", "linear", None, None)
    if "y" in keys:
        y_keys = reader.mapping(keys["y"], "y", ("label",), ("from", "to", "scale", "step"))
        y_axis = _read_axis(reader, keys["y"], y_keys, needs_range=False)
    envs = state_envs(params)
    names = frozenset(p.name for p in params)
    texts = read_texts(reader, keys, names, envs, decimals or 0, lang)
    if x_name is None or x_axis is None or y_axis is None:
        return None, reader.diagnostics
    curves = _read_curves(reader, keys["curves"], names | {x_name}, x_name, x_axis, y_axis, envs)
    marks = _read_marks(reader, keys.get("marks"), names, x_axis, curves or (), envs)
    table = _read_table(reader, keys["table"], x_axis)
    if table is not None and curves:
        at_rows = [{**env, x_name: x} for env in envs for x in table[1]]
        if not check_curves_at(reader, keys["table"], curves, at_rows):
            table = None
    if marks and curves:
        for mark in marks:
            curve = next(c for c in curves if c.id == mark.curve)
            at_marks = [{**env, x_name: rounded(mark.x, env, 6)} for env in envs]
            check_curves_at(reader, keys["marks"], (curve,), at_marks)
    if reader.diagnostics or None in (ident, alt, decimals, texts, curves, marks, table):
        return None, reader.diagnostics
    assert ident and texts and curves and table and alt is not None and decimals is not None
    assert marks is not None
    spec = FunctionSpec(
        ident,
        lang,
        params,
        x_name,
        x_axis,
        y_axis,
        curves,
        marks,
        texts,
        table[0],
        table[1],
        alt,
        decimals,
        pos,
    )
    return spec, []


def _read_axis(
    reader: Reader, node: Node, keys: dict[str, Node] | None, needs_range: bool
) -> Axis | None:
    if keys is None:
        return None
    label = reader.text(keys["label"], "axis label", 100)
    scale = reader.text(keys["scale"], "axis scale", 10) if "scale" in keys else "linear"
    if scale is not None and scale not in _SCALES:
        reader.error(reader.pos(keys["scale"]), f"scale must be one of {', '.join(_SCALES)}")
        scale = None
    ends = [
        read_number(reader, keys[k], f"axis {k}") if k in keys else None for k in ("from", "to")
    ]
    if (
        label is None
        or scale is None
        or any(e is None for e, k in zip(ends, ("from", "to"), strict=True) if k in keys)
    ):
        return None
    low, high = ends
    if (low is None) != (high is None) or (needs_range and low is None):
        reader.error(reader.pos(node), "give both ends of the axis: from and to")
        return None
    if low is not None and high is not None and not low < high:
        reader.error(reader.pos(node), "the axis needs from < to")
        return None
    if scale != "linear" and low is not None and low <= 0:
        reader.error(reader.pos(node), "a logarithmic axis needs from > 0")
        return None
    step = read_number(reader, keys["step"], "axis step") if "step" in keys else None
    if step is not None and (scale != "linear" or low is None or high is None or step <= 0):
        reader.error(reader.pos(keys["step"]), "step needs a linear axis with from and to")
        return None
    if step is not None and low is not None and high is not None and (high - low) / step > 50:
        reader.error(reader.pos(keys["step"]), "step gives more than 50 grid lines")
        return None
    return Axis(label, next(s for s in _SCALES if s == scale), low, high, step)


def _read_curves(
    reader: Reader,
    node: Node,
    names: frozenset[str],
    x_name: str,
    x_axis: Axis,
    y_axis: Axis,
    envs: list[dict[str, Fraction]],
) -> tuple[Curve, ...] | None:
    items = reader.sequence(node, "curves", len(_LINES))
    if items is None:
        return None
    points = [{**env, x_name: x} for env in envs for x in samples(x_axis)]
    result: list[Curve] = []
    for item in items:
        keys = reader.mapping(item, "a curve", ("id", "formula", "label", "line"))
        if keys is None:
            continue
        ident = reader.text(keys["id"], "curve id", 40)
        label = reader.text(keys["label"], "curve label", 100)
        line = reader.text(keys["line"], "curve line", 10)
        expr = read_formula(reader, keys["formula"], "curve formula", names, points)
        if line is not None and line not in _LINES:
            reader.error(reader.pos(keys["line"]), f"line must be one of {', '.join(_LINES)}")
            continue
        if ident is None or label is None or line is None or expr is None:
            continue
        if any(c.id == ident for c in result) or any(c.line == line for c in result):
            reader.error(reader.pos(item), "each curve needs its own id and its own line style")
            continue
        if y_axis.scale != "linear" and not _positive(reader, keys["formula"], expr, points):
            continue
        result.append(Curve(ident, expr, label, next(s for s in _LINES if s == line)))
    return tuple(result) if len(result) == len(items) else None


def _positive(reader: Reader, node: Node, expr: Expr, points: list[dict[str, Fraction]]) -> bool:
    for env in points:
        if sign(expr, env) <= 0:
            at = ", ".join(f"{k} = {float(v):g}" for k, v in env.items())
            reader.error(
                reader.pos(node),
                f"curve formula is not positive at {at}",
                "a logarithmic y axis needs positive values",
            )
            return False
    return True


def _read_marks(
    reader: Reader,
    node: Node | None,
    names: frozenset[str],
    x_axis: Axis,
    curves: tuple[Curve, ...],
    envs: list[dict[str, Fraction]],
) -> tuple[Mark, ...] | None:
    if node is None:
        return ()
    items = reader.sequence(node, "marks", 6)
    if items is None:
        return None
    result: list[Mark] = []
    for item in items:
        keys = reader.mapping(item, "a mark", ("curve", "x"))
        if keys is None:
            continue
        curve = reader.text(keys["curve"], "mark curve", 40)
        x = read_formula(reader, keys["x"], "mark x", names, envs)
        if curve is not None and curves and all(c.id != curve for c in curves):
            reader.error(reader.pos(keys["curve"]), f"no curve {curve!r}")
            continue
        if curve is None or x is None or not _inside(reader, keys["x"], x, x_axis, envs):
            continue
        result.append(Mark(curve, x))
    return tuple(result) if len(result) == len(items) else None


def _inside(
    reader: Reader, node: Node, x: Expr, axis: Axis, envs: list[dict[str, Fraction]]
) -> bool:
    assert axis.low is not None and axis.high is not None
    for env in envs:
        value = rounded(x, env, 6)
        if not axis.low <= value <= axis.high:
            reader.error(reader.pos(node), f"mark x = {float(value):g} is outside the x axis")
            return False
    return True


def _read_table(
    reader: Reader, node: Node, x_axis: Axis
) -> tuple[str, tuple[Fraction, ...]] | None:
    keys = reader.mapping(node, "table", ("caption", "x"))
    if keys is None:
        return None
    caption = reader.text(keys["caption"], "table caption", 300)
    items = reader.sequence(keys["x"], "table x", 25)
    if caption is None or items is None:
        return None
    xs = [read_number(reader, item, "a table x") for item in items]
    assert x_axis.low is not None and x_axis.high is not None
    if any(x is not None and not x_axis.low <= x <= x_axis.high for x in xs):
        reader.error(reader.pos(keys["x"]), "every table x must lie on the x axis")
        return None
    if None in xs:
        return None
    return caption, tuple(x for x in xs if x is not None)


def check_curves_at(
    reader: Reader, node: Node, curves: tuple[Curve, ...], envs: Sequence[Env]
) -> bool:
    """Every curve is defined at the table's x values too."""
    return all(check_formula(reader, node, "curve formula", c.formula, envs) for c in curves)
