"""The English edition in Chromium: the language link both ways, hreflang alternates,
search in the page's language, and each English page in English (their axe runs are the
static site's sweep, ``test_static_site``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import ServedCourse
from tests.browser.test_lesson import load
from tests.browser.test_search import wait_for_results

pytestmark = pytest.mark.browser

SPANISH = "/potencias-para-la-ia/"
ENGLISH = "/en/powers-for-ai/"
ENGLISH_PAGES = [
    "/en/",
    ENGLISH,
    "/en/logarithms/",
    "/en/exponentials-and-softmax/",
    "/en/powers-for-ai/verification/",
    "/en/index/",
]


def alternates(page: Page) -> dict[str, str]:
    """hreflang -> absolute URL of the page's ``<link rel="alternate">`` elements."""
    found: list[list[str]] = page.locator('link[rel="alternate"]').evaluate_all(
        "links => links.map(l => [l.hreflang, l.href])"
    )
    return dict((lang, href) for lang, href in found)


def test_the_language_link_goes_to_the_translation_and_back(
    page: Page, bundled_course: ServedCourse
) -> None:
    load(page, bundled_course.url + SPANISH)
    assert page.locator("html").get_attribute("lang") == "es"
    page.locator('a[hreflang="en"]', has_text="English").first.click()
    page.wait_for_url(bundled_course.url + ENGLISH)
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", level=1).inner_text().startswith("Powers for AI")
    page.locator('a[hreflang="es"]', has_text="Español").first.click()
    page.wait_for_url(bundled_course.url + SPANISH)


def test_hreflang_alternates_point_both_ways(page: Page, bundled_course: ServedCourse) -> None:
    base = bundled_course.url
    for path in (SPANISH, ENGLISH):
        load(page, base + path)
        assert alternates(page) == {"es": base + SPANISH, "en": base + ENGLISH}
    for path in ("/", "/en/"):
        load(page, base + path)
        assert alternates(page) == {"es": base + "/", "en": base + "/en/"}
    exp = {"es": base + "/exponenciales-y-softmax/", "en": base + "/en/exponentials-and-softmax/"}
    for path in exp.values():
        load(page, path)
        assert alternates(page) == exp


def _search(page: Page, button: str, dialog: str, query: str) -> set[str]:
    page.get_by_role("button", name=button).click()
    page.get_by_role("dialog", name=dialog).locator("input").fill(query)
    wait_for_results(page)
    links = page.locator(".pagefind-ui__result-link")
    hrefs: list[str] = links.evaluate_all("l => l.map(a => a.getAttribute('href'))")
    return {href.split("#")[0] for href in hrefs}


def test_search_finds_pages_in_the_page_language(page: Page, bundled_course: ServedCourse) -> None:
    load(page, bundled_course.url + "/en/")
    found = _search(page, "Search", "Search the course", "perplexity")
    assert "/en/logarithms/" in found and all(href.startswith("/en/") for href in found)
    load(page, bundled_course.url + "/")
    found = _search(page, "Buscar", "Buscar en el curso", "perplejidad")
    assert "/logaritmos/" in found and not any(href.startswith("/en/") for href in found)


def test_english_pages_say_they_are_english(page: Page, bundled_course: ServedCourse) -> None:
    """Their accessibility in both schemes, at 1280 and 360 px, is the static site's sweep
    (``test_static_site``), which covers every page of both trees."""
    for path in ENGLISH_PAGES:
        load(page, bundled_course.url + path)
        assert page.locator("html").get_attribute("lang") == "en", path


def test_the_server_renders_an_english_explorer_state(
    nojs_page: Page, bundled_course: ServedCourse
) -> None:
    load(nojs_page, bundled_course.url + ENGLISH + "?n=2048")
    assert "With n = 2,048, the length is" in nojs_page.locator("body").inner_text()
