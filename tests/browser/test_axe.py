"""The axe run every accessibility test relies on still reports what it should: a sweep
that found nothing would otherwise look like an accessible site."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.axe import run_axe

pytestmark = pytest.mark.browser

FLAWED = """<!doctype html><html lang="es"><head><title>t</title></head><body><main>
<p style="color:#aaa;background:#fff">poco contraste</p>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" id="sin-alt">
<p>bien</p></main></body></html>"""


def test_a_page_with_known_flaws_has_them_reported_with_their_nodes(
    page: Page, axe_path: str
) -> None:
    page.set_content(FLAWED)
    found = {v["id"]: v["nodes"] for v in run_axe(page, axe_path)}
    assert found["image-alt"] == [["#sin-alt"]]
    assert found["color-contrast"] == [["p:nth-child(1)"]]
    page.set_content(
        FLAWED.replace('style="color:#aaa;background:#fff"', "").replace(
            'id="sin-alt"', 'id="sin-alt" alt="un punto"'
        )
    )
    assert run_axe(page, axe_path) == []
