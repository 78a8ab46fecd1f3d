"""What the MyST extensions leave in the tokens that lowering must record or refuse.

Top-level amsmath environments are display formulas (checked like ``$$``), numbered
per lesson (:mod:`pizarra.source.syntax.equation_numbers`); a footnote
defined and never referenced, a footnote inside a directive's body (parsed after the
page's list of footnotes is made, so it would be numbered out of order and its note left
out) and a ``{key=value}`` attribute are errors at their position; ``{#id}`` labels its
element.
"""

from __future__ import annotations

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import MathItem
from pizarra.source.syntax.context import LowerContext
from pizarra.source.syntax.equation_numbers import LABELS, number_environment
from pizarra.source.syntax.targets import LABEL


def lower_extension_block(ctx: LowerContext, token: Token) -> None:
    """Record or refuse one block token of an extension (others pass untouched)."""
    pos = ctx.line_pos(token.map[0]) if token.map else SourcePos(ctx.path, 1, 1)
    if token.type == "amsmath":
        numbered = number_environment(token.content, lambda: ctx.next_number("equation"))
        # Its \label names become targets: what is checked is the TeX without them, as
        # rendered (an eqnarray, drawn as an array, takes no \label).
        tex = LABELS.sub("", token.content) if numbered and numbered.labels else token.content
        ctx.math.append(MathItem(tex.strip("\n"), True, pos))
        token.meta["pos"] = pos
        if numbered is not None:
            token.meta["tex"] = numbered.tex
            token.meta["anchors"] = [
                ctx.add_target(label, "equation", number, "", pos)
                for label, number in numbered.labels
            ]
    elif token.type == "footnote_unused":
        ctx.error(
            pos,
            f"footnote [^{token.meta['label']}] is defined but never referenced",
            hint=f"refer to it with [^{token.meta['label']}] in the text, or delete it",
        )


IDENTIFIED = frozenset(
    {
        "paragraph_open",
        "heading_open",
        "span_open",
        "image",
        "link_open",
        "blockquote_open",
        "bullet_list_open",
        "ordered_list_open",
        "table_open",
    }
)
"""Tokens whose ``{#id}`` becomes a label (their renderer writes the id)."""


def check_attrs(ctx: LowerContext, token: Token, pos: SourcePos) -> None:
    """``{#id}`` labels the element, as ``(id)=`` would; ``{key=value}`` is refused and
    ``{.class}`` kept."""
    refused = dict(token.meta.get("insecure_attrs") or {})
    label = refused.get("id")
    if isinstance(label, str) and LABEL.match(label) and token.type in IDENTIFIED:
        del refused["id"]
        if token.type == "heading_open":
            token.meta["label"] = label  # the section takes it, with its title
        else:
            token.attrSet("id", ctx.add_target(label, "target", None, "", pos))
    if not refused:
        return
    shown = " ".join(f"#{v}" if k == "id" else f"{k}={v}" for k, v in refused.items())
    ctx.error(
        pos,
        f"attributes are not supported here: {{{shown}}}",
        hint="{.class} and {#label} (on a paragraph, heading, list, table, link or image) are",
    )


def check_nested_footnote(ctx: LowerContext, child: Token, pos: SourcePos) -> None:
    """A footnote inside a directive's body comes after the page's list is made: refused."""
    if ctx.depth > 0:
        ctx.error(
            pos,
            "a footnote inside a directive is not supported",
            hint="put the footnote reference in the text outside the directive",
        )
