"""Reading the parts of an explorer declaration that kinds share (parameters,
readouts, counted words, choices, the summary), each error at its line.

Every formula is evaluated here at every state (exactly, or enclosed in a proven
interval and correctly rounded), and every comparison decided, so a declaration
that parses can always be rendered and a comparison too close to call is an
error the author sees, never a guess.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

from yaml.nodes import Node, ScalarNode

from pizarra.base.errors import SourcePos
from pizarra.source.explorers.expr import Expr, ExprError, parse_expr
from pizarra.source.explorers.reals import rounded
from pizarra.source.explorers.rewrite import substitute
from pizarra.source.explorers.shared_spec import MAX_STATES, Param
from pizarra.source.explorers.yamlread import Reader

Env = Mapping[str, Fraction]

ID = re.compile(r"[a-z][a-z0-9-]{0,39}\Z")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,15}\Z")
FIELD = re.compile(r"\{([^{}]*)\}")
_NUMBER = re.compile(r"-?\d{1,12}(?:\.\d{1,6})?\Z")
MAX_VALUES = 41
"""Most values one parameter may take."""
CHECK_DECIMALS = 12
"""Fraction digits every formula must be decidable to at every state."""
LIMIT = Fraction(10**15)
"""Largest magnitude of a shown value."""


def read_id(reader: Reader, node: Node | None, pos: SourcePos) -> str | None:
    """The explorer's id (``explorer-<line>`` when not given)."""
    if node is None:
        return f"explorer-{pos.line}"
    ident = reader.text(node, "id", 40)
    if ident is not None and not ID.match(ident):
        reader.error(reader.pos(node), f"id {ident!r} is not a valid id", "use a-z, 0-9 and -")
        return None
    return ident


def read_alt(reader: Reader, node: Node | None) -> str | None:
    """The figure's text alternative; empty means a generated one."""
    if node is None:
        return ""
    keys = reader.mapping(node, "chart", (), ("alt",))
    if keys is None:
        return None
    return reader.text(keys["alt"], "chart alt", 1000) if "alt" in keys else ""


def read_name(reader: Reader, node: Node, what: str, taken: set[str]) -> str | None:
    """A formula name (``T``, ``top``) not used before in this explorer."""
    name = reader.text(node, what, 16)
    if name is not None and not NAME.match(name):
        reader.error(reader.pos(node), f"{what} {name!r} is not a name", "use letters, digits, _")
        return None
    if name is not None and name in taken:
        reader.error(reader.pos(node), f"the name {name!r} is used twice in this explorer")
        return None
    if name is not None:
        taken.add(name)
    return name


def read_number(reader: Reader, node: Node, what: str) -> Fraction | None:
    """A decimal number as written (``0.05`` is exactly 1/20, never a float)."""
    text = str(getattr(node, "value", "")).strip().replace("_", "")
    if not isinstance(node, ScalarNode) or node.style not in (None, "") or not _NUMBER.match(text):
        reader.error(reader.pos(node), f"{what} must be a decimal number such as 2 or 0.05")
        return None
    return Fraction(text)


def digits_of(value: Fraction) -> int:
    digits = 0
    while (value * 10**digits).denominator != 1:
        digits += 1
    return digits


def read_params(reader: Reader, node: Node, limit: int) -> tuple[Param, ...] | None:
    """One or ``limit`` parameters; their states together at most :data:`MAX_STATES`."""
    items = reader.sequence(node, "params", limit)
    if items is None:
        return None
    taken: set[str] = set()
    params = [p for p in (_read_param(reader, item, taken) for item in items) if p is not None]
    if len(params) != len(items):
        return None
    count = 1
    for param in params:
        count *= len(param.values)
    if count > MAX_STATES:
        reader.error(
            reader.pos(node),
            f"the parameters give {count} states; at most {MAX_STATES} are allowed",
            "each state is a page of its own: use fewer values (a larger step)",
        )
        return None
    return tuple(params)


def _read_param(reader: Reader, node: Node, taken: set[str]) -> Param | None:
    keys = reader.mapping(
        node, "a parameter", ("name", "label", "values", "initial", "hint"), ("unit",)
    )
    if keys is None:
        return None
    name = read_name(reader, keys["name"], "parameter name", taken)
    label = reader.text(keys["label"], "parameter label", 200)
    hint = reader.text(keys["hint"], "hint", 500)
    unit = reader.text(keys["unit"], "unit", 40) if "unit" in keys else ""
    values = _read_values(reader, keys["values"])
    initial = read_number(reader, keys["initial"], "initial")
    if None in (name, label, hint, unit, values, initial):
        return None
    assert name and label and hint and values and initial is not None and unit is not None
    if initial not in values:
        reader.error(reader.pos(keys["initial"]), "initial must be one of the values")
        return None
    return Param(name, label, unit, values, initial, hint, max(digits_of(v) for v in values))


def _read_values(reader: Reader, node: Node) -> tuple[Fraction, ...] | None:
    """``[0.5, 1, 2]`` or ``{from: 0, to: 1, step: 0.1}``: 2 to 41 ascending values."""
    if isinstance(node, ScalarNode):
        reader.error(reader.pos(node), "values must be a list or {from, to, step}")
        return None
    if hasattr(node, "value") and isinstance(node.value, list) and node.tag.endswith(":seq"):
        items = reader.sequence(node, "values", MAX_VALUES)
        if items is None:
            return None
        found = [read_number(reader, item, "a value") for item in items]
        if None in found:
            return None
        values = tuple(v for v in found if v is not None)
    else:
        keys = reader.mapping(node, "values", ("from", "to", "step"))
        if keys is None:
            return None
        low, high, step = (
            read_number(reader, keys[k], f"values {k}") for k in ("from", "to", "step")
        )
        if low is None or high is None or step is None:
            return None
        if step <= 0 or high <= low or (high - low) / step > MAX_VALUES - 1:
            reader.error(reader.pos(node), f"values need from < to and 2 to {MAX_VALUES} steps")
            return None
        if ((high - low) / step).denominator != 1:
            reader.error(reader.pos(keys["step"]), "the step must divide to - from")
            return None
        values = tuple(low + i * step for i in range(int((high - low) / step) + 1))
    if len(values) < 2 or any(b <= a for a, b in itertools.pairwise(values)):
        reader.error(reader.pos(node), "values must be at least two, strictly ascending")
        return None
    return values


def state_envs(params: Sequence[Param]) -> list[dict[str, Fraction]]:
    """Every state's parameter values, the last parameter varying fastest."""
    return [
        {p.name: v for p, v in zip(params, combo, strict=True)}
        for combo in itertools.product(*(p.values for p in params))
    ]


def read_formula(
    reader: Reader,
    node: Node,
    what: str,
    names: frozenset[str],
    envs: Sequence[Env],
    stats: Mapping[str, Expr] | None = None,
) -> Expr | None:
    """A formula in ``names`` (and the names of ``stats``, replaced by their formulas),
    decidable (and not too large) at every env."""
    text = reader.text(node, what, 200)
    if text is None:
        return None
    try:
        expr = parse_expr(text, names | frozenset(stats or {}), powers=True)
    except ExprError as exc:
        offset = reader.value_offset(node) + exc.offset if reader.single_line(node) else 0
        reader.error(reader.pos(node, offset), f"{what}: {exc.message}", exc.hint)
        return None
    if stats:
        expr = substitute(expr, stats)
    return expr if check_formula(reader, node, what, expr, envs) else None


def at_text(env: Env) -> str:
    return ", ".join(f"{k} = {float(v):g}" for k, v in env.items())


@lru_cache(maxsize=65536)
def _value(expr: Expr, env: tuple[tuple[str, Fraction], ...], decimals: int) -> Fraction:
    return rounded(expr, dict(env), decimals)


def value_at(expr: Expr, env: Env, decimals: int = CHECK_DECIMALS) -> Fraction:
    """``expr`` at ``env``, exact or correctly rounded to ``decimals`` digits; kept, since
    the renderer asks again for what parsing computed (raises :class:`ExprError`)."""
    return _value(expr, tuple(sorted(env.items())), decimals)


def check_formula(reader: Reader, node: Node, what: str, expr: Expr, envs: Sequence[Env]) -> bool:
    for env in envs:
        try:
            value = value_at(expr, env)
        except ExprError as exc:
            reader.error(reader.pos(node), f"{what} at {at_text(env)}: {exc.message}", exc.hint)
            return False
        if abs(value) >= LIMIT:
            reader.error(reader.pos(node), f"{what} at {at_text(env)} is too large to show")
            return False
    return True
