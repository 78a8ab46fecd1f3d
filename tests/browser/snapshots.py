"""What an explorer of a kind with parameters shows, read the same way from a page
the server rendered and from one the script changed: every text, shape and state."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

SNAPSHOT = """(selector) => {
  const root = document.querySelector(selector);
  const all = (s) => Array.from(root.querySelectorAll(s));
  const text = (s) => all(s).map((e) => e.textContent);
  const attrs = (s, names) => all(s).map((e) => names.map((n) => e.getAttribute(n)));
  return {
    values: text("[data-value]"),
    valuetexts: all("input.px-range").map((e) => [e.getAttribute("aria-valuetext"), e.value]),
    links: text(".px-states [aria-current]"),
    readouts: text("[data-readout]"),
    summary: root.querySelector("[data-summary]").textContent,
    paths: attrs("[data-path]", ["d"]),
    labels: attrs("[data-label]", ["y"]),
    marks: attrs("[data-mark]", ["cx", "cy"]),
    bars: attrs("[data-bar]", ["width"]),
    cells: text("[data-cell]"),
    percents: text("[data-percent]"),
  };
}"""


def snapshot(page: Page, selector: str) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(SNAPSHOT, selector)
    return result


def set_state(page: Page, selector: str, indices: tuple[int, ...]) -> None:
    """Move each slider to ``indices`` as a pointer would (one ``input`` event each)."""
    page.evaluate(
        """([selector, indices]) => {
          const ranges = document.querySelectorAll(selector + " input.px-range");
          indices.forEach((v, i) => {
            ranges[i].value = String(v);
            ranges[i].dispatchEvent(new Event("input", {bubbles: true}));
          });
        }""",
        [selector, list(indices)],
    )
