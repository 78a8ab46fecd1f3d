"""The search index: Pagefind reads the rendered lesson pages and writes a static index.

This is the build stage after rendering. Pagefind (its binary ships inside the
``pagefind-bin-extended`` wheel) stems Spanish and English from each page's
``lang``, splits the index into small chunks a browser fetches per query, and
needs no server, so search works from any static host and offline. Only what a
lesson marks ``data-pagefind-body`` is indexed; navigation and explorer controls
are ``data-pagefind-ignore``. Formulas are indexed through their TeX annotation
(``x^{-2}=\\frac{1}{x^2}``, not the MathML's run-together letters), so ``log`` or
``frac`` find the formulas that use them and a result's excerpt stays legible.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor

from pagefind.index import IndexConfig
from pagefind.service import PagefindService

FOLDER = "pagefind"
"""Where the index and Pagefind's UI files go in the site."""

FORMULA_LETTERS = "math > semantics > :not(annotation)"
"""A formula's presentation MathML: its TeX annotation is what the index reads instead."""

UNUSED = ("pagefind-component-ui.", "pagefind-modular-ui.", "pagefind-highlight.")
"""Pagefind's other UIs: the site uses its default UI only, so these are not shipped."""


class SearchIndexError(Exception):
    """Pagefind could not index the site (missing binary, crashed service)."""


def search_index(files: Mapping[str, bytes], pages: Iterable[str]) -> dict[str, bytes]:
    """Index ``pages`` (paths in ``files``) and return the index's files under :data:`FOLDER`."""
    pages = list(pages)
    # A thread of its own: asyncio.run needs a thread without a running event loop, and
    # the caller may have one (serve's worker threads, a test driving a browser).
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(lambda: asyncio.run(_index(files, pages))).result()
    except (OSError, AssertionError, RuntimeError) as exc:
        raise SearchIndexError(f"search index: {exc}") from exc


async def _index(files: Mapping[str, bytes], pages: list[str]) -> dict[str, bytes]:
    config: IndexConfig = {"write_playground": False, "exclude_selectors": [FORMULA_LETTERS]}
    # The service, not PagefindIndex's context manager: that one also writes to disk.
    async with PagefindService() as service:
        index = await service.create_index(config)
        for path in pages:
            url = "/" + path.removesuffix("index.html")
            await index.add_html_file(content=files[path].decode(), url=url)
        produced = await index.get_files()
    return {
        f"{FOLDER}/{item['path']}": item["content"]
        for item in produced
        if not item["path"].startswith(UNUSED)
    }
