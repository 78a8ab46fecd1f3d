"""Numbers as CLDR writes them for a language, identically to the browser's ``Intl``.

Explorers print the same numbers twice: on the server (the page without
JavaScript) and in the browser (``Intl.NumberFormat`` after every input). Both
must agree character for character, so this module follows CLDR exactly:

* symbols (group and decimal separators, minus sign) and the grouping sizes come
  from Babel's copy of CLDR;
* CLDR's ``minimumGroupingDigits`` is applied here, because Babel does not read
  it: ``babel.numbers.format_decimal(1024, locale="es")`` gives ``"1.024"``
  while CLDR (and every browser) gives ``"1024"``. In Spanish the integer part is
  grouped only when it has at least 1 + 3 + 1 = 5 digits (``16.384``).

Babel has no field for ``minimumGroupingDigits``, so the locales whose value is
not 1 are listed in :data:`MIN_GROUPING`, keyed by CLDR locale id and looked up
along CLDR's parent chain (``es_AR`` -> ``es_419`` -> ``es``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

from babel import Locale, UnknownLocaleError, localedata
from babel.core import get_global

MIN_GROUPING: dict[str, int] = {
    "es": 2,
    "es_419": 1,
    "it": 2,
    "pl": 2,
    "pt_PT": 2,
    "bg": 2,
    "hu": 2,
    "lv": 2,
    "et": 2,
}
"""CLDR ``minimumGroupingDigits`` where it is not 1 (CLDR 46, as browsers ship it)."""

MAX_DIGITS = 60
"""Longest integer part accepted: numbers are untrusted and formatting must stay cheap."""


@lru_cache(maxsize=32)
def _locale(lang: str) -> Locale:
    return Locale.parse(lang, sep="-")


@lru_cache(maxsize=64)
def known_locale(lang: str) -> bool:
    """True if CLDR (Babel's copy) has data for the BCP 47 tag ``lang`` (``es-MX``)."""
    if len(lang) > 35:
        return False
    try:
        _locale(lang)
    except (ValueError, TypeError, LookupError, UnknownLocaleError):
        return False
    return True


def decimal_symbol(lang: str) -> str:
    """The decimal separator CLDR gives ``lang``: ``,`` in ``es``, ``.`` in ``es-MX``."""
    return _rules(lang)[3]


def _locale_chain(locale: Locale) -> list[str]:
    """The CLDR ids from ``locale`` up to its language (``es_AR``, ``es_419``, ``es``)."""
    parents: Mapping[str, str] = get_global("parent_exceptions")
    ident = str(locale)
    chain = [ident]
    while "_" in ident:
        ident = parents.get(ident, ident.rsplit("_", 1)[0])
        if ident == "root":
            break
        chain.append(ident)
    return chain


@lru_cache(maxsize=32)
def min_grouping_digits(lang: str) -> int:
    """CLDR's ``minimumGroupingDigits`` for ``lang`` (a BCP 47 tag such as ``es``)."""
    locale = _locale(lang)
    for ident in _locale_chain(locale):
        if ident in MIN_GROUPING:
            return MIN_GROUPING[ident]
    return 1


@lru_cache(maxsize=32)
def _rules(lang: str) -> tuple[int, int, str, str, str]:
    """Primary and secondary group sizes, group, decimal and minus symbols of ``lang``.

    Looked up once per language: Babel's locale data is slow to index, and a lesson
    formats thousands of numerals.
    """
    locale = _locale(lang)
    primary, secondary = locale.decimal_formats[None].grouping
    symbols = locale.number_symbols[locale.default_numbering_system]
    return (
        int(primary),
        int(secondary),
        str(symbols["group"]),
        str(symbols["decimal"]),
        str(symbols["minusSign"]),
    )


def group_digits(digits: str, lang: str) -> str:
    """The integer part ``digits`` with the locale's group separators inserted.

    Linear in the digits, so it takes any length: a formula's numeral is bounded by
    what the claim checker reads, not by :data:`MAX_DIGITS`.
    """
    primary, secondary, group, _, _ = _rules(lang)
    if len(digits) < primary + min_grouping_digits(lang):
        return digits
    groups = [digits[-primary:]]
    rest = digits[:-primary]
    while rest:
        groups.append(rest[-secondary:])
        rest = rest[:-secondary]
    return group.join(reversed(groups))


def format_integer(value: int, lang: str) -> str:
    """``value`` as CLDR writes it in ``lang``: ``format_integer(16384, "es") == "16.384"``.

    What ``format_number(Fraction(value), lang, 0)`` gives, without fractions.
    """
    digits = str(abs(value))
    if len(digits) > MAX_DIGITS:
        raise ValueError(f"number too large to format ({len(digits)} digits)")
    text = group_digits(digits, lang)
    return _rules(lang)[4] + text if value < 0 else text


def round_half_expand(value: Fraction, fraction_digits: int) -> Fraction:
    """``value`` rounded to ``fraction_digits`` decimals, ties away from zero.

    This is ``Intl.NumberFormat``'s default ``roundingMode`` (``halfExpand``),
    not Python's ``round`` (ties to even).
    """
    scale = 10**fraction_digits
    scaled = abs(value) * scale
    rounded = int(scaled + Fraction(1, 2))
    return Fraction(rounded if value >= 0 else -rounded, scale)


def decimal_string(value: Fraction, max_fraction_digits: int) -> str:
    """A plain, locale-free decimal (``"-0.25"``) after rounding; what the browser is sent."""
    rounded = round_half_expand(value, max_fraction_digits)
    sign = "-" if rounded < 0 else ""
    scaled = abs(rounded) * 10**max_fraction_digits
    whole, frac = divmod(int(scaled), 10**max_fraction_digits)
    text = str(whole)
    if max_fraction_digits:
        decimals = str(frac).rjust(max_fraction_digits, "0").rstrip("0")
        if decimals:
            text += "." + decimals
    return sign + text if text != "0" else "0"


def format_number(value: Fraction, lang: str, max_fraction_digits: int = 2) -> str:
    """``value`` as ``Intl.NumberFormat(lang, {maximumFractionDigits})`` prints it.

    Rounds half away from zero, drops trailing zeros, groups the integer part
    with CLDR's minimum grouping digits. Raises ``ValueError`` past
    :data:`MAX_DIGITS` integer digits.
    """
    if not 0 <= max_fraction_digits <= 20:
        raise ValueError("max_fraction_digits must be between 0 and 20")
    plain = decimal_string(value, max_fraction_digits)
    negative = plain.startswith("-")
    whole, _, decimals = plain.lstrip("-").partition(".")
    if len(whole) > MAX_DIGITS:
        raise ValueError(f"number too large to format ({len(whole)} digits)")
    _, _, _, decimal, minus = _rules(lang)
    text = group_digits(whole, lang)
    if decimals:
        text += decimal + decimals
    return (minus + text) if negative else text


def _hold_locale_lock() -> None:
    localedata._cache_lock.acquire()


def _free_locale_lock() -> None:
    localedata._cache_lock.release()


# Babel guards its locale data with a lock. A process forked while another of its threads
# held it (a build's worker pool beside serve's request threads) waited on it forever:
# the lock is held across every fork instead, as the logging module does with its own.
os.register_at_fork(
    before=_hold_locale_lock, after_in_parent=_free_locale_lock, after_in_child=_free_locale_lock
)
