"""A formula and the punctuation after it never wrap apart (Chromium, lesson 8)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import ServedCourse
from tests.browser.test_lesson import load

pytestmark = pytest.mark.browser

APART = r"""
() => {
  const rect = (node, at) => {
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    return range.getClientRects()[0];
  };
  let places = 0, apart = 0;
  for (const math of document.querySelectorAll('.lesson-body math:not([display="block"])')) {
    const boxes = math.getClientRects();
    const next = math.nextSibling, previous = math.previousSibling;
    if (next && next.nodeType === 3 && /^[,.:;)\]!?»”…]/.test(next.data)) {
      places++;
      if (rect(next, 0).top >= boxes[boxes.length - 1].bottom - 2) apart++;
    }
    if (previous && previous.nodeType === 3 && /[(\[«“¿¡]$/.test(previous.data)) {
      places++;
      if (rect(previous, previous.data.length - 1).bottom <= boxes[0].top + 2) apart++;
    }
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
    assert places > 250  # every comma, colon, parenthesis, full stop around a formula
    assert apart == 0
    assert scroll_width <= width
    page.close()


def test_on_the_narrowest_phone_punctuation_never_widens_the_page(
    browser: Browser, bundled_course: ServedCourse
) -> None:
    """At 320 px a few formulas with their comma are wider than the line: the comma goes
    under the formula, inside its box, rather than past the edge of the page."""
    page = browser.new_page(viewport={"width": 320, "height": 900})
    load(page, bundled_course.url + "/logaritmos/")
    _, apart, scroll_width = page.evaluate(APART)
    assert scroll_width <= 320 and apart <= 4
    page.close()
