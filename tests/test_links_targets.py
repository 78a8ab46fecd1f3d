"""The link check reads an href as a browser does: its quick reading of plain hrefs gives
what :func:`urllib.parse.urlsplit` gives, for any href."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pizarra.check import links

_PIECES = st.sampled_from(
    ["a", "../", "/", "#", "?", ":", "//", "%20", " ", "\t", "\n", "é", "index.html", "x#y"]
)


def _by_urlsplit(page: str, href: str) -> tuple[str, str, str]:
    """What ``_target`` gives when every href takes urllib's path."""
    saved = links._PLAIN
    links._PLAIN = links.re.compile(r"(?!)")  # matches nothing
    try:
        return links._target.__wrapped__(page, href)
    finally:
        links._PLAIN = saved


@given(st.lists(_PIECES, max_size=8).map("".join))
def test_a_plain_href_is_read_as_urlsplit_reads_it(href: str) -> None:
    page = "lesson/part/index.html"
    assert links._target.__wrapped__(page, href) == _by_urlsplit(page, href)


@pytest.mark.parametrize(
    ("href", "target"),
    [
        ("#top", ("lesson/index.html", "top", "")),
        ("../other/#a:b?c", ("other/index.html", "a:b?c", "")),
        ("../../../x", ("", "", "points outside the site")),
        ("//cdn.example/x.js", ("", "", "")),
        ("mailto:a@b.c", ("", "", "")),
        ("media/a%20b.png", ("lesson/media/a b.png", "", "")),
        ("?v=1", ("lesson/index.html", "", "")),
    ],
)
def test_hrefs_resolve_to_their_files(href: str, target: tuple[str, str, str]) -> None:
    assert links._target("lesson/index.html", href) == target
    assert urlsplit(href).fragment == target[1] or not target[0]
