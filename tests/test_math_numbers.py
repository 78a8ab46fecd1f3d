"""Numbers in formulas follow the lesson's language, as the explorer's numbers do."""

from __future__ import annotations

import pytest

from pizarra.base.i18n.numbers import format_integer
from pizarra.math.mathml import MathCoreRenderer
from pizarra.render.math_numbers import display_numerals, localized


@pytest.mark.parametrize(
    ("tex", "lang", "shown"),
    [
        ("2048", "es", "2048"),
        ("16384", "es", "16.384"),
        ("65\\,536", "es", "65.536"),
        ("4\\,194\\,304 = 2048^2", "es", "4.194.304 = 2048^2"),
        ("0{,}25", "es", "0{,}25"),
        ("2{,}75", "es", "2{,}75"),
        ("12\\,345{,}5", "es", "12.345{,}5"),
        ("2048", "en", "2{,}048"),
        ("65{,}536", "en", "65{,}536"),
        ("65\\,536", "en", "65{,}536"),
        ("2.75", "en", "2.75"),
        ("1000000.5", "en", "1{,}000{,}000.5"),
        ("16.384", "es", "16.384"),
        ("2,048", "en", "2,048"),
        ("x^1234", "en", "x^1234"),
        ("x_1234", "en", "x_1234"),
        ("x^  1234", "en", "x^  1234"),
        ("a 1234", "en", "a 1234"),
        ("é 1234", "en", "é 1{,}234"),
        ("1234 + 1234", "en", "1{,}234 + 1{,}234"),
        ("\\frac1234", "en", "\\frac1234"),
        ("\\tag{1000}\\label{eq:2048} 2048", "en", "\\tag{1000}\\label{eq:2048} 2{,}048"),
        ("2^{10} = 1024", "en", "2^{10} = 1{,}024"),
        ("007", "en", "007"),
        ("n", "es", "n"),
    ],
)
def test_display_numerals(tex: str, lang: str, shown: str) -> None:
    assert display_numerals(tex, lang) == shown


@pytest.mark.parametrize(("value", "lang"), [(1024, "es"), (16384, "es"), (4194304, "en")])
def test_the_converter_shows_what_the_explorer_shows(value: int, lang: str) -> None:
    written = f"{value:,}".replace(",", "\\,")
    mathml = localized(MathCoreRenderer(), lang)(written, False)
    assert f"<mn>{format_integer(value, lang)}</mn>" in mathml


def test_a_numeral_longer_than_an_explorer_value_is_grouped_too() -> None:
    """2^200 has 61 digits, past the explorers' bound: a lesson may still write it."""
    digits = str(2**200)
    shown = display_numerals(f"2^{{200}}={digits}", "es")
    groups = shown.removeprefix("2^{200}=").split(".")
    assert "".join(groups) == digits
    assert groups[0] == "1" and all(len(g) == 3 for g in groups[1:])
