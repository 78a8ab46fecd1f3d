"""Raw HTML, decided on markdown-it's own tokens: a comment is dropped, anything else refused.

markdown-it recognises HTML exactly as CommonMark defines it (tags split across lines,
attribute values holding `` ` `` or ``*``, processing instructions, declarations, CDATA),
so the check needs no pattern of its own. A lesson's source is untrusted: its HTML never
reaches the page. ``\\<`` and ``&lt;`` are the literal ``<`` authors write instead.
Link targets with a scheme that runs code or embeds content are refused as well.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.syntax.context import LowerContext

_HINT = (
    "write it in Markdown (**bold**, *italic*, $x^2$); for a literal < write \\< or &lt;; "
    "HTML comments <!-- ... --> are allowed and dropped"
)
_COMMENT = re.compile(r"\s*<!--.*?-->\s*", re.DOTALL)
_FIRST_TAG = re.compile(r"<[^>\n]*>?")
_SCHEME = re.compile(r"^\s*([a-z][a-z0-9+.-]*):", re.IGNORECASE)
UNSAFE_SCHEMES = frozenset({"javascript", "vbscript", "data", "file"})
"""Link and image schemes refused: they run code or embed content in the page."""


def is_comment(html: str) -> bool:
    """True if ``html`` is only HTML comments (and the space between them)."""
    rest = html
    while True:
        match = _COMMENT.match(rest)
        if match is None:
            return rest.strip() == "" and rest != html
        rest = rest[match.end() :]


def lower_html(ctx: LowerContext, token: Token, pos: SourcePos, quiet: bool = False) -> bool:
    """An ``html_block`` or ``html_inline`` token: marked as a dropped comment, or an error
    (none when ``quiet``); True if it was refused."""
    if is_comment(token.content):
        token.meta["comment"] = True
        return quiet
    if not quiet:
        tag = _FIRST_TAG.match(token.content.strip())
        first = tag.group(0) if tag else token.content.strip()
        shown = first if len(first) <= 60 else first[:57] + "..."
        ctx.error(pos, f"raw HTML is not allowed: {shown}", hint=_HINT)
    return True


def unsafe_scheme(url: str) -> str | None:
    """The scheme of ``url`` if it is one of :data:`UNSAFE_SCHEMES` (control characters and
    spaces a browser ignores are ignored here too), else None."""
    cleaned = "".join(ch for ch in url if ch > " ")
    match = _SCHEME.match(cleaned)
    if match is None or match.group(1).lower() not in UNSAFE_SCHEMES:
        return None
    return match.group(1).lower()


def check_target(ctx: LowerContext, token: Token, pos: SourcePos) -> bool:
    """A link's ``href`` or an image's ``src`` with an unsafe scheme is an error; True if
    the target is safe."""
    url = str(token.attrGet("href") or token.attrGet("src") or "")
    scheme = unsafe_scheme(url)
    if scheme is None:
        return True
    token.meta["unsafe"] = True
    what = "an image" if token.type == "image" else "a link"
    ctx.error(
        pos,
        f"{what} to a {scheme}: URL is not allowed",
        hint="link to an https:// page or a file of the course",
    )
    return False
