"""Every page of the bundled course runs under its Content-Security-Policy with no
violation: scripts only from the site, no inline script, only the MathML's own styles."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage

from pizarra.check.code_cells import ResultCache
from pizarra.check.kernel.execute import KernelRunner
from pizarra.math.mathml import MathCoreRenderer
from pizarra.pipeline.build import verify
from pizarra.pipeline.tools import Tools
from tests.browser.conftest import Quiet, ServedCourse

WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI + " " + e.sample);
});
"""


def _pages(root: Path) -> list[str]:
    tools = Tools(MathCoreRenderer(), KernelRunner(), ResultCache.under(root))
    report = verify(root, tools)
    assert not report.failed(), [d.format() for d in report.diagnostics]
    pages = [
        "/" + name.removesuffix("index.html") for name in report.files if name.endswith(".html")
    ]
    assert report.course is not None
    lessons = [f"/{lesson.slug}/" for lesson in report.course.lessons()]
    assert set(lessons) <= set(pages)
    return sorted(pages) + [f"{p}?n=2048" for p in lessons]


@pytest.mark.slow
@pytest.mark.parametrize("tree", ["es", "en"])
def test_every_page_runs_without_csp_violations(
    browser: Browser, bundled_course: ServedCourse, tree: str
) -> None:
    """One test a language tree, so that parallel workers share the pages."""
    pages = [p for p in _pages(bundled_course.root) if p.startswith("/en/") == (tree == "en")]
    assert len(pages) >= 4, pages
    context = browser.new_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    messages: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            messages.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    quiet = Quiet(page)
    try:
        for path in pages:
            response = quiet.goto(bundled_course.url + path)
            assert response is not None
            assert "script-src 'self'" in response.headers["content-security-policy"]
            violations = page.evaluate("window.__cspViolations")
            assert violations == [], f"{path}: {violations}"
            lesson = path.count("/") == 2 and path.endswith("/") and path != "/en/"
            if lesson and "indice" not in path:
                assert page.locator("math").count() > 0
        assert messages == []
    finally:
        context.close()


def test_an_inline_script_would_be_reported(browser: Browser, bundled_course: ServedCourse) -> None:
    """The watch above does see violations: the test cannot pass by seeing nothing."""
    context = browser.new_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    try:
        page.goto(bundled_course.url + "/", wait_until="networkidle")
        page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.x = 1'; document.body.append(s); }"
        )
        page.wait_for_timeout(200)
        violations = page.evaluate("window.__cspViolations")
        assert any(v.startswith("script-src") for v in violations), violations
        assert page.evaluate("window.x") is None
    finally:
        context.close()


pytestmark = pytest.mark.browser
