"""``{include} file.md``: another file of the course, read in place, as MyST does.

The file is parsed with its own lines, so every position in an error names the included
file. It must live in the course folder; ``:start-line:``/``:end-line:`` and
``:start-after:``/``:end-before:`` take part of it, and ``:literal:`` or ``:code: lang``
show it as code. Code cells may not come from an included file: ``--update-outputs``
writes outputs into the lesson's own text.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from markdown_it.token import Token

from pizarra.source.blocks import Block, CodeCell, Prose, walk
from pizarra.source.container import Container
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.course_files import read_course_file
from pizarra.source.syntax.options import directive_options

MAX_INCLUDED_CHARS = 2_000_000
"""All the text one lesson may include, however often and deep (a file that includes
itself twice would otherwise double its work at every level)."""

_OPTIONS = {
    "start-line": "the first line to include (0 is the file's first)",
    "end-line": "the line to stop before",
    "start-after": "include what follows this text",
    "end-before": "include what precedes this text",
    "literal": "show the file as text",
    "code": "show the file as code in this language",
    "encoding": "must be utf-8",
    "parser": "must be myst",
}


def lower_include(
    ctx: LowerContext, directive: Directive, next_token: Callable[[], Directive | None]
) -> Block | None:
    body, errors = directive_options(directive, _OPTIONS)
    ctx.diagnostics.extend(errors)
    options = body.options
    if options.get("encoding", "utf-8").lower().replace("_", "-") not in ("utf-8", "utf8"):
        ctx.error(directive.pos, "included files are read as UTF-8", hint="remove :encoding:")
    if options.get("parser", "myst") not in ("myst", "myst_parser.sphinx_"):
        ctx.error(directive.pos, "only MyST files can be included", hint="remove :parser:")
    found = read_course_file(ctx, directive.pos, directive.argument.strip())
    if found is None:
        return None
    text, path = found
    ctx.counters["included-bytes"] = ctx.counters.get("included-bytes", 0) + len(text)
    if ctx.counters["included-bytes"] > MAX_INCLUDED_CHARS:
        ctx.error(
            directive.pos,
            f"the files this lesson includes hold more than {MAX_INCLUDED_CHARS:,} characters",
            hint="include less, or split the lesson (does a file include itself?)",
        )
        return None
    part = _part(ctx, directive, text, options)
    if part is None:
        return None
    content, first = part
    shown = os.path.normpath(
        Path(ctx.path).parent / os.path.relpath(path, ctx.lesson_file.parent.resolve())
    )
    if "literal" in options or "code" in options:
        fence = Token("fence", "code", 0)
        fence.info, fence.content, fence.markup = options.get("code", ""), content, "```"
        fence.map = directive.token.map
        return Prose((fence,), directive.pos)
    inner = replace(ctx, path=Path(shown).as_posix(), lines=text.split("\n"))
    blocks = inner.parse_nested(content, first, inner)
    ctx.exercise_count, ctx.cell_timeout = inner.exercise_count, inner.cell_timeout
    cells = [block for block in walk(blocks) if isinstance(block, CodeCell)]
    for cell in cells:
        ctx.error(
            cell.pos,
            "code cells cannot come from an included file",
            hint="put the code cell in the lesson itself",
        )
    return None if cells else Container("include", "", blocks, directive.pos)


def _part(
    ctx: LowerContext, directive: Directive, text: str, options: dict[str, str]
) -> tuple[str, int] | None:
    """The included text and its first line (0-based), after the options that cut it."""
    lines = text.split("\n")
    start, end = 0, len(lines)
    for name in ("start-line", "end-line"):
        value = options.get(name)
        if value is not None:
            if not value.lstrip("-").isdigit():
                ctx.error(directive.pos, f":{name}: must be a line number, not {value!r}")
                return None
            number = int(value)
            if name == "start-line":
                start = number if number >= 0 else len(lines) + number
            else:
                end = number if number >= 0 else len(lines) + number
    for name in ("start-after", "end-before"):
        marker = options.get(name)
        if marker is None:
            continue
        chunk = "\n".join(lines[start:end])
        at = chunk.find(marker)
        if at < 0:
            ctx.error(directive.pos, f"the :{name}: text {marker!r} is not in the file")
            return None
        line = chunk.count("\n", 0, at)
        if name == "start-after":
            start += line + 1
        else:
            end = start + line
    return "".join(line + "\n" for line in lines[start:end]), start
