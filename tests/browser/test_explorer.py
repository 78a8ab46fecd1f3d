"""The growth explorer in Chromium: keyboard, pointer, no-JS, server/client agreement, axe."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.axe import run_axe
from tests.browser.conftest import location

pytestmark = pytest.mark.browser

ROOT = "#crecimiento-atencion"
VALUES = (128, 256, 512, 1024, 2048, 4096, 8192)

SNAPSHOT = """(selector) => {
  const root = document.querySelector(selector);
  const q = (s) => root.querySelector(s);
  const shift = (el) => {
    const t = getComputedStyle(el).transform;
    const m = new DOMMatrix(t === "none" ? undefined : t);
    return [Math.round(m.e * 100) / 100, Math.round(m.f * 100) / 100];
  };
  const readouts = {};
  root.querySelectorAll("[data-readout]").forEach((e) => {
    readouts[e.dataset.readout] = e.textContent;
  });
  const current = root.querySelectorAll('tbody tr[aria-current="true"]');
  return {
    readouts,
    summary: q("[data-summary]").textContent,
    value: q("[data-value]").textContent,
    valuetext: q("input.px-range").getAttribute("aria-valuetext"),
    range: q("input.px-range").value,
    link: q(".px-states [aria-current]").textContent,
    currentRows: current.length,
    currentClass: root.querySelectorAll("tbody tr.px-current").length,
    current: Array.from(current[0].children).map((c) => c.textContent),
    marks: Array.from(root.querySelectorAll("[data-mark]")).map((e) => e.textContent),
    marker: shift(q("[data-marker]")),
    dots: Array.from(root.querySelectorAll("[data-dot]")).map(shift),
  };
}"""


def snapshot(page: Page, selector: str = ROOT) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(SNAPSHOT, selector)
    return result


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(f"{ROOT} input.px-range:not([hidden])", state="visible")


def range_of(page: Page, selector: str = ROOT) -> Any:
    return page.locator(f"{selector} input.px-range")


def test_enhanced_control_replaces_the_state_links(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/")
    assert not page.locator(f"{ROOT} .px-states").is_visible()
    label_for = page.get_attribute(f"{ROOT} label.px-label", "for")
    assert label_for == "crecimiento-atencion-range"
    state = snapshot(page)
    assert state["readouts"] == {
        "n": "1024",
        "linear": "8×",
        "quadratic": "64×",
        "scores": "1.048.576",
    }
    assert state["valuetext"] == "1024 tokens"


def test_arrow_end_home_and_page_keys(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/")
    slider = range_of(page)
    slider.focus()
    page.keyboard.press("ArrowRight")
    state = snapshot(page)
    assert state["readouts"] == {
        "n": "2048",
        "linear": "16×",
        "quadratic": "256×",
        "scores": "4.194.304",
    }
    assert state["current"][0] == "2048" and state["current"][-1] == "← Seleccionada"
    assert state["currentRows"] == 1 and state["currentClass"] == 1
    assert state["valuetext"] == "2048 tokens" and state["link"] == "2048"
    page.keyboard.press("End")
    assert snapshot(page)["readouts"]["n"] == "8192"
    page.keyboard.press("Home")
    state = snapshot(page)
    assert state["readouts"]["n"] == "128" and state["current"][0] == "128"
    page.keyboard.press("ArrowUp")
    assert snapshot(page)["readouts"]["n"] == "256"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    assert snapshot(page)["readouts"]["n"] == "128"
    page.keyboard.press("PageUp")
    after_page_up = int(snapshot(page)["readouts"]["n"])
    assert after_page_up > 128
    page.keyboard.press("PageDown")
    assert int(snapshot(page)["readouts"]["n"]) < after_page_up


def test_pointer_drag_moves_the_slider(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/")
    box = range_of(page).bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] / 2, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.8, y, steps=5)
    page.mouse.move(box["x"] + box["width"] - 1, y, steps=5)
    page.mouse.up()
    assert snapshot(page)["readouts"]["n"] == "8192"
    page.mouse.click(box["x"] + 2, y)
    assert snapshot(page)["readouts"]["n"] == "128"


def test_client_strings_equal_the_server_for_every_state(
    page: Page, nojs_page: Page, base_url: str
) -> None:
    open_page(page, base_url + "/")
    range_of(page).focus()
    page.keyboard.press("Home")
    for index, value in enumerate(VALUES):
        if index:
            page.keyboard.press("ArrowRight")
        client = snapshot(page)
        nojs_page.goto(f"{base_url}/?n={value}")
        server = snapshot(nojs_page)
        for key in ("range", "link"):
            assert client[key] == server[key], (value, key)
        assert client == server, value


def test_live_region_is_polite_and_not_flooded(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/")
    live = page.locator(f"{ROOT} [data-live]")
    assert live.get_attribute("aria-live") == "polite"
    assert live.text_content() == ""
    range_of(page).focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert live.text_content() == ""  # nothing announced while the value is moving
    page.wait_for_function(
        f"document.querySelector('{ROOT} [data-live]').textContent !== ''", timeout=3000
    )
    assert live.text_content() == snapshot(page)["summary"]
    assert "8192" in (live.text_content() or "")


def test_without_javascript_everything_is_there(nojs_page: Page, base_url: str) -> None:
    nojs_page.goto(base_url + "/")
    links = nojs_page.locator(f"{ROOT} .px-states a")
    assert links.all_inner_texts() == [str(v) for v in VALUES]
    assert not nojs_page.locator(f"{ROOT} input.px-range").is_visible()
    nojs_page.click(f"{ROOT} details > summary")
    rows = nojs_page.locator(f"{ROOT} tbody tr")
    assert rows.count() == 7
    texts = [rows.nth(i).inner_text().split("\t") for i in range(7)]
    assert [t[0] for t in texts] == [str(v) for v in VALUES]
    assert texts[6][1:4] == ["64×", "4096×", "67.108.864"]
    # Each state is a page of its own (the build writes them); the initial one is the lesson.
    hrefs = links.evaluate_all("l => l.map(a => a.getAttribute('href'))")
    assert hrefs[3] == "./#crecimiento-atencion"
    assert hrefs[5] == "crecimiento-atencion-n-4096.html#crecimiento-atencion"
    assert nojs_page.locator(f"{ROOT} .px-states [aria-current]").inner_text() == "1024"


@pytest.mark.parametrize("bad", ["1000", "abc", "99999999999999999999999"])
def test_out_of_domain_query_is_a_400_that_says_what_is_allowed(
    nojs_page: Page, base_url: str, bad: str
) -> None:
    response = nojs_page.goto(f"{base_url}/?n={bad}")
    assert response is not None and response.status == 400
    assert "128, 256, 512, 1024, 2048, 4096, 8192" in nojs_page.inner_text("body")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_has_no_violations_with_the_table_open_and_closed(
    page: Page, base_url: str, axe_path: str, scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    open_page(page, base_url + "/two")
    page.add_script_tag(path=axe_path)
    for opened in (False, True):
        if opened:
            for summary in page.locator("details > summary").all():
                summary.click()
        violations = run_axe(page)
        assert violations == [], json.dumps(violations)


def test_usable_at_320_pixels_without_horizontal_scroll(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 320, "height": 640})
    open_page(page, base_url + "/")
    page.click(f"{ROOT} details > summary")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 320
    box = range_of(page).bounding_box()
    assert box is not None and box["width"] >= 120 and box["height"] >= 24
    range_of(page).focus()
    page.keyboard.press("ArrowRight")
    assert snapshot(page)["readouts"]["n"] == "2048"


@pytest.mark.parametrize("width", [320, 800])
def test_no_layout_shift_when_values_change(page: Page, base_url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    open_page(page, base_url + "/")
    page.click(f"{ROOT} details > summary")
    geometry = """() => Array.from(document.querySelectorAll(
        '#crecimiento-atencion .px-readout, #crecimiento-atencion .px-summary,'
        + '#crecimiento-atencion details, #crecimiento-atencion .px-value, main > p:last-child'))
        .map((e) => {
          const r = e.getBoundingClientRect();
          return [r.x, r.y, r.width, r.height];
        })"""
    before = page.evaluate(geometry)
    range_of(page).focus()
    page.keyboard.press("Home")
    for _ in VALUES:
        assert page.evaluate(geometry) == before
        page.keyboard.press("ArrowRight")


def test_numbers_use_tabular_figures(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/")
    numeric = page.evaluate(
        "getComputedStyle(document.querySelector('#crecimiento-atencion [data-readout]'))"
        ".fontVariantNumeric"
    )
    assert "tabular-nums" in numeric


def test_reduced_motion_is_respected(browser: Any, base_url: str) -> None:
    durations = {}
    for motion in ("reduce", "no-preference"):
        context = browser.new_context(reduced_motion=motion)
        page = context.new_page()
        open_page(page, base_url + "/")
        durations[motion] = page.evaluate(
            "getComputedStyle(document.querySelector('[data-dot]')).transitionDuration"
        )
        context.close()
    assert durations["reduce"] == "0s"
    assert durations["no-preference"] != "0s"


def test_focus_is_visible(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/")
    page.keyboard.press("Tab")
    focused = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.className, s.outlineStyle, s.outlineWidth]; })()"
    )
    assert focused == ["px-range", "solid", "3px"]


def test_series_differ_by_dash_not_only_colour(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/")
    dashes = page.evaluate(
        "Array.from(document.querySelectorAll('#crecimiento-atencion polyline'))"
        ".map((e) => getComputedStyle(e).strokeDasharray)"
    )
    assert dashes[0] == "none" and dashes[1] not in ("none", "")


def test_two_explorers_are_independent(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/two")
    range_of(page, "#segundo").focus()
    page.keyboard.press("End")
    assert snapshot(page, "#segundo")["readouts"]["n"] == "8192"
    assert snapshot(page, ROOT)["readouts"]["n"] == "1024"


def test_second_explorer_in_english(page: Page, nojs_page: Page, base_url: str) -> None:
    page.goto(base_url + "/cubic")
    slider = page.locator("#cube-growth input.px-range")
    slider.wait_for(state="visible")
    slider.focus()
    page.keyboard.press("End")
    state = snapshot(page, "#cube-growth")
    assert state["readouts"] == {
        "s": "1,024",
        "side": "64×",
        "volume": "262,144×",
        "cm3": "1,073,741,824",
    }
    assert state["valuetext"] == "1,024 cm"
    nojs_page.goto(base_url + "/cubic?s=1024")
    assert snapshot(nojs_page, "#cube-growth") == state


def test_touch_tap_moves_the_slider(browser: Any, base_url: str) -> None:
    context = browser.new_context(has_touch=True, reduced_motion="reduce")
    try:
        page = context.new_page()
        open_page(page, base_url + "/")
        box = range_of(page).bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
        assert snapshot(page)["readouts"]["n"] == "8192"
    finally:
        context.close()


@pytest.mark.parametrize(("path", "ln_1024"), [("/logs", "6,93"), ("/logs-en", "6.93")])
def test_logarithm_readouts_agree_with_the_server_in_every_state(
    page: Page, nojs_page: Page, base_url: str, path: str, ln_1024: str
) -> None:
    root = "#mitades"
    page.goto(base_url + path)
    range_of(page, root).wait_for(state="visible")
    assert snapshot(page, root)["readouts"]["natural"] == ln_1024
    range_of(page, root).focus()
    page.keyboard.press("Home")
    for exponent in range(1, 21):
        if exponent > 1:
            page.keyboard.press("ArrowRight")
        client = snapshot(page, root)
        assert client["readouts"]["mitades"] == str(exponent)
        nojs_page.goto(f"{base_url}{path}?n={2**exponent}")
        assert client == snapshot(nojs_page, root), exponent


def test_the_url_names_the_state_and_a_shared_one_opens_it(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/")
    range_of(page).focus()
    page.keyboard.press("ArrowRight")
    assert location(page).endswith("/?n=2048#crecimiento-atencion")
    open_page(page, base_url + "/?n=2048")
    range_of(page).focus()
    page.keyboard.press("ArrowLeft")  # back at the initial state: the page itself
    assert location(page).endswith("/#crecimiento-atencion") and "?" not in location(page)
    open_page(page, base_url + "/static-two?n=4096")  # a static host ignores the query
    assert snapshot(page)["readouts"]["n"] == "4096"
