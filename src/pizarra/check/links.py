"""Every internal link and ``#anchor`` of the built site must exist: checked offline.

Runs on the rendered files themselves (what a reader gets): each page's ids, then
each ``href``/``src`` resolved against it (:mod:`pizarra.check.html_scan` reads them).
Parsing is the costly half, and a page's ids and links depend on its bytes alone,
so :class:`PageScans` keeps them by the page's SHA-256 (in memory, and in the
``links`` kind of the cache between runs); every link of every page is still
resolved on every run, so a page whose target vanished is caught though the page
itself did not change. Lesson pages come already read (by the worker that rendered
them, :mod:`pizarra.pipeline.lessons`); only the course's own pages are read here.

A page found with no broken link is remembered as such, in memory by its scan and in
the ``links-clean`` kind by its bytes' SHA-256, with the files its links point to and
the SHA-256 of each file a link points into. A later run (the next command, after a
one-line edit) finds it still clean, with nothing resolved, if its bytes, those files
and those digests are unchanged: resolving the 72,000 links of a 200-lesson course
took 1.2 s of every build after an edit.
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from functools import lru_cache
from posixpath import dirname, join, normpath
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.recent import Recent
from pizarra.check.html_scan import PageScan, scan_page

if TYPE_CHECKING:
    from pizarra.base.cache import Cache

KIND = "links"
"""The cache kind of page scans."""

CLEAN_KIND = "links-clean"
"""The cache kind of pages found with no broken link."""

MEMORY = 128
"""Page scans kept in memory (a served site's pages, rebuilt again and again)."""


_MEMORY: Recent[bytes, PageScan] = Recent(MEMORY)


class PageScans:
    """Page scans by the page's SHA-256: from memory, then ``store``, else parsed."""

    def __init__(self, store: Cache | None = None, version: str = "") -> None:
        self.store = store
        self.version = version
        """What the judgement of a link depends on besides the pages: pizarra's code.
        A page is remembered clean in ``store`` under it, so another version of
        pizarra judges every page again."""
        self.parsed = 0
        """Pages parsed by this object (the others were known)."""

    def scan(self, data: bytes) -> PageScan:
        found = _MEMORY.get(data)  # by the bytes themselves: a kept page costs no hashing
        if found is None and self.store is not None:
            key = hashlib.sha256(data).hexdigest()
            found = _decode(self.store.get(KIND, key))
            if found is None:
                found = scan_page(data)
                self.parsed += 1
                self.store.put(KIND, key, _encode(found))
        if found is None:
            found = scan_page(data)
            self.parsed += 1
        return _MEMORY.put(data, found)


def _encode(scan: PageScan) -> bytes:
    value = {"ids": sorted(scan.ids), "repeated": scan.repeated, "links": scan.links}
    return json.dumps(value).encode()


def _decode(raw: bytes | None) -> PageScan | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
        links = tuple((str(href), int(line)) for href, line in value["links"])
        return PageScan(frozenset(value["ids"]), tuple(value["repeated"]), links)
    except (ValueError, TypeError, KeyError):
        return None


def check_links(
    files: Mapping[str, bytes],
    origins: Mapping[str, str],
    sources: Mapping[str, str] | None = None,
    scans: PageScans | None = None,
    ready: Mapping[str, PageScan] | None = None,
    unrendered: tuple[str, ...] = (),
) -> list[Diagnostic]:
    """Broken internal links in ``files``; ``origins`` maps a page to its source file and
    ``sources`` to that file's text, where each broken link is looked for to give its line.
    ``ready`` holds pages already read (each the scan of exactly ``files[page]``).
    Links into the folders ``unrendered`` (lessons not rendered, for their errors) are not
    judged: whether they break is known once those lessons are fixed."""
    known = scans if scans is not None else PageScans()
    done = ready or {}
    pages = {
        name: done.get(name) or known.scan(data)
        for name, data in files.items()
        if name.endswith(".html")
    }
    kept = _KeptClean(known.store, known.version, files) if known.store is not None else None
    return _broken(files, pages, origins, sources, unrendered, kept)


CLEAN = 4096
"""Pages remembered as having no broken link, with what made them so (a served site of
a few hundred lessons, each with its state and report pages)."""

_Clean = tuple[PageScan, tuple[str, ...], tuple[tuple[str, PageScan | None], ...]]
"""A page when it was last found with no broken link: its scan, the files its links
point to, and the scan of each file one of them points into (``#fragment``)."""

_CLEAN: Recent[str, _Clean] = Recent(CLEAN)


class _KeptClean:
    """Pages found clean by earlier runs, in ``store``: each under its name, its bytes'
    SHA-256 and ``version``, with its targets and the SHA-256 of each file it links into."""

    def __init__(self, store: Cache, version: str, files: Mapping[str, bytes]) -> None:
        self.store = store
        self.version = version
        self.files = files
        self._digests: dict[str, str | None] = {}
        self._kept: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str | None], ...]]] = {}

    def load(self, pages: Iterable[str]) -> None:
        """Read what is kept of ``pages``, in a few queries."""
        keys = {self._key(page): page for page in pages}
        for key, raw in self.store.get_many(CLEAN_KIND, keys).items():
            try:
                value = json.loads(raw)
                targets = tuple(str(t) for t in value["targets"])
                into = tuple((str(t), None if d is None else str(d)) for t, d in value["into"])
            except (ValueError, TypeError, KeyError):
                continue
            self._kept[keys[key]] = (targets, into)

    def still_clean(self, page: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """The files ``page`` links to and those it links into, if it was found clean
        with these bytes, its targets all exist and the files it links into have the
        bytes they had; else None."""
        kept = self._kept.get(page)
        if kept is None:
            return None
        targets, into = kept
        if not all(t in self.files for t in targets):
            return None
        if not all(self.digest(t) == d for t, d in into):
            return None
        return targets, tuple(t for t, _ in into)

    def put(self, page: str, targets: tuple[str, ...], into: Iterable[str]) -> None:
        value = {"targets": list(targets), "into": [[t, self.digest(t)] for t in into]}
        self.store.put(CLEAN_KIND, self._key(page), json.dumps(value).encode())

    def digest(self, name: str) -> str | None:
        if name not in self._digests:
            data = self.files.get(name)
            self._digests[name] = None if data is None else _sha256(name, data)
        return self._digests[name]

    def _key(self, page: str) -> str:
        digest = hashlib.sha256(f"{self.version}\0{page}\0{self.digest(page)}".encode())
        return digest.hexdigest()


_DIGESTS: Recent[str, tuple[bytes, str]] = Recent(CLEAN)
"""Each file's SHA-256 beside the very bytes object it is of. A server's unchanged pages
are the same objects from one rebuild to the next, and the glossary links into every
lesson: without it each save hashed all 200 lesson pages (34 MB) again."""


def _sha256(name: str, data: bytes) -> str:
    known = _DIGESTS.get(name)
    if known is not None and known[0] is data:  # held here, so never another object's id
        return known[1]
    digest = hashlib.sha256(data).hexdigest()
    _DIGESTS.put(name, (data, digest))
    return digest


def _broken(
    files: Mapping[str, bytes],
    scans: Mapping[str, PageScan],
    origins: Mapping[str, str],
    sources: Mapping[str, str] | None,
    unrendered: tuple[str, ...] = (),
    kept: _KeptClean | None = None,
) -> list[Diagnostic]:
    """Every broken link and repeated id of every page. A page found clean before is
    clean now if its scan is the very same object, the files it links to all exist, and
    those it links into have the very same scans: a served site's rebuild resolves the
    links of what changed, not the 4,600 links of twenty lessons (0.008 s), while a
    target that vanished or lost an id brings the pages that use it back to be resolved."""
    errors = []
    unknown = [
        page for page, scan in scans.items() if not _clean_in_memory(page, scan, files, scans)
    ]
    if kept is not None:
        kept.load(unknown)
    for page in unknown:
        scan = scans[page]
        known = kept.still_clean(page) if kept is not None else None
        if known is not None:  # and in memory now, for a server's next rebuild
            targets, into = known
            _CLEAN.put(page, (scan, targets, tuple((t, scans.get(t)) for t in into)))
            continue
        found = _problems(page, scan, files, scans, origins, sources, unrendered)
        if not found:
            targets, read = _targets(page, scan, scans)
            _CLEAN.put(page, (scan, targets, read))
            if kept is not None:
                kept.put(page, targets, (target for target, _ in read))
        errors += found
    return errors


def _clean_in_memory(
    page: str, scan: PageScan, files: Mapping[str, bytes], scans: Mapping[str, PageScan]
) -> bool:
    kept = _CLEAN.get(page)
    return kept is not None and _still_clean(kept, scan, files, scans)


def _still_clean(
    kept: _Clean,
    scan: PageScan,
    files: Mapping[str, bytes],
    scans: Mapping[str, PageScan],
) -> bool:
    was, targets, read = kept
    return (
        was is scan
        and all(target in files for target in targets)
        and all(scans.get(target) is known for target, known in read)
    )


def _targets(
    page: str, scan: PageScan, scans: Mapping[str, PageScan]
) -> tuple[tuple[str, ...], tuple[tuple[str, PageScan | None], ...]]:
    """The files the page's links point to within the site, and the scan of each one
    a link points into."""
    targets: set[str] = set()
    into: set[str] = set()
    for href, _ in scan.links:
        target, fragment, _problem = _target(page, href)
        if target:
            targets.add(target)
            if fragment:
                into.add(target)
    return tuple(sorted(targets)), tuple((target, scans.get(target)) for target in sorted(into))


def _problems(
    page: str,
    scan: PageScan,
    files: Mapping[str, bytes],
    scans: Mapping[str, PageScan],
    origins: Mapping[str, str],
    sources: Mapping[str, str] | None,
    unrendered: tuple[str, ...] = (),
) -> list[Diagnostic]:
    errors = []
    for repeated in dict.fromkeys(scan.repeated):
        errors.append(
            Diagnostic(
                SourcePos(origins.get(page, page), 1, 1),
                f"the id {repeated!r} is used twice in {page}",
                hint="give the heading, label or explorer that makes it another name",
            )
        )
    finder = _SourceFinder((sources or {}).get(page, ""))
    for href, line in scan.links:
        if unrendered and _target(page, href)[0].startswith(unrendered):
            continue
        problem = _resolve(page, href, files, scans)
        if problem:
            where = SourcePos(origins.get(page, page), 1 if page in origins else line, 1)
            if page in origins:
                where = finder.find(href, where)
            errors.append(
                Diagnostic(
                    where,
                    f"broken link in {page}: {href} ({problem})",
                    hint="fix the reference in the source, or publish the page it points to",
                )
            )
    return errors


def _resolve(
    page: str, href: str, files: Mapping[str, bytes], scans: Mapping[str, PageScan]
) -> str:
    target, fragment, problem = _target(page, href)
    if problem or not target:
        return problem
    if target != page and target not in files:
        return f"no file {target}"
    if fragment:
        scan = scans.get(target)
        if scan is None or unquote(fragment) not in scan.ids:
            return f"no element with id {fragment!r} in {target}"
    return ""


@lru_cache(maxsize=1 << 16)
def _target(page: str, href: str) -> tuple[str, str, str]:
    """The file ``href`` on ``page`` points to ("" outside the site), its fragment, and
    the problem if it leaves the site: pure, so kept across pages and rebuilds."""
    if _PLAIN.fullmatch(href):  # most links: what urlsplit would make of them, 4x sooner
        written, _, fragment = href.partition("#")
    else:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            return "", "", ""
        written, fragment = parts.path, parts.fragment
    if not written:
        return page, fragment, ""
    base = "" if written.startswith("/") else dirname(page)
    path = normpath(join(base, unquote(written).lstrip("/")))
    if path.startswith(".."):
        return "", "", "points outside the site"
    if href.endswith("/") or written.endswith("/") or path == ".":
        path = join(path, "index.html") if path != "." else "index.html"
    return path, fragment, ""


_PLAIN = re.compile(r"(?!//)[^:?#\x00-\x20\x7f]*(?:#[^\x00-\x20\x7f]*)?")
"""An href with no scheme, authority, query, space or control character: its path and
its fragment are what :func:`urllib.parse.urlsplit` gives, split at the first ``#``."""


class _SourceFinder:
    """Where the n-th broken ``href`` of a page is written in its source (``](href``,
    ``<href>`` or ``]: href``), searched after the previous match of the same ``href``."""

    def __init__(self, text: str):
        self._text = text
        self._starts: list[int] | None = None
        self._cursor: dict[str, int] = {}

    def find(self, href: str, default: SourcePos) -> SourcePos:
        text = self._text
        start = self._cursor.get(href, 0)
        hits = [
            (at + len(before), len(written))
            for written in dict.fromkeys((href, unquote(href)))
            for before, after in (("](", ""), ("<", ">"), ("]: ", ""))
            if (at := text.find(before + written + after, start)) >= 0
        ]
        if not hits:
            return default
        at, length = min(hits)
        self._cursor[href] = at + length
        if self._starts is None:
            self._starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
        line = bisect_right(self._starts, at) - 1
        return SourcePos(default.path, line + 1, at - self._starts[line] + 1)
