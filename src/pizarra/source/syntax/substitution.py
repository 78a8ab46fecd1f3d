"""``{{ name }}``: Markdown the front matter's ``substitutions:`` gives a name to, as MyST's
substitution extension reads it.

The value is parsed as inline Markdown where the name stands (math and roles in it are
checked like any other); a name the front matter does not define, and a substitution
inside a substitution, are errors.
"""

from __future__ import annotations

from collections.abc import Callable

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.markdown import parser
from pizarra.source.syntax.context import LowerContext


def expand_inline(ctx: LowerContext, token: Token, find: Callable[[str], SourcePos]) -> None:
    """Replace each ``substitution_inline`` child of ``token`` by its value's tokens."""
    children = token.children or []
    if not any(child.type == "substitution_inline" for child in children):
        return
    expanded: list[Token] = []
    for child in children:
        if child.type == "substitution_inline":
            expanded += _value(ctx, child.content, find("{{")) or [child]
        else:
            expanded.append(child)
    token.children = expanded


def expand_block(ctx: LowerContext, token: Token, pos: SourcePos) -> None:
    """A ``{{ name }}`` alone on its line: its value's tokens become the token's children."""
    token.children = _value(ctx, token.content, pos) or []


def _value(ctx: LowerContext, name: str, pos: SourcePos) -> list[Token] | None:
    value = ctx.substitutions.get(name)
    if value is None:
        known = ", ".join(sorted(ctx.substitutions)) or "none"
        ctx.error(
            pos,
            f"no substitution {{{{ {name} }}}} in the front matter",
            hint=f"define it under `substitutions:`; defined: {known}",
        )
        return None
    tokens = parser().parseInline(value)
    children = tokens[0].children or [] if tokens else []
    if any(child.type == "substitution_inline" for child in children):
        ctx.error(
            pos,
            f"the substitution {name!r} contains another substitution",
            hint="write its text out",
        )
        return None
    return children
