"""Read the numerals of a formula in the lesson's language (see the project's convention).

``lang: es``: the decimal comma is ``{,}`` (``0{,}25``); thousands are grouped with a
thin space ``\\,`` in groups of exactly three digits (``65\\,536``). A ``.`` between
digits (``16.384``) or a bare comma between digits (``2,048``) is ambiguous in
Spanish and is reported, never guessed.

``lang: en`` (and any other language): the decimal point is ``.``; thousands are
grouped with ``{,}`` or ``\\,`` (``65{,}536``); a bare ``2,048`` is ambiguous.

In Spanish a comma written between digits without a blank (``(1,2)``, ``2,5``) is
ambiguous: a list is written with a blank after the comma (``(1, 2)``). In English a
bare comma is either thousands grouping or a list: where the groups cannot be
thousands (a later group is not exactly three digits, or the first starts with 0) and
the digits read as a list (three items or more, ``t = 0,1,2``; within brackets,
``(1,0)``; or followed by a comma, ``1,2, \\dots``) it separates a list, as ``0, 1, 2``
does. ``2,048`` and ``x = 2,5`` (a decimal comma?) stay ambiguous, unless the lesson
declares ``conventions: {bare_comma: thousands_or_list}`` (what English notebooks write,
and what ``pizarra import`` declares for them): then a bare comma groups thousands where
the groups are thousands (``20,000``, ``1,234.5``) and otherwise separates a list
(``j = 1,2``, ``1,5``), which is never a value. Spanish lessons ignore it.

The same reading serves the claim checker (values) and the page (display): a
:class:`Numeral` keeps the digits as written, so they can be regrouped by the
language's CLDR rule without re-parsing TeX.

Public API: :func:`scan` (every numeral of a formula, with offsets),
:func:`numeral_at` (the numeral starting at an offset) and :func:`read` (one numeral's
text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from pizarra.base.i18n.numbers import decimal_symbol

CANDIDATE = re.compile(r"\d+(?:(?:\{,\}|\\,|[.,])\d+)*")
"""Digits joined by the separators a numeral may use: what :func:`scan` looks at."""

_SEPARATOR = re.compile(r"\{,\}|\\,|[.,]")
THOUSANDS_OR_LIST = "thousands_or_list"
"""The ``bare_comma`` convention's value: English prose's ``20,000`` and ``j = 1,2``."""
_MAX_DIGITS = 4_000
"""Longest numeral read; longer ones are too large to compare and reported as such."""


@dataclass(frozen=True)
class Numeral:
    """A numeral read unambiguously."""

    integer_digits: str
    """The digits before the decimal separator, without grouping (``65536``)."""
    fraction_digits: str
    """The digits written after the decimal separator (``25`` in ``0{,}25``), maybe empty."""
    grouped: bool
    """Whether the author grouped thousands (``65\\,536``)."""

    @property
    def value(self) -> Fraction:
        """The exact value: ``0{,}25`` is ``1/4``."""
        whole = int(self.integer_digits)
        if not self.fraction_digits:
            return Fraction(whole)
        scale = 10 ** len(self.fraction_digits)
        return Fraction(whole * scale + int(self.fraction_digits), scale)

    @property
    def unit(self) -> Fraction:
        """One unit in the last significant written digit: what ``\\approx`` rounds to.

        ``3{,}14`` -> 1/100; ``1000`` (an order of magnitude) -> 1000; ``1024`` -> 1.
        """
        if self.fraction_digits:
            return Fraction(1, 10 ** len(self.fraction_digits))
        digits = self.integer_digits.lstrip("0")
        zeros = len(digits) - len(digits.rstrip("0")) if digits else 0
        return Fraction(10**zeros)


@dataclass(frozen=True)
class Ambiguous:
    """A numeral the lesson's language cannot read with certainty."""

    text: str
    """The numeral as written."""
    message: str
    """What is wrong, e.g. ``16.384 is ambiguous in Spanish``."""
    hint: str
    """How to write it unambiguously."""


@dataclass(frozen=True)
class Found:
    """One numeral of a formula, located."""

    start: int
    """Offset of its first character in the formula."""
    end: int
    """Offset just past it."""
    reading: Numeral | Ambiguous
    """What it reads as."""


def scan(tex: str, lang: str, bare_comma: str = "") -> list[Found]:
    """Every numeral of ``tex`` in order (``bare_comma``: the lesson's convention)."""
    found: list[Found] = []
    i = 0
    while True:
        match = CANDIDATE.search(tex, i)
        if match is None:
            return found
        if match.start() > 0 and tex[match.start() - 1] == "\\":
            i = match.start() + 1
            continue
        text = numeral_at(tex, match.start(), lang, bare_comma)
        reading = read(text, lang, bare_comma)
        found.append(Found(match.start(), match.start() + len(text), reading))
        i = match.start() + len(text)


def numeral_at(tex: str, start: int, lang: str, bare_comma: str = "") -> str:
    """The numeral starting at ``tex[start]`` (a digit): the first item of an English list."""
    match = CANDIDATE.match(tex, start)
    assert match is not None, "numeral_at is called at a digit"
    text = match.group()
    if _spanish(lang):
        return text
    if _english_list(text, tex[:start], tex[match.end() :]):
        return text[: text.index(",")]
    if bare_comma == THOUSANDS_OR_LIST and _bare_list(text):
        return text[: text.index(",")]
    return text


_OPENS = (",", "(", "[", "{", "\\{", "\\left(", "\\left[", "\\langle")
_CLOSES = (")", "]", "}", "\\}", "\\right", "\\rangle", ",")


def _bare_list(text: str) -> bool:
    """Digits joined by bare commas that cannot be thousands (``1,2``, ``0,1,2``); a
    decimal part after the last group (``1,5.2``) is not a list either."""
    parts = text.split(",")
    if len(parts) < 2 or not all(part.isdigit() for part in parts):
        return False
    first = parts[0]
    return not (
        1 <= len(first) <= 3 and not first.startswith("0") and all(len(p) == 3 for p in parts[1:])
    )


def _english_list(text: str, before: str, after: str) -> bool:
    """Digits joined by bare commas that cannot be thousands and read as a list."""
    if not _bare_list(text):
        return False
    parts = text.split(",")
    if len(parts) >= 3:
        return True
    bracketed = before.rstrip().endswith(_OPENS) or after.lstrip().startswith(_CLOSES)
    return bracketed


def read(text: str, lang: str, bare_comma: str = "") -> Numeral | Ambiguous:
    """Read one numeral (a match of :data:`CANDIDATE`) in the language ``lang``; with
    ``bare_comma`` :data:`THOUSANDS_OR_LIST`, a bare comma of an English numeral groups
    thousands as ``{,}`` does (:func:`numeral_at` has split off the lists)."""
    if len(text) > _MAX_DIGITS:
        return Ambiguous(text[:20] + "...", "a numeral with too many digits", "shorten it")
    if text.isdecimal():  # no separator: what the rules below make of it, at once
        return Numeral(text, "", False)
    parts = _SEPARATOR.split(text)
    separators = _SEPARATOR.findall(text)
    if _spanish(lang):
        if separators == ["."] and not _thousands(parts):  # 0.625, 3.7, 6.02 (not 1.024)
            return Numeral(parts[0], parts[1], False)
        return _read(text, parts, separators, decimal="{,}", lang_name="Spanish")
    if bare_comma == THOUSANDS_OR_LIST:
        separators = ["{,}" if separator == "," else separator for separator in separators]
    return _read(text, parts, separators, decimal=".", lang_name="English")


@lru_cache(maxsize=64)
def _spanish(lang: str) -> bool:
    """Spanish with CLDR's decimal comma (``es``, ``es-ES``, ``es-AR``); ``es-MX`` and
    ``es-419`` write a decimal point, as English does."""
    return lang.split("-")[0].lower() == "es" and decimal_symbol(lang) == ","


def _thousands(parts: list[str]) -> bool:
    """Whether digits split by one ``.`` may be a thousands grouping (``1.024``)."""
    return 1 <= len(parts[0]) <= 3 and not parts[0].startswith("0") and len(parts[1]) == 3


def _read(
    text: str, parts: list[str], separators: list[str], decimal: str, lang_name: str
) -> Numeral | Ambiguous:
    grouping = {"\\,"} if decimal == "{,}" else {"\\,", "{,}"}
    example = "0{,}25 and 65\\,536" if decimal == "{,}" else "0.25 and 65{,}536"
    for separator in separators:
        if separator not in grouping and separator != decimal:
            return Ambiguous(
                text,
                f"{text} is ambiguous in {lang_name}: {separator!r} between digits",
                f"write numbers as {example} in this lesson's language",
            )
    if separators.count(decimal) > 1:
        return Ambiguous(
            text, f"{text} has more than one decimal separator", f"write e.g. {example}"
        )
    point = separators.index(decimal) if decimal in separators else len(separators)
    whole, fraction = parts[: point + 1], parts[point + 1 :]
    if any(s != "\\," for s in separators[point + 1 :]) or len(fraction) > 1:
        return Ambiguous(
            text, f"{text}: digits after the decimal separator may not be grouped", "write 0{,}125"
        )
    if len(whole) > 1 and (
        not 1 <= len(whole[0]) <= 3
        or whole[0].startswith("0")
        or any(len(g) != 3 for g in whole[1:])
    ):
        return Ambiguous(
            text,
            f"{text} is not grouped in thousands (groups of exactly three digits)",
            f"write e.g. {example}",
        )
    return Numeral("".join(whole), fraction[0] if fraction else "", len(whole) > 1)
