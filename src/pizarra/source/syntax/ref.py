"""``{ref}``, ``{numref}``, ``{eq}`` and ``{doc}`` roles: references to labels, numbered
figures and theorems, equations and lessons.

``{ref}`label```, ``{ref}`text <label>```, ``{numref}`Fig. %s <label>```, ``{eq}`label```
and ``{doc}`text <lesson>```
are recorded as :class:`~pizarra.source.blocks.Ref`; whether they resolve is decided once the
whole course is read (:mod:`pizarra.check.xref`), since a label may be defined further down
or in another lesson.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Ref
from pizarra.source.syntax.context import LowerContext
from pizarra.source.syntax.targets import LABEL

_WITH_TEXT = re.compile(r"^(.*?)\s*<([^<>]*)>\s*$", re.DOTALL)
DOC = re.compile(r"^[A-Za-z0-9_./:-]{1,200}$")


def split_text_label(content: str) -> tuple[str, str]:
    """``text <label>`` -> (text, label); ``label`` -> ("", label)."""
    match = _WITH_TEXT.match(content)
    if match is None:
        return "", content.strip()
    return " ".join(match.group(1).split()), match.group(2).strip()


def _record(ctx: LowerContext, kind: str, content: str, pos: SourcePos, token: Token) -> None:
    text, label = split_text_label(content)
    valid = DOC if kind == "doc" else LABEL
    if not valid.match(label):
        example = "{doc}`text <other_lesson>`" if kind == "doc" else "{ref}`text <label>`"
        ctx.error(pos, f"{{{kind}}} needs a label, not {content!r}", hint=f"write {example}")
        return
    ref = Ref(kind, label, text, pos)
    token.meta["ref"] = ref
    ctx.refs.append(ref)


def lower_ref_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    _record(ctx, "ref", content, pos, token)


def lower_eq_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    _record(ctx, "eq", content, pos, token)


def lower_numref_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    _record(ctx, "numref", content, pos, token)


def lower_doc_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    _record(ctx, "doc", content, pos, token)


def lower_link(ctx: LowerContext, token: Token, pos: SourcePos, empty: bool = False) -> None:
    """``[text](label)``: a link whose target is a bare label, not a URL or a file.

    With no text (``[](label)``, ``[](#label)``) MyST shows the target's number or title;
    an empty link to anything else would be invisible, so it is an error.
    """
    href = str(token.attrGet("href") or "")
    if empty:
        label = href.removeprefix("#")
        if not LABEL.match(label) or "/" in label or "." in label:
            ctx.error(
                pos, "a link with no text is invisible", hint="write [its text](" + href + ")"
            )
            return
        ref = Ref("link-empty", label, "", pos)
        token.meta["ref"] = ref
        ctx.refs.append(ref)
        return
    if "." in href or "/" in href or "#" in href or not LABEL.match(href):
        return
    ref = Ref("link", href, "", pos)
    token.meta["ref"] = ref
    ctx.refs.append(ref)
