"""The ``{lesson}`N``` role: a reference to another lesson of the course by number."""

from __future__ import annotations

from markdown_it.token import Token

from pizarra.errors import SourcePos
from pizarra.model import LessonRef
from pizarra.syntax.context import LowerContext


def lower_lesson_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    text = content.strip()
    if not text.isdigit() or len(text) > 6:
        ctx.error(
            pos,
            f"{{lesson}} expects a lesson number, not {content!r}",
            hint="write {lesson}`8`",
        )
        return
    token.meta["lesson"] = int(text)
    ctx.lesson_refs.append(LessonRef(int(text), pos))
