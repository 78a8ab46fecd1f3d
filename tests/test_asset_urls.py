"""Pages link their stylesheets and scripts by content, and ``serve`` lets browsers keep them."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.build import build
from pizarra.pipeline.tools import Tools
from pizarra.render.asset_urls import asset_url, content_version, fixed_assets
from pizarra.serve.answers import FOREVER
from pizarra.serve.app import create_app
from tests.support import FIXTURES, fake_math

COURSE = FIXTURES / "site" / "course"
LINKED = re.compile(r'(?:href|src)="((?:\.\./|\./)*assets/[^"]+)"')


def tools() -> Tools:
    return Tools(fake_math, KernelRunner(), None)


def test_every_versioned_link_names_the_bytes_the_site_holds(tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert not build(COURSE, out, tools()).diagnostics
    seen: set[str] = set()
    for page in out.rglob("*.html"):
        for link in LINKED.findall(page.read_text(encoding="utf-8")):
            name, _, query = link.rpartition("assets/")[2].partition("?")
            data = (out / "assets" / name).read_bytes()
            if name.endswith(".woff2"):
                assert not query  # its subset depends on the course: a plain URL
                continue
            assert query == f"v={content_version(data)}", (page, link)
            seen.add(name)
    assert {"pizarra.css", "math.css", "theme.js", "site.js", "favicon.svg"} <= seen


def test_a_changed_asset_gets_a_new_url() -> None:
    data = fixed_assets()["pizarra.css"]
    assert asset_url("pizarra.css") == f"pizarra.css?v={content_version(data)}"
    assert content_version(data + b"\n") != content_version(data)
    assert asset_url("math.woff2") == "math.woff2"


def test_serve_lets_a_browser_keep_an_asset_asked_for_by_its_version() -> None:
    app = create_app(COURSE, tools(), watch=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        page = client.get("/primera/")
        assert page.headers["cache-control"] == "no-cache"
        links = LINKED.findall(page.text)
        css = next(link for link in links if "pizarra.css" in link)
        current = client.get("/" + css.lstrip("./"))
        assert current.status_code == 200
        assert current.headers["cache-control"] == FOREVER
        for stale in ("/assets/pizarra.css", "/assets/pizarra.css?v=0000000000"):
            answer = client.get(stale)
            assert answer.status_code == 200
            assert answer.headers["cache-control"] == "no-cache", stale
        assert client.get("/assets/math.woff2").headers["cache-control"] == "no-cache"


def test_serve_answers_an_unchanged_font_with_a_304() -> None:
    app = create_app(COURSE, tools(), watch=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        first = client.get("/assets/math.woff2")
        assert first.status_code == 200 and first.content
        tag = first.headers["etag"]
        assert tag == f'"{content_version(first.content)}"'
        for asked in (tag, f"W/{tag}", f'"0000000000", {tag}', "*"):
            again = client.get("/assets/math.woff2", headers={"If-None-Match": asked})
            assert again.status_code == 304, asked
            assert again.content == b"" and again.headers["etag"] == tag
        other = client.get("/assets/math.woff2", headers={"If-None-Match": '"0000000000"'})
        assert other.status_code == 200 and other.content == first.content
