"""The site around the lessons in Chromium: navigation, theme, favicon, 404, console."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.axe import run_axe
from tests.browser.conftest import BuiltSite, ServedCourse, open_quietly, serve_course
from tests.browser.test_lesson import LOGS, PATH, load
from tests.support import FIXTURES

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def small_course(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedCourse]:
    """Lessons 1 and 3 published, lesson 2 upcoming between them."""
    copy = tmp_path_factory.mktemp("small") / "course"
    shutil.copytree(FIXTURES / "site" / "course", copy)
    yield from serve_course(copy)


def test_course_navigation_marks_the_current_lesson_and_skips_upcoming(
    browser: Browser, small_course: ServedCourse
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    load(page, small_course.url + "/primera/")
    nav = page.get_by_role("navigation", name="Lecciones del curso")
    assert nav.count() == 1, "one course navigation is visible at a time"
    assert nav.locator("li").all_inner_texts() == [
        "1. Primera lección",
        "2. Segunda próximamente",
        "3. Tercera lección",
    ]
    current = nav.locator("[aria-current=page]")
    assert current.inner_text() == "1. Primera lección"
    assert nav.locator(".nav-list a").count() == 2, "an upcoming lesson is not a link"
    neighbours = page.get_by_role("navigation", name="Navegación entre lecciones").locator("a")
    assert neighbours.all_inner_texts() == ["Lección siguiente\n3. Tercera lección"]
    neighbours.first.click()
    page.wait_for_url("**/tercera/")
    neighbours = page.get_by_role("navigation", name="Navegación entre lecciones").locator("a")
    assert neighbours.all_inner_texts() == ["Lección anterior\n1. Primera lección"]
    nav = page.get_by_role("navigation", name="Lecciones del curso")
    assert nav.locator("[aria-current=page]").inner_text() == "3. Tercera lección"
    context.close()


def test_keyboard_reaches_the_course_navigation_on_a_phone(
    browser: Browser, small_course: ServedCourse
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    load(page, small_course.url + "/primera/")
    opener = page.locator(".narrow-nav a", has_text="Lecciones del curso")
    assert opener.is_visible()
    assert not page.locator(".sidebar").is_visible()
    assert page.locator(".nav-list a[href='../tercera/']").count() == 1, "one course list a page"
    opener.focus()
    page.keyboard.press("Enter")
    nav = page.get_by_role("navigation", name="Lecciones del curso")
    link = nav.get_by_role("link", name="3. Tercera lección")
    assert link.is_visible()
    assert nav.bounding_box()["y"] < 740, "the list shows in place, on the first screen"
    assert not page.locator(".sidebar-outline").is_visible(), "the outline stays in the lesson"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "3. Tercera lección"
    page.keyboard.press("Enter")
    page.wait_for_url("**/tercera/")
    context.close()


def test_the_course_list_on_a_phone_gives_the_lesson_back(
    browser: Browser, small_course: ServedCourse
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    load(page, small_course.url + "/primera/")
    page.locator(".narrow-nav a", has_text="Lecciones del curso").click()
    nav = page.get_by_role("navigation", name="Lecciones del curso")
    nav.get_by_role("link", name="Volver a la lección").click()
    assert not page.locator(".sidebar").is_visible()
    assert page.evaluate("document.activeElement.id") == "contenido"
    context.close()


def test_outline_leaves_the_first_screen_to_the_lesson_on_a_phone(
    browser: Browser, bundled_course: ServedCourse
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    load(page, bundled_course.url + PATH)
    outline = page.locator(".narrow-nav details", has_text="En esta página")
    assert outline.evaluate("d => d.open") is False
    first_paragraph = page.locator(".lesson-body > p").first
    assert first_paragraph.bounding_box()["y"] < 740, "the lesson starts on the first screen"
    outline.locator("summary").click()
    assert outline.get_by_role("link").count() >= 4
    context.close()


def test_theme_switch_is_remembered_without_a_flash(
    browser: Browser, bundled_course: ServedCourse
) -> None:
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    load(page, bundled_course.url + "/")
    background = "getComputedStyle(document.body).backgroundColor"
    light = page.evaluate(background)
    page.get_by_label("Tema").select_option("dark")
    dark = page.evaluate(background)
    assert dark != light
    # Before any module script runs, the saved theme is already applied.
    page.route("**/site.js", lambda route: route.abort())
    page.goto(bundled_course.url + PATH, wait_until="commit")
    page.wait_for_selector("body")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate(background) == dark
    page.unroute("**/site.js")
    load(page, bundled_course.url + PATH)
    assert page.get_by_label("Tema").input_value() == "dark"
    explorer = page.evaluate(
        "getComputedStyle(document.querySelector('.px-explorer')).backgroundColor"
    )
    assert explorer == "rgb(23, 25, 30)"
    page.get_by_label("Tema").select_option("auto")
    load(page, bundled_course.url + "/")
    assert page.evaluate(background) == light
    context.close()


def test_no_console_errors_and_a_favicon(page: Page, bundled_course: ServedCourse) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    for path in ("/", PATH):
        load(page, bundled_course.url + path)
        icon = page.locator("link[rel=icon]").get_attribute("href")
        assert icon is not None
        response = page.request.get(page.url + icon if not icon.startswith("/") else icon)
        assert response.ok and b"<svg" in response.body()
    assert errors == [] and failed == []


def test_404_page_lists_the_lessons(
    page: Page, bundled_course: ServedCourse, axe_path: str
) -> None:
    response = page.goto(bundled_course.url + "/no/existe/")
    assert response is not None and response.status == 404
    assert page.locator("h1").inner_text() == "Página no encontrada"
    assert page.locator("main p").nth(1).inner_text().startswith("La dirección no corresponde")
    page.get_by_role("link", name="Lección 7").click()
    page.wait_for_url("**" + PATH)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 360])
def test_every_page_has_no_axe_violations(
    browser: Browser, small_course: ServedCourse, axe_path: str, scheme: str, width: int
) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": 800}, color_scheme=scheme, reduced_motion="reduce"
    )
    page = context.new_page()
    for path in ("/", "/primera/", "/tercera/", "/falta"):
        open_quietly(page, small_course.url + path)
        assert run_axe(page, axe_path) == [], path
    context.close()


def test_formulas_and_the_explorer_write_numbers_alike(
    page: Page, bundled_course: ServedCourse
) -> None:
    load(page, bundled_course.url + PATH)
    numbers = page.evaluate(
        "Array.from(document.querySelectorAll('main math mn')).map(e => e.textContent)"
    )
    spanish = re.compile(r"\d{1,4}(,\d+)?|\d{1,3}(\.\d{3})+(,\d+)?")
    wrong = [n for n in numbers if not spanish.fullmatch(n) or re.fullmatch(r"\d{5,}", n)]
    assert wrong == [], "every formula number is written as CLDR writes it in Spanish"
    assert "4.194.304" in numbers and "2048" in numbers
    page.locator("input.px-range").focus()
    page.keyboard.press("ArrowRight")
    assert page.locator("[data-readout=scores]").inner_text() == "4.194.304"
    shown: set[str] = set()
    page.keyboard.press("Home")
    for _ in range(30):  # every state of the slider, and the table beside it
        shown |= set(
            page.evaluate(
                "Array.from(document.querySelectorAll("
                "'#crecimiento-atencion :is([data-readout], .px-table td, .px-table th)'))"
                ".map(e => e.textContent.trim().replace(/×$/, ''))"
            )
        )
        page.keyboard.press("ArrowRight")
    explorer_numbers = {n for n in shown if re.fullmatch(r"[\d.,]+", n)}
    assert {"2048", "4.194.304", "16.777.216"} <= explorer_numbers
    assert [n for n in explorer_numbers if not spanish.fullmatch(n)] == []


def test_explorer_states_work_from_a_static_host_without_javascript(
    nojs_page: Page, static_site: BuiltSite
) -> None:
    # (axe needs JavaScript to run: the state pages are checked with the others below.)
    lesson = static_site.url + PATH
    nojs_page.goto(lesson)
    states = nojs_page.locator("#crecimiento-atencion .px-states a")
    assert states.all_inner_texts() == ["128", "256", "512", "1024", "2048", "4096", "8192"]
    assert nojs_page.locator(".px-states [aria-current]").inner_text() == "1024"
    states.nth(5).click()
    nojs_page.wait_for_url("**/crecimiento-atencion-n-4096.html#crecimiento-atencion")
    assert nojs_page.title().startswith("n = 4096 · ")
    assert nojs_page.locator("[data-readout=quadratic]").inner_text() == "1024×"
    assert nojs_page.locator(".px-states [aria-current]").inner_text() == "4096"
    nojs_page.locator(".px-states a", has_text="8192").click()
    nojs_page.wait_for_url("**/crecimiento-atencion-n-8192.html#crecimiento-atencion")
    assert nojs_page.locator("[data-readout=quadratic]").inner_text() == "4096×"
    nojs_page.get_by_role("link", name="Volver a la lección").click()
    nojs_page.wait_for_url(lesson + "#crecimiento-atencion")
    assert nojs_page.locator("[data-readout=quadratic]").inner_text() == "64×"
    nojs_page.goto(static_site.url + LOGS.path)
    nojs_page.locator("#mitades .px-states a", has_text="524.288").click()
    nojs_page.wait_for_url("**/mitades-n-524288.html#mitades")
    assert nojs_page.locator("#mitades [data-readout=mitades]").inner_text() == "19"
    nojs_page.locator("#mitades .px-states a", has_text="1024").click()
    nojs_page.wait_for_url(static_site.url + LOGS.path + "#mitades")
