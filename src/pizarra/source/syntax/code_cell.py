"""``{code-cell} python`` (or ``ipython3``...) and the ``{output}`` block that may follow it."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.source.blocks import Block, CodeCell, Output
from pizarra.source.syntax.cell_options import DEFAULT_TIMEOUT, read_cell_options
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.highlighting import check_highlighting
from pizarra.source.syntax.options import INLINE_READ, directive_options
from pizarra.source.syntax.targets import LABEL

LANGUAGES = ("python", "python3", "ipython3", "ipython")
"""What Jupyter Book lectures write after ``{code-cell}``; all run as Python."""


def lower_code_cell(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    language = directive.argument.strip()
    if language not in LANGUAGES:
        ctx.error(
            directive.pos,
            f"code cells run {', '.join(LANGUAGES)}, not {language or 'an unnamed language'!r}",
            hint="write ```{code-cell} python",
        )
        return None
    directive.token.meta[INLINE_READ] = True
    options, errors = read_cell_options(directive.body, directive.body_pos, directive.inline)
    ctx.diagnostics.extend(errors)
    output = None
    follower = next_token()
    if follower is not None:
        output_body, output_errors = directive_options(follower, {})
        ctx.diagnostics.extend(output_errors)
        assert follower.token.map is not None
        output = Output(
            output_body.content,
            follower.pos,
            follower.token.map[0],
            follower.token.map[1],
        )
    assert directive.token.map is not None
    check_highlighting(ctx, "python", options.content, directive.pos)
    anchor, number = "", None
    if options.name and LABEL.match(options.name):  # Jupyter Book numbers a named figure
        number = ctx.next_number("figure")
        title = options.caption or options.alt
        anchor = ctx.add_target(options.name, "figure", number, title, directive.pos)
    elif options.name:
        ctx.error(directive.pos, f"invalid figure name {options.name!r}", hint="e.g. fig-growth")
    return CodeCell(
        language=language,
        code=options.content,
        pos=directive.pos,
        code_line=directive.body_pos.line + options.content_offset,
        output=output,
        timeout=options.timeout or ctx.cell_timeout or DEFAULT_TIMEOUT,
        fence_end_line=directive.token.map[1],
        tags=options.tags,
        caption=options.caption,
        alt=options.alt,
        anchor=anchor,
        number=number,
        lines=options.lines,
    )


def lower_stray_output(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    ctx.error(
        directive.pos,
        "an {output} block must come right after a {code-cell}",
        hint="move it under the code cell whose output it is",
    )
    return None
