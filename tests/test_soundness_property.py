"""Soundness: a statement false by construction is never reported as checked.

Formulas are generated together with their true value (:mod:`tests.oracle`, exact
rationals or 120-digit mpmath numbers, never pizarra's own arithmetic). The right side
is perturbed, a hair away, an exact copy or another expression; the relation is then
one that is false for the true sign of ``left - right``. ``make test`` runs the short
Hypothesis profile; ``PIZARRA_HYPOTHESIS=long`` runs the long one (``make soundness``).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from pizarra.check.claims import iter_claims
from pizarra.math.exact.judge import Status
from tests.oracle import (
    Ex,
    approx,
    binary,
    compare,
    decimal_digits,
    expressions,
    literal,
    localize,
    undefined_expressions,
)

SPELLINGS = {
    "=": ["="],
    "\\ne": ["\\ne", "\\neq", "\\not="],
    "<": ["<", "\\lt"],
    "\\le": ["\\le", "\\leq", "\\leqslant"],
    ">": [">", "\\gt"],
    "\\ge": ["\\ge", "\\geq", "\\geqslant"],
}
FALSE_FOR = {-1: ["=", ">", "\\ge"], 0: ["\\ne", "<", ">"], 1: ["=", "<", "\\le"]}
"""Relations that are false when ``left - right`` has the given sign."""
TRUE_FOR = {-1: ["\\ne", "<", "\\le"], 0: ["=", "\\le", "\\ge"], 1: ["\\ne", ">", "\\ge"]}
"""Relations that are true when ``left - right`` has the given sign."""


LANGS = st.sampled_from(["en", "es"])


def judged(data: st.DataObject, tex: str) -> list[Status]:
    """The statuses of ``tex`` written as a lesson in English or Spanish would write it."""
    lang = data.draw(LANGS, label="lang")
    written = localize(tex, lang, data.draw(st.booleans(), label="grouped"))
    event(f"lang: {lang}")
    found = [verdict.status for verdict in iter_claims(written, lang=lang)]
    event(f"verdicts: {' '.join(s.value for s in found) or 'none'}")
    return found


def truncated(value: Fraction | mpmath.mpf, digits: int, up: bool) -> Fraction:
    """``value`` cut to ``digits`` decimals, rounded down or up (a hair from it)."""
    if isinstance(value, Fraction):
        scaled = value * 10**digits
        whole = (
            -(-scaled.numerator // scaled.denominator)
            if up
            else scaled.numerator // scaled.denominator
        )
    else:
        scaled_mp = value * mpmath.mpf(10) ** digits
        whole = int(mpmath.ceil(scaled_mp) if up else mpmath.floor(scaled_mp))
    return Fraction(whole, 10**digits)


@st.composite
def right_sides(draw: st.DrawFn, left: Ex) -> Ex:
    """A right side for ``left``: a perturbed number, a hair away, a copy, or anything."""
    assert left.value is not None
    kind = draw(st.sampled_from(["perturbed", "hair", "copy", "same-value", "other"]))
    event(f"right side: {kind}")
    if kind == "copy":
        return left
    if kind == "other":
        return draw(expressions(4))
    if kind == "same-value":
        assume(isinstance(left.value, Fraction))
        assert isinstance(left.value, Fraction)
        return literal(left.value, draw(st.sampled_from(["", "frac", "dfrac"])))
    if kind == "hair":
        digits = draw(st.integers(3, 28))
        return literal(truncated(left.value, digits, draw(st.booleans())), "")
    base = left.value if isinstance(left.value, Fraction) else truncated(left.value, 6, False)
    delta = draw(
        st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(1, 7)])
        | st.integers(1, 30).map(lambda k: Fraction(1, 10**k))
    )
    style = draw(st.sampled_from(["", "frac"]))
    return literal(base + draw(st.sampled_from([1, -1])) * delta, style)


def direction(left: Ex, right: Ex) -> int:
    """The true sign of ``left - right``; discards the example if the oracle is unsure."""
    assert left.value is not None and right.value is not None
    if left.tex == right.tex:
        return 0
    sign = compare(left.value, right.value)
    assume(sign is not None)
    assert sign is not None
    return sign


def statement(left: Ex, relation: str, right: Ex, gap: int) -> str:
    return f"{left.tex}{' ' * gap}{relation}{' ' * gap}{right.tex}"


@given(st.data())
def test_a_false_statement_is_never_checked(data: st.DataObject) -> None:
    left = data.draw(expressions(), label="left")
    assume(left.value is not None)
    right = data.draw(right_sides(left), label="right")
    assume(right.value is not None)
    relation = data.draw(st.sampled_from(FALSE_FOR[direction(left, right)]))
    spelled = data.draw(st.sampled_from(SPELLINGS[relation]))
    tex = statement(left, spelled, right, data.draw(st.integers(0, 1)))
    assert Status.CHECKED not in judged(data, tex), tex


@given(st.data())
def test_a_difference_a_hair_from_zero_keeps_its_sign(data: st.DataObject) -> None:
    left = data.draw(expressions(4), label="left")
    assume(left.value is not None)
    hair = truncated(left.value, data.draw(st.integers(8, 28)), data.draw(st.booleans()))
    difference = binary("-", left, literal(hair, ""), data.draw(st.integers(0, 11)))
    sign = direction(left, literal(hair, ""))
    relation = data.draw(st.sampled_from(FALSE_FOR[sign]))
    tex = f"{difference.tex} {data.draw(st.sampled_from(SPELLINGS[relation]))} 0"
    assert Status.CHECKED not in judged(data, tex), tex


@given(st.data())
def test_a_side_without_a_real_value_is_never_checked(data: st.DataObject) -> None:
    left = data.draw(undefined_expressions(), label="left")
    assert left.value is None
    right = data.draw(expressions(3), label="right")
    relation = data.draw(
        st.sampled_from([s for spellings in SPELLINGS.values() for s in spellings])
    )
    first = data.draw(st.booleans())
    tex = f"{left.tex} {relation} {right.tex}" if first else f"{right.tex} {relation} {left.tex}"
    assert Status.CHECKED not in judged(data, tex), tex


@given(st.data())
def test_a_false_link_of_a_chain_is_never_checked(data: st.DataObject) -> None:
    first = data.draw(expressions(4), label="first")
    assume(first.value is not None)
    middle = data.draw(right_sides(first), label="middle")
    assume(middle.value is not None)
    last = data.draw(right_sides(middle), label="last")
    assume(last.value is not None)
    true = data.draw(st.sampled_from(TRUE_FOR[direction(first, middle)]))
    false = data.draw(st.sampled_from(FALSE_FOR[direction(middle, last)]))
    tex = f"{first.tex} {true} {middle.tex} {false} {last.tex}"
    found = judged(data, tex)
    assert found != [Status.CHECKED] * len(found) or not found, tex
    if len(found) == 2:
        assert found[1] is not Status.CHECKED, tex


@given(st.data())
def test_a_false_approximation_is_never_checked(data: st.DataObject) -> None:
    """Off by more than a unit of the last written digit, and by more than 2 %."""
    left = data.draw(expressions(), label="left")
    assume(left.value is not None and not left.tex.replace(".", "").isdigit())
    assert left.value is not None
    digits = data.draw(st.integers(0, 6))
    factor = data.draw(st.sampled_from(["1.05", "1.25", "3", "0.6", "-1"]))
    target = truncated(approx(left.value) * mpmath.mpf(factor), digits, False)
    written = literal(target, "")
    assume(written.tex[-1] != "0")
    gap = abs(approx(left.value) - approx(target))
    larger = max(abs(approx(left.value)), abs(approx(target)))
    written_digits = decimal_digits(target) or 0  # literal() drops trailing zeros
    assume(gap > mpmath.mpf(10) ** -written_digits and gap > larger / 50)
    tex = f"{left.tex} \\approx {written.tex}"
    assert Status.CHECKED not in judged(data, tex), tex


@given(st.data())
def test_a_true_rational_statement_is_checked(data: st.DataObject) -> None:
    """The other half: the generator writes TeX that pizarra reads (else the above is idle)."""
    left = data.draw(expressions(5, wide=False), label="left")
    assume(isinstance(left.value, Fraction))
    assert isinstance(left.value, Fraction)
    kind = data.draw(st.sampled_from(["same-value", "hair", "other"]))
    if kind == "same-value":
        right = literal(left.value, data.draw(st.sampled_from(["", "frac"])))
    elif kind == "hair":
        digits, up = data.draw(st.integers(1, 25)), data.draw(st.booleans())
        right = literal(truncated(left.value, digits, up), "")
    else:
        right = data.draw(expressions(3, wide=False), label="right")
        assume(isinstance(right.value, Fraction))
    relation = data.draw(st.sampled_from(TRUE_FOR[direction(left, right)]))
    tex = f"{left.tex} {data.draw(st.sampled_from(SPELLINGS[relation]))} {right.tex}"
    if relation == "\\ne":
        assume("\\not" not in tex)
    assert judged(data, tex) == [Status.CHECKED], tex


POINTS = {
    "real": st.builds(Fraction, st.integers(-30, 30), st.integers(1, 6)),
    "positive": st.builds(Fraction, st.integers(1, 30), st.integers(1, 6)),
    "nonnegative": st.builds(Fraction, st.integers(0, 30), st.integers(1, 6)),
    "nonzero": st.builds(Fraction, st.integers(1, 30), st.integers(1, 6)).map(lambda f: -f),
    "integer": st.integers(-20, 20).map(Fraction),
    "positive_integer": st.integers(1, 20).map(Fraction),
}
"""For each domain of ``variables:``, points that belong to it."""


@pytest.mark.slow
@given(st.data())
def test_a_false_identity_is_never_checked(data: st.DataObject) -> None:
    """False at one point of the letter's declared domain, so not an identity there."""
    domain = data.draw(st.sampled_from(sorted(POINTS)), label="domain")
    point = data.draw(POINTS[domain], label="x")
    left = data.draw(expressions(4, wide=False, point=point), label="left")
    assume(left.value is not None and "x" in left.tex)
    right = data.draw(expressions(3, wide=False, point=point) | right_sides(left), label="right")
    assume(right.value is not None and right.tex != left.tex)
    relation = data.draw(st.sampled_from(FALSE_FOR[direction(left, right)]))
    tex = f"{left.tex} {data.draw(st.sampled_from(SPELLINGS[relation]))} {right.tex}"
    lang = data.draw(LANGS, label="lang")
    verdicts = iter_claims(localize(tex, lang, False), variables={"x": domain}, lang=lang)
    event(f"verdicts: {' '.join(v.status.value for v in verdicts) or 'none'}")
    proved = {Status.CHECKED, Status.ASSUMED}  # assumed is proved too, only restated
    assert proved.isdisjoint(v.status for v in verdicts), (tex, domain)


LIST_SEPARATORS = [
    ", ",
    "; ",
    ",\\ ",
    " \\text{ or } ",
    " \\text{ o } ",
    " \\text{ and } ",
    " \\text{ y } ",
]


@given(st.data())
def test_a_listed_value_is_never_dropped(data: st.DataObject) -> None:
    """``\\sqrt{4} \\ne -2, 2``: a claim about every listed value, false for the last one."""
    left = data.draw(expressions(4), label="left")
    assume(left.value is not None)
    first = data.draw(right_sides(left), label="first")
    assume(first.value is not None)
    sign = direction(left, first)
    assume(sign != 0)
    last = left
    if isinstance(left.value, Fraction) and data.draw(st.booleans()):
        last = literal(left.value, data.draw(st.sampled_from(["", "frac"])))
    relation = data.draw(st.sampled_from([r for r in TRUE_FOR[sign] if r in FALSE_FOR[0]]))
    separator = data.draw(st.sampled_from(LIST_SEPARATORS))
    tex = f"{left.tex} {relation} {first.tex}{separator}{last.tex}"
    assert Status.CHECKED not in judged(data, tex), tex
