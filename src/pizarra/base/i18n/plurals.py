"""Counted words in the interface languages, in the plural form CLDR's rules choose.

"1 celda re-ejecutada", "4 celdas re-ejecutadas", "1.000.000 de celdas re-ejecutadas":
the form (``one``, ``many``, ``other``...) of a count comes from Babel's copy of CLDR's
plural rules for the language, never from ``count == 1``, and the count is written with
the language's digits and grouping (:func:`~pizarra.base.i18n.numbers.format_integer`).
Each counted phrase gives every form its language's rules can choose, ``other`` always;
a form the rules choose and a phrase lacks is a programming error (KeyError), caught by
the tests, which check every phrase against every form CLDR defines for its language.
"""

from __future__ import annotations

from functools import lru_cache

from babel import Locale

from pizarra.base.i18n.numbers import format_integer

PLURALS: dict[str, dict[str, dict[str, str]]] = {
    "es": {
        "claims_checked": {
            "one": "{count} afirmación comprobada en aritmética exacta",
            "many": "{count} de afirmaciones comprobadas en aritmética exacta",
            "other": "{count} afirmaciones comprobadas en aritmética exacta",
        },
        "claims_assumed": {
            "one": "{count} supuesta, porque solo repite una hipótesis declarada",
            "many": "{count} de supuestas, porque solo repiten una hipótesis declarada",
            "other": "{count} supuestas, porque solo repiten una hipótesis declarada",
        },
        "claims_unchecked": {
            "one": "{count} sin comprobar, porque pizarra no pudo decidirla (lo que no "
            "significa que sea falsa)",
            "many": "{count} sin comprobar, porque pizarra no pudo decidirlas (lo que no "
            "significa que sean falsas)",
            "other": "{count} sin comprobar, porque pizarra no pudo decidirlas (lo que no "
            "significa que sean falsas)",
        },
        "cells_rerun": {
            "one": "{count} celda de código re-ejecutada",
            "many": "{count} de celdas de código re-ejecutadas",
            "other": "{count} celdas de código re-ejecutadas",
        },
    },
    "en": {
        "claims_checked": {
            "one": "{count} statement checked in exact arithmetic",
            "other": "{count} statements checked in exact arithmetic",
        },
        "claims_assumed": {
            "one": "{count} assumed, because it only restates a declared assumption",
            "other": "{count} assumed, because they only restate a declared assumption",
        },
        "claims_unchecked": {
            "one": "{count} unchecked, because pizarra could not decide it (which does not "
            "make it false)",
            "other": "{count} unchecked, because pizarra could not decide them (which does "
            "not make them false)",
        },
        "cells_rerun": {
            "one": "{count} code cell re-run",
            "other": "{count} code cells re-run",
        },
    },
}


@lru_cache(maxsize=32)
def _locale(lang: str) -> Locale:
    return Locale.parse(lang, sep="-")


def plural_form(lang: str, count: int) -> str:
    """CLDR's plural category of ``count`` in ``lang``: ``one``, ``many``, ``other``..."""
    return str(_locale(lang).plural_form(count))


def counted(lang: str, key: str, count: int) -> str:
    """The phrase ``key`` for ``count`` in ``lang``: ``counted("es", "cells_rerun", 1)`` is
    ``"1 celda de código re-ejecutada"``."""
    base = lang.split("-")[0]
    forms = PLURALS[base][key]
    return forms[plural_form(lang, count)].format(count=format_integer(count, lang))


def categories(lang: str) -> frozenset[str]:
    """Every plural category CLDR's rules for ``lang`` can choose."""
    return frozenset(_locale(lang).plural_form.tags) | {"other"}
