"""The function explorer in Chromium: keyboard, URL, no-JS, client/server agreement, axe."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from tests.browser.axe import run_axe
from tests.browser.conftest import location
from tests.browser.snapshots import set_state, snapshot

pytestmark = pytest.mark.browser

ROOT = "#pendiente"
VALUES = [f"{15 + i}" for i in range(26)]
PLAIN = [f"{int(v) // 10}.{int(v) % 10}".replace(".0", "") for v in VALUES]


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(f"{ROOT} input.px-range:not([hidden])", state="visible")


def test_keys_move_the_slider_and_rewrite_the_state(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/funcion")
    assert not page.locator(f"{ROOT} .px-states").is_visible()
    state = snapshot(page, ROOT)
    assert state["readouts"] == ["0,693", "20"]
    assert state["valuetexts"] == [["2", "5"]]
    page.locator(f"{ROOT} input.px-range").focus()
    page.keyboard.press("ArrowRight")
    state = snapshot(page, ROOT)
    assert state["readouts"] == ["0,742", "19"]
    assert state["values"] == ["2,1"] and state["valuetexts"] == [["2,1", "6"]]
    page.keyboard.press("End")
    assert snapshot(page, ROOT)["values"] == ["4"]
    page.keyboard.press("Home")
    assert snapshot(page, ROOT)["values"] == ["1,5"]


def test_counted_words_follow_cldr_plural_rules(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/funcion")
    set_state(page, ROOT, (24,))
    assert snapshot(page, ROOT)["summary"].endswith("Falta 1 décima para llegar a 4.")
    set_state(page, ROOT, (23,))
    assert snapshot(page, ROOT)["summary"].endswith("Faltan 2 décimas para llegar a 4.")


def test_comparisons_choose_the_text(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/funcion")
    set_state(page, ROOT, (12,))  # a = 2.7: ln a < 1
    assert "0,993, menor que su valor 1" in snapshot(page, ROOT)["summary"]
    set_state(page, ROOT, (13,))  # a = 2.8: ln a > 1
    assert "1,030, mayor que su valor 1" in snapshot(page, ROOT)["summary"]


def test_the_url_names_the_state_and_opens_it_again(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/funcion")
    page.locator(f"{ROOT} input.px-range").focus()
    page.keyboard.press("ArrowRight")
    assert location(page).endswith("/funcion?a=2.1#pendiente")
    moved = snapshot(page, ROOT)
    open_page(page, location(page))  # the server renders ?a=2.1
    assert snapshot(page, ROOT) == moved
    # A static host ignores the query: the script opens the state the URL names.
    open_page(page, base_url + "/static-funcion?a=2.1")
    assert snapshot(page, ROOT) == moved
    set_state(page, ROOT, (5,))
    assert "?" not in location(page)  # the initial state is the page itself


def test_client_strings_equal_the_server_for_every_state(
    page: Page, nojs_page: Page, base_url: str
) -> None:
    for lang, path in (("es", "/funcion"), ("en", "/function-en")):
        open_page(page, base_url + path)
        for index, plain in enumerate(PLAIN):
            set_state(page, ROOT, (index,))
            client = snapshot(page, ROOT)
            nojs_page.goto(f"{base_url}{path}?a={plain}")
            assert client == snapshot(nojs_page, ROOT), (lang, plain)


def test_without_javascript_the_links_and_the_table_are_there(
    nojs_page: Page, base_url: str
) -> None:
    nojs_page.goto(base_url + "/funcion")
    links = nojs_page.locator(f"{ROOT} .px-states a")
    assert links.count() == 26
    hrefs = links.evaluate_all("l => l.map(a => a.getAttribute('href'))")
    assert hrefs[5] == "./#pendiente" and hrefs[6] == "pendiente-a-2.1.html#pendiente"
    nojs_page.click(f"{ROOT} details > summary")
    rows = nojs_page.locator(f"{ROOT} tbody tr")
    assert [rows.nth(i).inner_text().split("\t") for i in (0, 4)] == [
        ["-2", "0,25", "0,17"],
        ["2", "4,00", "2,77"],
    ]


@pytest.mark.parametrize("bad", ["2.05", "abc", "2.10", ""])
def test_a_value_outside_the_list_is_a_400(nojs_page: Page, base_url: str, bad: str) -> None:
    response = nojs_page.goto(f"{base_url}/funcion?a={bad}")
    assert response is not None and response.status == 400
    assert "1.5, 1.6" in nojs_page.inner_text("body")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_has_no_violations(page: Page, base_url: str, axe_path: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    open_page(page, base_url + "/funcion")
    page.click(f"{ROOT} details > summary")
    assert run_axe(page, axe_path) == []


def test_usable_at_320_pixels(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 320, "height": 640})
    open_page(page, base_url + "/funcion")
    page.click(f"{ROOT} details > summary")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    box = page.locator(f"{ROOT} input.px-range").bounding_box()
    assert box is not None and box["width"] >= 120 and box["height"] >= 24


def test_json_data_is_inert(page: Page, base_url: str) -> None:
    open_page(page, base_url + "/funcion")
    data = json.loads(page.locator(f"{ROOT} script[data-explorer-data]").text_content() or "")
    assert len(data["states"]) == 26


def test_halving_words_agree_with_the_count_and_the_comparison(
    page: Page, nojs_page: Page, base_url: str
) -> None:
    root = "#mitades"
    page.goto(base_url + "/mitades")
    page.wait_for_selector(f"{root} input.px-range:not([hidden])")
    page.locator(f"{root} input.px-range").focus()
    page.keyboard.press("Home")
    summary = snapshot(page, root)["summary"]
    assert summary.startswith("Con n = 2, hace falta 1 mitad para quedarse")
    assert "Es el punto de partida" in summary
    page.keyboard.press("ArrowRight")
    summary = snapshot(page, root)["summary"]
    assert summary.startswith("Con n = 4, hacen falta 2 mitades")
    assert "n y log₂ n se han multiplicado los dos por 2." in summary
    page.keyboard.press("ArrowRight")
    assert "n se ha multiplicado por 4 y log₂ n solo por 3." in snapshot(page, root)["summary"]
    nojs_page.goto(base_url + "/mitades?n=8")
    assert snapshot(nojs_page, root) == snapshot(page, root)


def test_every_table_row_keeps_its_columns_digits_and_the_last_tick_is_labelled(
    nojs_page: Page, base_url: str
) -> None:
    nojs_page.goto(base_url + "/mitades")
    nojs_page.click("#mitades details > summary")
    rows = nojs_page.locator("#mitades tbody tr")
    texts = [rows.nth(i).inner_text().split("\t") for i in range(rows.count())]
    assert texts[0] == ["2", "1", "0,69"] and texts[13] == ["16.384", "14", "9,70"]
    assert all(len(t[2].split(",")[1]) == 2 for t in texts)
    labels = nojs_page.locator("#mitades .px-axis text[y='252']").evaluate_all(
        "l => l.map(t => t.textContent)"
    )
    assert labels == ["2", "128", "8192", "524.288"]


def test_two_parameters_each_with_its_slider_links_and_url(
    page: Page, nojs_page: Page, base_url: str
) -> None:
    root = "#interes"
    page.goto(base_url + "/interes")
    page.wait_for_selector(f"{root} input.px-range:not([hidden])")
    assert page.locator(f"{root} input.px-range").count() == 2
    labels = [page.locator(f"label[for='interes-range{s}']").inner_text() for s in ("", "-2")]
    assert labels == ["Tipo de interés anual r", "Abonos al año m"]
    assert snapshot(page, root)["summary"] == (
        "Con r = 0,05 y abonos una vez al año, mil euros son 1628,89\u00a0€ a los 10 años,"
        " tras 10 abonos."
    )
    page.locator(f"{root} #interes-range-2").focus()
    page.keyboard.press("End")
    assert location(page).endswith("/interes?r=0.05&m=12#interes")
    assert "12 veces al año" in snapshot(page, root)["summary"]
    for index_r in range(3):
        for index_m in range(3):
            set_state(page, root, (index_r, index_m))
            client = snapshot(page, root)
            query = f"r={('0.02', '0.05', '0.1')[index_r]}&m={('1', '4', '12')[index_m]}"
            nojs_page.goto(f"{base_url}/interes?{query}")
            assert client == snapshot(nojs_page, root), query
    page.goto(base_url + "/static-interes?r=0.1&m=4")  # the script opens the named state
    page.wait_for_selector(f"{root} input.px-range:not([hidden])")
    nojs_page.goto(base_url + "/interes?r=0.1&m=4")
    assert snapshot(page, root) == snapshot(nojs_page, root)


def test_without_javascript_each_parameter_keeps_the_other(nojs_page: Page, base_url: str) -> None:
    nojs_page.goto(base_url + "/interes?r=0.1&m=4")
    lists = nojs_page.locator("#interes .px-states")
    hrefs = [
        lists.nth(i).locator("a").evaluate_all("l => l.map(a => a.getAttribute('href'))")
        for i in range(2)
    ]
    assert hrefs[0] == [
        "interes-r-0.02-m-4.html#interes",
        "interes-r-0.05-m-4.html#interes",
        "interes-r-0.1-m-4.html#interes",
    ]
    assert hrefs[1] == [
        "interes-r-0.1-m-1.html#interes",
        "interes-r-0.1-m-4.html#interes",
        "interes-r-0.1-m-12.html#interes",
    ]


def test_two_sliders_have_no_axe_violations(page: Page, base_url: str, axe_path: str) -> None:
    page.goto(base_url + "/interes")
    page.wait_for_selector("#interes input.px-range:not([hidden])")
    page.click("#interes details > summary")
    assert run_axe(page, axe_path) == []
