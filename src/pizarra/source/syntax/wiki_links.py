"""``[text](wiki:Title)``: mystmd's short form of a link to the English Wikipedia.

mystmd reads ``wiki:Fortran`` as ``https://en.wikipedia.org/wiki/Fortran``; read any other
way it would be a label no lesson defines. The link becomes that external URL (which, like
every external link, is not checked offline). A link with no text (``[](wiki:Title)``), or
an autolink (``<wiki:Title>``), shows the page's title, as mystmd shows it.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from markdown_it.token import Token

WIKIPEDIA = "https://en.wikipedia.org/wiki/"
_PREFIX = "wiki:"


def wiki_link(children: list[Token], at: int) -> None:
    """Rewrite the ``link_open`` at ``children[at]`` when its target is ``wiki:Title``."""
    token = children[at]
    href = str(token.attrGet("href") or "")
    title = unquote(href[len(_PREFIX) :]).strip() if href.startswith(_PREFIX) else ""
    if not title or title.startswith("/"):
        return
    page, _, fragment = title.partition("#")
    token.attrSet(
        "href",
        WIKIPEDIA
        + quote(page.replace(" ", "_"), safe="_()',-.:!*~")
        + (f"#{quote(fragment, safe='_.-:')}" if fragment else ""),
    )
    shown = page.replace("_", " ")
    following = children[at + 1] if at + 1 < len(children) else None
    if following is not None and following.type == "link_close":
        text = Token("text", "", 0)
        text.content = shown
        children.insert(at + 1, text)
    elif token.markup == "autolink" and following is not None and following.type == "text":
        following.content = shown
