"""A DataFrame's rich output as a table, rebuilt from its cells' text.

A pandas DataFrame left as a cell's value shows in Jupyter as its ``_repr_html_``: a
table, with pandas' truncation (``...`` past 60 rows or 20 columns) and its shape below.
That HTML comes from the kernel, which runs hostile code, so none of it is passed on.
It is read with the standard library's parser and only the table's structure is kept:
its header and body rows, each cell a ``th`` or ``td`` with its text (escaped again) and
its ``colspan``/``rowspan`` (small integers); the line after the table (``2 rows × 30
columns``) as a caption. Every other element, attribute, style and script is dropped.
The text form stays what is compared with the ``{output}`` block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser

MAX_CELLS = 20_000
"""Cells kept of one table (pandas shows at most 60 rows of 20 columns)."""

_SPANS = ("colspan", "rowspan")


@dataclass
class _Cell:
    header: bool
    spans: tuple[tuple[str, int], ...]
    text: list[str] = field(default_factory=list)


@dataclass
class _Table:
    head: list[list[_Cell]] = field(default_factory=list)
    body: list[list[_Cell]] = field(default_factory=list)
    caption: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    """Collects the first table's rows and cells, and the paragraph after it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.table: _Table | None = None
        self.done = False
        self.depth = 0
        self.in_head = False
        self.cell: _Cell | None = None
        self.skip = 0
        self.after = False
        self.cells = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self.skip += 1
        elif tag == "table" and self.table is None:
            self.table, self.depth = _Table(), 1
        elif self.table is None or self.done:
            self.after = self.after or (self.done and tag == "p")
        elif tag == "table":
            self.depth += 1
        elif tag == "thead":
            self.in_head = True
        elif tag == "tbody":
            self.in_head = False
        elif tag == "tr" and self.depth == 1:
            (self.table.head if self.in_head else self.table.body).append([])
        elif tag in ("th", "td") and self.depth == 1 and self.cells < MAX_CELLS:
            rows = self.table.head if self.in_head else self.table.body
            if rows:
                self.cell = _Cell(tag == "th", _spans(attrs))
                rows[-1].append(self.cell)
                self.cells += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self.skip = max(0, self.skip - 1)
        elif tag == "table" and self.table is not None and not self.done:
            self.depth -= 1
            self.done = self.depth == 0
        elif tag in ("th", "td"):
            self.cell = None
        elif tag == "p":
            self.after = False

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.cell is not None:
            self.cell.text.append(data)
        elif self.after and self.table is not None:
            self.table.caption.append(data)


def _spans(attrs: list[tuple[str, str | None]]) -> tuple[tuple[str, int], ...]:
    kept = []
    for name, value in attrs:
        if name in _SPANS and value is not None and value.isdigit() and 1 < int(value) <= 1000:
            kept.append((name, int(value)))
    return tuple(kept)


def frame_table(html: str, label: str) -> str:
    """The table of ``html`` (a DataFrame's ``_repr_html_``) as safe HTML, or "" when it
    has none. ``label`` names the scrollable region for screen readers."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    table = reader.table
    if table is None or not (table.head or table.body):
        return ""
    parts = [
        f'<div class="table-scroll cell-table" role="region" tabindex="0" '
        f'aria-label="{escape(label)}">\n<table>\n'
    ]
    caption = " ".join("".join(table.caption).split())
    if caption:
        parts.append(f"<caption>{escape(caption)}</caption>\n")
    for section, rows in (("thead", table.head), ("tbody", table.body)):
        if rows:
            parts.append(f"<{section}>\n")
            parts += [_row(row, section == "tbody") for row in rows]
            parts.append(f"</{section}>\n")
    parts.append("</table>\n</div>\n")
    return "".join(parts)


def _row(cells: list[_Cell], body: bool) -> str:
    out = []
    for cell in cells:
        tag = "th" if cell.header else "td"
        scope = ' scope="row"' if cell.header and body else ' scope="col"' if cell.header else ""
        spans = "".join(f' {name}="{value}"' for name, value in cell.spans)
        out.append(f"<{tag}{scope}{spans}>{escape(''.join(cell.text).strip())}</{tag}>")
    return "<tr>" + "".join(out) + "</tr>\n"
