"""Reading numerals in the lesson's language: values, written precision, ambiguity."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pizarra.math.exact.numerals import Ambiguous, Numeral, read, scan


@pytest.mark.parametrize(
    ("text", "lang", "value", "unit"),
    [
        pytest.param("0{,}25", "es", Fraction(1, 4), Fraction(1, 100), id="es-decimal-comma"),
        pytest.param("2{,}75", "es", Fraction(11, 4), Fraction(1, 100), id="es-decimal"),
        pytest.param("65\\,536", "es", Fraction(65536), Fraction(1), id="es-thin-space"),
        pytest.param("4\\,194\\,304", "es", Fraction(4194304), Fraction(1), id="es-two-groups"),
        pytest.param("2048", "es", Fraction(2048), Fraction(1), id="es-plain"),
        pytest.param("1\\,000{,}5", "es", Fraction(2001, 2), Fraction(1, 10), id="es-both"),
        pytest.param("2{,}048", "es", Fraction(256, 125), Fraction(1, 1000), id="es-comma-3"),
        pytest.param("65{,}536", "en", Fraction(65536), Fraction(1), id="en-grouped"),
        pytest.param("65\\,536", "en", Fraction(65536), Fraction(1), id="en-thin-space"),
        pytest.param("2.75", "en", Fraction(11, 4), Fraction(1, 100), id="en-decimal"),
        pytest.param("1{,}000.5", "en", Fraction(2001, 2), Fraction(1, 10), id="en-both"),
        pytest.param("1000", "en", Fraction(1000), Fraction(1000), id="en-magnitude"),
        pytest.param("1020", "en", Fraction(1020), Fraction(10), id="en-trailing-zero"),
        pytest.param("0.50", "en", Fraction(1, 2), Fraction(1, 100), id="en-written-zero"),
    ],
)
def test_reads_numerals(text: str, lang: str, value: Fraction, unit: Fraction) -> None:
    reading = read(text, lang)
    assert isinstance(reading, Numeral)
    assert (reading.value, reading.unit) == (value, unit)


@pytest.mark.parametrize(
    ("text", "lang", "words"),
    [
        pytest.param("16.384", "es", "ambiguous in Spanish", id="es-dot"),
        pytest.param("2,048", "es", "ambiguous in Spanish", id="es-bare-comma"),
        pytest.param("2,5", "es", "ambiguous in Spanish", id="es-bare-decimal-comma"),
        pytest.param("65\\,53", "es", "groups of exactly three", id="es-short-group"),
        pytest.param("0{,}1{,}2", "es", "more than one decimal", id="es-two-commas"),
        pytest.param("2,048", "en", "ambiguous in English", id="en-bare-comma"),
        pytest.param("12{,}34", "en", "groups of exactly three", id="en-bad-group"),
        pytest.param("1.048.576", "en", "more than one decimal", id="en-dots"),
        pytest.param("0{,}5", "en", "groups of exactly three", id="en-comma-decimal"),
    ],
)
def test_ambiguous_numerals_are_reported_with_a_hint(text: str, lang: str, words: str) -> None:
    reading = read(text, lang)
    assert isinstance(reading, Ambiguous)
    assert words in reading.message
    assert reading.hint


def test_scan_finds_every_numeral_with_offsets() -> None:
    tex = "2^{10}=1\\,024 \\quad 0{,}5\\,\\mathrm{ms}"
    found = scan(tex, "es")
    assert [tex[f.start : f.end] for f in found] == ["2", "10", "1\\,024", "0{,}5"]
    assert [f.reading.value for f in found if isinstance(f.reading, Numeral)] == [
        2,
        10,
        1024,
        Fraction(1, 2),
    ]


@pytest.mark.parametrize(
    ("tex", "items"),
    [
        pytest.param("t = 0,1,2", ["0", "1", "2"], id="three-items"),
        pytest.param(r"\psi_0 = (1,0)", ["0", "1", "0"], id="pair-in-parentheses"),
        pytest.param(r"P(0,1)", ["0", "1"], id="arguments"),
        pytest.param(r"S = \{0,1\}", ["0", "1"], id="set"),
        pytest.param(r"t = 1,2, \dots", ["1", "2"], id="list-goes-on"),
        pytest.param("i=1,2,3.", ["1", "2", "3"], id="list-then-full-stop"),
    ],
)
def test_english_lists_are_lists_not_numbers(tex: str, items: list[str]) -> None:
    found = scan(tex, "en")
    assert [tex[f.start : f.end] for f in found] == items
    assert all(isinstance(f.reading, Numeral) for f in found)


@pytest.mark.parametrize(
    ("tex", "lang"),
    [
        pytest.param("x = 2,048", "en", id="could-be-thousands"),
        pytest.param("(1,000)", "en", id="thousands-in-parentheses"),
        pytest.param(r"\frac{5}{2} = 2,5", "en", id="decimal-comma-alone"),
        pytest.param("(1,0)", "es", id="spanish-decimal-comma"),
        pytest.param("t = 0,1,2", "es", id="spanish-list-needs-blanks"),
    ],
)
def test_bare_commas_that_may_be_a_number_stay_ambiguous(tex: str, lang: str) -> None:
    assert any(isinstance(f.reading, Ambiguous) for f in scan(tex, lang))


@pytest.mark.parametrize(
    ("text", "lang", "value"),
    [
        pytest.param("0.625", "es", Fraction(5, 8), id="es-point-after-zero"),
        pytest.param("3.7", "es", Fraction(37, 10), id="es-point-one-digit"),
        pytest.param("6.02", "es", Fraction(301, 50), id="es-point-two-digits"),
        pytest.param("1234.5", "es", Fraction(2469, 2), id="es-point-long-whole"),
        pytest.param("0.25", "es-MX", Fraction(1, 4), id="es-MX-decimal-point"),
        pytest.param("1.5", "es-419", Fraction(3, 2), id="es-419-decimal-point"),
        pytest.param("2{,}048", "es-MX", Fraction(2048), id="es-MX-grouping"),
        pytest.param("0{,}5", "es-AR", Fraction(1, 2), id="es-AR-decimal-comma"),
    ],
)
def test_a_decimal_point_that_cannot_group_thousands_is_read(
    text: str, lang: str, value: Fraction
) -> None:
    reading = read(text, lang)
    assert isinstance(reading, Numeral) and reading.value == value


def test_a_point_that_may_group_thousands_stays_ambiguous_in_spanish() -> None:
    assert isinstance(read("1.024", "es"), Ambiguous)
    assert isinstance(read("16.384", "es"), Ambiguous)


@pytest.mark.parametrize(
    ("tex", "items", "values"),
    [
        pytest.param("N = 20,000", ["20,000"], [20000], id="thousands"),
        pytest.param("(1,000)", ["1,000"], [1000], id="thousands-in-parentheses"),
        pytest.param("1,234.5", ["1,234.5"], [Fraction(2469, 2)], id="thousands-and-decimal"),
        pytest.param("j = 1,2", ["1", "2"], [1, 2], id="two-indices"),
        pytest.param(r"j = 1,5\\", ["1", "5"], [1, 5], id="index-range-end"),
        pytest.param("x = 2,5", ["2", "5"], [2, 5], id="never-a-decimal-comma"),
    ],
)
def test_the_bare_comma_convention_reads_english_prose(
    tex: str, items: list[str], values: list[Fraction]
) -> None:
    found = scan(tex, "en", "thousands_or_list")
    assert [tex[f.start : f.end] for f in found] == items
    assert [f.reading.value for f in found if isinstance(f.reading, Numeral)] == values


def test_the_bare_comma_convention_changes_nothing_in_spanish() -> None:
    assert any(isinstance(f.reading, Ambiguous) for f in scan("x = 2,5", "es", "thousands_or_list"))
    assert isinstance(read("20,000", "en", "thousands_or_list"), Numeral)
    assert isinstance(read("20,000", "en"), Ambiguous)
