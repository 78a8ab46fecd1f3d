"""The ``growth`` explorer's YAML declaration -> :class:`GrowthSpec`, with positions.

The schema (documented for authors in ``docs/explorers.md``)::

    id: attention-growth          # optional; prefix of element ids, unique in the page
    variable:
      name: n                     # letter in formulas and query parameter (?n=2048)
      label: Sequence length n
      unit: tokens                # optional
      domain: {base: 2, from: 7, to: 13}    # the values 2^7 ... 2^13
      initial: 1024               # one of the domain values
      baseline: 128               # growth is measured against this value
      hint: Choose a power of two ...
    series:                       # 1 to 3, each with its own line style
      - {id: linear, formula: n, label: Linear n, line: solid}
      - {id: quadratic, formula: n^2, label: Quadratic n², line: dashed}
    readouts:                     # `value: <formula>` or `growth: <series id>`
      - {id: n, label: Selected length, value: n}
      - {id: linear, label: Linear growth, growth: linear}
    summary: At n = {n}, ...      # {readout id} fields
    table:
      caption: ...
      columns: [n, linear, {readout: quadratic, label: Quadratic n²}]
      current: Current state      # optional header of the mark column
      mark: ← Selected            # optional text of the mark
    chart: {alt: ...}             # optional text alternative (else generated)
    decimals: 2                   # optional: fraction digits shown (0-6)

Every formula is evaluated here (exactly, or correctly rounded when a logarithm
makes it irrational) at every domain value and at the baseline, so a declaration
that parses can always be rendered.
"""

from __future__ import annotations

import re
from fractions import Fraction

from yaml.nodes import Node, ScalarNode

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.i18n.numbers import MAX_DIGITS
from pizarra.source.explorers.expr import Expr, ExprError, Var, parse_expr
from pizarra.source.explorers.reals import rounded, sign
from pizarra.source.explorers.spec import (
    Column,
    GrowthSpec,
    LineStyle,
    Readout,
    Series,
    Table,
    Variable,
)
from pizarra.source.explorers.yamlread import Reader

_ID = re.compile(r"[a-z][a-z0-9-]{0,39}\Z")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,15}\Z")
_FIELD = re.compile(r"\{([^{}]*)\}")
_LINES: tuple[LineStyle, ...] = ("solid", "dashed", "dotted")
_LIMIT = Fraction(10**MAX_DIGITS)
_DECIMALS = 6
"""Fraction digits a formula's value must be decidable to (the most ``decimals`` allows)."""


def parse_growth(
    body: str, pos: SourcePos, lang: str
) -> tuple[GrowthSpec | None, list[Diagnostic]]:
    """Validate a ``growth`` declaration; every problem is a diagnostic with its place."""
    reader = Reader(pos)
    root = reader.compose(body)
    if root is None:
        return None, reader.diagnostics
    keys = reader.mapping(
        root,
        "the explorer",
        ("variable", "series", "readouts", "summary", "table"),
        ("id", "chart", "decimals"),
    )
    if keys is None:
        return None, reader.diagnostics
    ident = _read_id(reader, keys.get("id"), pos)
    variable = _read_variable(reader, keys["variable"])
    decimals = 2
    if "decimals" in keys:
        decimals = reader.integer(keys["decimals"], "decimals", 0, 6) or 0
    alt = _read_alt(reader, keys.get("chart"))
    if variable is None:
        return None, reader.diagnostics
    series = _read_series(reader, keys["series"], variable)
    readouts = _read_readouts(reader, keys["readouts"], variable, series)
    summary = reader.text(keys["summary"], "summary", 1000)
    if summary is not None and readouts is not None:
        _check_template(reader, keys["summary"], summary, readouts)
    table = None
    if readouts is not None:
        table = _read_table(reader, keys["table"], variable, series, readouts)
    if reader.diagnostics or None in (ident, series, readouts, summary, table, alt):
        return None, reader.diagnostics
    assert ident and series and readouts and summary and table and alt is not None
    spec = GrowthSpec(ident, lang, variable, series, readouts, summary, table, alt, decimals, pos)
    return spec, []


def _read_id(reader: Reader, node: Node | None, pos: SourcePos) -> str | None:
    if node is None:
        return f"explorer-{pos.line}"
    ident = reader.text(node, "id", 40)
    if ident is not None and not _ID.match(ident):
        reader.error(reader.pos(node), f"id {ident!r} is not a valid id", "use a-z, 0-9 and -")
        return None
    return ident


def _read_alt(reader: Reader, node: Node | None) -> str | None:
    if node is None:
        return ""
    keys = reader.mapping(node, "chart", (), ("alt",))
    if keys is None:
        return None
    return reader.text(keys["alt"], "chart alt", 1000) if "alt" in keys else ""


def _read_variable(reader: Reader, node: Node) -> Variable | None:
    keys = reader.mapping(
        node, "variable", ("name", "label", "domain", "initial", "baseline", "hint"), ("unit",)
    )
    if keys is None:
        return None
    name = reader.text(keys["name"], "variable name", 16)
    if name is not None and not _NAME.match(name):
        reader.error(reader.pos(keys["name"]), f"variable name {name!r} is not a name")
        name = None
    label = reader.text(keys["label"], "variable label", 200)
    unit = reader.text(keys["unit"], "unit", 40) if "unit" in keys else ""
    hint = reader.text(keys["hint"], "hint", 500)
    exponents = _read_domain(reader, keys["domain"])
    if None in (name, label, unit, hint, exponents):
        return None
    assert name and label and hint and exponents and unit is not None
    base = exponents[0]
    values = tuple(base**e for e in exponents[1:])
    initial = reader.integer(keys["initial"], "initial", 1, 10**MAX_DIGITS)
    if initial is not None and initial not in values:
        allowed = ", ".join(str(v) for v in values)
        reader.error(reader.pos(keys["initial"]), f"initial must be one of {allowed}")
        initial = None
    baseline = reader.integer(keys["baseline"], "baseline", 1, 10**MAX_DIGITS)
    if initial is None or baseline is None:
        return None
    return Variable(name, label, unit, base, exponents[1:], initial, baseline, hint)


def _read_domain(reader: Reader, node: Node) -> tuple[int, ...] | None:
    """``(base, e0, e1, ...)``: the base then the consecutive exponents."""
    keys = reader.mapping(node, "domain", ("base", "from", "to"))
    if keys is None:
        return None
    base = reader.integer(keys["base"], "domain base", 2, 1000)
    low = reader.integer(keys["from"], "domain from", 0, 200)
    high = reader.integer(keys["to"], "domain to", 0, 200)
    if base is None or low is None or high is None:
        return None
    if not low < high <= low + 24:
        reader.error(reader.pos(node), "domain needs from < to, with at most 25 values")
        return None
    if base**high >= 10**MAX_DIGITS:
        reader.error(reader.pos(keys["to"]), f"{base}^{high} is too large")
        return None
    return (base, *range(low, high + 1))


def _formula(reader: Reader, node: Node, what: str, variable: Variable) -> Expr | None:
    text = reader.text(node, what, 200)
    if text is None:
        return None
    try:
        expr = parse_expr(text, frozenset({variable.name}))
    except ExprError as exc:
        offset = reader.value_offset(node) + exc.offset if reader.single_line(node) else 0
        reader.error(reader.pos(node, offset), f"{what}: {exc.message}", exc.hint)
        return None
    for value in (*variable.values, variable.baseline):
        try:
            result = rounded(expr, {variable.name: Fraction(value)}, _DECIMALS)
        except ExprError as exc:
            reader.error(
                reader.pos(node), f"{what} at {variable.name} = {value}: {exc.message}", exc.hint
            )
            return None
        if abs(result) >= _LIMIT:
            reader.error(reader.pos(node), f"{what} at {variable.name} = {value} is too large")
            return None
    return expr


def _read_series(reader: Reader, node: Node, variable: Variable) -> tuple[Series, ...] | None:
    items = reader.sequence(node, "series", len(_LINES))
    if items is None:
        return None
    result: list[Series] = []
    for item in items:
        keys = reader.mapping(item, "a series", ("id", "formula", "label", "line"))
        if keys is None:
            continue
        ident = reader.text(keys["id"], "series id", 40)
        label = reader.text(keys["label"], "series label", 100)
        line = reader.text(keys["line"], "series line", 10)
        expr = _formula(reader, keys["formula"], "series formula", variable)
        if line is not None and line not in _LINES:
            reader.error(reader.pos(keys["line"]), f"line must be one of {', '.join(_LINES)}")
            line = None
        if ident is not None and not _NAME.match(ident):
            reader.error(reader.pos(keys["id"]), f"series id {ident!r} is not a name")
            ident = None
        if ident is None or label is None or line is None or expr is None:
            continue
        if any(s.id == ident for s in result):
            reader.error(reader.pos(keys["id"]), f"duplicate series id {ident!r}")
        elif any(s.line == line for s in result):
            reader.error(
                reader.pos(keys["line"]),
                f"two series use the line style {line!r}",
                "series are told apart by their dash pattern: give each its own",
            )
        elif _positive_growth(reader, keys["formula"], expr, variable):
            source = str(getattr(keys["formula"], "value", ""))
            style = next(s for s in _LINES if s == line)
            result.append(Series(ident, expr, source, label, style))
    return tuple(result) if len(result) == len(items) else None


def _positive_growth(reader: Reader, node: Node, expr: Expr, variable: Variable) -> bool:
    """Log axes need growth f(v) / f(baseline) > 0 at every domain value."""
    try:
        at_base = sign(expr, {variable.name: Fraction(variable.baseline)})
        signs = [(v, sign(expr, {variable.name: Fraction(v)})) for v in variable.values]
    except ExprError as exc:
        reader.error(reader.pos(node), f"series formula: {exc.message}", exc.hint)
        return False
    if at_base == 0:
        reader.error(reader.pos(node), "series formula is 0 at the baseline")
        return False
    for value, value_sign in signs:
        if value_sign * at_base <= 0:
            reader.error(
                reader.pos(node),
                f"series growth at {variable.name} = {value} is not positive",
                "both axes are logarithmic, so plotted values must be positive",
            )
            return False
    return True


def _read_readouts(
    reader: Reader, node: Node, variable: Variable, series: tuple[Series, ...] | None
) -> tuple[Readout, ...] | None:
    """The readouts; growth targets are checked only when the series are valid."""
    items = reader.sequence(node, "readouts", 12)
    if items is None:
        return None
    result: list[Readout] = []
    for item in items:
        keys = reader.mapping(item, "a readout", ("id", "label"), ("value", "growth"))
        if keys is None:
            continue
        ident = reader.text(keys["id"], "readout id", 40)
        label = reader.text(keys["label"], "readout label", 200)
        if ident is not None and not _NAME.match(ident):
            reader.error(reader.pos(keys["id"]), f"readout id {ident!r} is not a name")
            continue
        if ("value" in keys) == ("growth" in keys):
            reader.error(reader.pos(item), "a readout needs exactly one of 'value' or 'growth'")
            continue
        if ident is None or label is None:
            continue
        if any(r.id == ident for r in result):
            reader.error(reader.pos(keys["id"]), f"duplicate readout id {ident!r}")
            continue
        if "value" in keys:
            expr = _formula(reader, keys["value"], "readout value", variable)
            if expr is not None:
                result.append(Readout(ident, label, "value", expr, ""))
            continue
        target = reader.text(keys["growth"], "readout growth", 40)
        if target is not None and series is not None and all(s.id != target for s in series):
            known = ", ".join(s.id for s in series)
            reader.error(reader.pos(keys["growth"]), f"no series {target!r}", f"series: {known}")
        elif target is not None:
            result.append(Readout(ident, label, "growth", None, target))
    return tuple(result) if len(result) == len(items) else None


def _check_template(reader: Reader, node: Node, text: str, readouts: tuple[Readout, ...]) -> None:
    ids = {r.id for r in readouts}
    for match in _FIELD.finditer(text):
        if match.group(1) not in ids:
            reader.error(
                reader.pos(node),
                f"summary field {{{match.group(1)}}} is not a readout",
                "fields: " + ", ".join("{" + r.id + "}" for r in readouts),
            )
    if "{" in _FIELD.sub("", text) or "}" in _FIELD.sub("", text):
        reader.error(reader.pos(node), "summary has an unmatched brace")


def _read_table(
    reader: Reader,
    node: Node,
    variable: Variable,
    series: tuple[Series, ...] | None,
    readouts: tuple[Readout, ...],
) -> Table | None:
    keys = reader.mapping(node, "table", ("caption", "columns"), ("current", "mark"))
    if keys is None:
        return None
    caption = reader.text(keys["caption"], "table caption", 300)
    current = reader.text(keys["current"], "table current", 100) if "current" in keys else ""
    mark = reader.text(keys["mark"], "table mark", 100) if "mark" in keys else ""
    items = reader.sequence(keys["columns"], "table columns", 10)
    if caption is None or current is None or mark is None or items is None:
        return None
    by_id = {r.id: r for r in readouts}
    columns: list[Column] = []
    for item in items:
        if isinstance(item, ScalarNode):
            ident, label = reader.text(item, "table column", 40), None
        else:
            col_keys = reader.mapping(item, "a table column", ("readout",), ("label",))
            if col_keys is None:
                continue
            ident = reader.text(col_keys["readout"], "table column readout", 40)
            label = (
                reader.text(col_keys["label"], "column label", 200) if "label" in col_keys else None
            )
        if ident is None:
            continue
        if ident not in by_id:
            reader.error(reader.pos(item), f"table column {ident!r} is not a readout")
            continue
        columns.append(Column(ident, label or by_id[ident].label))
    if len(columns) != len(items):
        return None
    shown = [by_id[c.readout] for c in columns]
    if not any(r.kind == "value" and r.formula == Var(variable.name) for r in shown):
        reader.error(
            reader.pos(keys["columns"]),
            f"the table must show {variable.name} itself",
            f"add a readout with 'value: {variable.name}' to the columns",
        )
    for s in series or ():
        if not any(r.kind == "growth" and r.series == s.id for r in shown):
            reader.error(
                reader.pos(keys["columns"]),
                f"the table must show the growth of series {s.id!r}: every plotted value",
                f"add a column for a readout with 'growth: {s.id}'",
            )
    return Table(caption, tuple(columns), current, mark)
