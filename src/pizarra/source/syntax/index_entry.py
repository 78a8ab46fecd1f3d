"""``{index}`` directive and role: entries of the course's index, with Sphinx's grammar.

Each line of the directive (its argument, then its body) is one entry:
``single: term`` or ``single: term; subterm``, ``pair: a; b`` (filed under both),
``triple: a; b; c`` (under each), ``see: term; other`` and ``seealso: term; other``,
or plain ``term, other term`` (one entry each). A leading ``!`` marks the main place of
a term. The directive leaves an empty anchor where it stands; the role
``{index}`text <entry>``` shows ``text`` with the anchor on it (``{index}`term```
files ``term`` itself, as a ``single`` entry, as Sphinx does). The index page
(:mod:`pizarra.render.index_page`) links to them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.blocks import Block, IndexEntry, Prose
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.ref import split_text_label

_PARTS = {"single": (1, 2), "pair": (2, 2), "triple": (3, 3), "see": (2, 2), "seealso": (2, 2)}
"""Entry types and how many ``;``-separated terms each takes (at least, at most)."""
_MAX_TERM = 200
_HINT = "write `single: term`, `single: term; subterm`, `pair: a; b` or `see: term; other`"


def lower_index(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    """The entries of every line; an empty anchor (a ``myst_target`` token) marks the place."""
    lines = [(directive.argument, directive.pos)] + [
        (line, directive.body_pos.shifted(offset, col=directive.body_pos.col))
        for offset, line in enumerate(directive.body.split("\n"))
    ]
    found: list[IndexEntry] = []
    errors = len(ctx.diagnostics)
    for text, pos in lines:
        if text.lstrip().startswith(":"):
            ctx.error(pos, f"{{index}} takes no options ({text.strip()!r})", hint=_HINT)
        elif text.strip():
            found += entries(ctx, text, pos)
    if not found:
        if len(ctx.diagnostics) == errors:
            ctx.error(directive.pos, "{index} has no entry", hint=_HINT)
        return None
    anchor = ctx.unique_anchor(f"index {found[0].term}")
    ctx.index_entries += [_placed(entry, anchor) for entry in found]
    token = Token("myst_target", "", 0)
    token.meta["anchor"] = anchor
    return Prose((token,), directive.pos)


def lower_index_role(ctx: LowerContext, content: str, pos: SourcePos, token: Token) -> None:
    text, entry = split_text_label(content)
    token.meta["text"] = text or entry
    found = entries(ctx, entry if text else f"single: {entry}", pos)
    if found:
        anchor = ctx.unique_anchor(f"index {found[0].term}")
        token.meta["index_anchor"] = anchor
        ctx.index_entries += [_placed(e, anchor) for e in found]


def entries(ctx: LowerContext, line: str, pos: SourcePos) -> list[IndexEntry]:
    """The entries one line declares (not yet placed), or an error and none."""
    kind, _, value = line.partition(":")
    kind = kind.strip()
    if kind not in _PARTS:
        terms = [_term(t) for t in line.split(",")]
        if not all(0 < len(name) <= _MAX_TERM for name, _ in terms):
            ctx.error(
                pos,
                f"{{index}} entry {line.strip()!r} has an empty or overlong term",
                hint=_HINT,
            )
            return []
        return [IndexEntry(name, "", "", pos, main) for name, main in terms]
    parts = [_term(part) for part in value.split(";")]
    low, high = _PARTS[kind]
    names = [name for name, _ in parts]
    if not low <= len(parts) <= high or not all(0 < len(n) <= _MAX_TERM for n in names):
        count = f"{low} or {high} terms" if low < high else f"{low} terms"
        ctx.error(
            pos,
            f"{{index}} entry {line.strip()!r}: {kind} takes "
            f"{count.replace('1 terms', '1 term')} separated by ';' "
            f"(each at most {_MAX_TERM} characters)",
            hint=_HINT,
        )
        return []
    main = parts[0][1]
    if kind == "single":
        return [IndexEntry(names[0], names[1] if len(names) > 1 else "", "", pos, main)]
    if kind == "pair":
        a, b = names
        return [IndexEntry(a, b, "", pos, main), IndexEntry(b, a, "", pos, main)]
    if kind == "triple":
        a, b, c = names
        return [
            IndexEntry(a, f"{b} {c}", "", pos, main),
            IndexEntry(b, f"{c}, {a}", "", pos, main),
            IndexEntry(c, f"{a} {b}", "", pos, main),
        ]
    return [IndexEntry(names[0], "", "", pos, see=names[1], see_also=kind == "seealso")]


def _term(text: str) -> tuple[str, bool]:
    """A term without its ``!`` (the main-entry mark) and extra spaces; whether it had one."""
    text = " ".join(text.split())
    return (text[1:].strip(), True) if text.startswith("!") else (text, False)


def _placed(entry: IndexEntry, anchor: str) -> IndexEntry:
    """The entry at ``anchor`` (a ``see`` entry points to a term, not to a place)."""
    return entry if entry.see else replace(entry, anchor=anchor)
