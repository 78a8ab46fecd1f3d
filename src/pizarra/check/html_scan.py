"""The ids and links of one built page, read with a few regular expressions.

Link checking reads every page of the site on a cold build, and the standard library's
``html.parser`` spends about 4 ms per page on it in pure Python (this, under 1 ms). The
pages are pizarra's own output (autoescaped templates; sources cannot bring raw HTML), so
a tokenizer that knows the few places HTML can hide tags in is enough: comments,
declarations, and the raw text of ``<script>`` and ``<style>``. Quoted attribute values
may hold ``>``; values are unescaped as the parser unescapes them. The suite compares it
with ``html.parser`` on every page of the built bundled course and on generated markup
(``tests/test_html_scan.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

_TOKEN = re.compile(
    r"""<!--.*?(?:-->|\Z)                     # a comment
      |<[!?][^>]*>?                            # a declaration or processing instruction
      |<([a-zA-Z][^\s/>]*)(\s(?:[^>"']|"[^"]*"|'[^']*')*)>  # a start tag with attributes
      |<(script|style)>                        # raw text elements without attributes
    """,
    re.S | re.X | re.I,
)
"""What can hold an id or a link, or hide markup. Tags with nothing after their name, and
end tags, hold neither (and no quotes), so the expression passes over them in C: most
of a page's tags are MathML's bare ``<mi>``, ``<mn>`` and ``<mrow>``."""
_ATTRIBUTE = re.compile(
    r"""([^\s"'>/=][^\s/=>]*)(?:\s*=+\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?""",
)
_RAW_TEXT = ("script", "style")
"""Elements whose content is text up to their end tag, never markup."""
_END = {name: re.compile(rf"</{name}[\s/>]", re.I) for name in _RAW_TEXT}
_WANTED = ("id", "href", "src")


@dataclass(frozen=True)
class PageScan:
    """What link checking needs of one page."""

    ids: frozenset[str]
    """Every ``id`` on it."""
    repeated: tuple[str, ...]
    """Ids used more than once, in order."""
    links: tuple[tuple[str, int], ...]
    """Every ``href``/``src`` with its line in the page (a font's ``<link>`` excepted:
    the stylesheet's own check follows it)."""


def scan_page(data: bytes) -> PageScan:
    """Every id and link of one page, with the line each link's tag starts on."""
    text = data.decode("utf-8")
    ids: set[str] = set()
    repeated: list[str] = []
    links: list[tuple[str, int]] = []
    line, counted = 1, 0
    skip = 0
    for token in _TOKEN.finditer(text):
        if token.start() < skip:
            continue
        name, attributes, bare = token.group(1, 2, 3)
        if name is not None and "=" in attributes:
            for attribute in _ATTRIBUTE.finditer(attributes):
                key = attribute.group(1).lower()
                if key not in _WANTED:
                    continue
                raw = attribute.group(2)
                if raw is None:
                    raw = attribute.group(3)
                if raw is None:
                    raw = attribute.group(4)
                if raw is None:
                    continue
                value = unescape(raw) if "&" in raw else raw
                if key == "id":
                    if value in ids:
                        repeated.append(value)
                    ids.add(value)
                elif not (key == "href" and name.lower() == "link" and value.endswith(".woff2")):
                    line += text.count("\n", counted, token.start())
                    counted = token.start()
                    links.append((value, line))
        element = (name or bare or "").lower()  # "" for a comment or a declaration
        if element in _RAW_TEXT:
            end = _END[element].search(text, token.end())
            skip = len(text) if end is None else end.start()
    return PageScan(frozenset(ids), tuple(repeated), tuple(links))
