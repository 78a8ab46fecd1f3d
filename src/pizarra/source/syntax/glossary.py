"""``{glossary}`` (terms and their definitions) and the ``{term}`` role that links to one.

As in Sphinx, a glossary's body is a term on a line of its own (several lines for
synonyms) followed by its definition, indented; or, as in mystmd, a definition list: the
term, then ``: `` paragraphs, which together are its definition. A term with markup (a
link) is shown so and named by its plain text. A ``{term}`` whose term no glossary of
the course defines is an error, found when references are resolved.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Block, Prose, Ref
from pizarra.source.container import Container
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.options import directive_options
from pizarra.source.syntax.ref import split_text_label

_OPTIONS = {"sorted": "list the terms in alphabetical order"}
_MARKER = re.compile(r"[:~](?:[ \t]+|$)")
"""The start of a definition-list paragraph, ``: text``, as mystmd writes glossaries."""
_MARKUP = re.compile(r"[\[\]*_`$\\{}<&]")
_TEXT = ("text", "text_special", "code_inline", "math_inline")


def term_label(term: str) -> str:
    """The label a term is found by: case and spacing do not matter."""
    return "term:" + " ".join(term.lower().split())


def lower_glossary(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    first = directive.body_pos.line - 1 + body.content_offset
    entries = _entries(ctx, body.content.split("\n"), first)
    if entries is None:
        return None
    items = []
    for terms, parts in entries:
        if not any(line.strip() for lines, _ in parts for line in lines):
            ctx.error(
                ctx.line_pos(terms[0][1]),
                f"the term {terms[0][0]!r} has no definition",
                hint="write its definition below it, indented or after `: `",
            )
            continue
        blocks: tuple[Block, ...] = ()
        for lines, start in parts:
            blocks += ctx.parse_nested(textwrap.dedent("\n".join(lines)) + "\n", start, ctx)
        for term, at in terms:
            plain, shown = _term(ctx, term, at)
            anchor = ctx.add_target(term_label(plain), "term", None, plain, ctx.line_pos(at))
            items.append(Container("glossary-term", plain, shown, ctx.line_pos(at), anchor))
        items.append(Container("glossary-definition", "", blocks, ctx.line_pos(parts[0][1])))
    if "sorted" in body.options:
        items = _sorted(items)
    return Container("glossary", "", tuple(items), directive.pos)


Entry = tuple[list[tuple[str, int]], list[tuple[list[str], int]]]
"""A glossary entry: its terms with their 0-based lines, and its definition's parts
(lines and first line): one indented block, or one per ``: `` paragraph."""


def _entries(ctx: LowerContext, lines: list[str], first: int) -> list[Entry] | None:
    """The entries of a glossary's body, in either form; None after an error."""
    entries: list[Entry] = []
    for offset, line in enumerate(lines):
        at = first + offset
        marker = _MARKER.match(line)
        parts = entries[-1][1] if entries else None
        if not line.strip():
            if parts:
                parts[-1][0].append("")
        elif marker and parts is not None:  # ": a paragraph of the definition"
            parts.append(([" " * marker.end() + line[marker.end() :]], at))
        elif not line[0].isspace() and not marker:
            if entries and not entries[-1][1]:
                entries[-1][0].append((line.strip(), at))
            else:
                entries.append(([(line.strip(), at)], []))
        elif parts:
            parts[-1][0].append(line)
        elif parts is not None:
            parts.append(([line], at))
        else:
            ctx.error(
                ctx.line_pos(at),
                "a glossary starts with a term",
                hint="write the term on a line of its own, its definition below it",
            )
            return None
    return entries


def _term(ctx: LowerContext, term: str, line: int) -> tuple[str, tuple[Block, ...]]:
    """A term's plain text (what ``{term}`` names it by) and, if it has markup (a
    link), its blocks, shown as they are written."""
    if _MARKUP.search(term) is None:
        return term, ()
    blocks = ctx.parse_nested(term + "\n", line, ctx)
    words = []
    for block in blocks:
        for token in block.tokens if isinstance(block, Prose) else ():
            if token.type in ("paragraph_open", "paragraph_close"):
                token.hidden = True  # a term is a line of text, not a paragraph
            words += [c.content for c in token.children or [] if c.type in _TEXT]
    return " ".join("".join(words).split()) or term, blocks


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
