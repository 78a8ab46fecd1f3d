"""The built lesson in Chromium, served by pizarra's own server: typeset, accessible, whole."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from pizarra.source.course import BUNDLED
from pizarra.source.lower import parse_lesson
from tests.browser.axe import run_axe
from tests.browser.conftest import ServedCourse, location, open_quietly
from tests.browser.snapshots import snapshot as explorer_state
from tests.browser.test_explorer import ROOT, VALUES, open_page, range_of, snapshot

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-results"


@dataclass(frozen=True)
class Published:
    """A published lesson of the bundled course and what its page must show."""

    file: str
    path: str
    questions: int
    sources: int
    explorer: str
    first_answer: str
    scripts: tuple[str, ...]
    """The explorer scripts the page loads, in order."""
    fields: tuple[int, ...] = ()
    """The answer fields of each question, in order (none: no answer fields)."""


POWERS = Published(
    "07-potencias-para-la-ia.md",
    "/potencias-para-la-ia/",
    7,
    8,
    ROOT,
    "81",
    ("explorer-growth.js",),
    (2, 2, 2, 3, 3, 3, 5),
)
LOGS = Published(
    "08-logaritmos.md",
    "/logaritmos/",
    11,
    8,
    "#mitades",
    "243",
    ("explorer-function.js",),
    (4, 3, 4, 3, 3, 2, 2, 4, 2, 5, 4),
)
EXP = Published(
    "09-exponenciales-y-softmax.md",
    "/exponenciales-y-softmax/",
    7,
    7,
    "#pendiente-base",
    "respuesta",
    ("explorer-distribution.js", "explorer-function.js"),
    (1, 2, 2, 1, 1, 3, 6),
)
LESSONS = [
    pytest.param(POWERS, id="lesson7"),
    pytest.param(LOGS, id="lesson8"),
    pytest.param(EXP, id="lesson9"),
]
PATH = POWERS.path


def the_lesson(published: Published = POWERS) -> Any:
    lesson, errors = parse_lesson(BUNDLED / "lessons" / published.file, "lesson.md")
    assert lesson is not None and not errors
    return lesson


def load(page: Page, url: str) -> None:
    open_quietly(page, url)


@pytest.mark.parametrize("published", LESSONS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_lesson_is_typeset_and_has_no_axe_violations(
    browser: Browser, bundled_course: ServedCourse, axe_path: str, scheme: str, published: Published
) -> None:
    context = browser.new_context(
        viewport={"width": 1000, "height": 900}, color_scheme=scheme, reduced_motion="reduce"
    )
    page = context.new_page()
    load(page, bundled_course.url + published.path)
    SHOTS.mkdir(exist_ok=True)
    shot = SHOTS / f"lesson-{published.path.strip('/')}-{scheme}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 100_000
    lesson = the_lesson(published)
    displays = sum(1 for m in lesson.math if m.display)
    assert page.locator("main math").count() == len(lesson.math)
    assert page.locator('main math[display="block"]').count() == displays
    assert page.locator("merror, .temml-error").count() == 0
    prose = page.evaluate(
        """() => Array.from(document.querySelectorAll('main p, main li, main td, main th'))
                 .map(e => { const c = e.cloneNode(true);
                             c.querySelectorAll('math, code, pre').forEach(x => x.remove());
                             return c.textContent; }).join('\\n')"""
    )
    assert "$" not in prose and "\\frac" not in prose, "raw TeX reached the page"
    assert run_axe(page, axe_path) == []
    context.close()


@pytest.mark.parametrize("published", LESSONS)
def test_page_loads_no_math_javascript(
    page: Page, bundled_course: ServedCourse, published: Published
) -> None:
    load(page, bundled_course.url + published.path)
    scripts = page.evaluate(
        "Array.from(document.scripts).map(s => [s.type, s.src.split('?')[0].split('/').pop()])"
    )
    answers = any(e.answers for e in the_lesson(published).exercises())
    modules = [
        ["", "theme.js"],
        ["module", "site.js"],
        *(["module", name] for name in published.scripts),
        *[["module", "answers.js"]] * answers,
    ]
    assert scripts[: len(modules)] == modules
    assert {tuple(s) for s in scripts[len(modules) :]} == {("application/json", "")}
    fonts = page.evaluate("Array.from(document.fonts).filter(f => f.status === 'loaded').length")
    assert fonts >= 1


def test_aligned_rows_line_up(page: Page, bundled_course: ServedCourse) -> None:
    load(page, bundled_course.url + PATH)
    xs = page.evaluate(
        """() => Array.from(document.querySelectorAll('math mtable')).map(table =>
             Array.from(table.querySelectorAll(':scope > mtr')).map(row => {
               const cell = row.children[1];
               const op = cell && cell.querySelector('mo');
               return op ? Math.round(op.getBoundingClientRect().left * 10) / 10 : null;
             }))"""
    )
    assert len(xs) >= 2
    for rows in xs:
        assert None not in rows and max(rows) - min(rows) < 1, rows


@pytest.mark.parametrize("published", LESSONS)
def test_outline_landmarks_and_language(
    page: Page, bundled_course: ServedCourse, published: Published
) -> None:
    load(page, bundled_course.url + published.path)
    lesson = the_lesson(published)
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator("h1").count() == 1
    assert page.locator("h1").inner_text() == lesson.title
    h2 = page.locator("main h2").all_inner_texts()
    assert h2 == [s.title for s in lesson.sections if s.level == 2] + ["Fuentes"]
    for role in ("banner", "main", "contentinfo", "navigation"):
        assert page.get_by_role(role).count() >= 1, role
    questions = [f"Pregunta {n}" for n in range(1, published.questions + 1)]
    subsections = [s.title for s in lesson.sections if s.level == 3]
    assert page.locator("main h3").all_inner_texts() == subsections + questions
    sources = page.locator("#fuentes + ol li a")
    assert sources.count() == published.sources
    assert all(
        href.startswith("https://") for href in sources.evaluate_all("l => l.map(a => a.href)")
    )


@pytest.mark.parametrize("published", LESSONS)
def test_every_question_shows_its_answer_fields(
    page: Page, nojs_page: Page, bundled_course: ServedCourse, published: Published
) -> None:
    """Each question's fields, by number, shown once the module runs and hidden without it."""
    load(page, bundled_course.url + published.path)
    load(nojs_page, bundled_course.url + published.path)
    fields = published.fields or (0,) * published.questions
    assert len(fields) == published.questions
    if any(fields):
        page.wait_for_selector("[data-answers]:not([hidden])")
    for number, expected in enumerate(fields, start=1):
        shown = page.locator(f'[data-answer-field^="pregunta-{number}-"]')
        assert shown.count() == expected, number
        assert all(field.is_visible() for field in shown.all()), number
        hidden = nojs_page.locator(f'[data-answer-field^="pregunta-{number}-"]')
        assert hidden.count() == expected and not any(f.is_visible() for f in hidden.all())
    assert page.locator("[data-answer-field]").count() == sum(fields)
    checks = page.locator("[data-answer-check]").all_inner_texts()
    assert checks == ["Comprobar"] * sum(fields)


@pytest.mark.parametrize("published", LESSONS)
def test_solutions_open_without_javascript(
    nojs_page: Page, bundled_course: ServedCourse, published: Published
) -> None:
    load(nojs_page, bundled_course.url + published.path)
    summaries = nojs_page.locator("details.solution > summary")
    assert summaries.count() == published.questions
    assert summaries.all_inner_texts() == ["Mostrar la solución"] * published.questions
    body = nojs_page.locator("details.solution").first.locator(".solution-body")
    assert not body.is_visible()
    summaries.first.click()
    assert body.is_visible()
    assert published.first_answer in body.inner_text()
    assert summaries.first.inner_text() == "Ocultar la solución"
    summaries.first.click()
    assert summaries.first.inner_text() == "Mostrar la solución"


@pytest.mark.parametrize("published", LESSONS)
def test_phone_width_has_no_horizontal_scroll(
    browser: Browser, bundled_course: ServedCourse, axe_path: str, published: Published
) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 700}, reduced_motion="reduce")
    page = context.new_page()
    load(page, bundled_course.url + published.path)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.screenshot(path=str(SHOTS / f"lesson-{published.path.strip('/')}-320.png"))
    assert run_axe(page, axe_path) == []
    context.close()


def test_course_page_puts_published_lessons_first(
    page: Page, bundled_course: ServedCourse, axe_path: str
) -> None:
    load(page, bundled_course.url + "/")
    assert page.get_by_text("Math for AI", exact=True).count() == 1
    cards = page.locator(".lesson-card")
    assert cards.count() == 3
    published = cards.locator("a")
    titles = [the_lesson(lesson).title for lesson in (POWERS, LOGS, EXP)]
    assert published.all_inner_texts() == titles
    upcoming = page.locator(".upcoming-list li")
    numbers = [int(i.split("-")[1]) for i in upcoming.evaluate_all("l => l.map(e => e.id)")]
    assert numbers == [1, 2, 3, 4, 5, 6]
    assert upcoming.locator("a").count() == 0
    top = page.evaluate("document.querySelector('.lesson-card').getBoundingClientRect().top")
    first_upcoming = page.evaluate("document.querySelector('.upcoming-list').offsetTop")
    assert top < first_upcoming
    assert run_axe(page, axe_path) == []
    published.last.click()
    assert page.url.endswith(EXP.path)


@pytest.mark.parametrize(
    ("published", "hrefs", "neighbours"),
    [
        pytest.param(
            POWERS,
            ["../#leccion-2", "../logaritmos/", "../logaritmos/"],
            {"next": "../logaritmos/"},
            id="lesson7",
        ),
        pytest.param(
            LOGS,
            [
                "../potencias-para-la-ia/",
                "../exponenciales-y-softmax/",
                "../exponenciales-y-softmax/",
                "../exponenciales-y-softmax/",
            ],
            {"prev": "../potencias-para-la-ia/", "next": "../exponenciales-y-softmax/"},
            id="lesson8",
        ),
        pytest.param(
            EXP,
            ["../logaritmos/", "../potencias-para-la-ia/", "../logaritmos/"],
            {"prev": "../logaritmos/"},
            id="lesson9",
        ),
    ],
)
def test_lesson_references_and_neighbours(
    page: Page,
    bundled_course: ServedCourse,
    published: Published,
    hrefs: list[str],
    neighbours: dict[str, str],
) -> None:
    load(page, bundled_course.url + published.path)
    refs = page.locator("main a.lesson-ref")
    assert refs.evaluate_all("l => l.map(a => a.getAttribute('href'))") == hrefs
    assert all(text.startswith("lección ") for text in refs.all_inner_texts())
    nav = {
        kind: page.locator(f".lesson-nav-{kind} a").get_attribute("href")
        for kind in ("prev", "next")
        if page.locator(f".lesson-nav-{kind} a").count()
    }
    assert nav == neighbours
    page.locator(".lesson-nav a").first.click()
    assert page.url.endswith(next(iter(neighbours.values())).removeprefix(".."))


def test_explorer_in_the_lesson_keyboard_and_server_agree(
    page: Page, nojs_page: Page, bundled_course: ServedCourse
) -> None:
    url = bundled_course.url + PATH
    open_page(page, url)
    assert snapshot(page)["value"] == "1024"
    range_of(page).focus()
    page.keyboard.press("ArrowRight")
    state = snapshot(page)
    assert state["value"] == "2048"
    assert state["readouts"]["linear"] == "16×"
    assert state["readouts"]["quadratic"] == "256×"
    assert state["readouts"]["scores"] == "4.194.304"
    assert state["current"][0] == "2048"
    page.keyboard.press("End")
    assert snapshot(page)["value"] == "8192"
    page.keyboard.press("Home")
    for index, value in enumerate(VALUES):
        if index:
            page.keyboard.press("ArrowRight")
        nojs_page.goto(f"{url}?n={value}")
        assert snapshot(page) == snapshot(nojs_page), value


def test_explorer_table_without_javascript(nojs_page: Page, bundled_course: ServedCourse) -> None:
    load(nojs_page, bundled_course.url + PATH)
    nojs_page.locator(
        "details.px-table > summary, details > summary", has_text="tabla"
    ).first.click()
    rows = nojs_page.locator("table tbody tr", has_text="×")
    text = " ".join(rows.all_inner_texts())
    for figure in (
        "16.384",
        "65.536",
        "262.144",
        "1.048.576",
        "4.194.304",
        "16.777.216",
        "67.108.864",
        "4096×",
    ):
        assert figure in text


def test_second_explorer_lesson_in_english(
    page: Page, cubic_lesson: ServedCourse, axe_path: str
) -> None:
    page.goto(cubic_lesson.url + "/")
    page.locator("#lesson-1").get_by_role("link", name="Cubes grow faster than squares").click()
    page.wait_for_selector("input[type=range]:not([hidden])")
    assert page.locator("html").get_attribute("lang") == "en"
    before = page.locator("[data-value]").first.inner_text()
    page.locator("input[type=range]").first.focus()
    page.keyboard.press("ArrowRight")
    after = page.locator("[data-value]").first.inner_text()
    assert int(after.replace(",", "")) == 2 * int(before.replace(",", ""))
    assert run_axe(page, axe_path) == []


@pytest.mark.parametrize("published", LESSONS)
def test_print_shows_solutions_and_the_data_table(
    page: Page, bundled_course: ServedCourse, published: Published
) -> None:
    load(page, bundled_course.url + published.path)
    page.emulate_media(media="print")
    last = published.questions - 1
    assert page.locator("details.solution .solution-body").nth(last).is_visible()
    assert page.locator("details.px-data .px-table").first.is_visible()
    assert not page.locator(".lesson-nav").is_visible()
    assert not any(c.is_visible() for c in page.locator(".px-control").all())


def test_logarithm_explorer_keyboard_and_server_agree_in_every_state(
    page: Page, nojs_page: Page, bundled_course: ServedCourse
) -> None:
    """log₂ x on a linear axis against x on a log axis: +1 per doubling, words that agree."""
    root = LOGS.explorer
    url = bundled_course.url + LOGS.path
    page.goto(url)
    page.wait_for_selector(f"{root} input.px-range:not([hidden])", state="visible")
    assert explorer_state(page, root)["values"] == ["1024"]
    page.locator(f"{root} input.px-range").focus()
    page.keyboard.press("ArrowRight")
    state = explorer_state(page, root)
    assert state["readouts"] == ["11", "7,62", "1024"]
    assert location(page).endswith("?n=2048#mitades")
    page.keyboard.press("End")
    assert explorer_state(page, root)["values"] == ["524.288"]
    page.keyboard.press("Home")
    summary = explorer_state(page, root)["summary"]
    assert summary.startswith("Con n = 2, hace falta 1 mitad para quedarse")
    for exponent in range(1, 20):
        if exponent > 1:
            page.keyboard.press("ArrowRight")
        client = explorer_state(page, root)
        assert client["readouts"][0] == str(exponent)
        nojs_page.goto(f"{url}?n={2**exponent}")
        assert client == explorer_state(nojs_page, root), exponent


def test_logarithm_explorer_table_without_javascript(
    nojs_page: Page, bundled_course: ServedCourse
) -> None:
    load(nojs_page, bundled_course.url + LOGS.path)
    rows = nojs_page.locator(f"{LOGS.explorer} table tbody tr")
    assert rows.count() == 19
    texts = "l => l.map(e => e.textContent)"
    assert rows.first.locator("td, th").evaluate_all(texts) == ["2", "1", "0,69"]
    assert rows.nth(13).locator("td, th").evaluate_all(texts) == ["16.384", "14", "9,70"]
    assert rows.last.locator("td, th").evaluate_all(texts) == ["524.288", "19", "13,17"]
