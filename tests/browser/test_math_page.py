"""Math in Chromium: the shipped font is used, aligned columns line up, and the space
left after a radical is no wider than docs/math.md documents."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from pizarra.math.mathml import MathCoreRenderer
from pizarra.render import assets

pytestmark = pytest.mark.browser

ALIGNED = (
    r"\begin{aligned} N_{\text{old}} &= 512\times2{,}048=1{,}048{,}576,\\"
    r" N_{\text{new}} &= 1{,}024\times4{,}096=4{,}194{,}304. \end{aligned}"
)
ALIGNMENT_JS = """() => [...document.querySelectorAll('mtable > mtr')]
  .map(row => row.children[1].querySelector('mo').getBoundingClientRect().left)"""
RADICALS = (r"\sqrt{36}=6", r"\sqrt[3]{-8}=-2", r"\sqrt{x^2}=|x|")
RADICAL_SPACE_JS = """() => [...document.querySelectorAll('msqrt, mroot')].map(root => {
  const radicand = root.tagName === 'msqrt' ? root.lastElementChild : root.firstElementChild;
  const size = parseFloat(getComputedStyle(root).fontSize);
  return (root.getBoundingClientRect().right - radicand.getBoundingClientRect().right) / size;
})"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


def test_browser_uses_the_font_and_aligns_columns(browser: Browser, tmp_path: Path) -> None:
    render = MathCoreRenderer()
    inline = "".join(render(tex, False) + " " for tex in (r"QK^{\mathsf T}", *RADICALS))
    body = render(ALIGNED, True) + "<p>" + inline + "</p>"
    links = "".join(f'<link rel="stylesheet" href="{name}">' for name in assets.STYLESHEETS)
    page = f'<!doctype html><meta charset="utf-8"><title>t</title>{links}<body>{body}</body>'
    (tmp_path / "index.html").write_text(page, encoding="utf-8")
    for name, data in assets.site_assets().items():
        (tmp_path / name).write_bytes(data)
    handler = functools.partial(_Quiet, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        tab = browser.new_page()
        fetched: list[str] = []
        tab.on("request", lambda request: fetched.append(request.url.rsplit("/", 1)[-1]))
        tab.goto(f"http://127.0.0.1:{server.server_address[1]}/", wait_until="networkidle")
        tab.evaluate("document.fonts.ready")
        loaded = tab.evaluate("document.fonts.check('16px \"pizarra math\"', '𝖳=')")
        xs = tab.evaluate(ALIGNMENT_JS)
        radical_space = tab.evaluate(RADICAL_SPACE_JS)
        tab.close()
    finally:
        server.shutdown()
        server.server_close()
    assert loaded
    assert "math.woff2" in fetched
    assert "math-extra.woff2" not in fetched
    assert len(xs) == 2
    assert abs(xs[0] - xs[1]) < 0.5
    # Chromium widens a radical to the surd's widest size variant: 1.212 - 0.794 em with
    # STIX Two Math (docs/math.md). More than that is a regression (another font or
    # subset); less is an improvement the docs should then record.
    assert len(radical_space) == len(RADICALS)
    assert all(0 <= space < 0.43 for space in radical_space), radical_space
