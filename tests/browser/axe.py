"""axe-core's WCAG rules run in a page, reporting its violations only.

The run asks axe to aggregate violations alone and hands back only those: on a lesson
page the full result (every pass and every node's HTML) took a third to a half of each
run to build and to carry over the DevTools protocol. Which violations are found does
not change.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

RULES = "['wcag2a','wcag2aa','wcag21a','wcag21aa','wcag22aa']"
AXE_RUN = (
    f"axe.run(document, {{runOnly: {{type: 'tag', values: {RULES}}}, resultTypes: ['violations']}})"
    ".then((r) => r.violations.map((v) => ({id: v.id, nodes: v.nodes.map((n) => n.target)})))"
)


@cache
def _source(axe_path: str) -> str:
    return Path(axe_path).read_text(encoding="utf-8")


def run_axe(page: Page, axe_path: str | None = None) -> list[dict[str, Any]]:
    """The page's violations as ``{"id", "nodes"}``; axe is put in the page first unless
    ``axe_path`` is None (it is there already). It is evaluated through the DevTools
    protocol: the pages' CSP forbids inline scripts."""
    if axe_path is not None:
        page.evaluate(_source(axe_path))
    found: list[dict[str, Any]] = page.evaluate(AXE_RUN)
    return found
