"""The link checker's page scanner reads what the standard HTML parser reads.

``html_scan`` replaces ``html.parser`` for speed; the parser stays here as the oracle.
Both are run on every page of the built bundled course and of the site snapshot, and on
generated markup with the traps a tokenizer can fall into: ``>`` and quotes inside
quoted values, entities, comments and script or style text that look like tags.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pizarra.check.html_scan import PageScan, scan_page
from pizarra.cli import main
from pizarra.source.course import BUNDLED
from tests.support import FIXTURES


class _Oracle(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.repeated: list[str] = []
        self.links: list[tuple[str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id":
                if value in self.ids:
                    self.repeated.append(value)
                self.ids.add(value)
            elif name in ("href", "src") and not (
                tag == "link" and name == "href" and value.endswith(".woff2")
            ):
                self.links.append((value, self.getpos()[0]))

    handle_startendtag = handle_starttag


def oracle(data: bytes) -> PageScan:
    parser = _Oracle()
    parser.feed(data.decode("utf-8"))
    parser.close()
    return PageScan(frozenset(parser.ids), tuple(parser.repeated), tuple(parser.links))


@pytest.fixture(scope="module")
def bundled_pages(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("bundled") / "site"
    assert main(["build", str(BUNDLED), "-o", str(out)]) == 0
    return sorted(out.rglob("*.html"))


def test_every_page_of_the_bundled_course(bundled_pages: list[Path]) -> None:
    assert len(bundled_pages) > 20
    links = 0
    for page in bundled_pages:
        data = page.read_bytes()
        found = scan_page(data)
        assert found == oracle(data), page
        links += len(found.links)
    assert links > 500


def test_every_page_of_the_site_snapshot() -> None:
    pages = sorted((FIXTURES / "site" / "expected").rglob("*.html"))
    assert pages
    for page in pages:
        data = page.read_bytes()
        assert scan_page(data) == oracle(data), page


_TEXT = st.sampled_from(
    ["x", "a > b", "&lt;a href=&quot;t&quot;&gt;", "&amp;", "\n", "  ", "é", "2 &lt; 3"]
)
_VALUE = st.lists(
    st.sampled_from(
        ["a", "#s", "p.html", ">", "'", "&amp;", "&#35;x", "&lt;b&gt;", "\n", " ", "é"]
    ),
    max_size=5,
).map("".join)
_NAME = st.sampled_from(["a", "A", "link", "LINK", "img", "div", "mi", "svg", "use", "td", "span"])
_KEY = st.sampled_from(["id", "href", "src", "ID", "HREF", "class", "data-x", "title"])


@st.composite
def _attribute(draw: st.DrawFn) -> str:
    key = draw(_KEY)
    value = draw(_VALUE)
    style = draw(st.sampled_from(["double", "single", "bare", "none"]))
    if style == "double":
        return f' {key}="{value.replace(chr(34), "&quot;")}"'
    if style == "single":
        return f" {key}='{value.replace(chr(39), '&#39;')}'"
    if style == "bare" and value and not any(c in value for c in " \n'\"=<>`"):
        return f" {key}={value}"
    return f" {key}"


@st.composite
def _tag(draw: st.DrawFn) -> str:
    name = draw(_NAME)
    attributes = "".join(draw(st.lists(_attribute(), max_size=4)))
    if name.lower() == "link" and draw(st.booleans()):
        attributes += ' href="font.woff2"'
    close = draw(st.sampled_from([">", " />", "/>"]))
    return f"<{name}{attributes}{close}"


_TRAP = st.sampled_from(
    [
        '<!-- <a href="hidden"> -->',
        '<!-- a > b <img src="hidden" id="h"> -->',
        "<!---->",
        '<script type="application/json">{"a": "<a href=\\"x\\" id=\\"y\\">"}</script>',
        '<script src="s.js"></script>',
        "<script>let a = '<a href=\"in-script\">';</script>",
        "<script>let a = '<!--';</script>",
        "<style>a::after { content: '<a x=\"' }</style>",
        '<STYLE>a { color: red } <img src="in-style"></STYLE>',
        '<style>a[href="z"] { color: red } <img src="no"></style>',
        "<!DOCTYPE html>",
        "</div>",
        "</a >",
    ]
)


@given(st.lists(st.one_of(_TEXT, _tag(), _TRAP), max_size=30))
def test_generated_markup(parts: list[str]) -> None:
    data = "".join(parts).encode()
    assert scan_page(data) == oracle(data)


def test_line_numbers_count_every_line_before_the_tag() -> None:
    page = b'<p>\n<a\nhref="one">1</a>\n<!--\n<a href="no">\n-->\n<img src="two">'
    assert scan_page(page).links == (("one", 2), ("two", 7))


@pytest.mark.parametrize(
    "page",
    [
        '<a title="id=1 src=2" href="q">',
        '<a class="x" data-id="d" href ="spaced" id= "i">',
        '<a x=y"z href="after-a-quote-in-a-bare-value"">',
        "<A HREF='upper' ID=bare>",
        '<a title="a>b" href="after-a-gt">',
        '<p class=a id=b><span class="c" title="x=y">',
        '<link rel="preload" HREF="f.woff2"><link href="style.css">',
        '<svg><line x1="0" y1="1"/><use href="#b"/></svg><g id="b"></g>',
        '<script>"<!--"</script><a href="after-a-comment-opener-in-a-script">',
        '<SCRIPT src="s.js">let a = "<a href=no>";</SCRIPT ><a href="yes">',
        '<\u017f id="not-a-tag"><a href="x" / id="y">',
        '<a href="unclosed>',
    ],
)
def test_tags_the_scanner_passes_over_hold_no_id_or_link(page: str) -> None:
    """The expression skips tags with nothing of interest without reading them in Python:
    each of these has an id or a link it must not skip, or markup it must not read."""
    data = page.encode()
    assert scan_page(data) == oracle(data)
