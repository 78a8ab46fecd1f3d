"""The search index: Pagefind reads the rendered lesson pages and writes a static index.

This is the build stage after rendering. Pagefind (its binary ships inside the
``pagefind-bin-extended`` wheel) stems Spanish and English from each page's
``lang``, splits the index into small chunks a browser fetches per query, and
needs no server, so search works from any static host and offline. Only what a
lesson marks ``data-pagefind-body`` is indexed; navigation and explorer controls
are ``data-pagefind-ignore``. Formulas are indexed through their TeX annotation
(``x^{-2}=\\frac{1}{x^2}``, not the MathML's run-together letters), so ``log`` or
``frac`` find the formulas that use them and a result's excerpt stays legible; Pagefind
is handed each page with that MathML already dropped (:func:`searchable`).

pizarra speaks the binary's ``--service`` protocol itself (base64 JSON messages, each
ended by a comma) instead of through the ``pagefind`` package's asyncio client: that
client sleeps 0.1 s before reading each answer, so 20 lessons cost two seconds of
waiting. Here every request is written at once and the answers are read as they come.

The index depends on the indexed pages' bytes and on Pagefind alone, so it is kept in
the ``search`` kind of the cache under a hash of both: a build whose pages did not
change reuses it instead of starting Pagefind.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import os
import queue
import selectors
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pizarra.site.searchable import searchable, unpacked

if TYPE_CHECKING:
    from pizarra.base.cache import Cache

FOLDER = "pagefind"
"""Where the index and Pagefind's UI files go in the site."""

FORMULA_LETTERS = "math > semantics > :not(annotation)"
"""A formula's presentation MathML: its TeX annotation is what the index reads instead."""

Texts = Mapping[str, tuple[bytes, bytes]]
"""What Pagefind reads of pages (:func:`~pizarra.site.searchable.packed`), made where each
was rendered: by path, the page's bytes with it, so a text is used only for those bytes."""

_Page = tuple[str, bytes, bytes | None]
"""A page for the index: its path, its bytes, and what Pagefind reads of it if made
(:func:`~pizarra.site.searchable.packed`)."""

UNUSED = ("pagefind-component-ui.", "pagefind-modular-ui.", "pagefind-highlight.")
"""Pagefind's other UIs: the site uses its default UI only, so these are not shipped."""

KIND = "search"
"""The cache kind of whole search indexes."""

CONFIG: dict[str, Any] = {"write_playground": False, "exclude_selectors": [FORMULA_LETTERS]}
"""Pagefind's index options: no playground; formulas indexed by their TeX."""

TIMEOUT = 120.0
"""Seconds the whole index may take before the build gives up on it."""


NICER = 10
"""How much nicer (lower CPU priority, as ``nice`` counts) Pagefind runs in the
background."""


class SearchIndexError(Exception):
    """Pagefind could not index the site (missing binary, crashed service)."""


def search_index(
    files: Mapping[str, bytes], pages: Iterable[str], store: Cache | None = None
) -> dict[str, bytes]:
    """Index ``pages`` (paths in ``files``) and return the index's files under :data:`FOLDER`;
    from ``store`` when the same pages were indexed by the same Pagefind before."""
    return start_search_index(files, pages, store)()


def start_search_index(
    files: Mapping[str, bytes],
    pages: Iterable[str],
    store: Cache | None = None,
    feed: IndexFeed | None = None,
    background: bool = False,
    texts: Texts | None = None,
) -> Callable[[], dict[str, bytes]]:
    """:func:`search_index` with Pagefind at work in the background until the returned
    function is called for the index, so a build checks its links meanwhile. ``files``
    must not change until then; ``store`` is used by the calling thread only.

    ``feed`` is Pagefind already given pages while they were rendered: used if it was
    given exactly these pages, else ended. With ``background``, Pagefind runs at a
    lower CPU priority (:class:`IndexFeed`). ``texts`` spares reading again the pages
    it holds a text of, with the same bytes."""
    pages = list(pages)
    key = _key(files, pages, CONFIG) if store is not None else ""
    kept = _unpack(store.get(KIND, key)) if store is not None else None
    if feed is not None and (kept is not None or not feed.holds(files, pages)):
        feed.end()
        feed = None
    if kept is not None:
        return lambda: kept
    if feed is None:
        feed = IndexFeed(background)
        for path in pages:
            page, known = files[path], (texts or {}).get(path)
            feed.add(path, page, known[1] if known is not None and known[0] == page else None)
    feed.close()

    def finish() -> dict[str, bytes]:
        produced = feed.files()
        if isinstance(produced, (OSError, KeyError, TypeError, ValueError, binascii.Error)):
            raise SearchIndexError(f"search index: {produced}") from produced
        if isinstance(produced, BaseException):
            raise produced
        try:
            index = {
                f"{FOLDER}/{item['path']}": base64.b64decode(item["content"])
                for item in produced
                if not item["path"].startswith(UNUSED)
            }
        except (KeyError, TypeError, binascii.Error) as exc:
            raise SearchIndexError(f"search index: {exc}") from exc
        if store is not None:
            store.put(KIND, key, _pack(index))
        return index

    return finish


class IndexFeed:
    """One Pagefind index being made in the background, page by page.

    A build hands each lesson page to it as soon as the page is rendered, while other
    lessons are still being verified, so the index is mostly made by the time the last
    page is: Pagefind costs the build its start and the last pages, not every page.
    The pages waiting when Pagefind is free are sent to it at once (a build whose
    lessons all come from the cache gives it 200 at a time): 2.1 s for 200 pages,
    against 2.65 s asked one by one.
    """

    def __init__(self, background: bool = False) -> None:
        self.background = background
        """Pagefind runs :data:`NICER` steps nicer: ``serve`` indexes after the page has
        reloaded, and a save that comes meanwhile is rebuilt first."""
        self.given: list[tuple[str, bytes]] = []
        """The pages given so far, in order."""
        self._queue: queue.SimpleQueue[_Page | bool] = queue.SimpleQueue()
        self._outcome: list[list[dict[str, Any]] | BaseException] = []
        self._thread = threading.Thread(target=self._work, name="pagefind", daemon=True)
        self._thread.start()

    def add(self, path: str, page: bytes, indexed: bytes | None = None) -> None:
        """Index ``page``, the site's file ``path``; ``indexed`` is what Pagefind reads
        of it (:func:`~pizarra.site.searchable.packed`), when it was made with the page."""
        self.given.append((path, page))
        self._queue.put((path, page, indexed))

    def holds(self, files: Mapping[str, bytes], pages: list[str]) -> bool:
        """Whether it was given exactly ``pages`` as ``files`` has them, in that order."""
        return [p for p, _ in self.given] == pages and all(
            files.get(path) == page for path, page in self.given
        )

    def close(self) -> None:
        """No more pages: Pagefind writes the index."""
        self._queue.put(True)

    def end(self) -> None:
        """No index is wanted: Pagefind is stopped."""
        self._queue.put(False)

    def files(self) -> list[dict[str, Any]] | BaseException:
        """The index's files as Pagefind gives them, or what went wrong (after close)."""
        self._thread.join()
        return self._outcome[0] if self._outcome else OSError("pagefind was stopped")

    def _work(self) -> None:
        try:
            with _Service(NICER if self.background else 0) as service:
                index = service.ask([{"type": "NewIndex", "config": CONFIG}])[0]["index_id"]
                done: bool | None = None  # True: write the index; False: stop
                while done is None:
                    batch: list[dict[str, Any]] = []
                    item: _Page | bool | None = self._queue.get()
                    while item is not None:  # the pages already waiting, at once
                        if isinstance(item, bool):
                            done = item
                            break
                        batch.append(_add_file(index, *item))
                        item = self._take()
                    if batch:
                        service.ask(batch)
                if done:
                    request = {"type": "GetFiles", "index_id": index}
                    self._outcome.append(service.ask([request])[-1]["files"])
        except BaseException as exc:  # raised again by files(), in the caller's thread
            self._outcome.append(exc)

    def _take(self) -> _Page | bool | None:
        """The next item if one is waiting, else None."""
        try:
            return self._queue.get_nowait()
        except queue.Empty:
            return None


def _add_file(index: object, path: str, page: bytes, indexed: bytes | None) -> dict[str, Any]:
    text = unpacked(indexed) if indexed is not None else searchable(page.decode())
    return {
        "type": "AddFile",
        "index_id": index,
        "url": "/" + path.removesuffix("index.html"),
        "file_contents": text,
        "file_path": None,
    }


def _key(files: Mapping[str, bytes], pages: list[str], config: dict[str, Any]) -> str:
    """What the index depends on: the pages, the configuration and the binary."""
    digest = hashlib.sha256(json.dumps([config, UNUSED]).encode())
    binary = pagefind_binary()
    if binary is not None:
        with contextlib.suppress(OSError):
            info = os.stat(binary)
            digest.update(f"{binary}\0{info.st_size}\0{info.st_mtime_ns}".encode())
    for path in pages:
        digest.update(path.encode() + b"\0" + hashlib.sha256(files[path]).digest())
    return digest.hexdigest()


def pagefind_binary() -> Path | None:
    """The Pagefind binary, where ``pagefind.service.get_executable`` looks for it
    (``PAGEFIND_BINARY_PATH``, then the ``pagefind-bin-extended`` wheel), without
    importing that module's asyncio client unless it must (0.014 s of every build)."""
    given = os.environ.get("PAGEFIND_BINARY_PATH")
    if given is not None:
        return Path(given)
    try:
        from pagefind_bin_extended import get_executable  # type: ignore[import-untyped]
    except ImportError:  # another install: the package's own search
        from pagefind.service import get_executable as find

        return find()
    found: Path = get_executable()
    return found


def _pack(index: Mapping[str, bytes]) -> bytes:
    """The index's files as one value: a JSON list of names and sizes, then the bytes."""
    head = json.dumps([[name, len(data)] for name, data in sorted(index.items())]).encode()
    return b"".join([len(head).to_bytes(8, "big"), head, *(index[n] for n in sorted(index))])


def _unpack(raw: bytes | None) -> dict[str, bytes] | None:
    if raw is None or len(raw) < 8:
        return None
    try:
        size = int.from_bytes(raw[:8], "big")
        names = json.loads(raw[8 : 8 + size])
        index, at = {}, 8 + size
        for name, length in names:
            if not index_file(name):
                return None
            index[name] = raw[at : at + int(length)]
            at += int(length)
    except (ValueError, TypeError):
        return None
    return index if at == len(raw) else None


def index_file(name: object) -> bool:
    """Whether ``name`` can be a file of the search index: a plain relative path inside
    its folder. A kept index is read from the cache, so its names are checked: one that
    named a lesson page, or climbed out of the folder, would replace a file of the site."""
    if not isinstance(name, str) or not name.startswith(f"{FOLDER}/") or len(name) > 300:
        return False
    parts = name.split("/")
    return all(
        part not in ("", ".", "..") and "\\" not in part and "\0" not in part for part in parts
    )


class _Service:
    """One ``pagefind --service`` process, ended when the block is left."""

    def __init__(self, nicer: int = 0) -> None:
        binary = pagefind_binary()
        if binary is None:
            raise OSError("the pagefind binary is missing")
        self.proc = subprocess.Popen(
            [str(binary), "--service"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        if nicer:
            with contextlib.suppress(OSError, AttributeError):  # a priority is a nicety
                mine = os.getpriority(os.PRIO_PROCESS, 0)
                os.setpriority(os.PRIO_PROCESS, self.proc.pid, min(mine + nicer, 19))
        self.deadline = time.monotonic() + TIMEOUT
        self.sent = 0
        self.buffer = b""

    def __enter__(self) -> _Service:
        return self

    def __exit__(self, *exc: object) -> None:
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):  # a broken pipe hides the real error
                    stream.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def ask(self, payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Send ``payloads``; their answers, in the same order (an error raises)."""
        first = self.sent + 1
        data = b"".join(
            base64.b64encode(json.dumps({"message_id": first + i, "payload": p}).encode()) + b","
            for i, p in enumerate(payloads)
        )
        self.sent += len(payloads)
        writer = threading.Thread(target=self._write, args=(data,), daemon=True)
        writer.start()
        answers: dict[int, dict[str, Any]] = {}
        while len(answers) < len(payloads):
            message = self._next()
            payload = message.get("payload") or {}
            if payload.get("type") == "Error":
                raise ValueError(f"pagefind: {payload.get('message', 'unknown error')}")
            if isinstance(message.get("message_id"), int):
                answers[message["message_id"]] = payload
        writer.join()
        return [answers[first + i] for i in range(len(payloads))]

    def _write(self, data: bytes) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(data)
            stdin.flush()
        except OSError:
            pass  # the reader sees the process end

    def _next(self) -> dict[str, Any]:
        """The next answer (a JSON object), waiting at most until the deadline."""
        stdout = self.proc.stdout
        assert stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"," not in self.buffer:
                remaining = self.deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    raise OSError("pagefind took too long")
                chunk = os.read(stdout.fileno(), 1 << 20)
                if not chunk:
                    raise OSError("pagefind ended before answering")
                self.buffer += chunk
        raw, _, self.buffer = self.buffer.partition(b",")
        message = json.loads(base64.b64decode(raw))
        if not isinstance(message, dict):
            raise ValueError("pagefind sent something that is not a JSON object")
        return message
