"""``{index}`` directive and role: index entries are accepted; the text of a role stays.

pizarra does not build an index page yet, so the entries themselves are dropped: a
directive shows nothing and ``{index}`text <entry>``` shows ``text``.
"""

from __future__ import annotations

from collections.abc import Callable

from markdown_it.token import Token

from pizarra.errors import SourcePos
from pizarra.model import Block
from pizarra.syntax.context import Directive, LowerContext
from pizarra.syntax.ref import split_text_label


def lower_index(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    return None


def lower_index_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    text, entry = split_text_label(content)
    token.meta["text"] = text or entry
