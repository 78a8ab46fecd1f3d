"""Search in Chromium: Pagefind's static index, built with the site, in the course's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from pizarra.source.course import BUNDLED, load_course
from tests.browser.axe import run_axe
from tests.browser.conftest import ServedCourse
from tests.browser.test_lesson import PATH, load, the_lesson

pytestmark = pytest.mark.browser


SETTLED = """() => {
  const results = [...document.querySelectorAll('.pagefind-ui__result')];
  return results.length > 0
    && document.querySelector('.pagefind-ui__loading') === null
    && results.every(r => r.querySelector('.pagefind-ui__result-link') !== null);
}"""
"""Every result shown has loaded: Pagefind shows a placeholder for each result and fills
it in when that page's fragment arrives, so the first link is not yet all of them."""


def wait_for_results(page: Page) -> None:
    page.wait_for_function(SETTLED)


def open_search(page: Page, query: str) -> None:
    page.get_by_role("button", name="Buscar").click()
    box = page.get_by_role("dialog", name="Buscar en el curso").locator("input")
    box.fill(query)
    wait_for_results(page)


def test_typing_potencia_finds_the_lesson_and_its_section(
    page: Page, bundled_course: ServedCourse
) -> None:
    load(page, bundled_course.url + "/")
    open_search(page, "potencia")
    titles = page.locator(".pagefind-ui__result-title")
    assert the_lesson().title in titles.all_inner_texts()
    results = page.locator(".pagefind-ui__result", has_text=the_lesson().title)
    sections = results.locator(".pagefind-ui__result-nested .pagefind-ui__result-link")
    assert sections.count() >= 1
    name = sections.first.inner_text()
    assert name in [s.title for s in the_lesson().sections] + [f"Pregunta {n}" for n in range(9)]
    href = sections.first.get_attribute("href") or ""
    assert href.startswith(PATH + "#")
    sections.first.click()
    page.wait_for_url("**" + href)


def test_formulas_are_found_by_their_words(page: Page, bundled_course: ServedCourse) -> None:
    load(page, bundled_course.url + PATH)
    open_search(page, "sqrt")
    excerpts = " ".join(page.locator(".pagefind-ui__result-excerpt").all_inner_texts())
    assert "\\sqrt{" in excerpts


def test_search_is_a_link_to_the_course_without_javascript(
    nojs_page: Page, bundled_course: ServedCourse
) -> None:
    load(nojs_page, bundled_course.url + PATH)
    link = nojs_page.get_by_role("link", name="Buscar")
    assert link.get_attribute("href") == "../#lecciones"
    link.click()
    nojs_page.wait_for_url(bundled_course.url + "/#lecciones")


def test_index_covers_only_lessons(page: Page, bundled_course: ServedCourse) -> None:
    load(page, bundled_course.url + "/")
    open_search(page, "lecciones")
    links = page.locator(".pagefind-ui__result > .pagefind-ui__result-inner > * a")
    hrefs = {h.split("#")[0] for h in links.evaluate_all("l => l.map(a => a.getAttribute('href'))")}
    published = {f"/{e.lesson.slug}/" for e in load_course(BUNDLED)[0].entries if e.lesson}
    assert PATH in hrefs and hrefs <= published


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 360])
def test_open_search_has_no_axe_violations(
    browser: Browser, bundled_course: ServedCourse, axe_path: str, scheme: str, width: int
) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": 800}, color_scheme=scheme, reduced_motion="reduce"
    )
    page = context.new_page()
    load(page, bundled_course.url + PATH)
    open_search(page, "potencia")
    assert run_axe(page, axe_path) == []
    page.keyboard.press("Escape")
    assert not page.get_by_role("dialog").is_visible()
    context.close()
