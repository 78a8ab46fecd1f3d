"""Punctuation kept on the line of its formula: a browser may otherwise break the line
between an inline formula and the comma, question mark or parenthesis beside it."""

from __future__ import annotations

import re

from markupsafe import escape

CLOSING = re.compile(r"^[,.:;)\]}!?…»”’]+")
"""Punctuation that closes what comes before it: it stays on the line of its formula."""
OPENING = re.compile(r"[(\[{«“‘¿¡]+$")
"""Punctuation that opens what comes after it: it stays on the line of its formula."""


def glued(before: str, mathml: str, after: str) -> str:
    """``mathml`` with the punctuation ``before`` and ``after`` it (plain text, escaped
    here) in one box that never breaks between them; the formula alone when there is none."""
    if not before and not after:
        return mathml
    return f'<span class="math-punct">{escape(before)}{mathml}{escape(after)}</span>'
