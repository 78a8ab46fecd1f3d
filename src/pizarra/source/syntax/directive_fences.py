"""Which fences are directives: ``{name} argument`` in the info of a closed fence, and
``{x-start}`` ... ``{x-end}`` pairs whose blocks between become the body of ``{x}``."""

from __future__ import annotations

import re
from dataclasses import replace

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.syntax import DIRECTIVES, GATED
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.inline_options import read_header

_DIRECTIVE_INFO = re.compile(r"^\{([^}]*)\}\s*(.*)$")


def gated(
    ctx: LowerContext, start: Directive, tokens: list[Token], index: int, pairs: dict[int, int]
) -> tuple[Directive | None, int]:
    """``{x-start}`` ... ``{x-end}``: the blocks between become the body of ``{x}``.

    ``index`` is just after the start's token; ``pairs`` maps start to end tokens.
    """
    base, _, edge = start.name.rpartition("-")
    if edge == "end" or base not in GATED:
        hint = "close a {" + base + "-start} with it" if edge == "end" else ""
        what = "without a matching {" + base + "-start}" if edge == "end" else "is not supported"
        ctx.error(start.pos, f"{{{start.name}}} {what}", hint=hint or directive_hint())
        return None, index
    at = pairs.get(index - 1)
    if at is not None:
        end = tokens[at]
        assert start.token.map is not None and end.map is not None
        first, last = start.token.map[1], end.map[0]
        content = "".join(line + "\n" for line in ctx.lines[first:last])
        return replace(start, name=base, gated=(content, first)), at + 1
    ctx.error(
        start.pos,
        f"{{{start.name}}} has no matching {{{base}-end}}",
        hint=f"close the {base} with a ```{{{base}-end}}``` fence",
    )
    return None, index


def gate_pairs(tokens: list[Token]) -> dict[int, int]:
    """Token index of each ``{x-start}`` -> that of its ``{x-end}``, in one pass."""
    open_starts: dict[str, list[int]] = {}
    pairs: dict[int, int] = {}
    for at, token in enumerate(tokens):
        if token.type not in ("fence", "colon_fence"):
            continue
        match = _DIRECTIVE_INFO.match(token.info.strip())
        name = (match.group(1).split() or [""])[0].lower() if match else ""
        base, _, edge = name.rpartition("-")
        if edge == "start":
            open_starts.setdefault(base, []).append(at)
        elif edge == "end" and open_starts.get(base):
            pairs[open_starts[base].pop()] = at
    return pairs


def braced(name: str) -> str:
    """A directive's name as the author writes it, for a hint."""
    return "`{" + name + "}`"


def directive_hint() -> str:
    """Every directive pizarra reads, for a hint when none is near the name given."""
    return "directives: " + ", ".join("{" + d + "}" for d in sorted(DIRECTIVES))


def as_directive(ctx: LowerContext, token: Token) -> Directive | None:
    """A fence whose info is ``{name} argument`` is a directive; check it is closed."""
    if token.type not in ("fence", "colon_fence") or token.map is None:
        return None
    closed = _check_closed(ctx, token)
    if not closed:
        return None
    line = ctx.lines[token.map[0]] if token.map[0] < len(ctx.lines) else ""
    header, errors = read_header(token.info.strip(), ctx.pos(token.map[0], line.find("{")))
    if errors and not token.meta.get("pizarra_header_reported"):
        token.meta["pizarra_header_reported"] = True
        ctx.diagnostics.extend(errors)
    if header is None:
        return None
    pos = ctx.line_pos(token.map[0])
    return Directive(
        name=header.name,
        argument=header.argument,
        body=token.content,
        pos=pos,
        body_pos=SourcePos(ctx.path, token.map[0] + 2, pos.col),
        token=token,
        inline=header.options,
    )


def _check_closed(ctx: LowerContext, token: Token) -> bool:
    """Report a fence that runs to the end of its container; True if it is closed."""
    assert token.map is not None
    last = token.map[1] - 1
    closing = ctx.lines[last].strip() if 0 <= last < len(ctx.lines) else ""
    marker = token.markup[0] if token.markup else "`"
    closed = last > token.map[0] and len(closing) >= len(token.markup) and set(closing) == {marker}
    if not closed and not token.meta.get("pizarra_reported"):
        token.meta["pizarra_reported"] = True
        if ctx.depth > 0:
            # Inside a directive's body, the container's closing fence ends it too, as
            # MyST renders it: what the author meant, so a warning, not an error.
            ctx.warn(
                ctx.line_pos(token.map[0]),
                f"fence {token.markup}{token.info.strip()} is closed only by the end of the "
                "directive around it",
                hint="close it, and give the outer fence more backticks (````) than the inner",
            )
            return True
        ctx.error(
            ctx.line_pos(token.map[0]),
            f"unclosed fence {token.markup}{token.info.strip()}",
            hint=f"close it with a line of at least {len(token.markup)} {marker!r}",
        )
    return closed
