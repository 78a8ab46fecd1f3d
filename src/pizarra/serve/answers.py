"""The answers of ``pizarra serve`` that are not routes: files with their caching, pages with
the live-reload script and the build's errors, and status pages."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from urllib.parse import quote, unquote

from markupsafe import escape
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from pizarra.base.i18n.strings import t
from pizarra.render.asset_urls import VERSION, content_version
from pizarra.render.csp import policy
from pizarra.render.pages import render_status_page
from pizarra.serve.headers import CSP
from pizarra.source.model import Course

LIVE_JS = (Path(__file__).parents[1] / "render" / "static" / "live.js").read_bytes()
"""The live-reload script: read once, as pizarra's code is."""


LIVE_URL = f"/_pizarra/live.js?{VERSION}={content_version(LIVE_JS)}"
"""Its URL, by content: a reload takes it from the browser's cache, not from the server,
which answers the reloaded page's other requests meanwhile (0.02 s of its DOM)."""


LIVE_SCRIPT = f'<script type="module" src="{LIVE_URL}"></script>\n</head>'.encode()


def file_answer(request: Request, data: bytes, media: str) -> Response:
    """A file that is not a page, with the caching its URL allows and its ``ETag``."""
    version = content_version(data)
    headers = {"Cache-Control": caching(request, version), "ETag": f'"{version}"'}
    if unchanged(request, version):
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=media, headers=headers)


FOREVER = "public, max-age=31536000, immutable"
"""How long a browser may keep an asset asked for by its current version."""


def caching(request: Request, version: str) -> str:
    """``Cache-Control`` for a file that is not a page, whose content has ``version``:
    kept for good when the URL names it (:mod:`pizarra.render.asset_urls`), so a reload asks
    for none of the page's stylesheets and scripts again; asked for again each time
    otherwise (and answered "unchanged" while it is, :func:`unchanged`)."""
    if request.query_params.get(VERSION) == version:
        return FOREVER
    return "no-cache"


def unchanged(request: Request, version: str) -> bool:
    """Whether the browser holds this content already (its ``If-None-Match`` names our
    ``ETag``): a reload then gets the math font, whose URL cannot name its content
    (the subset depends on the whole course), as a 304 instead of 110 KB."""
    asked = request.headers.get("if-none-match", "")
    tags = {tag.strip().removeprefix("W/") for tag in asked.split(",")}
    return f'"{version}"' in tags or "*" in tags


def repeated(request: Request) -> str:
    """The first query parameter given twice (``?n=1&n=2`` is ambiguous), or ""."""
    seen: set[str] = set()
    for name, _ in request.query_params.multi_items():
        if name in seen:
            return name
        seen.add(name)
    return ""


def file_name(path: str) -> str | None:
    parts = PurePosixPath(unquote(path)).parts[1:]
    if any(part in ("..", ".") or "\x00" in part or "\\" in part for part in parts):
        return None
    name = "/".join(parts)
    if path.endswith("/") or not name:
        name = f"{name}/index.html" if name else "index.html"
    return name


def folder_url(name: str, query: str) -> str:
    """The address of the folder ``name`` as a path from the root, never ``//name/``.

    The request's own path could start with ``//``, which a browser reads as another
    host: the redirect is made from the normalized name instead, quoted again.
    """
    return "/" + quote(name) + "/" + (f"?{query}" if query else "")


def inject(html: bytes, live: bool, errors: str = "") -> bytes:
    """Add the live-reload script and, while the last build failed, the banner with its errors.

    The banner is part of the page itself, so a reload or a new tab shows it too.
    """
    if not live:
        return html
    if errors:
        banner = f'<div data-pizarra-errors role="alert"><pre>{escape(errors)}</pre></div>\n'
        html = html.replace(b"</body>", banner.encode() + b"</body>", 1)
    return html.replace(b"</head>", LIVE_SCRIPT, 1)


def status_answer(
    course: Course | None,
    status: int,
    title_key: str,
    message: str,
    live: bool,
    root: str = "/",
    errors: str = "",
) -> Response:
    if course is None:
        return html_answer(
            f"<!doctype html><title>{status}</title><p>{status}</p>".encode(), status
        )
    html = render_status_page(course, status, t(course.lang, title_key), message, root).encode()
    return html_answer(inject(html, live, errors), status)


def html_answer(data: bytes, status: int) -> Response:
    """An HTML answer with the policy its own ``style`` attributes need."""
    csp = policy(data.decode("utf-8", "replace"), header=True)
    return HTMLResponse(data, status_code=status, headers={CSP: csp, "Cache-Control": "no-cache"})


def error_page(errors: str) -> str:
    return (
        '<!doctype html><html lang="en"><meta charset="utf-8"><title>pizarra: build failed</title>'
        "<main><h1>The build failed</h1><p>Fix these and save; the page reloads by itself.</p>"
        f"<pre>{escape(errors)}</pre></main>"
        f'<script type="module" src="{LIVE_URL}"></script></html>'
    )
