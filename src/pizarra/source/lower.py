"""Tokens -> :class:`~pizarra.source.model.Lesson`: the parse, lifted into typed blocks.

One pass over markdown-it's block tokens: ordinary tokens accumulate into
:class:`Prose`, fenced directives go to their rule in :mod:`pizarra.source.syntax`,
and directive bodies are parsed again with their line offset so every position
stays a position in the file.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePath
from typing import Any

from markdown_it.token import Token

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.suggest import did_you_mean
from pizarra.source.blocks import Block, MathItem, Prose, Section
from pizarra.source.extensions import without_footnote_list
from pizarra.source.markdown import parser
from pizarra.source.model import Lesson
from pizarra.source.parse_budget import ENV_KEY, Budget, OverBudget
from pizarra.source.syntax import DIRECTIVES, ROLES, UNSUPPORTED
from pizarra.source.syntax.bibliography import cited_entries
from pizarra.source.syntax.context import Directive, LowerContext, slugify
from pizarra.source.syntax.directive_fences import (
    as_directive,
    braced,
    directive_hint,
    gate_pairs,
    gated,
)
from pizarra.source.syntax.extension_blocks import check_attrs, lower_extension_block
from pizarra.source.syntax.front_matter import FrontMatter, parse_front_matter
from pizarra.source.syntax.highlighting import check_highlighting
from pizarra.source.syntax.inline import lower_inline
from pizarra.source.syntax.options import INLINE_READ
from pizarra.source.syntax.raw_html import lower_html
from pizarra.source.syntax.substitution import expand_block
from pizarra.source.syntax.targets import lower_target, name_block

MAX_SOURCE_BYTES = 2_000_000
MAX_NESTING = 8
BOM = "\ufeff"
"""A byte-order mark some editors put first in UTF-8 files; it is not content."""
EXTENSION_BLOCKS = ("amsmath", "footnote_unused")


def parse_lesson(
    path: Path,
    display_path: str,
    text: str | None = None,
    root: Path | None = None,
    *,
    local_files: bool = True,
) -> tuple[Lesson | None, list[Diagnostic]]:
    """Parse and lower one lesson file; all syntax errors of the file are returned.

    ``root`` is the course folder (the lesson's own folder by default): files the
    lesson shows, such as images, must live inside it. ``local_files=False`` reads the
    markup alone: Markdown images are not looked for, as when a suite's case has no folder.
    """
    origin = SourcePos(display_path, 1, 1)
    if text is None:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            return None, [Diagnostic(origin, f"cannot read the lesson: {exc.strerror}")]
        if len(raw) > MAX_SOURCE_BYTES:
            return None, [
                Diagnostic(
                    origin,
                    f"the lesson is larger than {MAX_SOURCE_BYTES:,} bytes",
                    hint="split it into several lessons",
                )
            ]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, [
                Diagnostic(
                    origin,
                    f"the lesson is not UTF-8 text (byte {exc.start})",
                    hint="save the file as UTF-8 in your editor",
                )
            ]
    text = text.removeprefix(BOM).replace("\r\n", "\n")
    env: dict[str, Any] = {ENV_KEY: Budget()}
    try:
        tokens = parser().parse(text, env)
    except OverBudget as exc:
        return None, [Diagnostic(SourcePos(display_path, exc.line + 1, 1), exc.message, exc.hint)]
    front_text, body_tokens = None, tokens
    if tokens and tokens[0].type == "front_matter":
        front_text, body_tokens = tokens[0].content, tokens[1:]
    front, diagnostics = parse_front_matter(front_text, origin.shifted(1))
    lang = front.lang if front else "en"
    ctx = LowerContext(display_path, text.split("\n"), lang, _parse_nested, parse_env=env)
    ctx.lesson_file, ctx.root = path, root if root is not None else path.parent
    ctx.local_files = local_files
    ctx.substitutions = front.substitutions if front else {}
    if front is not None and front.cell_timeout is not None:
        ctx.cell_timeout = front.cell_timeout
    blocks = _lower_tokens(ctx, body_tokens)
    diagnostics += ctx.diagnostics
    incomplete = front is None
    if front is None:
        if front_text is None:
            return None, diagnostics
        # Its front matter is wrong: the lesson is still read, so the rest of its checks
        # (formulas, claims, code) are reported in the same run; it is never published.
        front = FrontMatter("?", 0, lang, "", None, (), {}, {}, {})
    sources = list(front.sources)
    if front.bibliography and not incomplete:
        found, bib_errors = cited_entries(
            front.bibliography,
            path,
            ctx.root,
            ctx.citations,
            {s.key for s in sources},
            front.bibliography_pos or origin,
        )
        sources += found
        diagnostics += bib_errors
    lesson = Lesson(
        path=path,
        display_path=display_path,
        number=front.number,
        title=front.title,
        lang=front.lang,
        summary=front.summary,
        slug=front.slug or default_slug(path),
        blocks=blocks,
        sources=tuple(sources),
        math=tuple(ctx.math),
        lesson_refs=tuple(ctx.lesson_refs),
        citations=tuple(ctx.citations),
        sections=tuple(ctx.sections),
        index=tuple(ctx.index_entries),
        targets=(*ctx.targets.values(), *ctx.equations.values()),
        refs=tuple(ctx.refs),
        inline_images=tuple(ctx.images),
        incomplete=incomplete,
        conventions=front.conventions,
        variables=front.variables,
        strict_claims=front.strict_claims,
        kernel_memory=front.kernel_memory,
        pin_outputs=front.pin_outputs,
        functions=front.functions,
        source_text=text,
        macros=front.macros,
        bibliography=tuple(path.parent / name for name in front.bibliography),
        data_files=tuple(ctx.data_files),
        original=front.original,
        original_digest=front.original_digest,
        original_blocks=front.original_blocks,
        original_synced=front.original_synced,
    )
    return lesson, diagnostics


def default_slug(path: PurePath) -> str:
    """A lesson's URL segment when its front matter sets none: its file name, without
    the number that orders it (``07-potencias.md`` -> ``potencias``)."""
    return slugify(re.sub(r"^\d+[-_]", "", path.stem)) or "leccion"


def _parse_nested(content: str, first_line: int, ctx: LowerContext) -> tuple[Block, ...]:
    if ctx.depth >= MAX_NESTING:
        ctx.error(
            ctx.line_pos(first_line),
            f"directives are nested more than {MAX_NESTING} deep",
            hint="flatten the structure: an exercise holds a solution, not more levels",
        )
        return ()
    budget = ctx.parse_env.get(ENV_KEY)
    if isinstance(budget, Budget) and budget.stopped:
        return ()
    try:
        tokens = without_footnote_list(parser().parse(content, ctx.parse_env))
    except OverBudget as exc:
        if isinstance(budget, Budget):
            budget.stopped = True
        ctx.error(ctx.line_pos(first_line + exc.line), exc.message, hint=exc.hint)
        return ()
    for token in tokens:
        _shift(token, first_line)
    ctx.depth += 1
    try:
        return _lower_tokens(ctx, tokens)
    finally:
        ctx.depth -= 1


def _shift(token: Token, lines: int) -> None:
    if token.map is not None:
        token.map = [token.map[0] + lines, token.map[1] + lines]
    for child in token.children or []:
        _shift(child, lines)


def _lower_tokens(ctx: LowerContext, tokens: list[Token]) -> tuple[Block, ...]:
    blocks: list[Block] = []
    prose: list[Token] = []
    index = 0
    pairs: dict[int, int] | None = None

    def flush() -> None:
        if prose:
            first = next((t.map for t in prose if t.map), None)
            pos = ctx.line_pos(first[0]) if first else SourcePos(ctx.path, 1, 1)
            blocks.append(Prose(tuple(prose), pos))
            prose.clear()

    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.meta.get("insecure_attrs"):  # {#id} or {key=value} on the line before
            check_attrs(ctx, token, ctx.line_pos(token.map[0] if token.map else 0))
        directive = as_directive(ctx, token)
        if directive is None:
            if token.type == "myst_target" and index < len(tokens):
                lower_target(ctx, token, tokens[index])
            _lower_plain(ctx, token, tokens[index - 2] if index >= 2 else None)
            prose.append(token)
            continue
        flush()
        start = index
        if directive.name.endswith(("-start", "-end")):
            if pairs is None:
                pairs = gate_pairs(tokens)
            directive, index = gated(ctx, directive, tokens, index, pairs)
            if directive is None:
                continue
        rule = DIRECTIVES.get(directive.name)
        if rule is None:
            what = "unsupported" if directive.name in UNSUPPORTED else "unknown"
            hint = UNSUPPORTED.get(directive.name) or did_you_mean(
                directive.name, DIRECTIVES, directive_hint(), braced
            )
            ctx.error(directive.pos, f"{what} directive {{{directive.name}}}", hint=hint)
            continue

        def next_output() -> Directive | None:
            nonlocal index
            if index < len(tokens):
                follower = as_directive(ctx, tokens[index])
                if follower is not None and follower.name == "output":
                    index += 1
                    return follower
            return None

        reported = len(ctx.diagnostics)
        block = rule(ctx, directive, next_output)
        if directive.inline and not directive.token.meta.get(INLINE_READ):
            _unread_options(ctx, directive, block is None and len(ctx.diagnostics) > reported)
        if block is not None:
            blocks.append(block)
            before = tokens[start - 2] if start >= 2 else None
            if before is not None and before.type == "myst_target":
                name_block(ctx, before.content.strip(), block)
    flush()
    return tuple(blocks)


def _unread_options(ctx: LowerContext, directive: Directive, refused: bool) -> None:
    """Options in the braces of a directive that reads none are an error, not dropped
    (unless the directive was refused with an error of its own)."""
    if not refused:
        ctx.error(
            directive.inline[0].pos,
            f"{{{directive.name}}} takes no options",
            hint=f"write {{{directive.name}}} alone in the braces",
        )


def _lower_plain(ctx: LowerContext, token: Token, previous: Token | None) -> None:
    if token.type == "inline":
        lower_inline(ctx, token, ROLES)
        if previous is not None and previous.type == "heading_open":
            _section(ctx, previous, token)
    elif token.type in ("math_block", "math_block_label") and token.map is not None:
        pos = ctx.line_pos(token.map[0])
        ctx.math.append(MathItem(token.content.strip("\n"), True, pos))
        token.meta["pos"] = pos
        if token.type == "math_block_label":
            number = ctx.next_number("equation")
            token.meta["number"] = number
            token.meta["anchor"] = ctx.add_target(token.info, "equation", number, "", pos)
    elif token.type == "fence":
        words = token.info.split(maxsplit=1)
        at = ctx.line_pos(token.map[0] if token.map else 0)
        check_highlighting(ctx, words[0] if words else "", token.content, at)
    elif token.type == "substitution_block":
        expand_block(ctx, token, ctx.line_pos(token.map[0] if token.map else 0))
        lower_inline(ctx, token, ROLES)
    elif token.type == "colon_fence" and token.info.split(" ", 1)[0].lower() in DIRECTIVES:
        name = token.info.split(" ", 1)[0]
        ctx.warn(
            ctx.line_pos(token.map[0] if token.map else 0),
            f"{token.markup}{name} is shown as code, as in MyST",
            hint=f"for the {{{name}}} directive write {token.markup}{{{name}}}",
        )
    elif token.type in EXTENSION_BLOCKS:
        lower_extension_block(ctx, token)
    elif token.type == "html_block":
        lower_html(ctx, token, ctx.line_pos(token.map[0] if token.map else 0))


def _section(ctx: LowerContext, heading: Token, inline: Token) -> None:
    level = int(heading.tag[1])
    title = "".join(
        c.content
        if c.type in ("text", "text_special", "code_inline")
        else str(c.meta.get("text", ""))  # a role that shows known text ({index})
        for c in inline.children or []
        if c.type in ("text", "text_special", "code_inline", "myst_role")
    )
    pos = ctx.line_pos(heading.map[0] if heading.map else 0)
    if level == 1:
        ctx.error(
            pos,
            "a lesson has one level-1 heading: its title, from the front matter",
            hint="use ## for sections",
        )
    label = heading.meta.get("label")
    if isinstance(label, str):
        anchor = ctx.add_target(label, "section", None, title.strip(), pos)
    else:
        anchor = ctx.unique_anchor(title)
    heading.attrSet("id", anchor)
    ctx.sections.append(Section(level, title.strip(), anchor, pos))
