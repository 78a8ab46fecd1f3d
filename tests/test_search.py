"""The search index stage: Pagefind over rendered pages, in memory."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pizarra.site.search import FOLDER, IndexFeed, search_index, start_search_index

PAGE = """<!doctype html><html lang="{lang}"><head><title>t</title></head><body>
<nav>Menú que no se indexa</nav>
<article data-pagefind-body><h1>{title}</h1>
<h2 id="seccion">Potencias</h2>
<p>Las potencias crecen. <math><semantics><mrow><mi>x</mi><mo>⁢</mo><mi>y</mi></mrow>
<annotation encoding="application/x-tex">\\frac{{x}}{{y}}</annotation></semantics></math></p>
</article></body></html>"""


def fragments(files: dict[str, bytes]) -> list[dict[str, object]]:
    found = []
    for path, data in files.items():
        if "/fragment/" in path:
            text = gzip.decompress(data).decode().removeprefix("pagefind_dcd")
            found.append(json.loads(text))
    return found


def test_indexes_lesson_pages_with_their_language_and_formulas_by_tex(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    files = {
        "uno/index.html": PAGE.format(lang="es", title="Uno").encode(),
        "two/index.html": PAGE.format(lang="en", title="Two").encode(),
        "otra/index.html": PAGE.format(lang="es", title="Otra").encode(),
    }
    index = search_index(files, ["uno/index.html", "two/index.html"])
    assert f"{FOLDER}/pagefind-ui.js" in index and f"{FOLDER}/pagefind.js" in index
    assert not [p for p in index if "component-ui" in p or "playground" in p]
    entry = json.loads(index[f"{FOLDER}/pagefind-entry.json"])
    assert set(entry["languages"]) == {"es", "en"}
    pages = {str(f["url"]): f for f in fragments(index)}
    assert set(pages) == {"/uno/", "/two/"}
    content = str(pages["/uno/"]["content"])
    assert "\\frac{x}{y}" in content
    assert "xy" not in content.replace(" ", "").replace("\\frac{x}{y}", "")
    assert "Menú" not in content
    assert pages["/uno/"]["anchors"] != []
    assert list(tmp_path.iterdir()) == [], "nothing is written to disk"


def test_works_where_an_event_loop_is_running() -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    async def inside() -> dict[str, bytes]:
        page = PAGE.format(lang="es", title="Uno").encode()
        return search_index({"uno/index.html": page}, ["uno/index.html"])

    # A thread of its own: the browser tests may have left a loop on this one.
    with ThreadPoolExecutor(1) as pool:
        index = pool.submit(asyncio.run, inside()).result()
    assert f"{FOLDER}/pagefind-entry.json" in index


def test_a_service_that_ends_without_answering_is_a_search_index_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pizarra.site.search import SearchIndexError

    monkeypatch.setenv("PAGEFIND_BINARY_PATH", "/bin/true")
    with pytest.raises(SearchIndexError, match="ended before answering"):
        search_index({"uno/index.html": b"<html></html>"}, ["uno/index.html"])


def test_a_build_whose_index_fails_reports_it_with_its_links_checked_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pagefind runs beside the link check; its failure still reaches the report."""
    from pizarra.check.kernel.execute import KernelRunner
    from pizarra.pipeline.build import verify
    from pizarra.pipeline.tools import Tools
    from tests.support import FIXTURES, fake_math

    monkeypatch.setenv("PAGEFIND_BINARY_PATH", "/bin/true")
    report = verify(FIXTURES / "site" / "course", Tools(fake_math, KernelRunner(), None))
    [failure] = [d for d in report.diagnostics if "search index" in d.message]
    assert "ended before answering" in failure.message
    assert "pagefind-bin-extended" in failure.hint
    assert not any(name.startswith(f"{FOLDER}/") for name in report.files)


def _pages() -> dict[str, bytes]:
    return {
        "uno/index.html": PAGE.format(lang="es", title="Uno").encode(),
        "two/index.html": PAGE.format(lang="en", title="Two").encode(),
    }


def test_pages_given_while_rendered_make_the_same_index() -> None:
    files = _pages()
    feed = IndexFeed()
    for path in files:
        feed.add(path, files[path])
    fed = start_search_index(files, list(files), None, feed)()
    fresh = search_index(files, list(files))
    entry = f"{FOLDER}/pagefind-entry.json"  # Pagefind lists languages in any order
    assert json.loads(fed.pop(entry)) == json.loads(fresh.pop(entry))
    assert fed == fresh


def test_a_feed_given_other_pages_is_not_used() -> None:
    files = _pages()
    feed = IndexFeed()
    feed.add("uno/index.html", PAGE.format(lang="es", title="Vieja").encode())
    feed.add("two/index.html", files["two/index.html"])
    assert not feed.holds(files, list(files))
    index = start_search_index(files, list(files), None, feed)()
    titles = [str(f["meta"]) for f in fragments(index)]
    assert any("Uno" in t for t in titles) and not any("Vieja" in t for t in titles)


def test_a_feed_given_fewer_pages_is_not_used() -> None:
    files = _pages()
    feed = IndexFeed()
    feed.add("uno/index.html", files["uno/index.html"])
    assert not feed.holds(files, list(files))
    index = start_search_index(files, list(files), None, feed)()
    assert {str(f["url"]) for f in fragments(index)} == {"/uno/", "/two/"}


def test_an_ended_feed_gives_no_index() -> None:
    feed = IndexFeed()
    feed.add("uno/index.html", _pages()["uno/index.html"])
    feed.end()
    assert isinstance(feed.files(), OSError)


def test_a_feed_closed_before_the_site_is_rendered_is_used() -> None:
    """A build closes the feed when its last lesson is done, before the site's other
    pages exist: the index it made then is the one used."""
    files = _pages()
    feed = IndexFeed()
    for path in files:
        feed.add(path, files[path])
    feed.close()
    files["index.html"] = b"<!doctype html><title>course</title>"  # rendered meanwhile
    fed = start_search_index(files, ["uno/index.html", "two/index.html"], None, feed)()
    assert {str(f["url"]) for f in fragments(fed)} == {"/uno/", "/two/"}


def test_a_feed_closed_with_other_pages_is_not_used() -> None:
    files = _pages()
    feed = IndexFeed()
    feed.add("uno/index.html", PAGE.format(lang="es", title="Vieja").encode())
    feed.add("two/index.html", files["two/index.html"])
    feed.close()
    index = start_search_index(files, list(files), None, feed)()
    titles = [str(f["meta"]) for f in fragments(index)]
    assert any("Uno" in t for t in titles) and not any("Vieja" in t for t in titles)


def test_a_build_closes_the_feed_before_rendering_the_site(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """So Pagefind writes the index while the course pages are rendered and the links
    checked, and the build waits for it less."""
    import pizarra.pipeline.build
    from pizarra.check.kernel.execute import KernelRunner
    from pizarra.pipeline.build import verify
    from pizarra.pipeline.tools import Tools
    from tests.support import FIXTURES, fake_math

    events: list[str] = []
    feeds: list[IndexFeed] = []
    close, render_site = IndexFeed.close, pizarra.pipeline.build.render_site

    def closing(feed: IndexFeed) -> None:
        feeds.append(feed)
        events.append("close")
        close(feed)

    def rendering(*args: Any) -> dict[str, bytes]:
        events.append("render")
        return render_site(*args)

    monkeypatch.setattr(IndexFeed, "close", closing)
    monkeypatch.setattr(pizarra.pipeline.build, "render_site", rendering)
    report = verify(FIXTURES / "site" / "course", Tools(fake_math, KernelRunner(), None))
    assert events[:2] == ["close", "render"]
    assert len(set(map(id, feeds))) == 1, "the closed feed made the index"
    assert any(name.startswith(f"{FOLDER}/index/") for name in report.files)


def test_pagefind_reads_formulas_as_their_tex_only() -> None:
    from pizarra.site.searchable import _without_presentation_math as searchable

    page = PAGE.format(lang="es", title="Uno") + '<math display="block"><mi>z</mi></math>'
    shown = searchable(page)
    assert "<span>\\frac{x}{y}</span></p>" in shown
    assert "<mi>x</mi>" not in shown and "<semantics>" not in shown
    assert shown.endswith('<math display="block"><mi>z</mi></math>'), "no TeX: left as it is"
    assert shown.replace("<span>\\frac{x}{y}</span>", "") == page.replace(
        page[page.index("<math>") : page.index("</math>") + 7], ""
    )
    assert searchable("<p>sin fórmulas</p>") == "<p>sin fórmulas</p>"


def test_the_index_of_a_lesson_is_the_index_of_its_whole_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Dropping the MathML changes Pagefind's work, not what it writes."""
    import pizarra.site.search
    from pizarra.math.mathml import MathCoreRenderer

    math = MathCoreRenderer()
    formulas = ["2^{10} = 1024", "\\sqrt{x^2} = |x|", "\\frac{n^2}{2}", "\\log_2 8 = 3"]
    body = "".join(
        f"<p>Paso {i}: {math(tex, i % 2 == 0)} y sigue.</p>" for i, tex in enumerate(formulas)
    )
    page = PAGE.format(lang="es", title="Uno").replace("</article>", body + "</article>")
    files = {"uno/index.html": page.encode()}
    slim = search_index(files, ["uno/index.html"])
    monkeypatch.setattr(pizarra.site.search, "searchable", lambda page: page)
    whole = search_index(files, ["uno/index.html"])
    assert slim == whole
    assert "\\sqrt{x^2}" in str(fragments(slim)[0]["content"])


def test_the_binary_is_found_where_the_pagefind_package_looks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    import pagefind.service

    from pizarra.site.search import pagefind_binary

    monkeypatch.delenv("PAGEFIND_BINARY_PATH", raising=False)
    wheel = pagefind_binary()
    assert wheel is not None and wheel.is_file() and wheel.name.startswith("pagefind")
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", "/opt/pagefind")
    assert pagefind_binary() == Path("/opt/pagefind")
    monkeypatch.delenv("PAGEFIND_BINARY_PATH")
    monkeypatch.setitem(sys.modules, "pagefind_bin_extended", None)  # not installed
    monkeypatch.setattr(pagefind.service, "get_executable", lambda: Path("/elsewhere/pagefind"))
    assert pagefind_binary() == Path("/elsewhere/pagefind")


def test_an_index_made_in_the_background_runs_pagefind_nicer() -> None:
    from pizarra.site import search

    mine = os.getpriority(os.PRIO_PROCESS, 0)
    with search._Service(search.NICER) as background, search._Service() as foreground:
        assert os.getpriority(os.PRIO_PROCESS, foreground.proc.pid) == mine
        assert os.getpriority(os.PRIO_PROCESS, background.proc.pid) == min(mine + search.NICER, 19)


def test_an_index_made_in_the_background_is_the_same_index() -> None:
    files = _pages()
    background = start_search_index(files, list(files), background=True)()
    fresh = search_index(files, list(files))
    entry = f"{FOLDER}/pagefind-entry.json"  # Pagefind lists languages in any order
    assert json.loads(background.pop(entry)) == json.loads(fresh.pop(entry))
    assert background == fresh


LESSON_PAGE = """<!doctype html><html lang="es"><head><title>t</title></head><body>
<aside><nav><a href="../uno/">Uno</a></nav></aside><main>
<article class="lesson" data-pagefind-body><h1>Uno</h1>
<div class="narrow-nav" data-pagefind-ignore><nav><a href="../uno/">Uno</a></nav></div>
<div class="lesson-body"><article class="inner"><p>Dentro</p></article>
<p>Texto</p><script type="application/json">{"a": "<\\/p>"}</script></div>
</article><nav class="lesson-nav"><a href="../dos/">Dos</a></nav></main>
<script src="x.js"></script></body></html>"""


def test_pagefind_is_given_only_the_head_and_the_element_it_indexes() -> None:
    from pizarra.site.searchable import searchable

    shown = searchable(LESSON_PAGE)
    assert shown.startswith('<!doctype html><html lang="es"><head><title>t</title></head><body>')
    assert '<article class="lesson" data-pagefind-body><h1>Uno</h1>' in shown
    assert '<article class="inner"><p>Dentro</p></article>\n<p>Texto</p>' in shown
    assert "<aside>" not in shown and "narrow-nav" not in shown and "lesson-nav" not in shown
    assert "<script" not in shown
    assert shown.endswith("</div>\n</article></body></html>")
    assert searchable("<html><body><p>sin cuerpo</p></body></html>").endswith("</p></body></html>")
    unended = LESSON_PAGE.replace("</article><nav", "<nav").replace("</article>\n<p>", "<p>")
    assert "<aside>" in searchable(unended), "an element whose end is not found: all of it"


def test_the_index_of_rendered_lessons_is_the_index_of_their_whole_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What Pagefind is not given is what it would not have indexed: the index of the
    pages as they are rendered, navigation and all, is the same byte for byte."""
    import pizarra.site.search
    from pizarra.check.kernel.execute import KernelRunner
    from pizarra.pipeline.build import verify
    from pizarra.pipeline.tools import Tools
    from tests.support import FIXTURES, fake_math

    report = verify(FIXTURES / "site" / "course", Tools(fake_math, KernelRunner(), None))
    assert not report.failed() and report.course is not None
    from pizarra.render.pages import lesson_path

    pages = [lesson_path(lesson) for lesson in report.course.lessons()]
    assert len(pages) >= 2 and all(b"narrow-nav" in report.files[p] for p in pages)
    slim = search_index(report.files, pages)
    import pizarra.site.searchable

    real = pizarra.site.searchable._without_presentation_math
    monkeypatch.setattr(pizarra.site.search, "searchable", real)
    whole = search_index(report.files, pages)
    assert slim == whole
