"""The ids and links of one built page, read with a few regular expressions.

Link checking reads every page of the site on a cold build, and the standard library's
``html.parser`` spends about 4 ms per page on it in pure Python (this, about 0.3 ms). The
pages are pizarra's own output (autoescaped templates; sources cannot bring raw HTML), so
a tokenizer that knows the few places HTML can hide tags in is enough: comments,
declarations, and the raw text of ``<script>`` and ``<style>``. Quoted attribute values
may hold ``>``; values are unescaped as the parser unescapes them. The suite compares it
with ``html.parser`` on every page of the built bundled course and on generated markup
(``tests/test_html_scan.py``).

Most tags of a page hold neither an id nor a link (MathML's ``<mi>``, SVG's ``<line>``,
``<span class>``), so :data:`_NEXT` passes over them inside the regular expression
engine and stops only at a tag that may hold one, or at ``<script>``/``<style>``:
Python sees about one tag in thirty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape


def _any_case(word: str) -> str:
    """``word`` in any mix of ASCII cases (``re.I`` would also fold ``ſ`` into ``s``)."""
    return "".join(f"[{c}{c.upper()}]" for c in word)


_RAW = f"(?:{_any_case('script')}|{_any_case('style')})"
_NAME = r"[a-zA-Z][^\s/>]*+"
_ATTRS = r"""(?:[^>"']++|"[^"]*+"|'[^']*+')*+"""
"""A start tag's attributes: quoted values may hold ``>``."""
_PLAIN = r"""[^>"'=]*+(?:(?<![dDfFcC\s])=\s*+(?:"[^"]*+"|'[^']*+')?[^>"'=]*+)*+"""
"""Attributes that surely hold no ``id``, ``href`` or ``src``: no ``=`` comes after a
``d``, ``f``, ``c`` or a space, and quotes only open a value right after its ``=`` (so
no name can hide in what looks like a quoted value). Anything else is read in Python."""
_NEXT = re.compile(
    rf"""(?:[^<]++                                # text
      | </[^<]*+                                  # an end tag
      | <(?!{_RAW}>){_NAME}(?!\s)                 # a tag without attributes
      | <(?!{_RAW}\s){_NAME}\s{_PLAIN}>           # a tag with none of interest
      | <!--(?s:.*?)(?:-->|\Z)                    # a comment
      | <[!?][^>]*+>?                             # a declaration or processing instruction
      | <(?!{_RAW}>|{_NAME}\s{_ATTRS}>)           # a "<" that starts no tag
    )*+
    (?:<(?P<bare>{_RAW})>|<(?P<name>{_NAME})(?P<attributes>\s{_ATTRS})>|\Z)
    """,
    re.X,
)
"""From any position: what cannot hold an id or a link, then the next tag that may (or
a bare ``<script>``/``<style>``), or the end of the page. Possessive throughout: a
malformed tag costs no backtracking."""
_ATTRIBUTE = re.compile(
    r"""([^\s"'>/=][^\s/=>]*)(?:\s*(=)=*\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?""",
)
"""Name, ``=`` (if it has a value), and the value double-quoted, single-quoted or bare."""
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
    at = 0
    while True:
        token = _NEXT.match(text, at)
        assert token is not None, "the expression matches at every position"
        name, attributes, bare = token.group("name", "attributes", "bare")
        at = token.end()
        if name is None and bare is None:
            break
        if name is not None:
            for key, equals, double, single, unquoted in _ATTRIBUTE.findall(attributes):
                if not equals:
                    continue
                key = key.lower()
                if key not in _WANTED:
                    continue
                raw = double + single + unquoted  # the one that matched
                value = unescape(raw) if "&" in raw else raw
                if key == "id":
                    if value in ids:
                        repeated.append(value)
                    ids.add(value)
                elif not (key == "href" and name.lower() == "link" and value.endswith(".woff2")):
                    start = token.start("name") - 1
                    line += text.count("\n", counted, start)
                    counted = start
                    links.append((value, line))
        element = (name or bare).lower()
        if element in _RAW_TEXT:
            end = _END[element].search(text, at)
            at = len(text) if end is None else end.start()
    return PageScan(frozenset(ids), tuple(repeated), tuple(links))
