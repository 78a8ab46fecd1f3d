"""The ``{cite}`key``` role: a citation of the lesson's numbered sources list."""

from __future__ import annotations

import re

from markdown_it.token import Token

from pizarra.errors import SourcePos
from pizarra.model import Citation
from pizarra.syntax.context import LowerContext

_KEY = re.compile(r"^[A-Za-z0-9][\w.:-]{0,80}$")


def lower_cite_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    key = content.strip()
    if not _KEY.match(key):
        ctx.error(
            pos,
            f"{{cite}} expects a source id, not {content!r}",
            hint="use an `id` from the front matter's `sources` list, e.g. {cite}`vaswani2017`",
        )
        return
    token.meta["cite"] = key
    ctx.citations.append(Citation(key, pos))
