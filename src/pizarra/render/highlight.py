"""Code -> highlighted HTML at build time with Pygments, so pages need no highlighting script.

Tokens become spans with Pygments' short class names (``k``, ``s1``, ``mi``...); the
site's stylesheet colours them for light and dark. An unknown language is escaped
text, never an error: highlighting is a nicety, not a check. So is code whose lexer is
not among the measured ones, or too long (:mod:`pizarra.source.syntax.highlighting`,
which also warns at such blocks when the lesson is read).
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from pizarra.source.syntax.highlighting import plain_reason

_FORMATTER = HtmlFormatter(nowrap=True)


@lru_cache(maxsize=32)
def _lexer(language: str) -> Lexer | None:
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


KEPT_CODE_CHARS = 8_000
"""Code up to this long is highlighted once per process (:func:`_highlighted`)."""


def highlight(code: str, language: str) -> Markup:
    """``code`` as HTML spans for ``language`` (``python``...); plain escaped text otherwise."""
    lexer = _lexer(language.lower()) if language else None
    if lexer is None or plain_reason(language, code) is not None:
        return escape(code)
    if len(code) <= KEPT_CODE_CHARS:
        return _highlighted(code, lexer)
    return Markup(pygments_highlight(code, lexer, _FORMATTER))


@lru_cache(maxsize=512)
def _highlighted(code: str, lexer: Lexer) -> Markup:
    """Kept: a served lesson's page is rendered again at each save, and its code, mostly
    unchanged, took 0.005 s of that to lex. Bounded: 512 blocks of at most
    :data:`KEPT_CODE_CHARS` characters."""
    return Markup(pygments_highlight(code, lexer, _FORMATTER))
