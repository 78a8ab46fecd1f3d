"""Dates as CLDR writes them in a language (Babel): "2 de diciembre de 2026", "December 2, 2026"."""

from __future__ import annotations

from datetime import date

from babel.dates import format_date


def long_date(iso: str, lang: str) -> str:
    """The ISO date ``iso`` (``2026-12-02``) in ``lang``'s long format."""
    return str(format_date(date.fromisoformat(iso), format="long", locale=lang.replace("-", "_")))
