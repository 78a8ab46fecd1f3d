"""``{glossary}`` (terms and their definitions) and the ``{term}`` role that links to one.

As in Sphinx, a glossary's body is a term on a line of its own (several lines for
synonyms) followed by its definition, indented. A ``{term}`` whose term no glossary of
the course defines is an error, found when references are resolved.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Block, Ref
from pizarra.source.container import Container
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options
from pizarra.source.syntax.ref import split_text_label

_OPTIONS = {"sorted": "list the terms in alphabetical order"}


def term_label(term: str) -> str:
    """The label a term is found by: case and spacing do not matter."""
    return "term:" + " ".join(term.lower().split())


def lower_glossary(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    first = directive.body_pos.line - 1 + body.content_offset
    entries: list[tuple[list[tuple[str, int]], list[str], int]] = []
    for offset, line in enumerate(body.content.split("\n")):
        if not line.strip():
            if entries and entries[-1][1]:
                entries[-1][1].append("")
        elif not line[0].isspace():
            if entries and not entries[-1][1]:
                entries[-1][0].append((line.strip(), first + offset))
            else:
                entries.append(([(line.strip(), first + offset)], [], first + offset + 1))
        elif entries:
            entries[-1][1].append(line)
        else:
            ctx.error(
                ctx.line_pos(first + offset),
                "a glossary starts with a term",
                hint="write the term on a line of its own, its definition indented below",
            )
            return None
    items = []
    for terms, definition, start in entries:
        if not any(line.strip() for line in definition):
            ctx.error(
                ctx.line_pos(terms[0][1]),
                f"the term {terms[0][0]!r} has no definition",
                hint="write its definition on the next lines, indented",
            )
            continue
        text = textwrap.dedent("\n".join(definition)) + "\n"
        blocks = ctx.parse_nested(text, start, ctx)
        for term, at in terms:
            anchor = ctx.add_target(term_label(term), "term", None, term, ctx.line_pos(at))
            items.append(Container("glossary-term", term, (), ctx.line_pos(at), anchor))
        items.append(Container("glossary-definition", "", blocks, ctx.line_pos(start)))
    if "sorted" in body.options:
        items = _sorted(items)
    return Container("glossary", "", tuple(items), directive.pos)


def _sorted(items: list[Container]) -> list[Container]:
    """Entries (terms then their definition) ordered by their first term."""
    groups: list[list[Container]] = []
    for item in items:
        if item.kind == "glossary-term" and (not groups or groups[-1][-1].kind != item.kind):
            groups.append([])
        groups[-1].append(item)
    return [item for group in sorted(groups, key=lambda g: g[0].title.lower()) for item in group]


def lower_term_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    text, label = split_text_label(content)
    if not label:
        ctx.error(pos, "{term} needs a term", hint="write {term}`gradient`")
        return
    ref = Ref("term", term_label(label), text or label, pos)
    token.meta["ref"] = ref
    ctx.refs.append(ref)
