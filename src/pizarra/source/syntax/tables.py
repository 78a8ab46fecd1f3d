"""``{table}``, ``{list-table}`` and ``{csv-table}``: tables with a caption, a number and a
label for ``{numref}``.

``{table} Caption`` puts a caption on the Markdown table in its body. ``{list-table}`` reads
a list of lists, one inner list per row; ``{csv-table}`` reads CSV from its body or from a
``:file:`` of the course. Every cell is Markdown, parsed like any paragraph, so formulas
in cells are checked; a table that lost a cell or a row would not say what was written,
so rows of different lengths are errors.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from markdown_it.token import Token

from pizarra.base.i18n.strings import t
from pizarra.source.blocks import Block, Prose
from pizarra.source.container import Container
from pizarra.source.markdown import parser
from pizarra.source.syntax.context import Directive, LowerContext
from pizarra.source.syntax.course_files import read_course_file
from pizarra.source.syntax.options import DirectiveBody, directive_options

MAX_CELLS = 10_000
_STYLE = "accepted; it only styles Sphinx's theme"
_COMMON = {
    "name": "a label for {numref}",
    "class": _STYLE,
    "align": _STYLE,
    "width": _STYLE,
    "widths": _STYLE,
}
_LIST = {**_COMMON, "header-rows": "how many rows are headers", "stub-columns": _STYLE}
_CSV = {
    **_LIST,
    "header": "a header row, as CSV",
    "file": "a CSV file of the course",
    "delim": "the separator (default ,)",
    "quote": 'the quote character (default ")',
    "keepspace": "keep spaces after the separator",
    "encoding": "must be utf-8",
}
Next = Callable[[], Directive | None]


def _numbered(
    ctx: LowerContext, directive: Directive, body: DirectiveBody, kind: str, rows: tuple[Block, ...]
) -> Container:
    """The table with its caption first: the argument as Markdown, led by its number."""
    number = ctx.next_number("table") if directive.argument else None
    label = body.options.get("name", "")
    anchor = ""
    if label:
        anchor = ctx.add_target(label, "table", number, directive.argument, directive.pos)
    caption: tuple[Block, ...] = ()
    if directive.argument:
        caption = ctx.parse_nested(directive.argument + "\n", directive.pos.line - 1, ctx)
        first = caption[0] if caption else None
        if isinstance(first, Prose) and len(first.tokens) > 1 and first.tokens[1].children:
            mark = Token("caption_number", "span", 0)
            mark.content = t(ctx.lang, "table_n", n=number)
            first.tokens[1].children.insert(0, mark)
    parts = (Container("caption", "", caption, directive.pos), *rows)
    return Container(kind, directive.argument, parts, directive.pos, anchor, number)


def lower_table(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    """``{table} Caption``: the Markdown table of its body, captioned and numbered."""
    body, errors = directive_options(directive, _COMMON)
    ctx.diagnostics.extend(errors)
    start = directive.body_pos.line - 1 + body.content_offset
    blocks = ctx.parse_nested(body.content, start, ctx)
    if not any(t.type == "table_open" for b in blocks for t in getattr(b, "tokens", ())):
        ctx.error(
            directive.pos,
            "a {table} holds no table",
            hint="put a Markdown table (| a | b |) in its body",
        )
    return _numbered(ctx, directive, body, "table", blocks)


def _header_rows(ctx: LowerContext, directive: Directive, body: DirectiveBody) -> int:
    value = body.options.get("header-rows", "0") or "0"
    if not value.isdigit():
        ctx.error(directive.pos, f":header-rows: must be a number, not {value!r}")
        return 0
    return int(value)


def _rows(
    ctx: LowerContext, directive: Directive, cells: list[list[tuple[str, int]]], headers: int
) -> tuple[Block, ...] | None:
    """Rows of parsed cells; None (with an error) if rows differ in length."""
    if not cells:
        ctx.error(directive.pos, f"the {{{directive.name}}} has no rows")
        return None
    widths = {len(row) for row in cells}
    if len(widths) > 1:
        ctx.error(
            directive.pos,
            f"the rows of this {{{directive.name}}} have "
            f"{', '.join(map(str, sorted(widths)))} cells: every row needs as many",
            hint="add the missing cells (an empty one is `-` with nothing after it)",
        )
        return None
    if sum(len(row) for row in cells) > MAX_CELLS:
        ctx.error(directive.pos, f"a table may have at most {MAX_CELLS:,} cells")
        return None
    rows = []
    for index, row in enumerate(cells):
        parsed = tuple(
            Container("cell", "", _tight(ctx.parse_nested(text, line, ctx)), ctx.line_pos(line))
            for text, line in row
        )
        rows.append(Container("row", "", parsed, directive.pos, flag=index < headers))
    return tuple(rows)


def _tight(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """A cell of one paragraph is drawn without ``<p>``, as a tight list item is."""
    if len(blocks) == 1 and isinstance(blocks[0], Prose):
        tokens = blocks[0].tokens
        if len(tokens) == 3 and tokens[0].type == "paragraph_open":
            tokens[0].hidden = tokens[2].hidden = True
    return blocks


def lower_list_table(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    """``{list-table} Caption``: ``* - a`` / ``  - b`` lines, one outer item per row."""
    body, errors = directive_options(directive, _LIST)
    ctx.diagnostics.extend(errors)
    first = directive.body_pos.line - 1 + body.content_offset
    lines = body.content.split("\n")
    tokens = parser().parse(body.content)
    cells: list[list[tuple[str, int]]] = []
    stray = False
    for token in tokens:
        if token.level == 0 and token.type not in ("bullet_list_open", "bullet_list_close"):
            stray = True
        elif token.type == "list_item_open" and token.level == 1:
            cells.append([])
        elif token.type == "bullet_list_open" and token.level == 2 and not cells:
            stray = True
        elif token.type == "list_item_open" and token.level == 3 and token.map and cells:
            start, end = token.map
            cells[-1].append((_item_text(lines[start:end], token.markup), first + start))
    if stray or not cells or any(not row for row in cells):
        ctx.error(
            directive.pos,
            "a {list-table} is a list of lists: one `* -` item per row",
            hint="write each row as `* - cell` and its other cells as `  - cell`",
        )
        return None
    rows = _rows(ctx, directive, cells, _header_rows(ctx, directive, body))
    return None if rows is None else _numbered(ctx, directive, body, "list-table", rows)


def _item_text(lines: list[str], marker: str) -> str:
    """A list item's own text: its marker taken off and the rest dedented to match."""
    head = lines[0]
    at = head.index(marker) + len(marker)
    while at < len(head) and head[at] == " ":
        at += 1
    rest = [line[at:] if line[:at].strip() == "" else line.lstrip() for line in lines[1:]]
    return "\n".join([head[at:], *rest]) + "\n"


def lower_csv_table(ctx: LowerContext, directive: Directive, next_token: Next) -> Block | None:
    """``{csv-table} Caption``: CSV in its body or in ``:file:`` (a file of the course)."""
    body, errors = directive_options(directive, _CSV)
    ctx.diagnostics.extend(errors)
    options = body.options
    if options.get("encoding", "utf-8").lower().replace("_", "-") not in ("utf-8", "utf8"):
        ctx.error(
            directive.pos,
            "a {csv-table} file is read as UTF-8",
            hint="save the file as UTF-8 and remove :encoding:",
        )
    first = directive.body_pos.line - 1 + body.content_offset
    text = body.content
    if "file" in options:
        found = read_course_file(ctx, directive.pos, options["file"])
        if found is None:
            return None
        text, first = found[0], directive.pos.line - 1
    delim = options.get("delim", ",") or ","
    delim = {"tab": "\t", "space": " "}.get(delim, delim)
    quote = options.get("quote", '"') or '"'
    if len(delim) != 1 or len(quote) != 1:
        ctx.error(directive.pos, "a {csv-table}'s :delim: and :quote: are one character each")
        return None
    header = [options["header"]] if options.get("header") else []
    headers = len(header) + _header_rows(ctx, directive, body)
    cells: list[list[tuple[str, int]]] = []
    for source, offset in [*((h, directive.pos.line - 1) for h in header), (text, first)]:
        reader = csv.reader(
            io.StringIO(source),
            delimiter=delim,
            quotechar=quote,
            skipinitialspace="keepspace" not in options,
            strict=True,
        )
        try:
            for row in reader:
                if row:
                    at = offset if source is not text else first + reader.line_num - 1
                    cells.append([(cell.strip() + "\n", at) for cell in row])
        except csv.Error as exc:
            ctx.error(directive.pos, f"the {{csv-table}} is not valid CSV: {exc}")
            return None
    rows = _rows(ctx, directive, cells, headers)
    return None if rows is None else _numbered(ctx, directive, body, "list-table", rows)
