"""Regional languages by CLDR: a lesson in ``es-MX`` writes a decimal point, in Spanish words."""

from __future__ import annotations

from pizarra.check.claims import claim_records
from pizarra.render.math_numbers import display_numerals
from pizarra.render.pages import render_lesson_body
from tests.support import fake_math, lesson_from, small_course


def test_a_mexican_spanish_lesson_reads_and_shows_a_decimal_point() -> None:
    lesson, errors = lesson_from("La mitad es $0.5$, y $2\\cdot0.5=1$.\n", lang="es-MX")
    assert errors == [] and lesson is not None
    html = str(render_lesson_body(small_course(lesson), lesson, fake_math))
    assert "0.5" in html and "0,5" not in html
    assert display_numerals("16384.25", "es-MX") == "16{,}384.25"
    records, found = claim_records(lesson, None)
    assert not found and [r.status.name for r in records] == ["CHECKED"]


def test_a_spanish_lesson_reads_an_unambiguous_decimal_point() -> None:
    lesson, errors = lesson_from("Así, $2\\cdot0.625=1.25$.\n", lang="es")
    assert errors == [] and lesson is not None
    records, found = claim_records(lesson, None)
    assert not found and [r.status.name for r in records] == ["CHECKED"]
    assert display_numerals("0.625", "es") == "0{,}625"


def test_an_unknown_region_is_not_a_language() -> None:
    _, errors = lesson_from("Texto.\n", lang="es-XX")
    assert any("unsupported language 'es-XX'" in e for e in errors)
