"""A formula and the punctuation after it never wrap apart (Chromium, lesson 8)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import ServedCourse
from tests.browser.test_lesson import load

pytestmark = pytest.mark.browser

APART = r"""
() => {
  let places = 0, apart = 0;
  for (const math of document.querySelectorAll('.lesson-body math:not([display="block"])')) {
    const next = math.nextSibling;
    if (!next || next.nodeType !== 3 || !/^[,.:;)\]!?»”…]/.test(next.data)) continue;
    places++;
    const range = document.createRange();
    range.setStart(next, 0);
    range.setEnd(next, 1);
    const mark = range.getClientRects()[0];
    const boxes = math.getClientRects();
    if (mark.top >= boxes[boxes.length - 1].bottom - 2) apart++;
  }
  return [places, apart, document.documentElement.scrollWidth];
}
"""


@pytest.mark.parametrize("width", [1280, 768, 360])
@pytest.mark.parametrize("path", ["/logaritmos/", "/en/logarithms/"])
def test_no_punctuation_wraps_away_from_its_formula(
    browser: Browser, bundled_course: ServedCourse, width: int, path: str
) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    load(page, bundled_course.url + path)
    places, apart, scroll_width = page.evaluate(APART)
    assert places > 250  # every comma, colon, parenthesis and full stop after a formula
    assert apart == 0
    assert scroll_width <= width
    page.close()
