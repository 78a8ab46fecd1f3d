"""The distribution explorer in Chromium: keyboard, URL, no-JS, client/server agreement, axe."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.axe import run_axe
from tests.browser.conftest import location
from tests.browser.snapshots import set_state, snapshot

pytestmark = pytest.mark.browser

ROOT = "#softmax"
TEMPERATURES = ("0.25", "0.5", "1", "2", "4", "8")


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(f"{ROOT} input.px-range:not([hidden])", state="visible")


def test_keys_move_the_temperature_and_the_bars(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/softmax")
    assert not page.locator(f"{ROOT} .px-states").is_visible()
    state = snapshot(page, ROOT)
    assert state["readouts"] == ["65,9\u00a0%", "1,22\u00a0bits", "6,7"]
    assert state["cells"] == ["2,0", "65,9\u00a0%", "1,0", "24,2\u00a0%", "0,1", "9,9\u00a0%"]
    page.locator(f"{ROOT} input.px-range").focus()
    page.keyboard.press("ArrowLeft")
    state = snapshot(page, ROOT)
    assert state["valuetexts"] == [["0,5", "1"]]
    assert state["readouts"] == ["86,4\u00a0%", "0,65\u00a0bits", "44,7"]
    assert state["summary"].startswith("Con T = 0,5, la probabilidad se reparte")
    page.keyboard.press("Home")
    assert "casi toda la probabilidad" in snapshot(page, ROOT)["summary"]
    page.keyboard.press("End")
    assert "casi igualadas" in snapshot(page, ROOT)["summary"]
    assert location(page).endswith("/softmax?T=8#softmax")


def test_bars_are_as_long_as_the_probabilities(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/softmax")
    widths = [float(w[0]) for w in snapshot(page, ROOT)["bars"]]
    shares = (0.6590, 0.2424, 0.0986)  # softmax(2, 1, 0.1)
    for width, share in zip(widths, shares, strict=True):
        assert width / widths[0] == pytest.approx(share / shares[0], rel=1e-3)


def test_a_shared_url_opens_its_state_on_a_static_host(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/softmax")
    set_state(page, ROOT, (0,))
    moved = snapshot(page, ROOT)
    assert location(page).endswith("?T=0.25#softmax")
    open_page(page, base_url + "/static-softmax?T=0.25")
    assert snapshot(page, ROOT) == moved


def test_client_strings_equal_the_server_for_every_state(
    page: Page, nojs_page: Page, base_url: str
) -> None:
    for path in ("/softmax", "/softmax-en"):
        open_page(page, base_url + path)
        for index, plain in enumerate(TEMPERATURES):
            set_state(page, ROOT, (index,))
            client = snapshot(page, ROOT)
            nojs_page.goto(f"{base_url}{path}?T={plain}")
            assert client == snapshot(nojs_page, ROOT), (path, plain)


def test_without_javascript_the_links_are_state_pages(nojs_page: Page, base_url: str) -> None:
    nojs_page.goto(base_url + "/softmax")
    links = nojs_page.locator(f"{ROOT} .px-states a")
    assert links.all_inner_texts() == ["0,25", "0,5", "1", "2", "4", "8"]
    hrefs = links.evaluate_all("l => l.map(a => a.getAttribute('href'))")
    assert hrefs[2] == "./#softmax" and hrefs[0] == "softmax-T-0.25.html#softmax"
    response = nojs_page.goto(base_url + "/softmax?T=3")
    assert response is not None and response.status == 400


def test_english_numbers_and_units(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/softmax-en")
    assert snapshot(page, ROOT)["readouts"] == ["65.9\u00a0%", "1.22\u00a0bits", "6.7"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_has_no_violations(page: Page, base_url: str, axe_path: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    open_page(page, base_url + "/softmax")
    page.click(f"{ROOT} details > summary")
    assert run_axe(page, axe_path) == []


def test_usable_at_320_pixels(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 320, "height": 640})
    open_page(page, base_url + "/softmax")
    page.click(f"{ROOT} details > summary")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.locator(f"{ROOT} input.px-range").focus()
    page.keyboard.press("ArrowRight")
    assert snapshot(page, ROOT)["values"] == ["2"]
