"""Asset URLs that name their content: ``assets/pizarra.css?v=3f9a0c1d2e``.

A browser, or a CDN in front of a built site, may then keep an asset as long as it
likes: when a new pizarra changes a stylesheet or a script, its pages link a new URL,
so no page meets a stale one. Under ``serve`` a reload then asks for none of them again
(0.04 s of the lesson page's way to its DOM in Chromium). The math fonts keep plain
URLs: their subset depends on the whole course, known only once its pages are rendered.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources

from pizarra.render.answers import answer_assets
from pizarra.render.assets import math_css
from pizarra.render.explorers import explorer_assets

SITE_STATIC = ("pizarra.css", "theme.js", "site.js", "favicon.svg")
"""Files of ``static/`` every site ships in ``assets/``."""

VERSION = "v"
"""The query parameter that carries an asset's version."""


@cache
def fixed_assets() -> dict[str, bytes]:
    """The assets that are the same for every course, by name: read once per process,
    as pizarra's code is."""
    static = resources.files("pizarra.render") / "static"
    found = {name: (static / name).read_bytes() for name in SITE_STATIC}
    found["math.css"] = math_css().encode("utf-8")
    return found | explorer_assets() | answer_assets()


def content_version(data: bytes) -> str:
    """The version an asset with these bytes is linked with."""
    return hashlib.sha256(data).hexdigest()[:10]


@cache
def _versions() -> dict[str, str]:
    return {name: content_version(data) for name, data in fixed_assets().items()}


def asset_url(name: str) -> str:
    """``name``, a file of ``assets/``, as pages link it: with its version if it has one."""
    version = _versions().get(name)
    return f"{name}?{VERSION}={version}" if version else name
