"""Markdown's own ways to show a file and to link a lesson, as every peer reads them.

``![alt](img/a.png)``: an image file beside the lesson (or under the course folder,
``/img/a.png``) is checked like an ``{image}`` and copied into the site; the page's
``src`` is rewritten to where the build puts it. A remote image (``https://``) is left
alone. ``[next](05-x.md)`` (or ``05-x.ipynb``, ``05-x.md#part``): a link to another lesson
of the course, recorded as a ``{doc}`` reference so it resolves to that lesson's page
(or is an error naming it) when the course is read.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Image, Ref
from pizarra.source.syntax.context import LowerContext
from pizarra.source.syntax.figure import image_file

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:|^//", re.IGNORECASE)
_LESSON_LINK = re.compile(r"^([A-Za-z0-9_./-]{1,200})\.(md|ipynb)(#[\w.:-]*)?$")
FRAGMENT = "fragment"
"""``token.meta`` key: the ``#anchor`` of a lesson link, appended to the lesson's URL."""


def lower_image(ctx: LowerContext, token: Token, pos: SourcePos) -> None:
    """A Markdown image of a local file: found, recorded for copying, ``src`` rewritten."""
    src = str(token.attrGet("src") or "")
    if not ctx.local_files or not src or _SCHEME.match(src) or src.startswith("#"):
        return
    name = unquote(src.split("#", 1)[0].split("?", 1)[0])
    found = image_file(ctx, name, pos)
    if found is None:
        return
    file, site_path = found
    alt = "".join(child.content for child in token.children or []) or token.content
    if not alt.strip():
        ctx.warn(
            pos,
            "this image has no alternative text",
            hint="write what the image shows between the brackets: ![a plot of x²](plot.png)",
        )
    token.attrSet("src", "../" + site_path)
    ctx.images.append(Image(file, site_path, alt, (), "", "", pos))


def lower_lesson_link(ctx: LowerContext, token: Token, pos: SourcePos) -> bool:
    """``[text](other.md)``: a reference to that lesson; False when not such a link."""
    href = str(token.attrGet("href") or "")
    match = _LESSON_LINK.match(href)
    if match is None or _SCHEME.match(href):
        return False
    label = match.group(1).removeprefix("./")
    ref = Ref("doc", label, "", pos)
    token.meta["ref"] = ref
    if match.group(3) and len(match.group(3)) > 1:
        token.meta[FRAGMENT] = match.group(3)
    ctx.refs.append(ref)
    return True
