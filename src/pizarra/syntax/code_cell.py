"""``{code-cell} python`` and the ``{output}`` block that must follow it."""

from __future__ import annotations

from collections.abc import Callable

from pizarra.model import Block, CodeCell, Output
from pizarra.syntax.context import Directive, LowerContext
from pizarra.syntax.options import positive_number, split_options

DEFAULT_TIMEOUT = 30.0
MAX_TIMEOUT = 600.0
LANGUAGES = ("python",)


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
    body, errors = split_options(
        directive.body, directive.body_pos, {"timeout": "seconds the cell may run"}
    )
    ctx.diagnostics.extend(errors)
    timeout = DEFAULT_TIMEOUT
    if "timeout" in body.options:
        value, error = positive_number(
            body.options["timeout"], "timeout", directive.body_pos, MAX_TIMEOUT
        )
        if error is not None:
            ctx.diagnostics.append(error)
        elif value is not None:
            timeout = value
    output = None
    follower = next_token()
    if follower is not None:
        output_body, output_errors = split_options(follower.body, follower.body_pos, {})
        ctx.diagnostics.extend(output_errors)
        assert follower.token.map is not None
        output = Output(
            output_body.content,
            follower.pos,
            follower.token.map[0],
            follower.token.map[1],
        )
    assert directive.token.map is not None
    return CodeCell(
        language=language,
        code=body.content,
        pos=directive.pos,
        code_line=directive.body_pos.line + body.content_offset,
        output=output,
        timeout=timeout,
        fence_end_line=directive.token.map[1],
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
