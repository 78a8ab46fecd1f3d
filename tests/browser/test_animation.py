"""A matplotlib animation left as a cell's value, in Chromium: its frames are one ordered
list of images, each named "frame k of n", in a strip that the keyboard scrolls; no
script, no CSP violation, no axe violation, in either colour scheme."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.axe import run_axe
from tests.browser.conftest import ServedCourse, serve_course
from tests.browser.test_csp import WATCH
from tests.browser.test_lesson import load
from tests.support import FIXTURES

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def animation_course(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedCourse]:
    copy = tmp_path_factory.mktemp("animation") / "course"
    shutil.copytree(FIXTURES / "animation", copy)
    yield from serve_course(copy)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_frames_are_an_accessible_list_with_no_violation(
    browser: Browser, animation_course: ServedCourse, axe_path: str, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme)  # type: ignore[arg-type]
    context.add_init_script(WATCH)
    page = context.new_page()
    load(page, animation_course.url + "/wave/")
    frames = page.get_by_role("list", name="Animation: 4 of its 4 frames, in order")
    images = frames.get_by_role("img")
    assert images.count() == 4
    assert images.nth(2).get_attribute("alt") == "A sine wave shifted to the right (frame 3 of 4)"
    assert page.evaluate("window.__cspViolations") == []
    assert run_axe(page, axe_path) == []
    context.close()


def test_without_javascript_every_frame_is_there_in_order(
    nojs_page: Page, animation_course: ServedCourse
) -> None:
    load(nojs_page, animation_course.url + "/wave/")
    labels = nojs_page.locator(".animation-frames .frame-label").all_inner_texts()
    assert labels == [f"frame {k} of 4" for k in range(1, 5)]


def test_the_keyboard_moves_through_the_frames(page: Page, animation_course: ServedCourse) -> None:
    load(page, animation_course.url + "/wave/")
    strip = page.locator(".animation-frames")
    strip.focus()
    assert strip.evaluate("s => s.scrollLeft") == 0
    page.keyboard.press("ArrowRight")
    for _ in range(50):
        if strip.evaluate("s => s.scrollLeft") > 0:
            break
        page.wait_for_timeout(100)
    assert strip.evaluate("s => s.scrollLeft") > 0
