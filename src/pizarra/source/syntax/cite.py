"""``{cite}`key``` (also ``{cite:p}`` and ``{cite:t}``): citations of the lesson's sources.

Several keys may be given at once, ``{cite}`a,b```. A key names an entry of the
front matter's ``sources`` list or of its ``bibliography`` (.bib) files.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Citation
from pizarra.source.syntax.context import LowerContext

_KEY = re.compile(r"^[A-Za-z0-9][\w.:/+-]{0,80}$")


def lower_cite_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    keys = [key.strip() for key in content.split(",")]
    if not keys or not all(_KEY.match(key) for key in keys):
        ctx.error(
            pos,
            f"{{cite}} expects source ids, not {content!r}",
            hint="use ids from the front matter's `sources` or its bibliography, "
            "e.g. {cite}`vaswani2017`",
        )
        return
    token.meta["cite"] = keys
    ctx.citations.extend(Citation(key, pos) for key in keys)
