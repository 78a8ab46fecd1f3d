"""Every state of every explorer in the bundled course: what the script shows after a
move equals what the server renders for that state's query, with JavaScript off."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from pizarra.render.explorers.states import all_states, query_of
from pizarra.source.blocks import Explorer
from pizarra.source.explorers.spec import GrowthSpec
from tests.browser.conftest import COURSE_EXPLORERS
from tests.browser.snapshots import set_state, snapshot
from tests.browser.test_explorer import SNAPSHOT as GROWTH_SNAPSHOT

pytestmark = pytest.mark.browser


def states(explorer: Explorer) -> list[tuple[dict[str, str], Any]]:
    """Each state's query, and how the script is moved there."""
    spec = explorer.spec
    if isinstance(spec, GrowthSpec):
        name = spec.variable.name
        return [
            ({name: str(v)}, e)
            for v, e in zip(spec.variable.values, spec.variable.exponents, strict=True)
        ]
    return [(query_of(spec.params, s), s) for s in all_states(spec.params)]


def read(page: Page, explorer: Explorer) -> dict[str, Any]:
    root = f"#{explorer.spec.id}"
    if isinstance(explorer.spec, GrowthSpec):
        result: dict[str, Any] = page.evaluate(GROWTH_SNAPSHOT, root)
        return result
    return snapshot(page, root)


def move(page: Page, explorer: Explorer, target: Any) -> None:
    root = f"#{explorer.spec.id}"
    if isinstance(explorer.spec, GrowthSpec):
        set_state(page, root, (target,))
    else:
        set_state(page, root, target)


def test_the_course_uses_three_kinds() -> None:
    assert {e.kind for e in COURSE_EXPLORERS.values()} >= {"growth", "function", "distribution"}


@pytest.mark.parametrize("path", sorted(COURSE_EXPLORERS))
def test_client_equals_server_in_every_state(
    page: Page, nojs_page: Page, base_url: str, path: str
) -> None:
    explorer = COURSE_EXPLORERS[path]
    page.goto(base_url + path)
    page.wait_for_selector(f"#{explorer.spec.id} input.px-range:not([hidden])")
    checked = 0
    for query, target in states(explorer):
        move(page, explorer, target)
        client = read(page, explorer)
        nojs_page.goto(base_url + path + "?" + "&".join(f"{k}={v}" for k, v in query.items()))
        assert client == read(nojs_page, explorer), query
        checked += 1
    assert checked >= 2
