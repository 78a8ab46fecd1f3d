"""``pizarra serve`` in Chromium: a failed rebuild shows its errors on every page; a
reload asks only for what changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser
from starlette.types import Receive, Scope, Send

from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.tools import Tools
from pizarra.serve.app import create_app
from tests.support import fake_math, serving

pytestmark = pytest.mark.browser

LESSON = """---
title: En vivo
lesson: 1
lang: es
summary: Prueba del aviso.
---

Versión {version}: $2^3={value}$.
"""


def test_the_error_banner_survives_reloads_and_new_tabs(browser: Browser, tmp_path: Path) -> None:
    source = tmp_path / "vivo.md"
    source.write_text(LESSON.format(version="uno", value=8), encoding="utf-8")
    app = create_app(source, Tools(fake_math, KernelRunner(), None))
    with serving(app) as base:
        url = f"{base}/vivo/"
        context = browser.new_context()
        page = context.new_page()
        page.goto(url)
        banner = page.get_by_role("alert")
        assert banner.count() == 0
        source.write_text(LESSON.format(version="dos", value=9), encoding="utf-8")
        banner.wait_for(timeout=20_000)
        assert "vivo.md:" in banner.inner_text()
        page.reload()
        assert "vivo.md:" in page.get_by_role("alert").inner_text()
        assert page.get_by_role("alert").evaluate("e => getComputedStyle(e).position") == "fixed"
        other = context.new_page()
        other.goto(url)
        assert "vivo.md:" in other.get_by_role("alert").inner_text()
        assert "Versión uno" in other.locator("main").inner_text()
        source.write_text(LESSON.format(version="tres", value=8), encoding="utf-8")
        other.locator("main", has_text="Versión tres").wait_for(timeout=20_000)
        assert other.get_by_role("alert").count() == 0
        context.close()


def test_a_reload_asks_the_server_for_no_stylesheet_or_script_again(
    browser: Browser, tmp_path: Path
) -> None:
    # What a save's reload costs Chromium: with its assets linked by version and kept
    # (pizarra.render.asset_urls), as the live script is, only the page itself and the font go out.
    source = tmp_path / "vivo.md"
    source.write_text(LESSON.format(version="uno", value=8), encoding="utf-8")
    app = create_app(source, Tools(fake_math, KernelRunner(), None))
    asked: list[str] = []

    async def counted(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            asked.append(scope["path"])
        await app(scope, receive, send)

    with serving(counted) as base:
        page = browser.new_page()
        page.goto(f"{base}/vivo/", wait_until="load")
        first = {path for path in asked if path.endswith((".css", ".js"))}
        assert {"/assets/pizarra.css", "/assets/site.js", "/assets/theme.js"} <= first
        assert "/_pizarra/live.js" in first
        asked.clear()
        with page.expect_navigation(wait_until="load"):
            page.evaluate("location.reload()")  # as live.js does
        assert "/vivo/" in asked
        again = [
            path
            for path in asked
            if path.startswith(("/assets/", "/_pizarra/")) and path.endswith((".css", ".js"))
        ]
        assert again == []
        page.close()
