"""Parsed lessons kept between runs: an unchanged lesson file is not parsed again.

A lesson's parse depends on its bytes, its path, the course folder, pizarra's code,
and the files it names: the images it shows (which must exist, inside the course,
not too large) and the BibTeX files it cites from. :class:`ParseCache` keeps only
parses without any diagnostic, under a hash of the first four, with the stat of each
image and the hash of each BibTeX file; a kept parse is used only while those match.
Parses are kept in memory (``serve`` rebuilds the same course again and again) and
in the ``parsed`` kind of the cache between runs, compressed.

Beside each parse its outline is kept (the ``outlines`` kind, :func:`outline`). A
build of many lessons whose results are kept needs only the outlines of those
lessons: loading one takes 0.07 ms, a whole parse 3.3 ms (0.65 s of a one-line edit
of a 200-lesson course). A cache made ``ParseCache(outlines=True)`` answers with
outlines, and :meth:`ParseCache.whole` gives a lesson its body back when it must be
verified after all.
"""

from __future__ import annotations

import copyreg
import dataclasses
import hashlib
import io
import operator
import os
import pickle
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it.token import Token

from pizarra.base.cache import Cache
from pizarra.base.recent import Recent
from pizarra.pipeline.fingerprint import code_fingerprint
from pizarra.pipeline.outlines import filled, outline, reparsed
from pizarra.source.model import Lesson

KIND = "parsed"
"""The cache kind of parsed lessons."""

OUTLINES = "outlines"
"""The cache kind of the kept parses' outlines."""

FORMAT = 2
"""Bumped whenever what is kept changes shape, or how it is stored."""

PACKING = 1
"""zlib's fastest level: a parse shrinks to a quarter (155 KB to 43 KB in 1.1 ms), and a
200-lesson course's parses fit the kind's budget (before, they filled it)."""

MEMORY = 128
"""Parsed lessons kept in memory beyond one a lesson file asked for (other versions)."""


@dataclass(frozen=True)
class _Kept:
    lesson: Lesson
    images: tuple[tuple[str, int, int], ...]
    """Each image file with its size and modification time."""
    bibliographies: tuple[tuple[str, str], ...]
    """Each BibTeX file with its SHA-256."""


VERSIONS = 2
"""Parses of one file kept in memory: its current text and the one before (an undo)."""

_MEMORY: Recent[str, _Kept] = Recent(MEMORY, per_group=VERSIONS)

_OUTLINES: Recent[str, _Kept] = Recent(MEMORY, per_group=VERSIONS)
"""Outlines read from the store, in memory: a server reads each again at every save."""


class ParseCache:
    """Clean parses of lesson files, in memory and in ``store``."""

    def __init__(
        self,
        store: Cache | None = None,
        later: bool = False,
        fresh: bool = False,
        outlines: bool = False,
    ) -> None:
        self.store = store
        self.later = later
        """With ``later``, :meth:`put` only notes a parse, and :meth:`keep` keeps it: a
        crew worker pickles its parses when it would otherwise wait."""
        self.fresh = fresh
        """Known to keep none of the files it is asked for (nothing was kept when the
        run began, :meth:`keeps_none`): :meth:`get` answers at once, with no key."""
        self.outlines = outlines
        """With ``outlines``, :meth:`get` answers from ``store`` with the outline of a
        kept parse (a parse kept in memory is whole, and is given whole)."""
        self._pending: list[tuple[Path, str, Path | None, bytes, _Kept]] = []
        self._outlined: dict[Path, tuple[str, Path | None]] = {}
        """The key and course folder of each file answered with an outline."""
        self._crewed: dict[Path, Path | None] = {}
        """The course folder of each file a crew worker outlined (:meth:`crew_outline`)."""
        self._asked: set[Path] = set()

    def keeps_none(self) -> bool:
        """True when no parse is kept at all, in memory or in ``store``: a first build,
        which need not hash pizarra's code (0.01 s) to know that none of its lessons is."""
        return len(_MEMORY) == 0 and (self.store is None or not self.store.holds_any(KIND))

    def get(self, path: Path, shown: str, root: Path | None, raw: bytes) -> Lesson | None:
        """The lesson parsed from ``raw`` before, if everything it read is unchanged."""
        if self.fresh:
            return None
        self._asked.add(path)
        for memory in (_MEMORY, _OUTLINES):  # every lesson of a served course
            memory.at_least(len(self._asked) + MEMORY)
        key = _key(path, shown, root, raw)
        kept = _MEMORY.get(key)
        if kept is None and self.store is not None and self.outlines:
            shown_only = _OUTLINES.get(key) or _load(self.store.get(OUTLINES, key))
            if shown_only is not None and _current(shown_only):
                _OUTLINES.put(key, shown_only, group=path)
                self._outlined[path] = (key, root)
                return shown_only.lesson
        if kept is None and self.store is not None:
            kept = _load(self.store.get(KIND, key))
        if kept is None or not _current(kept):
            return None
        _remember(key, kept)
        return kept.lesson

    def whole(self, lesson: Lesson) -> Lesson:
        """``lesson`` with its body, if :meth:`get` gave its outline (the course's
        version of it: with the course's macros); else ``lesson`` itself (a crew's
        outline too: its worker holds the body, and verifies it). A parse gone from the
        store since is made again from the outline's text."""
        found = self._outlined.get(lesson.path)
        if found is None:
            return lesson
        key, root = found
        kept = _MEMORY.get(key) or (_load(self.store.get(KIND, key)) if self.store else None)
        if kept is not None:
            _remember(key, kept)
            return filled(lesson, kept.lesson)
        return reparsed(lesson, root)

    def crew_outline(self, lesson: Lesson, root: Path | None) -> None:
        """``lesson`` is the outline a crew worker sent (see :meth:`whole_after`)."""
        self._crewed[lesson.path] = root

    def whole_after(self, lesson: Lesson) -> Lesson:
        """:meth:`whole`, for a page rendered after the run, once the crew's workers,
        which held their lessons' bodies, are gone: a crew's outline is parsed again.
        Never during the run: the main process would parse every lesson a second time."""
        if lesson.path in self._crewed:
            return reparsed(lesson, self._crewed[lesson.path])
        return self.whole(lesson)

    def holds(self, path: Path, shown: str, root: Path | None, raw: bytes) -> bool:
        """True when a parse of ``raw`` is kept, current or not (nothing is unpickled; the
        outline, a quarter of the parse, is asked for first)."""
        key = _key(path, shown, root, raw)
        if _MEMORY.get(key) is not None or _OUTLINES.get(key) is not None:
            return True
        if self.store is None:
            return False
        return any(self.store.get(kind, key) is not None for kind in (OUTLINES, KIND))

    def put(self, path: Path, shown: str, root: Path | None, raw: bytes, lesson: Lesson) -> None:
        """Keep a parse that had no diagnostic (with ``later``, note it for :meth:`keep`)."""
        kept = _Kept(
            lesson,
            tuple(_image_stat(image.file) for image in lesson.images()),
            tuple((str(bib), _digest(bib)) for bib in lesson.read_files()),
        )
        self._pending.append((path, shown, root, raw, kept))
        if not self.later:
            self.keep()

    def keep(self, stop: Callable[[], bool] | None = None) -> None:
        """Keep the parses noted so far, one by one until ``stop()`` is true (the others
        wait for the next call)."""
        while self._pending and not (stop is not None and stop()):
            path, shown, root, raw, kept = self._pending.pop(0)
            key = _key(path, shown, root, raw)
            _remember(key, kept)
            if self.store is not None:
                self.store.put(KIND, key, _dumps((FORMAT, kept)))
                bare = dataclasses.replace(kept, lesson=outline(kept.lesson))
                self.store.put(OUTLINES, key, _dumps((FORMAT, bare)))


_token_state = operator.attrgetter(*(f.name for f in dataclasses.fields(Token)))
"""A markdown-it token's fields, in the order its constructor takes them."""


def _reduce_token(token: Token) -> tuple[type[Token], tuple[Any, ...]]:
    return Token, _token_state(token)


_DISPATCH = {**copyreg.dispatch_table, Token: _reduce_token}


class _Pickler(pickle.Pickler):
    """Pickles tokens as their constructor's arguments. Most of a parse is tokens, which
    pickle's default for a class with slots writes as a dict of thirteen fields: 4.4 ms
    to dump a lesson and 5.2 ms to load it, against 1.9 ms and 3.6 ms this way."""

    dispatch_table = _DISPATCH


def _dumps(value: object) -> bytes:
    out = io.BytesIO()
    _Pickler(out, pickle.HIGHEST_PROTOCOL).dump(value)
    return zlib.compress(out.getvalue(), PACKING)


def _key(path: Path, shown: str, root: Path | None, raw: bytes) -> str:
    digest = hashlib.sha256()
    for part in (str(FORMAT), code_fingerprint(), str(path), shown, str(root)):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(raw)
    return digest.hexdigest()


def _remember(key: str, kept: _Kept) -> None:
    _MEMORY.put(key, kept, group=kept.lesson.path)


def _load(raw: bytes | None) -> _Kept | None:
    if raw is None:
        return None
    try:
        version, kept = pickle.loads(zlib.decompress(raw))
    except Exception:
        return None
    return kept if version == FORMAT and isinstance(kept, _Kept) else None


def _current(kept: _Kept) -> bool:
    images = all(
        _image_stat(Path(name)) == (name, size, mtime) for name, size, mtime in kept.images
    )
    return images and all(_digest(Path(name)) == digest for name, digest in kept.bibliographies)


def _image_stat(path: Path) -> tuple[str, int, int]:
    try:
        info = os.stat(path)
    except OSError:
        return (str(path), -1, -1)
    return (str(path), info.st_size, info.st_mtime_ns)


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"
