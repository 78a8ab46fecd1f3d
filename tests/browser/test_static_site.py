"""The built site on a plain static file server, under a sub-path, in Chromium: every
page accessible and quiet, the 404 page, chart labels, code highlighting and copying."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.axe import run_axe
from tests.browser.conftest import SUB, BuiltSite, Quiet, open_quietly
from tests.browser.test_lesson import LOGS, PATH

pytestmark = pytest.mark.browser

CONFIGS = [(scheme, width) for scheme in ("light", "dark") for width in (1280, 360)]
STATE_PAGE = re.compile(r"/[^/]+(?<!/404)\.html$")
"""An explorer's state page, of any kind: every other page is a folder's index.html
(or the 404 page)."""


def site_pages(site: BuiltSite) -> list[str]:
    """Every HTML page of the build, as paths under the site's URL."""
    names = sorted(p.relative_to(site.out).as_posix() for p in site.out.rglob("*.html"))
    return ["/" + n.removesuffix("index.html") for n in names]


@pytest.mark.slow
@pytest.mark.parametrize("tree", ["es", "en"])
@pytest.mark.parametrize(("scheme", "width"), CONFIGS)
def test_every_page_has_no_axe_violations_and_no_console_errors(
    browser: Browser, static_site: BuiltSite, axe_path: str, scheme: str, width: int, tree: str
) -> None:
    """Each page in four looks (light and dark, 1280 and 360 px); the explorers' state
    pages share one template, so each of them is checked in one of the four looks. One
    test a language tree, so that parallel workers share the work."""
    pages = site_pages(static_site)
    assert {"/", "/404.html", PATH, LOGS.path} <= set(pages)
    assert any(STATE_PAGE.search(p) for p in pages) and any("verificacion" in p for p in pages)
    kinds = ("-n-", "-a-", "-T-")  # growth, function and distribution states
    assert all(any(k in p for p in pages if STATE_PAGE.search(p)) for k in kinds)
    assert not any(STATE_PAGE.search(p) for p in ("/", "/404.html", "/en/404.html", PATH))
    assert "/indice/" in pages
    pages = [p for p in pages if p.startswith("/en/") == (tree == "en")]
    assert PATH in pages or "/en/logarithms/" in pages
    states = [p for p in pages if STATE_PAGE.search(p)]
    mine = [p for i, p in enumerate(states) if i % len(CONFIGS) == CONFIGS.index((scheme, width))]
    context = browser.new_context(
        viewport={"width": width, "height": 800}, color_scheme=scheme, reduced_motion="reduce"
    )
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    quiet = Quiet(page)
    found: dict[str, Any] = {}
    for path in [p for p in pages if p not in states] + mine:
        quiet.goto(static_site.url + path)
        violations = run_axe(page, axe_path)
        quiet.wait()  # nothing the page asked for is cut off by the next one
        if violations:
            found[path] = violations
    context.close()
    assert found == {}
    assert problems == []


def test_the_index_page_is_linked_from_the_course_page_and_leads_to_each_place(
    nojs_page: Page, static_site: BuiltSite
) -> None:
    nojs_page.goto(static_site.url + "/")
    nojs_page.get_by_role("link", name="Índice alfabético de términos").click()
    nojs_page.wait_for_url("**/indice/")
    assert nojs_page.locator("h1").inner_text() == "Índice alfabético"
    links = nojs_page.locator(".index-terms a")
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
    assert len(hrefs) >= 5 and all("#index-" in href for href in hrefs)
    for href in hrefs:
        nojs_page.goto(static_site.url + "/indice/" + href)
        assert nojs_page.locator("#" + href.split("#")[1]).count() == 1, href


def test_404_page_works_under_a_sub_path(page: Page, static_site: BuiltSite) -> None:
    broken: list[str] = []
    page.on("response", lambda r: broken.append(r.url) if r.status >= 400 else None)
    html = (static_site.out / "404.html").read_text(encoding="utf-8")
    rooted = re.findall(r'(?:href|src)="(/[^"]*)"', html)
    assert rooted == [], "a link from / would leave the sub-path"
    response = open_quietly(page, static_site.url + "/no-existe")
    assert response is not None and response.status == 404
    assert page.locator("h1").inner_text() == "Página no encontrada"
    sheets = page.evaluate("Array.from(document.styleSheets).map(s => s.href)")
    assert any(s.split("?")[0].endswith(f"{SUB}/assets/pizarra.css") for s in sheets)
    assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).display") == (
        "flex"
    )
    page.get_by_role("link", name=re.compile("^Lección 7")).click()
    page.wait_for_url(static_site.url + PATH)
    page.goto(static_site.url + "/no-existe")
    page.get_by_role("link", name="Volver al curso").click()
    page.wait_for_url(static_site.url + "/")
    assert broken == [static_site.url + "/no-existe"] * 2, "only the missing page is missing"


LABELS = """() => Array.from(document.querySelectorAll('.px-chart svg text')).map((t) => {
  const svg = t.ownerSVGElement;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const box = t.getBoundingClientRect();
  const frame = svg.getBoundingClientRect();
  return {text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale,
          shown: box.width > 0, left: box.left, right: box.right, top: box.top,
          bottom: box.bottom,
          inside: box.left >= frame.left - 0.5 && box.right <= frame.right + 0.5};
}).filter((label) => label.shown)"""


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("path", [PATH, LOGS.path])
def test_chart_labels_are_at_least_12_css_pixels_and_never_overlap(
    browser: Browser, static_site: BuiltSite, path: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 740})
    page = context.new_page()
    open_quietly(page, static_site.url + path)
    labels = page.evaluate(LABELS)
    context.close()
    assert len(labels) >= 10
    # The rendered size: the computed font size times the SVG's scale.
    small = [(label["text"], round(label["px"], 2)) for label in labels if label["px"] < 12]
    assert small == []
    assert [label["text"] for label in labels if not label["inside"]] == []
    overlaps = [
        (a["text"], b["text"])
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
        if a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    ]
    assert overlaps == []


CONTRAST = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  return Array.from(document.querySelectorAll('.cell-code .hl span[class]')).map((s) => {
    const [a, b] = [lum(rgb(getComputedStyle(s).color)), lum(background(s))];
    return [s.className, s.textContent, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
  });
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_code_is_highlighted_in_colours_that_meet_aa(
    browser: Browser, static_site: BuiltSite, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    open_quietly(page, static_site.url + PATH)
    spans = page.evaluate(CONTRAST)
    colours = set(
        page.locator(
            ".cell-code .hl span.kn, .cell-code .hl span.mi, .cell-code .hl span.n"
        ).evaluate_all("l => l.map(s => getComputedStyle(s).color)")
    )
    context.close()
    classes = {name for name, _, _ in spans}
    assert {"kn", "mi", "n", "o"} <= classes, "Pygments' token classes are in the page"
    assert len(colours) >= 3, "keywords, numbers and names are told apart by colour"
    low = [(name, text, round(ratio, 2)) for name, text, ratio in spans if ratio < 4.5]
    assert low == []


def test_copy_button_copies_the_code(browser: Browser, static_site: BuiltSite) -> None:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    open_quietly(page, static_site.url + PATH)
    cell = page.locator("figure.cell").first
    button = cell.locator("button[data-copy]")
    assert button.inner_text() == "Copiar el código"
    assert button.is_visible()
    button.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == cell.locator(".cell-code code").text_content()
    assert copied.startswith("import numpy as np\n")
    assert button.inner_text() == "Copiado"
    context.close()


def test_without_javascript_the_code_is_there_and_no_copy_button(
    nojs_page: Page, static_site: BuiltSite
) -> None:
    nojs_page.goto(static_site.url + PATH)
    cell = nojs_page.locator("figure.cell").first
    assert cell.locator(".cell-code .hl span.kn").first.inner_text() == "import"
    assert not cell.locator("button[data-copy]").is_visible()
