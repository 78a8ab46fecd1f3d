"""``{download}`text <https://...>```: Sphinx's link to a file to download.

A remote file is a link to it, which is what the reader of a Jupyter Book gets. A file of
the book itself would have to be published with the site, which pizarra does not do for
a role: that is an error whose hint says to link to it instead.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.syntax.context import LowerContext
from pizarra.source.syntax.ref import split_text_label

_URL = re.compile(r"^https?://[^\s<>\"'`]+$")
LINK = "download"
"""``token.meta`` key: (href, text) of the link the role becomes."""


def lower_download_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    text, target = split_text_label(content)
    if not _URL.match(target):
        ctx.error(
            pos,
            f"{{download}} of {target!r}: pizarra links only to files on the web",
            hint="link to where the file is published: {download}`data.csv <https://...>`",
        )
        return
    token.meta[LINK] = (target, text or target)
