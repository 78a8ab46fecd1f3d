"""Soundness of function applications and units: a false statement is never checked.

The companion of :mod:`tests.test_soundness_property` for built-in functions applied
to expressions (``(\\lfloor 2.5 \\rfloor + 1)!``, ``\\binom{n}{k}``, ``\\log`` in the
lesson's base, ``\\log_{b}`` with any base, ``\\sum`` with computed bounds), for the
lesson's own functions (``functions:`` in the front matter, nested and calling each
other) and for units: a unit that ends both sides cancels, and that is the only case
decided; any other unit leaves the claim unchecked even when its numbers agree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from pizarra.check.claims import iter_claims
from pizarra.math.exact.judge import Status
from tests.oracle import SUM, Ex, binary, expressions, literal, localize
from tests.oracle_calls import (
    UNITS,
    Definition,
    applications,
    applied,
    lesson_functions,
    with_unit,
)
from tests.test_soundness_property import (
    FALSE_FOR,
    LANGS,
    SPELLINGS,
    TRUE_FOR,
    direction,
    right_sides,
    truncated,
)

ALL_RELATIONS = [s for spellings in SPELLINGS.values() for s in spellings]
FEWER = settings(max_examples=max(25, settings.default.max_examples // 2))
"""Half the profile's examples: each of these draws and judges larger formulas."""
HEADS = re.compile(r"\\(binom|dbinom|tbinom|log_|log|lvert|left\\vert|max|min|sum|prod)|!")


def verdicts(
    data: st.DataObject,
    tex: str,
    definitions: list[Definition] | None = None,
    conventions: Mapping[str, str] | None = None,
) -> list[Status]:
    """The statuses of ``tex`` (and its definitions) as an English or Spanish lesson writes them."""
    lang = data.draw(LANGS, label="lang")
    grouped = data.draw(st.booleans(), label="grouped")
    functions = {d.key: localize(d.body, lang, grouped) for d in definitions or []}
    try:
        written = localize(tex, lang, grouped)
        judged = iter_claims(written, conventions, lang=lang, functions=functions)
    except ValueError as error:  # a definition pizarra refuses (``\\log_10 x``): no claim
        assert "functions:" in str(error), error
        event("a definition is refused")
        return []
    found = [verdict.status for verdict in judged]
    event(f"verdicts: {' '.join(s.value for s in found) or 'none'}")
    return found


def false_statement(data: st.DataObject, left: Ex, others: st.SearchStrategy[Ex]) -> str:
    """``left`` against a right side, under a relation false for them (any relation when
    ``left`` has no decided value)."""
    if left.value is None:
        event("left: no value")
        right = data.draw(others, label="right")
        return f"{left.tex} {data.draw(st.sampled_from(ALL_RELATIONS))} {right.tex}"
    right = data.draw(right_sides(left) | others, label="right")
    if right.value is None:
        event("right: no value")
        return f"{left.tex} {data.draw(st.sampled_from(ALL_RELATIONS))} {right.tex}"
    relation = data.draw(st.sampled_from(FALSE_FOR[direction(left, right)]))
    return f"{left.tex} {data.draw(st.sampled_from(SPELLINGS[relation]))} {right.tex}"


@FEWER
@given(st.data())
def test_a_false_statement_about_a_builtin_function_is_never_checked(
    data: st.DataObject,
) -> None:
    base = data.draw(st.sampled_from(["10", "2", "e"]), label="log base")
    left = data.draw(applications(base), label="left")
    head = HEADS.search(left.tex)
    event(f"function: {head.group(0) if head else 'none'}")
    tex = false_statement(data, left, expressions(3) | applications(base))
    assert Status.CHECKED not in verdicts(data, tex, conventions={"log": base}), (tex, base)


@FEWER
@given(st.data())
def test_a_false_statement_about_a_lesson_function_is_never_checked(data: st.DataObject) -> None:
    definitions = data.draw(lesson_functions(), label="functions")
    left = data.draw(applied(definitions), label="left")
    tex = false_statement(data, left, expressions(3) | applied(definitions))
    written = {d.key: d.body for d in definitions}
    assert Status.CHECKED not in verdicts(data, tex, definitions), (tex, written)


@FEWER
@given(st.data())
def test_a_true_statement_about_a_lesson_function_is_checked(data: st.DataObject) -> None:
    """The other half: definitions and applications are written as pizarra reads them."""
    definitions = data.draw(lesson_functions(wide=False), label="functions")
    left = data.draw(applied(definitions, wide=False), label="left")
    assume(isinstance(left.value, Fraction))
    assert isinstance(left.value, Fraction)
    right = literal(left.value, data.draw(st.sampled_from(["", "frac"])))
    relation = data.draw(st.sampled_from(TRUE_FOR[0]))
    tex = f"{left.tex} {relation} {right.tex}"
    written = {d.key: d.body for d in definitions}
    assert verdicts(data, tex, definitions) == [Status.CHECKED], (tex, written)


# -- units ---------------------------------------------------------------------------------


@FEWER
@given(st.data())
def test_a_false_statement_with_a_cancelling_unit_is_never_checked(data: st.DataObject) -> None:
    left = data.draw(expressions(4), label="left")
    assume(left.value is not None)
    right = data.draw(right_sides(left), label="right")
    assume(right.value is not None)
    relation = data.draw(st.sampled_from(FALSE_FOR[direction(left, right)]))
    unit = data.draw(st.sampled_from(UNITS), label="unit")
    a = with_unit(left, unit, data.draw(st.integers(0, 3)))
    b = with_unit(right, unit, data.draw(st.integers(0, 3)))
    tex = f"{a.tex} {data.draw(st.sampled_from(SPELLINGS[relation]))} {b.tex}"
    assert Status.CHECKED not in verdicts(data, tex), tex


@FEWER
@given(st.data())
def test_a_true_statement_with_a_cancelling_unit_is_checked(data: st.DataObject) -> None:
    """A unit after a product on both sides is a common factor: the numbers decide."""
    left = data.draw(expressions(4, wide=False), label="left")
    assume(isinstance(left.value, Fraction) and left.level > SUM)
    assert isinstance(left.value, Fraction)
    if data.draw(st.booleans()):
        right = literal(left.value, data.draw(st.sampled_from(["", "frac"])))
    else:
        digits, up = data.draw(st.integers(1, 12)), data.draw(st.booleans())
        right = literal(truncated(left.value, digits, up), "")
    relation = data.draw(st.sampled_from(TRUE_FOR[direction(left, right)]))
    unit = data.draw(st.sampled_from(UNITS), label="unit")
    a = with_unit(left, unit, data.draw(st.integers(0, 3)))
    b = with_unit(right, unit, data.draw(st.integers(0, 3)))
    tex = f"{a.tex} {relation} {b.tex}"
    assert verdicts(data, tex) == [Status.CHECKED], tex


UNIT_MISMATCHES = ["different", "left only", "right only", "after a sum", "inside", "power"]


@FEWER
@given(st.data())
def test_a_unit_that_does_not_cancel_is_never_checked(data: st.DataObject) -> None:
    """Numbers that agree, with units that do not cancel: never checked, unless the
    quantities themselves make a true claim (``0\\text{ m} = 0\\text{ km}``), which the
    oracle decides with its own table of factors (:data:`FACTORS`), not pint's."""
    left = data.draw(expressions(4), label="left")
    assume(left.value is not None)
    right = data.draw(right_sides(left), label="right")
    assume(right.value is not None)
    relation = data.draw(st.sampled_from(TRUE_FOR[direction(left, right)]))
    unit, other = data.draw(st.lists(st.sampled_from(UNITS), min_size=2, max_size=2, unique=True))
    spelling = data.draw(st.integers(0, 3))
    kind = data.draw(st.sampled_from(UNIT_MISMATCHES), label="kind")
    event(f"unit: {kind}")
    scale: object = Fraction(1)
    a, b = with_unit(left, unit, spelling), with_unit(right, unit, spelling + 1)
    if kind == "different":
        b = with_unit(right, other, spelling)
    elif kind == "left only":
        b = right
    elif kind == "right only":
        a = left
    elif kind == "after a sum":
        rest = data.draw(expressions(2), label="term")
        assume(rest.value is not None)
        op = data.draw(st.sampled_from(["+", "-"]))
        total = binary(op, left, rest, spelling)
        assume(total.value is not None)
        same = literal(total.value, "") if isinstance(total.value, Fraction) else total
        a, b = with_unit(total, unit, spelling), with_unit(same, unit, spelling)
        relation = data.draw(st.sampled_from(TRUE_FOR[0]))
    elif kind == "inside":
        factor = data.draw(expressions(2), label="factor")
        assume(factor.value is not None)
        a = Ex(f"{with_unit(left, unit, spelling).tex} \\cdot {factor.tex}", None)
        scale = factor.value
    else:
        a = Ex(f"{with_unit(left, unit, spelling).tex}^{{2}}", None)
    tex = f"{a.tex} {data.draw(st.sampled_from(SPELLINGS[relation]))} {b.tex}"
    second = other if kind == "different" else unit
    if kind in ("different", "inside") and _holds(relation, left, right, scale, unit, second):
        event("a true claim about quantities")
        return
    assert Status.CHECKED not in verdicts(data, tex), tex


FACTORS = {"m": (1, "length"), "metros": (1, "length"), "km": (1000, "length")}
FACTORS |= {"s": (1, "time"), "bytes": (1, "data"), "MB": (10**6, "data")}
"""The units of ``UNITS`` that pizarra converts: factor to a base unit, dimension."""
HOLDS = {
    "=": lambda d: d == 0,
    "\\ne": lambda d: d != 0,
    "<": lambda d: d < 0,
    "\\le": lambda d: d <= 0,
    ">": lambda d: d > 0,
    "\\ge": lambda d: d >= 0,
}


def _holds(relation: str, left: Ex, right: Ex, scale: object, unit: str, second: str) -> bool:
    """Whether ``left·scale unit relation right second`` is true as quantities (then it
    may be checked); True as well when the oracle cannot tell exactly (no assertion)."""
    if unit not in FACTORS or second not in FACTORS:
        return False
    values = [left.value, right.value, scale]
    if not all(isinstance(v, Fraction) for v in values):
        return True
    (first_factor, first_dim), (second_factor, second_dim) = FACTORS[unit], FACTORS[second]
    if first_dim != second_dim:
        return False
    product = values[0] * values[2] * first_factor  # type: ignore[operator]
    return bool(HOLDS[relation](product - values[1] * second_factor))  # type: ignore[operator]
