from fractions import Fraction

import pytest
from babel.numbers import format_decimal

from pizarra.base.i18n.numbers import (
    decimal_string,
    format_integer,
    format_number,
    min_grouping_digits,
    round_half_expand,
)


@pytest.mark.parametrize(
    ("value", "es", "en"),
    [
        (0, "0", "0"),
        (7, "7", "7"),
        (128, "128", "128"),
        (1024, "1024", "1,024"),
        (8192, "8192", "8,192"),
        (9999, "9999", "9,999"),
        (10000, "10.000", "10,000"),
        (16384, "16.384", "16,384"),
        (262144, "262.144", "262,144"),
        (1048576, "1.048.576", "1,048,576"),
        (67108864, "67.108.864", "67,108,864"),
        (1073741824, "1.073.741.824", "1,073,741,824"),
        (-16384, "-16.384", "-16,384"),
        (-1024, "-1024", "-1,024"),
    ],
)
def test_format_integer_follows_cldr_minimum_grouping(value: int, es: str, en: str) -> None:
    assert format_integer(value, "es") == es
    assert format_integer(value, "en") == en


def test_babel_alone_would_be_wrong_for_spanish() -> None:
    # The reason this module exists: Babel ignores minimumGroupingDigits.
    assert format_decimal(1024, locale="es") == "1.024"
    assert format_integer(1024, "es") == "1024"


@pytest.mark.parametrize(
    ("lang", "digits"), [("es", 2), ("en", 1), ("es-AR", 1), ("es-ES", 2), ("it", 2), ("de", 1)]
)
def test_min_grouping_digits_follow_parent_chain(lang: str, digits: int) -> None:
    assert min_grouping_digits(lang) == digits


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (Fraction(1, 64), 2, "0.02"),
        (Fraction(1, 200), 2, "0.01"),
        (Fraction(-1, 200), 2, "-0.01"),
        (Fraction(1, 1000), 2, "0"),
        (Fraction(5, 2), 0, "3"),
        (Fraction(7, 2), 0, "4"),
        (Fraction(3, 2), 1, "1.5"),
        (Fraction(1, 2), 3, "0.5"),
        (Fraction(10**30), 2, "1" + "0" * 30),
    ],
)
def test_decimal_string_rounds_half_away_from_zero(
    value: Fraction, digits: int, expected: str
) -> None:
    assert decimal_string(value, digits) == expected


def test_round_half_expand_is_not_bankers_rounding() -> None:
    assert round_half_expand(Fraction(5, 2), 0) == 3
    assert round(Fraction(5, 2)) == 2


@pytest.mark.parametrize(
    ("value", "es", "en"),
    [
        (Fraction(1, 4), "0,25", "0.25"),
        (Fraction(12345, 2), "6172,5", "6,172.5"),
        (Fraction(123457, 8), "15.432,13", "15,432.13"),
    ],
)
def test_format_number_with_fractions(value: Fraction, es: str, en: str) -> None:
    assert format_number(value, "es") == es
    assert format_number(value, "en") == en


def test_huge_numbers_are_refused() -> None:
    with pytest.raises(ValueError, match="too large"):
        format_integer(10**80, "es")


@pytest.mark.parametrize("lang", ["es", "en", "es-AR", "pt-PT", "de", "fr", "hi", "pl"])
def test_format_integer_is_format_number_without_decimals(lang: str) -> None:
    values = [0, 1, -1, 7, 999, 1000, -1024, 9999, 10000, 16384, -65536, 10**6, 123456789]
    values += [10**59 + 7, -(10**59) - 3, 10**60 - 1]
    for value in values:
        assert format_integer(value, lang) == format_number(Fraction(value), lang, 0)
    with pytest.raises(ValueError, match="too large"):
        format_integer(10**60, lang)
    with pytest.raises(ValueError, match="too large"):
        format_number(Fraction(10**60), lang, 0)


def test_a_fork_while_another_thread_loads_locale_data_does_not_hang() -> None:
    """A child forked while another thread held Babel's locale lock waited forever."""
    import os
    import threading
    import time

    from babel import localedata

    from pizarra.base.i18n import numbers

    held = threading.Event()

    def hold() -> None:
        with localedata._cache_lock:
            held.set()
            time.sleep(0.3)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait()
    child = os.fork()  # waits for the lock, so the child gets it free
    if child == 0:
        numbers.format_integer(1234567, "de")
        os._exit(0)
    deadline = time.monotonic() + 20
    while (done := os.waitpid(child, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    holder.join()
    if done[0] == 0:
        os.kill(child, 9)
        os.waitpid(child, 0)
    assert done[0] == child and os.waitstatus_to_exitcode(done[1]) == 0


def test_every_counted_phrase_has_every_plural_form_cldr_can_choose() -> None:
    from pizarra.base.i18n.plurals import PLURALS, categories

    for lang, phrases in PLURALS.items():
        for key, forms in phrases.items():
            assert set(forms) == categories(lang), (lang, key)


def test_counted_words_agree_with_their_count() -> None:
    from pizarra.base.i18n.plurals import counted

    assert counted("es", "cells_rerun", 1) == "1 celda de código re-ejecutada"
    assert counted("es", "cells_rerun", 0) == "0 celdas de código re-ejecutadas"
    assert counted("es", "cells_rerun", 16384) == "16.384 celdas de código re-ejecutadas"
    assert counted("es", "cells_rerun", 1_000_000) == "1.000.000 de celdas de código re-ejecutadas"
    assert counted("en", "cells_rerun", 1) == "1 code cell re-run"
    assert counted("en", "cells_rerun", 2) == "2 code cells re-run"
    assert counted("en", "claims_checked", 1_000_000).startswith("1,000,000 statements")
