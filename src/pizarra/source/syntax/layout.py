"""Layout directives of Jupyter Book and sphinx-design: ``{dropdown}``, ``{toggle}``,
``{margin}``, ``{sidebar}``, ``{tab-set}``/``{tab-item}``, ``{card}``, ``{grid}`` and its
items. Each is a :class:`~pizarra.source.container.Container` holding parsed blocks.

Tabs work without JavaScript: each tab is a radio button and its label, so a keyboard
moves between them with the arrow keys. Options that only style the original theme
(colours, margins, shadows) are accepted and have no effect.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pizarra.source.blocks import Block
from pizarra.source.container import Container
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import DirectiveBody, directive_options
from pizarra.source.syntax.raw_html import unsafe_scheme

_STYLE = "accepted; it only styles Sphinx's theme"
_CLASSES = {"class": _STYLE, "class-container": _STYLE, "class-title": _STYLE, "class-body": _STYLE}
_NAME = {"name": "a label for {ref}"}
_DROPDOWN = {
    **_NAME,
    **_CLASSES,
    "open": "open at first",
    "color": _STYLE,
    "icon": _STYLE,
    "animate": _STYLE,
    "margin": _STYLE,
    "chevron": _STYLE,
}
_ASIDE = {**_NAME, **_CLASSES, "subtitle": _STYLE}
_TAB_SET = {**_CLASSES, "sync-group": "accepted; tabs of a page are not synchronised"}
_TAB_ITEM = {
    **_NAME,
    **_CLASSES,
    "selected": "the tab shown at first",
    "sync": "accepted",
    "class-label": _STYLE,
    "class-content": _STYLE,
}
_CARD_STYLE = (
    "shadow",
    "text-align",
    "width",
    "margin",
    "padding",
    "class-card",
    "class-header",
    "class-footer",
    "link-type",
    "link-alt",
)
_CARD = {**_NAME, **_CLASSES, **{k: _STYLE for k in _CARD_STYLE}, "link": "an https:// URL"}
_GRID = {k: _STYLE for k in ("gutter", "margin", "padding", "outline", "reverse", "class-row")}
_GRID = {**_GRID, **_CLASSES}
_GRID_ITEM = {**_CLASSES, "columns": _STYLE, "child-direction": _STYLE, "child-align": _STYLE}
_GRID_ITEM_CARD = {**_CARD, **_GRID_ITEM}
_COLUMNS = re.compile(r"^(?:\d{1,2}\s+){0,3}\d{1,2}$")
Next = Callable[[], Directive | None]


def _body(ctx: LowerContext, directive: Directive, allowed: dict[str, str]) -> DirectiveBody:
    body, errors = directive_options(directive, allowed)
    ctx.diagnostics.extend(errors)
    return body


def _blocks(ctx: LowerContext, directive: Directive, body: DirectiveBody) -> tuple[Block, ...]:
    start = directive.body_pos.line - 1 + body.content_offset
    return ctx.parse_nested(body.content, start, ctx)


def _anchor(ctx: LowerContext, directive: Directive, body: DirectiveBody, title: str) -> str:
    label = body.options.get("name", "")
    return ctx.add_target(label, "target", None, title, directive.pos) if label else ""


def lower_dropdown(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    """``{dropdown} Title`` and ``{toggle}``: a disclosure (``<details>``)."""
    body = _body(ctx, directive, _DROPDOWN)
    anchor = _anchor(ctx, directive, body, directive.argument)
    blocks = _blocks(ctx, directive, body)
    opened = "open" in body.options
    return Container("dropdown", directive.argument, blocks, directive.pos, anchor, flag=opened)


def lower_aside(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    """``{margin}`` and ``{sidebar} Title``: content beside the text on wide screens."""
    body = _body(ctx, directive, _ASIDE)
    anchor = _anchor(ctx, directive, body, directive.argument)
    blocks = _blocks(ctx, directive, body)
    return Container(directive.name, directive.argument, blocks, directive.pos, anchor)


def lower_tab_set(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    """``{tab-set}``: its body holds only ``{tab-item}`` directives."""
    body = _body(ctx, directive, _TAB_SET)
    group = f"tabs-{ctx.next_number('tab-set')}"
    ctx.in_tab_set += 1
    try:
        blocks = _blocks(ctx, directive, body)
    finally:
        ctx.in_tab_set -= 1
    items = [b for b in blocks if isinstance(b, Container) and b.kind == "tab-item"]
    for block in blocks:
        if not _is(block, "tab-item"):
            ctx.error(
                block.pos,
                "content in a {tab-set} outside its {tab-item}s would not be shown",
                hint="put it in a ```{tab-item} Label, or after the tab set",
            )
    if not items:
        ctx.error(
            directive.pos, "a {tab-set} holds no {tab-item}", hint="write ```{tab-item} Label"
        )
        return None
    chosen = next((i for i, item in enumerate(items) if item.flag), 0)
    tabs = []
    for index, item in enumerate(items, start=1):
        anchor = item.anchor or f"{group}-{index}"
        ctx.anchors.add(anchor)
        tabs.append(
            Container(
                "tab-item",
                item.title,
                item.body,
                item.pos,
                anchor,
                flag=index - 1 == chosen,
                group=group,
            )
        )
    return Container("tab-set", "", tuple(tabs), directive.pos, group=group)


def lower_tab_item(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    body = _body(ctx, directive, _TAB_ITEM)
    if not directive.argument:
        ctx.error(directive.pos, "a {tab-item} needs a label", hint="write ```{tab-item} Python")
    if not ctx.in_tab_set:
        ctx.error(
            directive.pos,
            "a {tab-item} belongs in a {tab-set}",
            hint="put the tab items inside ````{tab-set} ... ````",
        )
    anchor = _anchor(ctx, directive, body, directive.argument)
    blocks = _blocks(ctx, directive, body)
    return Container(
        "tab-item",
        directive.argument,
        blocks,
        directive.pos,
        anchor,
        flag="selected" in body.options,
    )


def lower_card(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    """``{card} Title`` (and ``{grid-item-card}``): a box with a title, an optional header
    (before a ``^^^`` line) and footer (after a ``+++`` line)."""
    allowed = _GRID_ITEM_CARD if directive.name == "grid-item-card" else _CARD
    body = _body(ctx, directive, allowed)
    link = body.options.get("link", "")
    if link and (unsafe_scheme(link) or not link.startswith(("https://", "http://"))):
        ctx.error(
            directive.pos,
            f"a card's :link: must be an https:// URL, not {link!r}",
            hint="for a lesson or a label, put a link in the card's text",
        )
        link = ""
    anchor = _anchor(ctx, directive, body, directive.argument)
    lines = body.content.splitlines(keepends=True)
    first = directive.body_pos.line - 1 + body.content_offset
    header = _line_of(lines, "^^^")
    body_from = header + 1 if header is not None else 0
    footer = _line_of(lines, "+++", body_from)
    body_to = footer if footer is not None else len(lines)
    parts = []
    if header is not None:
        parts.append(_part(ctx, "card-header", lines[:header], first, directive))
    parts.append(_part(ctx, "card-body", lines[body_from:body_to], first + body_from, directive))
    if footer is not None:
        parts.append(_part(ctx, "card-footer", lines[footer + 1 :], first + footer + 1, directive))
    return Container("card", directive.argument, tuple(parts), directive.pos, anchor, group=link)


def _line_of(lines: list[str], marker: str, start: int = 0) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i].rstrip() == marker), None)


def _part(
    ctx: LowerContext, kind: str, lines: list[str], first: int, directive: Directive
) -> Container:
    return Container(kind, "", ctx.parse_nested("".join(lines), first, ctx), directive.pos)


def lower_grid(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    """``{grid} 1 2 2 3``: items in columns (the numbers: narrowest to widest screens)."""
    body = _body(ctx, directive, _GRID)
    columns = directive.argument.strip() or "1"
    if not _COLUMNS.match(columns):
        ctx.error(
            directive.pos,
            f"{{grid}} takes one to four column counts, not {columns!r}",
            hint="e.g. ```{grid} 1 2 2 3",
        )
        columns = "1"
    counts = [min(int(n), 6) or 1 for n in columns.split()]
    counts += [counts[-1]] * (4 - len(counts))
    blocks = _blocks(ctx, directive, body)
    items = tuple(b if _is(b, "grid-item", "card") else _wrap(b) for b in blocks)
    return Container("grid", " ".join(map(str, counts)), items, directive.pos)


def lower_grid_item(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    body = _body(ctx, directive, _GRID_ITEM)
    return Container("grid-item", "", _blocks(ctx, directive, body), directive.pos)


def _wrap(block: Block) -> Container:
    return Container("grid-item", "", (block,), block.pos)


def _is(block: Block, *kinds: str) -> bool:
    return isinstance(block, Container) and block.kind in kinds
