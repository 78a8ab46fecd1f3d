"""The ``{lesson}`N``` role: a reference to another lesson of the course by number.

``{lesson}`8``` reads as running text ("lección 8"), so "en la {lesson}`8`" is a
sentence. ``{lesson}`Lección 8 <8>``` (MyST's explicit-text form) prints the
author's own words instead, for instance at the start of an English sentence.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import LessonRef
from pizarra.source.syntax.context import LowerContext

_EXPLICIT = re.compile(r"(?P<text>.*\S)\s*<(?P<number>[^<>]*)>", re.DOTALL)


def lower_lesson_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    text = content.strip()
    explicit = _EXPLICIT.fullmatch(text)
    if explicit is not None:
        text = explicit["number"].strip()
    if not text.isdigit() or len(text) > 6:
        ctx.error(
            pos,
            f"{{lesson}} expects a lesson number, not {content!r}",
            hint="write {lesson}`8`, or {lesson}`your words <8>` for your own text",
        )
        return
    token.meta["lesson"] = int(text)
    if explicit is not None:
        token.meta["lesson_text"] = explicit["text"]
    ctx.lesson_refs.append(LessonRef(int(text), pos))
