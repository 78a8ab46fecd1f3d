"""What Pagefind is given of a lesson page: the parts it indexes, in the form it reads.

Pagefind indexes only a page's ``data-pagefind-body`` element, less what is marked
``data-pagefind-ignore``, and reads a formula by its TeX annotation (the site's
configuration excludes the presentation MathML). Everything else it would parse and
then throw away: handing it only what it keeps makes the same index, byte for byte
(``tests/test_search.py`` compares them on rendered lessons), for half the work.
"""

from __future__ import annotations

import re
import zlib

_TEX = '<annotation encoding="application/x-tex">'


def searchable(page: str) -> str:
    """``page`` as Pagefind reads it: only its head and the element it indexes, and in
    that each formula's presentation MathML (excluded by ``search.FORMULA_LETTERS``)
    dropped, the formula's TeX left in a ``span``.

    The index is the same byte for byte, but Pagefind no longer parses what it would
    not index: the MathML, half of a lesson page's bytes (a quarter of its work on a
    lesson), the course's navigation, which lists every lesson twice (half of what was
    left at 200 lessons), and scripts. A formula without a TeX annotation is left as
    it is."""
    return _without_presentation_math(_SCRIPT.sub("", _indexed_part(page)))


def packed(page: bytes) -> bytes:
    """:func:`searchable` of ``page``, compressed to keep with it (a quarter of its
    UTF-8, a tenth of the string: 200 lessons' texts held by a build are 3 MB, not 24)."""
    return zlib.compress(searchable(page.decode()).encode(), 1)


def unpacked(text: bytes) -> str:
    """What :func:`packed` was given to read."""
    return zlib.decompress(text).decode()


_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S)
"""A script element (a lesson's are JSON data, its ``</`` escaped): Pagefind reads none."""


_NARROW_NAV = '<div class="narrow-nav" data-pagefind-ignore>'
_LESSON_BODY = '<div class="lesson-body">'
"""Where the lesson template's navigation for narrow screens (``data-pagefind-ignore``)
starts, and the element after it: the nav holds no ``<div class="lesson-body">`` tag
(its texts are escaped)."""


def _indexed_part(page: str) -> str:
    """The page's head, its ``<body>`` tag and its ``data-pagefind-body`` element (less
    the lesson template's narrow-screen navigation); ``page`` itself when it has no
    such element or its end is not found."""
    marker = page.find(" data-pagefind-body")
    body = page.find("<body")
    start = page.rfind("<", 0, marker)
    if marker < 0 or body < 0 or start < body:
        return page
    body_end = page.find(">", body) + 1
    name = page[start + 1 : marker].split(None, 1)[0]
    end = _element_end(page, name, start)
    if body_end <= 0 or end < 0:
        return page
    element = page[start:end]
    nav = element.find(_NARROW_NAV)
    after = element.find(_LESSON_BODY, nav)
    if nav >= 0 and after >= 0:
        element = element[:nav] + element[after:]
    return page[:body_end] + element + "</body></html>"


def _element_end(page: str, name: str, start: int) -> int:
    """Where the element ``<name`` opened at ``start`` ends (after its closing tag), counting
    the elements of the same name inside it; -1 if it does not end."""
    depth, at = 0, start
    opening, closing = f"<{name}", f"</{name}>"
    while True:
        next_open = page.find(opening, at + 1)
        next_close = page.find(closing, at + 1)
        if next_close < 0:
            return -1
        if 0 <= next_open < next_close and page[next_open + len(opening)] in " >\t\n":
            depth, at = depth + 1, next_open
        elif 0 <= next_open < next_close:
            at = next_open
        elif depth == 0:
            return next_close + len(closing)
        else:
            depth, at = depth - 1, next_close


def _without_presentation_math(page: str) -> str:
    parts: list[str] = []
    at = 0
    while (start := page.find("<math", at)) >= 0:
        end = page.find("</math>", start)
        if end < 0:
            break
        tex = page.find(_TEX, start, end)
        tex_end = page.find("</annotation>", tex, end) if tex >= 0 else -1
        if tex_end < 0:
            parts.append(page[at : end + 7])
        else:
            parts += [page[at:start], "<span>", page[tex + len(_TEX) : tex_end], "</span>"]
        at = end + 7
    if not parts:
        return page
    parts.append(page[at:])
    return "".join(parts)
