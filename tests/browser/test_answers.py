"""Answer fields in Chromium: the page's module agrees with the checker, and learners can
use the fields by keyboard and screen reader, in Spanish and English, on a static host."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from pizarra.check.answers import judge
from pizarra.check.answers.questions import lesson_keys
from pizarra.source.course import BUNDLED
from pizarra.source.lower import parse_lesson
from tests.answers.corpus import HAND, fields, inputs, wrong_answers
from tests.browser.axe import run_axe
from tests.browser.conftest import BuiltSite, ServedCourse, serve_course

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "answers"
LESSON_7 = "/potencias-para-la-ia/"
LESSON_8 = "/logaritmos/"
LESSON_8_EN = "/en/logarithms/"
READY = "[data-answers]:not([hidden])"

JUDGE_ALL = """async ([url, cases]) => {
  const module = await import(url);
  return cases.map(([key, text]) => module.judge(key, text));
}"""


def lesson_7_cases() -> list[tuple[dict[str, Any], str]]:
    return lesson_cases(BUNDLED / "lessons" / "07-potencias-para-la-ia.md")


LESSON_9 = ("lessons/09-exponenciales-y-softmax.md", "en/09-exponentials-and-softmax.md")
"""Lesson 9 in both languages: lists of fractions, choices and rounded decimals."""


def lesson_cases(path: Path) -> list[tuple[dict[str, Any], str]]:
    """Each field's question tests, mistakes, values and the hand-written inputs."""
    lesson, errors = parse_lesson(path, path.name)
    assert lesson is not None and errors == []
    cases = []
    for _, spec, key, _ in lesson_keys(lesson):
        assert key is not None
        typed = [t.input for t in spec.tests] + [
            ",".join(a.text for a in m.answer) for m in spec.mistakes
        ]
        cases += [(dict(key), text) for text in [*typed, *key["value"], *HAND]]
    return cases


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedCourse]:
    folder = tmp_path_factory.mktemp("answers-en")
    shutil.copy(FIXTURES / "answers-en.md", folder / "answers-en.md")
    yield from serve_course(folder / "answers-en.md")


@pytest.fixture(scope="module")
def spanish(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedCourse]:
    folder = tmp_path_factory.mktemp("answers-es")
    shutil.copy(FIXTURES / "answers-es.md", folder / "answers-es.md")
    yield from serve_course(folder / "answers-es.md")


@pytest.mark.slow
def test_the_page_module_judges_as_the_checker_does(page: Page, static_site: BuiltSite) -> None:
    """Parity over every declared answer of lessons 7, 8 and 9 (both languages for 8
    and 9) and the generated corpus."""
    page.goto(static_site.url + LESSON_7)
    lesson_8 = lesson_cases(BUNDLED / "lessons" / "08-logaritmos.md") + lesson_cases(
        BUNDLED / "en" / "08-logarithms.md"
    )
    cases = lesson_7_cases() + wrong_answers() + lesson_8
    for index, key in enumerate(fields()):
        cases += [(key, text) for text in inputs(key, index)]
    for name in LESSON_9:
        cases += lesson_cases(BUNDLED / name)
    expected = [judge(key, text).as_json() for key, text in cases]
    got = page.evaluate(
        JUDGE_ALL, [static_site.url + "/assets/answers.js", [list(c) for c in cases]]
    )
    differ = [
        (c[0]["value"], c[1], e, g) for c, e, g in zip(cases, expected, got, strict=True) if e != g
    ]
    assert differ == []
    assert len(cases) > 8000 and len(lesson_8) > 1000
    seven = len(lesson_7_cases())
    wrong = got[seven : seven + len(wrong_answers())]
    assert all(w["verdict"] != "correct" for w in wrong)


def status(page: Page, field: str) -> str:
    return page.locator(f"#{field}-status").inner_text()


def verdict(page: Page, field: str) -> str:
    """The status once it is said: the same words again leave it empty for a frame."""
    expect(page.locator(f"#{field}-status")).not_to_have_text("")
    return status(page, field)


def until(page: Page, condition: str) -> None:
    """Wait until ``condition`` holds in the page (evaluated through the DevTools protocol:
    the page's CSP forbids the string predicates of ``wait_for_function``)."""
    for _ in range(100):
        if page.evaluate(condition):
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"never true: {condition}")


def answer(page: Page, field: str, text: str) -> str:
    """Type ``text`` into a field and press Enter, as a keyboard user does."""
    box = page.locator(f"#{field}-input")
    box.fill("")
    box.focus()
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    return verdict(page, field)


WATCH_STATUS = """id => {
  const region = document.getElementById(id);
  window.frames_seen = 0;
  const tick = () => { window.frames_seen += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  window.said = [];
  new MutationObserver(() => window.said.push([region.textContent, window.frames_seen]))
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""


def test_checking_the_same_answer_again_announces_it_again(
    page: Page, static_site: BuiltSite
) -> None:
    """A status region is read out when its text changes: the second "Correcto." must be
    new text, after a rendered frame of an empty region (not both in one frame)."""
    page.goto(static_site.url + LESSON_7)
    page.wait_for_selector(READY)
    page.evaluate("localStorage.clear()")
    page.evaluate(WATCH_STATUS, "pregunta-1-1-status")
    page.locator("#pregunta-1-1-input").fill("81")
    check = page.locator('[data-answer-field="pregunta-1-1"] [data-answer-check]')
    check.click()
    assert verdict(page, "pregunta-1-1") == "Correcto."
    check.click()
    until(page, "window.said.length >= 3")
    check.click()
    until(page, "window.said.length >= 5")
    said = page.evaluate("window.said")
    assert [text for text, _ in said] == ["Correcto.", "", "Correcto.", "", "Correcto."]
    for (_, emptied), (_, filled) in (said[1:3], said[3:5]):
        assert filled - emptied >= 2, said  # a whole frame rendered the empty region
    page.locator("#pregunta-1-1-input").fill("12")
    check.click()  # other words are said at once
    assert status(page, "pregunta-1-1").startswith("No es correcto. Has multiplicado")
    page.get_by_role("button", name="Borrar mis respuestas de esta lección").click()
    page.get_by_role("button", name="Borrar mis respuestas de esta lección").click()
    done = page.locator(".answers-reset [role=status]")
    expect(done).not_to_have_text("")
    assert done.inner_text() == "Se han borrado tus respuestas de esta lección."
    assert status(page, "pregunta-1-1") == ""


def test_lesson_8_right_and_wrong_answers_in_spanish(page: Page, static_site: BuiltSite) -> None:
    page.goto(static_site.url + LESSON_8)
    page.wait_for_selector(READY)
    page.evaluate("localStorage.clear()")
    assert page.locator("[data-answer-field]").count() == 36
    assert answer(page, "pregunta-5-1", "3,32") == "Correcto."
    assert answer(page, "pregunta-5-1", "3,3") == (
        "No es correcto. Da tantas cifras decimales como la pregunta."
    )
    assert answer(page, "pregunta-5-1", "5") == (
        "No es correcto. Eso es 10/2: el logaritmo no divide."
    )
    assert answer(page, "pregunta-6-2", "2^−2") == "Correcto."
    assert answer(page, "pregunta-6-2", "0,25") == "Correcto."
    assert answer(page, "pregunta-6-2", "-2") == (
        "No es correcto. Eso es log₂ C, donde la recta corta el eje; C = 2⁻² = 1/4."
    )
    assert answer(page, "pregunta-11-3", "4√2").startswith("No se puede comprobar.")
    page.locator("#pregunta-3-1-base-quinto").check()
    page.locator("#pregunta-3-1-base-uno").check()
    page.locator('[data-answer-field="pregunta-3-1"] [data-answer-check]').click()
    assert verdict(page, "pregunta-3-1").startswith("No es correcto. log₁ 1 no está definido")
    page.locator("#pregunta-3-1-base-uno").uncheck()
    page.locator('[data-answer-field="pregunta-3-1"] [data-answer-check]').click()
    assert verdict(page, "pregunta-3-1") == "Correcto."


def test_lesson_8_right_and_wrong_answers_in_english(page: Page, static_site: BuiltSite) -> None:
    page.goto(static_site.url + LESSON_8_EN)
    page.wait_for_selector(READY)
    page.evaluate("localStorage.clear()")
    assert page.locator("[data-answer-field]").count() == 36
    assert page.locator("[data-answer-check]").first.inner_text() == "Check"
    assert answer(page, "question-10-2", "−898.72") == "Correct."
    assert answer(page, "question-10-2", "898.72") == (
        "Not correct. The sign is missing: the logarithm of a probability less than 1 is negative."
    )
    assert answer(page, "question-10-2", "-898,72") == (
        "Cannot read this answer. Write a single value."
    )
    assert answer(page, "question-7-2", "17") == "Correct."
    assert answer(page, "question-7-2", "16.61") == (
        "Not correct. That is the information of a random token, but a label uses a whole"
        " number of bits."
    )
    assert answer(page, "question-9-2", "9,000").startswith("Cannot read this answer.")


def test_held_out_answers_typed_into_lesson_7_on_a_static_host(
    page: Page, static_site: BuiltSite
) -> None:
    page.goto(static_site.url + LESSON_7)
    page.wait_for_selector(READY)
    page.evaluate("localStorage.clear()")
    assert answer(page, "pregunta-1-1", "81,0") == "Correcto."
    assert answer(page, "pregunta-1-1", "4·3").startswith(
        "No es correcto. Has multiplicado 3 por 4"
    )
    assert answer(page, "pregunta-1-1", "3^4") == (
        "No es correcto. El valor es ese, pero se pide el resultado calculado: escribe el número."
    )
    assert answer(page, "pregunta-2-1", "x^3/x^5") == "Correcto."
    assert answer(page, "pregunta-2-1", "x^(-2)").startswith("No es correcto. Es equivalente")
    assert answer(page, "pregunta-2-1", "1/x^8").startswith("No es correcto.")
    assert answer(page, "pregunta-3-1", "\\dfrac{1}{16}") == "Correcto."
    assert answer(page, "pregunta-3-1", "0.0625") == "Correcto."
    assert answer(page, "pregunta-3-1", "-1/16").startswith("No es correcto. El signo menos")
    assert answer(page, "pregunta-3-1", "2^(1/2)").startswith("No se puede comprobar.")
    assert answer(page, "pregunta-4-2", "240000") == "Correcto."
    assert answer(page, "pregunta-6-3", "b^2+2ba+a^2") == "Correcto."
    assert answer(page, "pregunta-6-3", "a^2+b^2").startswith(
        "No es correcto. Falta el doble producto"
    )
    assert answer(page, "pregunta-7-1", "indefinido") == "Correcto."
    assert answer(page, "pregunta-7-2", "sin valor real") == "Correcto."
    assert answer(page, "pregunta-7-2", "no definido").startswith("No es correcto. No hay división")
    assert answer(page, "pregunta-7-3", "−2") == "Correcto."
    assert answer(page, "pregunta-7-4", "|−5|").startswith("No se puede leer")


def test_lesson_9_in_both_languages_on_a_static_host(page: Page, static_site: BuiltSite) -> None:
    """Rounded decimals as each language writes them, a list of fractions, a slip named."""
    page.goto(static_site.url + "/exponenciales-y-softmax/")
    page.wait_for_selector(READY)
    page.evaluate("localStorage.clear()")
    assert answer(page, "pregunta-1-1", "2; \\frac{9}{4}; 625/256") == "Correcto."
    assert answer(page, "pregunta-2-1", "3612,22") == "Correcto."
    assert answer(page, "pregunta-2-1", "3200").startswith("No es correcto. Eso es interés simple")
    assert answer(page, "pregunta-3-1", "3,585·10^−3") == "Correcto."
    page.goto(static_site.url + "/en/exponentials-and-softmax/")
    page.wait_for_selector(READY)
    assert answer(page, "question-7-1", "0.7311") == "Correct."
    assert answer(page, "question-7-1", "2.718").startswith("Not correct. That is the ratio")
    assert answer(page, "question-6-2", "0.73").startswith("Not correct.")
    assert answer(page, "question-5-1", "1/6, 1/3, 1/2") == "Correct."


def test_a_choice_by_keyboard_and_progress_kept_until_reset(
    page: Page, static_site: BuiltSite
) -> None:
    page.goto(static_site.url + LESSON_7)
    page.wait_for_selector(READY)
    page.evaluate("localStorage.clear()")
    page.locator("#pregunta-7-5-uno").focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowDown")  # radio buttons: the arrow moves the choice to "cero"
    page.keyboard.press("ArrowDown")
    page.locator('[data-answer-field="pregunta-7-5"] [data-answer-check]').focus()
    page.keyboard.press("Enter")
    assert verdict(page, "pregunta-7-5") == "Correcto."
    assert answer(page, "pregunta-1-1", "12").startswith("No es correcto.")
    page.reload()
    page.wait_for_selector(READY)
    assert page.locator("#pregunta-1-1-input").input_value() == "12"
    assert status(page, "pregunta-1-1").startswith("No es correcto.")
    assert page.locator("#pregunta-7-5-convencion").is_checked()
    page.get_by_role("button", name="Borrar mis respuestas de esta lección").click()
    assert page.locator("#pregunta-1-1-input").input_value() == ""
    assert status(page, "pregunta-1-1") == ""
    page.reload()
    page.wait_for_selector(READY)
    assert page.locator("#pregunta-1-1-input").input_value() == ""


def test_fields_are_labelled_and_their_status_is_a_status_region(
    page: Page, static_site: BuiltSite
) -> None:
    page.goto(static_site.url + LESSON_7)
    page.wait_for_selector(READY)
    box = page.get_by_role("textbox", name="Valor de 3")
    assert box.count() == 1 and box.get_attribute("id") == "pregunta-1-1-input"
    assert page.locator("#pregunta-1-1-status").get_attribute("role") == "status"
    assert page.get_by_role("radiogroup").count() == 0  # a fieldset of radios, named by its legend
    assert page.get_by_role("group", name="Valor de 0").count() == 1


def test_without_javascript_the_fields_are_not_shown_and_solutions_work(
    nojs_page: Page, static_site: BuiltSite
) -> None:
    nojs_page.goto(static_site.url + LESSON_7)
    assert nojs_page.locator("[data-answers]").count() == 7
    assert not nojs_page.locator("[data-answer-field]").first.is_visible()
    solution = nojs_page.locator("details.solution").first
    solution.locator("summary").click()
    assert solution.locator(".solution-body").is_visible()


def test_no_axe_violations_and_no_overflow_at_320_px(
    browser: Browser, static_site: BuiltSite, axe_path: str
) -> None:
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 320, "height": 800}, color_scheme=scheme)
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e, seen=problems: seen.append(str(e)))
        page.goto(static_site.url + LESSON_7)
        page.wait_for_selector(READY)
        answer(page, "pregunta-1-1", "12")
        answer(page, "pregunta-3-1", "1/16")
        page.locator("details.answer-hint").first.locator("summary").click()
        assert run_axe(page, axe_path) == []
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 320
        assert problems == []
        context.close()


def test_english_inputs_and_verdicts(page: Page, english: ServedCourse) -> None:
    page.goto(english.url + "/answers-en/")
    page.wait_for_selector(READY)
    page.evaluate("localStorage.clear()")
    assert page.locator("[data-answer-check]").first.inner_text() == "Check"
    assert answer(page, "question-1-1", "0.0625") == "Correct."
    assert (
        answer(page, "question-1-1", "0,0625") == "Cannot read this answer. Write a single value."
    )
    assert (
        answer(page, "question-1-1", "16") == "Not correct. The minus sign asks for a reciprocal."
    )
    assert answer(page, "question-2-1", "1/x^2") == "Correct."
    assert answer(page, "question-2-1", "x^-2").startswith("Not correct. It is equivalent")
    assert answer(page, "question-3-1", "x = 7 or x = -7") == "Correct."
    assert (
        answer(page, "question-3-1", "7")
        == "Not correct. A negative number squared is positive too."
    )
    assert answer(page, "question-4-1", "x >= 0") == "Correct."
    assert answer(page, "question-4-1", "(0, inf)").startswith(
        "Not correct. Those are the endpoints"
    )
    assert answer(page, "question-5-2", "15.62") == "Correct."
    assert answer(page, "question-5-2", "15.6").startswith("Not correct. Give as many decimals")
    page.locator("#question-5-1-a").check()
    page.locator('[data-answer-field="question-5-1"] [data-answer-check]').click()
    assert verdict(page, "question-5-1") == "Not correct. A value is missing."
    page.locator("#question-5-1-c").check()
    page.locator('[data-answer-field="question-5-1"] [data-answer-check]').click()
    assert verdict(page, "question-5-1") == "Correct."
    assert answer(page, "question-6-1", "3/4") == "Correct."
    assert answer(page, "question-6-1", "6/8") == (
        "Not correct. That is the value, but the fraction is not in lowest terms."
    )
    assert answer(page, "question-6-1", "0.75").startswith("Not correct. That is the value, but")


def test_spanish_sets_lists_intervals_and_decimals(page: Page, spanish: ServedCourse) -> None:
    page.goto(spanish.url + "/answers-es/")
    page.wait_for_selector(READY)
    page.evaluate("localStorage.clear()")
    assert answer(page, "pregunta-1-1", "x = 7, x = -7") == "Correcto."
    assert answer(page, "pregunta-1-1", "±7") == "Correcto."
    assert answer(page, "pregunta-1-1", "7").startswith("No es correcto. Un número negativo")
    assert answer(page, "pregunta-2-1", "[0; ∞)") == "Correcto."
    assert answer(page, "pregunta-2-1", "[0,5; ∞)") == "No es correcto."
    assert answer(page, "pregunta-3-1", "2, 4, 8") == "Correcto."
    assert answer(page, "pregunta-3-1", "8; 4; 2").startswith("No es correcto. Son esos valores")
    assert answer(page, "pregunta-4-1", "−3") == "Correcto."
    assert answer(page, "pregunta-4-2", "15,62") == "Correcto."
    assert answer(page, "pregunta-4-2", "15.62") == "Correcto."
    assert answer(page, "pregunta-4-2", "16.384").startswith("No se puede leer la respuesta.")
