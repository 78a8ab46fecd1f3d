"""Every internal link and ``#anchor`` of the built site must exist: checked offline.

Runs on the rendered files themselves (what a reader gets), with the standard
HTML parser: each page's ids, then each ``href``/``src`` resolved against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from html.parser import HTMLParser
from posixpath import dirname, join, normpath
from urllib.parse import unquote, urlsplit

from pizarra.errors import Diagnostic, SourcePos


class _PageScan(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id":
                self.ids.add(value)
            elif name in ("href", "src") and not (
                tag == "link" and name == "href" and value.endswith(".woff2")
            ):
                self.links.append((value, self.getpos()[0]))


def check_links(files: Mapping[str, bytes], origins: Mapping[str, str]) -> list[Diagnostic]:
    """Broken internal links in ``files``; ``origins`` maps a page to its source file."""
    scans: dict[str, _PageScan] = {}
    for name, data in files.items():
        if name.endswith(".html"):
            scan = _PageScan()
            scan.feed(data.decode("utf-8"))
            scans[name] = scan
    errors = []
    for page, scan in scans.items():
        for href, line in scan.links:
            problem = _resolve(page, href, files, scans)
            if problem:
                where = SourcePos(origins.get(page, page), 1 if page in origins else line, 1)
                errors.append(
                    Diagnostic(
                        where,
                        f"broken link in {page}: {href} ({problem})",
                        hint="fix the reference in the source, or publish the page it points to",
                    )
                )
    return errors


def _resolve(
    page: str, href: str, files: Mapping[str, bytes], scans: Mapping[str, _PageScan]
) -> str:
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return ""
    if not parts.path:
        target = page
    else:
        base = "" if parts.path.startswith("/") else dirname(page)
        path = normpath(join(base, unquote(parts.path).lstrip("/")))
        if path.startswith(".."):
            return "points outside the site"
        if href.endswith("/") or parts.path.endswith("/") or path == ".":
            path = join(path, "index.html") if path != "." else "index.html"
        target = path
        if target not in files:
            return f"no file {target}"
    if parts.fragment:
        scan = scans.get(target)
        if scan is None or unquote(parts.fragment) not in scan.ids:
            return f"no element with id {parts.fragment!r} in {target}"
    return ""
