"""Units: every spelling pizarra reads has the factor an independent table gives it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pizarra.check.claims import iter_claims
from pizarra.math.exact.quantities import DIFFERING, SPELLINGS, unit_value
from pizarra.math.exact.status import Status

C, U, F = Status.CHECKED, Status.UNCHECKED, Status.FAILED
BIT, SECOND, METER, KILOGRAM = "bit", "second", "meter", "kilogram"
EXPECTED = {
    "B": (8, {BIT: 1}),
    "kB": (8 * 10**3, {BIT: 1}),
    "MB": (8 * 10**6, {BIT: 1}),
    "GB": (8 * 10**9, {BIT: 1}),
    "TB": (8 * 10**12, {BIT: 1}),
    "PB": (8 * 10**15, {BIT: 1}),
    "KiB": (8 * 2**10, {BIT: 1}),
    "MiB": (8 * 2**20, {BIT: 1}),
    "GiB": (8 * 2**30, {BIT: 1}),
    "TiB": (8 * 2**40, {BIT: 1}),
    "PiB": (8 * 2**50, {BIT: 1}),
    "s": (1, {SECOND: 1}),
    "ms": (Fraction(1, 10**3), {SECOND: 1}),
    "µs": (Fraction(1, 10**6), {SECOND: 1}),
    "μs": (Fraction(1, 10**6), {SECOND: 1}),
    "\\mu s": (Fraction(1, 10**6), {SECOND: 1}),
    "ns": (Fraction(1, 10**9), {SECOND: 1}),
    "min": (60, {SECOND: 1}),
    "h": (3600, {SECOND: 1}),
    "m": (1, {METER: 1}),
    "km": (1000, {METER: 1}),
    "cm": (Fraction(1, 100), {METER: 1}),
    "mm": (Fraction(1, 1000), {METER: 1}),
    "µm": (Fraction(1, 10**6), {METER: 1}),
    "μm": (Fraction(1, 10**6), {METER: 1}),
    "\\mu m": (Fraction(1, 10**6), {METER: 1}),
    "nm": (Fraction(1, 10**9), {METER: 1}),
    "g": (Fraction(1, 1000), {KILOGRAM: 1}),
    "kg": (1, {KILOGRAM: 1}),
    "mg": (Fraction(1, 10**6), {KILOGRAM: 1}),
    "L": (Fraction(1, 1000), {METER: 3}),
    "mL": (Fraction(1, 10**6), {METER: 3}),
    "Hz": (1, {SECOND: -1}),
    "kHz": (10**3, {SECOND: -1}),
    "MHz": (10**6, {SECOND: -1}),
    "GHz": (10**9, {SECOND: -1}),
    "W": (1, {KILOGRAM: 1, METER: 2, SECOND: -3}),
    "kW": (10**3, {KILOGRAM: 1, METER: 2, SECOND: -3}),
    "MW": (10**6, {KILOGRAM: 1, METER: 2, SECOND: -3}),
    "J": (1, {KILOGRAM: 1, METER: 2, SECOND: -2}),
    "kJ": (10**3, {KILOGRAM: 1, METER: 2, SECOND: -2}),
    "kWh": (3_600_000, {KILOGRAM: 1, METER: 2, SECOND: -2}),
}
WORDS = {
    "byte": "B", "bytes": "B", "bit": None, "bits": None,
    "second": "s", "seconds": "s", "segundo": "s", "segundos": "s",
    "minute": "min", "minutes": "min", "minuto": "min", "minutos": "min",
    "hour": "h", "hours": "h", "hora": "h", "horas": "h",
    "meter": "m", "meters": "m", "metre": "m", "metres": "m", "metro": "m", "metros": "m",
    "gram": "g", "grams": "g", "gramo": "g", "gramos": "g",
}  # fmt: skip
DAYS = {"day": 86400, "days": 86400, "día": 86400, "días": 86400}
WEEKS = {"week": 604800, "weeks": 604800, "semana": 604800, "semanas": 604800}


def _expected(spelling: str) -> tuple[Fraction, dict[str, int]]:
    if spelling in DAYS or spelling in WEEKS:
        return Fraction({**DAYS, **WEEKS}[spelling]), {SECOND: 1}
    if spelling in WORDS:
        symbol = WORDS[spelling]
        return (Fraction(1), {BIT: 1}) if symbol is None else _expected(symbol)
    factor, base = EXPECTED[spelling]
    return Fraction(factor), base


@pytest.mark.parametrize("spelling", sorted(SPELLINGS), ids=lambda s: s.encode().hex())
def test_every_spelling_has_its_exact_factor(spelling: str) -> None:
    factor, powers = unit_value(SPELLINGS[spelling])
    assert (factor, dict(powers)) == _expected(spelling)


def test_every_spelling_is_in_the_table() -> None:
    assert set(SPELLINGS) == set(EXPECTED) | set(WORDS) | set(DAYS) | set(WEEKS)


@pytest.mark.parametrize("spelling", sorted(DIFFERING))
def test_a_spelling_whose_meaning_differs_is_never_decided(spelling: str) -> None:
    for tex in (
        f"1\\text{{ {spelling}}} = 1000\\text{{ B}}",
        f"1\\text{{ {spelling}}} = 1\\text{{ B}}",
    ):
        [verdict] = iter_claims(tex)
        assert (verdict.status, verdict.message) == (U, DIFFERING[spelling])


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param("1\\text{ day} = 24\\text{ h}", C, id="day"),
        pytest.param("1\\text{ semana} = 7\\text{ días}", C, id="week"),
        pytest.param("1\\text{ semana} = 6\\text{ días}", F, id="week-false"),
        pytest.param("1\\text{ L} = 1000\\text{ mL}", C, id="litre"),
        pytest.param("1\\text{ kWh} = 3600\\text{ kJ}", C, id="energy"),
        pytest.param("1\\text{ kW} = 1\\text{ kJ}", F, id="power-energy"),
        pytest.param("2\\text{ GHz} > 1500\\text{ MHz}", C, id="frequency"),
        pytest.param("1\\text{ mg} \\ne 1\\text{ g}", C, id="ne"),
        pytest.param("1\\text{ mg} \\le 1\\text{ g}", C, id="le"),
        pytest.param("1\\text{ mg} \\ge 1\\text{ g}", F, id="ge"),
        pytest.param("5\\text{ m} \\ll 5\\text{ km}", U, id="judgement"),
        pytest.param("1\\text{ m} \\approx 1000\\text{ mm}", C, id="approx-exact"),
        pytest.param("\\frac{1}{3}\\text{ m} \\approx 0.33\\text{ m}", C, id="approx-round"),
        pytest.param("\\frac{1}{3}\\text{ m} \\approx 0.34\\text{ m}", F, id="approx-false"),
        pytest.param(
            "\\frac{1}{3}\\text{ m} \\approx \\frac{1}{3}\\text{ m} \\cdot 1",
            U,
            id="approx-product",
        ),
        pytest.param("2\\text{ m}^{2} = 20000\\text{ cm}^{2}", C, id="area"),
        pytest.param("2\\text{ m}^{2} = 200\\text{ cm}^{2}", F, id="area-false"),
        pytest.param("\\sqrt[3]{8\\text{ m}^3} = 2\\text{ m}", C, id="cube-root"),
        pytest.param("\\text{ apples} = 1\\text{ m}", U, id="words"),
        pytest.param("2^{1\\text{ m}} = 2", U, id="exponent"),
    ],
)
def test_quantities(tex: str, expected: Status) -> None:
    assert [v.status for v in iter_claims(tex)] == [expected], iter_claims(tex)
