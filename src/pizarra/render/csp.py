"""The Content-Security-Policy of every page: in a ``<meta>`` for static hosts, and as
a header (with the directives a ``<meta>`` cannot carry) from ``pizarra serve``.

Scripts only from the site itself: pages carry no inline script (the explorer's
JSON data block is not executed). Styles only from the site's stylesheets, plus the
exact ``style`` attributes the MathML converter writes (``display:block math``...),
allowed one by one through their hashes, so no other inline style can apply.
"""

from __future__ import annotations

import base64
import hashlib
import re
from html import unescape

_STYLE_ATTR = re.compile(r"""\sstyle=(?:"([^"]*)"|'([^']*)')""")
_HEAD = re.compile(r"<head[^>]*>(?:\s*<meta charset=[^>]*>)?", re.IGNORECASE)

BASE = (
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
)
"""The policy's directives that do not depend on the page."""
HEADER_ONLY = ("frame-ancestors 'none'",)
"""Directives that browsers ignore in a ``<meta>`` tag."""

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Headers ``pizarra serve`` sends with every answer, besides the policy."""


def policy(html: str, header: bool = False) -> str:
    """The policy for one page: ``header`` adds what only a header can carry."""
    hashes = sorted({_hash(unescape(a or b)) for a, b in _STYLE_ATTR.findall(html)})
    styles = "style-src 'self'"
    if hashes:
        styles += " 'unsafe-hashes' " + " ".join(f"'sha256-{h}'" for h in hashes)
    return "; ".join([*BASE, styles, *(HEADER_ONLY if header else ())])


def with_meta(html: str) -> str:
    """``html`` with its policy in a ``<meta http-equiv>`` first thing in ``<head>``.

    A policy applies only to what follows its tag, so it goes right after the
    charset, before any stylesheet or script.
    """
    match = _HEAD.search(html)
    if match is None:
        return html
    content = policy(html).replace("&", "&amp;").replace('"', "&quot;")
    tag = f'\n<meta http-equiv="Content-Security-Policy" content="{content}">'
    return html[: match.end()] + tag + html[match.end() :]


def _hash(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
