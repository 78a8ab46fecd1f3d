"""The verification report page in Chromium: linked from the lesson, complete, accessible."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from pizarra.check.claims import claim_records
from tests.browser.axe import run_axe
from tests.browser.conftest import ServedCourse
from tests.browser.test_lesson import PATH, load, the_lesson

pytestmark = pytest.mark.browser


def test_lesson_links_to_its_report_and_footer_does_not_overpromise(
    page: Page, bundled_course: ServedCourse
) -> None:
    load(page, bundled_course.url + PATH)
    footer = page.locator("footer.site-footer").inner_text()
    assert "cada cifra" not in footer and "se comprueban" not in footer
    link = page.locator("main .verification a")
    assert link.count() == 1
    link.click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith(PATH + "verificacion/")
    assert "Qué se ha comprobado" in page.locator("h1").inner_text()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_report_lists_every_statement_and_has_no_axe_violations(
    browser: Browser, bundled_course: ServedCourse, axe_path: str, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    load(page, bundled_course.url + PATH + "verificacion/")
    records, _ = claim_records(the_lesson())
    assert page.locator("tr.claim").count() == len(records)
    checked = sum(r.status.value == "checked" for r in records)
    assert page.locator("tr.claim--checked").count() == checked
    assumed = sum(r.status.value == "assumed" for r in records)
    assert assumed > 0  # the lesson restates its declarations (n > 0, C > 0, k > 0)
    assert page.locator("tr.claim--assumed").count() == assumed
    for kind in ("unchecked", "assumed"):
        rows = page.locator(f"tr.claim--{kind}")
        for row in range(rows.count()):
            assert rows.nth(row).locator(".claim-reason").inner_text().strip()
    assert page.locator("tr.claim td:nth-child(2) math").count() == len(records)
    assert page.locator("tr.claim code").count() == 0
    assert page.locator("ul.report-states li").count() == 3
    assert page.locator("#celdas + ul li").count() == len(list(the_lesson().code_cells()))
    assert run_axe(page, axe_path) == []
    context.close()


def test_report_fits_a_phone(browser: Browser, bundled_course: ServedCourse, axe_path: str) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 700})
    page = context.new_page()
    load(page, bundled_course.url + PATH + "verificacion/")
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow
    assert run_axe(page, axe_path) == []
    context.close()
