"""Tabs, dropdowns, cards and tables of a lesson in Chromium: tabs switch without
JavaScript, by mouse and by the arrow keys, and the page has no axe violations."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.axe import run_axe
from tests.browser.conftest import ServedCourse, serve_course

pytestmark = pytest.mark.browser

LESSON = """---
title: "Layout"
lesson: 1
lang: en
summary: "Tabs, dropdowns, cards and tables."
---

::::{tab-set}
:::{tab-item} First
The first tab.
:::
:::{tab-item} Second
The second tab.
:::
::::

```{dropdown} More
Hidden text.
```

::::{grid} 1 2
:::{grid-item-card} A card
Its body.
:::
:::{card} Another
Its text.
:::
::::

```{list-table} Powers
:header-rows: 1

* - n
  - $2^n$
* - 3
  - 8
```

Term
: Its definition.

- [x] done
- [ ] to do
"""


@pytest.fixture(scope="module")
def layout_lesson(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedCourse]:
    folder: Path = tmp_path_factory.mktemp("layout")
    (folder / "layout.md").write_text(LESSON, encoding="utf-8")
    yield from serve_course(folder / "layout.md")


def _open(page: Page, course: ServedCourse) -> None:
    page.goto(course.url + "/")
    page.locator("#lesson-1").get_by_role("link", name="Layout").click()
    page.wait_for_selector(".tab-set")


def test_tabs_switch_by_click_without_javascript(
    nojs_page: Page, layout_lesson: ServedCourse
) -> None:
    _open(nojs_page, layout_lesson)
    first, second = (
        nojs_page.get_by_text("The first tab."),
        nojs_page.get_by_text("The second tab."),
    )
    assert first.is_visible() and not second.is_visible()
    nojs_page.get_by_text("Second", exact=True).click()
    assert second.is_visible() and not first.is_visible()
    assert not nojs_page.get_by_text("Hidden text.").is_visible()
    nojs_page.get_by_text("More", exact=True).click()
    assert nojs_page.get_by_text("Hidden text.").is_visible()


def test_tabs_switch_by_keyboard_and_the_page_is_accessible(
    page: Page, layout_lesson: ServedCourse, axe_path: str
) -> None:
    _open(page, layout_lesson)
    page.locator(".tab-input").first.focus()
    page.keyboard.press("ArrowRight")
    assert page.get_by_text("The second tab.").is_visible()
    assert not page.get_by_text("The first tab.").is_visible()
    assert run_axe(page, axe_path) == []
