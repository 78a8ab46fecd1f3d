"""Numbers in formulas shown with the lesson language's CLDR rule, like the explorers.

Authors write numerals by the project's convention (``lang: es``: ``0{,}25``,
``65\\,536``; ``lang: en``: ``0.25``, ``65{,}536``); :mod:`pizarra.math.exact.numerals`
reads them. This pass rewrites each one, in the TeX, to how CLDR writes it in that
language (``2048``, ``16.384``, ``2,75`` in Spanish; ``2,048``, ``2.75`` in English),
as TeX the math converter sets as one number (``16.384``, ``2{,}75``). It runs on
the TeX because every converter reads the same TeX, whatever MathML it writes.

Left as written: ambiguous numerals (the claim checker reports them), a digit run
right after ``^``/``_`` or a command name (``x^123`` raises only the ``1``;
``\\frac12`` is two arguments), and the arguments of ``\\label``, ``\\tag`` and the
like, which are names rather than numbers.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from pizarra.base.i18n.numbers import format_number, group_digits
from pizarra.math.exact.numerals import Numeral, scan
from pizarra.math.mathml import MathRenderer

_NAMES = re.compile(
    r"\\(?:label|ref|eqref|tag\*?|href|url|color|textcolor|begin|end|operatorname\*?)"
    r"\s*\{[^{}]*\}"
)
_DIGIT = re.compile(r"\d")
"""What a numeral starts with (:data:`pizarra.math.exact.numerals.CANDIDATE`): a formula
without one is shown as written."""
_TEX_FOR = {",": "{,}", ".": ".", "\u00a0": "\\,", "\u202f": "\\,", " ": "\\,"}


@lru_cache(maxsize=8192)
def display_numerals(tex: str, lang: str) -> str:
    """``tex`` with every numeral written as CLDR writes it in ``lang``: kept by formula,
    as a served lesson's page is rendered again at each save (0.003 s of it)."""
    if _DIGIT.search(tex) is None:
        return tex
    skipped = [m.span() for m in _NAMES.finditer(tex)] if "\\" in tex else []
    parts: list[str] = []
    at = 0
    for found in scan(tex, lang):
        numeral = found.reading
        if not isinstance(numeral, Numeral) or _left_alone(tex, found.start, skipped):
            continue
        parts += [
            tex[at : found.start],
            _tex_number(numeral.integer_digits, numeral.fraction_digits, lang),
        ]
        at = found.end
    parts.append(tex[at:])
    return "".join(parts)


def localized(math: MathRenderer, lang: str) -> MathRenderer:
    """``math`` with :func:`display_numerals` applied to each formula first."""

    def render(tex: str, display: bool) -> str:
        return math(display_numerals(tex, lang), display)

    return render


def _left_alone(tex: str, start: int, skipped: list[tuple[int, int]]) -> bool:
    before = start  # the character before the numeral, blanks skipped
    while before > 0 and tex[before - 1] == " ":
        before -= 1
    last = tex[before - 1] if before > 0 else ""
    if last and (last in "^_" or (last.isascii() and last.isalpha())):
        return True
    return any(a <= start < b for a, b in skipped)


@lru_cache(maxsize=512)
def _tex_number(digits: str, fraction_digits: str, lang: str) -> str:
    """The numeral with these digits as TeX in ``lang``: a lesson writes the same
    numbers again and again, so each is formatted once."""
    whole = group_digits(digits, lang) if digits[:1] != "0" or digits == "0" else digits
    text = whole
    if fraction_digits:
        text += _decimal_symbol(lang) + fraction_digits
    return "".join(_TEX_FOR.get(c, c if c.isdigit() else "{" + c + "}") for c in text)


@lru_cache(maxsize=32)
def _decimal_symbol(lang: str) -> str:
    return format_number(Fraction(1, 2), lang, 1)[1]
