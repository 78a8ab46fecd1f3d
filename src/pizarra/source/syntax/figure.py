"""``{image} path`` and ``{figure} path``: an image file of the course, copied into the site.

Every ``{figure}`` is numbered in its lesson, as Jupyter Book numbers figures: the
caption starts "Figure 2" and ``{numref}`` shows the same number.

The file must live inside the course folder (``/x.png`` starts at the course folder,
``x.png`` next to the lesson) and be a raster image: an SVG file can carry scripts,
so it is refused rather than published as it is.

Options that only style Sphinx's theme (``:class:`` on the image, ``:figclass:`` on a
figure, ``:align:``, ``:figwidth:``) are accepted and have no effect: pizarra's own
stylesheet centres every image.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Block, Image
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options
from pizarra.source.syntax.targets import LABEL

MAX_IMAGE_BYTES = 5_000_000
IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
_WIDTH = re.compile(r"^\d{1,4}(?:\.\d+)?(?:%|px|em|rem)?$")
_OPTIONS = {
    "alt": "alternative text for readers who cannot see the image",
    "name": "a label for {ref}",
    "width": "a width such as 80% or 300px",
    "height": "accepted and ignored (the height follows the width)",
    "scale": "accepted and ignored",
    "align": "accepted and ignored (images are centred)",
    "class": "accepted and ignored",
    "figwidth": "accepted and ignored",
    "target": "accepted and ignored",
}
_FIGURE = {**_OPTIONS, "figclass": "accepted and ignored (the figure's class, as :class: is)"}


def lower_figure(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    allowed = _FIGURE if directive.name == "figure" else _OPTIONS
    body, errors = directive_options(directive, allowed)
    ctx.diagnostics.extend(errors)
    found = image_file(ctx, directive.argument, directive.pos)
    caption: tuple[Block, ...] = ()
    if directive.name == "figure":
        start = directive.body_pos.line - 1 + body.content_offset
        caption = ctx.parse_nested(body.content, start, ctx)
    elif body.content.strip():
        ctx.error(directive.pos, "an {image} has no content", hint="use {figure} for a caption")
    width = body.options.get("width", "")
    if width and not _WIDTH.match(width):
        ctx.error(directive.pos, f"invalid :width: {width!r}", hint="e.g. :width: 80%")
        width = ""
    if width and width[-1].isdigit():
        width += "px"
    alt = body.options.get("alt", "")
    if not alt:
        ctx.warn(
            directive.pos,
            "this image has no alternative text",
            hint="add :alt: with what the image shows, for readers who cannot see it",
        )
    label = body.options.get("name", "")
    anchor = ""
    number = ctx.next_number("figure") if directive.name == "figure" else None
    if label and LABEL.match(label):
        anchor = ctx.add_target(label, "figure", number, alt, directive.pos)
    elif label:
        ctx.error(directive.pos, f"invalid :name: {label!r}", hint="e.g. :name: fig-growth")
    if found is None:
        return None
    file, site_path = found
    return Image(file, site_path, alt, caption, anchor, width, directive.pos, number)


def image_file(ctx: LowerContext, argument: str, pos: SourcePos) -> tuple[Path, str] | None:
    """The image's file and its path in the site, or None after reporting why not."""
    name = argument.strip()
    if not name or "://" in name:
        ctx.error(
            pos,
            f"an image needs a file of the course, not {name!r}",
            hint="put the image in the course folder and give its path, e.g. images/plot.png",
        )
        return None
    root = ctx.root.resolve()
    file = (root / name.lstrip("/")) if name.startswith("/") else ctx.lesson_file.parent / name
    try:
        file = file.resolve()
    except OSError:
        file = Path("/nonexistent")
    if not file.is_relative_to(root):
        ctx.error(pos, f"the image {name!r} is outside the course folder", hint="copy it inside")
        return None
    if file.suffix.lower() not in IMAGE_TYPES:
        ctx.error(
            pos,
            f"unsupported image type {file.suffix or name!r}",
            hint="use " + ", ".join(IMAGE_TYPES) + " (an SVG file can run scripts: export a PNG)",
        )
        return None
    if not file.is_file():
        ctx.error(pos, f"no image file {name!r}", hint=f"looked for {file.relative_to(root)}")
        return None
    if file.stat().st_size > MAX_IMAGE_BYTES:
        ctx.error(pos, f"the image {name!r} is larger than {MAX_IMAGE_BYTES:,} bytes")
        return None
    return file, "media/" + file.relative_to(root).as_posix()
