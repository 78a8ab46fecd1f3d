"""Every cache pizarra keeps between runs: one SQLite file per kind, bounded and shared.

A kind ("claims", "cells", "fonts", "lessons"...) is one table in its own database,
``<root>/<kind>.sqlite3``, in WAL mode: readers never wait for a writer, and several
pizarra processes (a build and a server, the workers of one build) can use it at once.
Values are bytes under string keys; what they mean belongs to the caller.

Writes are buffered and committed in one transaction per :meth:`Cache.flush` (or every
:data:`FLUSH_EVERY` writes), so a build writes a few transactions, not a file and a
rename per entry. Every entry remembers the last run that used it; when a kind grows
past its byte budget, entries unused by the last :data:`KEEP_RUNS` runs go first, then
the least recently used. A cache is best effort throughout: a missing, locked, corrupt
or read-only database only makes the run slower, and after the first time another
process's lock made it wait :data:`BUSY_TIMEOUT_MS`, a run uses no cache at all.

A cache is untrusted input (a pull request may commit one): every value is stored with
a tag made with this machine's key (:mod:`pizarra.base.trust`), a value whose tag does
not match is not there, and a folder this machine did not make is not used.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pizarra.base import trust
from pizarra.base.cache_db import (
    BUSY_TIMEOUT_MS,
    LOCKED,
    is_current,
    make_schema,
    patiently,
    prune_to,
)

FLUSH_EVERY = 512
"""Buffered writes that trigger a commit before :meth:`Cache.flush` is called."""

MANY = 500
"""Keys one query of :meth:`Cache.get_many` asks for (SQLite allows 32,766 parameters)."""

DEFAULT_BUDGET = 64 * 2**20
"""Bytes a kind may hold before pruning (values only; the database adds a little)."""

_KIND = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


@dataclass
class _Kind:
    """One open database and what is waiting to be written to it."""

    connection: sqlite3.Connection
    """Opened by this process (connections do not survive a fork)."""
    puts: dict[str, bytes] = field(default_factory=dict)
    """New values, not yet committed."""
    used: set[str] = field(default_factory=set)
    """Keys read this run, whose stamp is not yet committed."""


class Cache:
    """Values by kind and key under ``root``; safe across threads and processes."""

    def __init__(
        self, root: Path, budgets: dict[str, int] | None = None, key: bytes | None = None
    ) -> None:
        self.root = root
        """The cache folder (``$PIZARRA_CACHE_DIR``, else the user's cache folder)."""
        self.budgets = dict(budgets or {})
        """Byte budget per kind; :data:`DEFAULT_BUDGET` for the others."""
        self.run = time.time_ns()
        """This run's stamp, put on every entry it reads or writes; worker processes
        of one build inherit it, so a run is a build, not a process."""
        self._lock = threading.Lock()
        self._kinds: dict[str, _Kind | None] = {}
        self._pid = os.getpid()
        self._key = key
        self._trusted: bool | None = None
        self.given_up = False
        """True once a lock held by another process made this run wait its full timeout:
        the rest of the run uses no cache (one wait, not one per entry)."""

    def get(self, kind: str, key: str) -> bytes | None:
        """The value stored under ``key``, or None."""
        with self._lock:
            store = self._open(kind, make=False)
            if store is None:
                return None
            pending = store.puts.get(key)
            if pending is not None:
                return pending
            try:
                row = store.connection.execute(
                    "SELECT value FROM entries WHERE key = ?", (key,)
                ).fetchone()
            except sqlite3.Error as exc:
                self._failed(exc)
                return None
            value = None if row is None else self._opened(kind, key, bytes(row[0]))
            if value is None:
                return None
            store.used.add(key)
            self._maybe_flush(kind, store)
            return value

    def get_many(self, kind: str, keys: Iterable[str]) -> dict[str, bytes]:
        """The values stored under those of ``keys`` that have one: :meth:`get` for many
        keys at a time, one query per :data:`MANY` keys instead of one per key."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, bytes] = {}
        with self._lock:
            store = self._open(kind, make=False)
            if store is None:
                return found
            for key in wanted:
                if key in store.puts:
                    found[key] = store.puts[key]
            rest = [key for key in wanted if key not in found]
            for start in range(0, len(rest), MANY):
                chunk = rest[start : start + MANY]
                marks = ",".join("?" * len(chunk))
                try:
                    rows = store.connection.execute(
                        f"SELECT key, value FROM entries WHERE key IN ({marks})", chunk
                    ).fetchall()
                except sqlite3.Error as exc:
                    self._failed(exc)
                    return found
                for key, stored in rows:
                    value = self._opened(kind, key, bytes(stored))
                    if value is not None:
                        found[key] = value
                        store.used.add(key)
            self._maybe_flush(kind, store)
        return found

    def put(self, kind: str, key: str, value: bytes) -> None:
        """Store ``value`` under ``key`` (committed by the next flush)."""
        with self._lock:
            store = self._open(kind)
            if store is None:
                return
            store.puts[key] = bytes(value)
            self._maybe_flush(kind, store)

    def flush(self) -> None:
        """Commit every buffered write and prune kinds over budget."""
        with self._lock:
            for kind, store in self._kinds.items():
                if store is not None and self._pid == os.getpid():
                    self._commit(kind, store, prune=True)

    def checkpoint(self) -> None:
        """Flush, then copy each open kind's write-ahead log into its database now.

        The last connection to close a database does it otherwise: a build's main
        process, after the site is written, for what its workers wrote (0.013 s for a
        20-lesson course's parses). Workers call this as they end, beside the main
        process's last steps. Passive: it never waits for another connection."""
        self.flush()
        with self._lock:
            if self._pid != os.getpid():
                return
            for store in self._kinds.values():
                if store is not None:
                    with contextlib.suppress(sqlite3.Error):
                        store.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Flush, then close every database (the cache reopens them on next use)."""
        self.flush()
        with self._lock:
            for store in self._kinds.values():
                if store is not None:
                    with contextlib.suppress(sqlite3.Error):
                        store.connection.close()
            self._kinds.clear()

    def __enter__(self) -> Cache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def holds_any(self, kind: str) -> bool:
        """True when the kind has an entry, committed or waiting for the next flush."""
        with self._lock:
            store = self._open(kind, make=False)
            if store is None:
                return False
            if store.puts:
                return True
            try:
                row = store.connection.execute("SELECT 1 FROM entries LIMIT 1").fetchone()
            except sqlite3.Error as exc:
                self._failed(exc)
                return False
            return row is not None

    def size(self, kind: str) -> int:
        """Bytes of values the kind holds (committed ones)."""
        with self._lock:
            store = self._open(kind, make=False)
            if store is None:
                return 0
            try:
                row = store.connection.execute("SELECT COALESCE(SUM(size), 0) FROM entries")
                return int(row.fetchone()[0])
            except sqlite3.Error:
                return 0

    def prepare(self, kinds: Iterable[str]) -> None:
        """Make the databases of ``kinds`` that do not exist yet, and close them: making
        one takes 4 to 15 ms (two writes to disk), opening one 0.5 ms. A build makes
        what it will write while its workers parse, instead of in a worker's first
        lesson or after the last page."""
        with self._lock:
            for kind in kinds:
                if kind in self._kinds or self._path(kind).exists():
                    continue
                store = self._open(kind)
                if store is not None:
                    with contextlib.suppress(sqlite3.Error):
                        store.connection.close()
                self._kinds.pop(kind, None)  # opened again, by whoever writes it

    def _open(self, kind: str, make: bool = True) -> _Kind | None:
        """The kind's database, opened on first use. Without ``make``, a kind that has no
        database yet is None, and is not made: nothing can be read from it."""
        if self._pid != os.getpid():
            self._kinds = {}
            self._pid = os.getpid()
        if self._busy():
            return None
        if kind in self._kinds:  # only a valid name gets there
            return self._kinds[kind]
        path = self._path(kind)
        if not self._trust():
            self._kinds[kind] = None
            return None
        if not make and not path.exists():
            return None  # another process may make it later: asked again then
        store: _Kind | None = None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            _ignore_in_git(self.root)
            store = _Kind(_connect(path))
        except (OSError, sqlite3.Error) as exc:
            self._failed(exc)
            store = None
        self._kinds[kind] = store
        return store

    def _trust(self) -> bool:
        """Whether this cache may be used: this machine's key is at hand and the folder
        is one this machine made (said once on standard error when not)."""
        if self._trusted is None:
            try:
                self._key = self._key if self._key is not None else trust.machine_key()
                trust.claim_folder(self.root, self._key)
                self._trusted = True
                _forget_old_flags(self.root)
            except trust.Untrusted as exc:
                print(f"pizarra: warning: {exc}; building without a cache", file=sys.stderr)
                self._trusted = False
            except OSError:
                self._trusted = False  # no folder to be had: a run without a cache
        return self._trusted

    def _opened(self, kind: str, key: str, stored: bytes) -> bytes | None:
        assert self._key is not None  # a store is open only once trusted
        return trust.opened(self._key, kind, key, stored)

    def _failed(self, exc: BaseException) -> None:
        """After a lock wait that ran out, the run gives up on every cache, in each of
        its processes: the flag file tells the workers of the same run."""
        if isinstance(exc, sqlite3.OperationalError) and (
            getattr(exc, "sqlite_errorname", None) in LOCKED or "locked" in str(exc)
        ):
            self.given_up = True
            with contextlib.suppress(OSError):
                self._busy_flag().touch()

    def _busy(self) -> bool:
        if not self.given_up and self._trusted and self._busy_flag().exists():
            self.given_up = True
        return self.given_up

    def _busy_flag(self) -> Path:
        return self.root / f".busy-{self.run}"

    def _path(self, kind: str) -> Path:
        """The kind's database file (a kind is a plain name, never a path)."""
        if not _KIND.match(kind):
            raise ValueError(f"invalid cache kind {kind!r}")
        return self.root / f"{kind}.sqlite3"

    def _maybe_flush(self, kind: str, store: _Kind) -> None:
        if len(store.puts) + len(store.used) >= FLUSH_EVERY:
            self._commit(kind, store, prune=False)

    def _commit(self, kind: str, store: _Kind, prune: bool) -> None:
        puts, used = store.puts, store.used
        store.puts, store.used = {}, set()
        if self._busy():
            return
        db = store.connection
        assert self._key is not None
        sealed = [(k, trust.seal(self._key, kind, k, v), len(v)) for k, v in puts.items()]
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(
                "INSERT OR REPLACE INTO entries (key, value, size, used) VALUES (?, ?, ?, ?)",
                [(k, v, size, self.run) for k, v, size in sealed],
            )
            db.executemany(
                "UPDATE entries SET used = MAX(used, ?) WHERE key = ?",
                [(self.run, k) for k in used],
            )
            if prune and puts:  # only new values can take a kind over its budget
                prune_to(db, self.budgets.get(kind, DEFAULT_BUDGET))
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._failed(exc)
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")


def _connect(path: Path) -> sqlite3.Connection:
    """A connection to the kind's database at ``path``, made in WAL mode with its schema
    if it is new (or brought up to date if it is older).

    Processes that make the same database at once (a build's workers) contend for it:
    switching to WAL answers "database is locked" at once, without waiting, while
    another connection holds a lock, and a process whose connection failed lost its
    writes for the whole run. That step is tried again until :data:`BUSY_TIMEOUT_MS`,
    and the schema is made in an immediate transaction, which waits for the others."""
    connection = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    try:
        patiently(lambda: connection.execute("PRAGMA journal_mode=WAL"))
        connection.execute("PRAGMA synchronous=NORMAL")
        if not is_current(connection):
            patiently(lambda: make_schema(connection))
    except BaseException:
        connection.close()
        raise
    return connection


def _ignore_in_git(root: Path) -> None:
    marker = root / ".gitignore"
    if not marker.exists():
        with contextlib.suppress(OSError):
            marker.write_text("*\n", encoding="utf-8")


def cache_dir() -> Path:
    """Where results are kept between runs.

    ``$PIZARRA_CACHE_DIR`` if set, else ``pizarra/`` in the user's cache folder
    (``$XDG_CACHE_HOME``, else ``~/.cache``): never inside the project, whose files may
    come from anyone. Point ``PIZARRA_CACHE_DIR`` only at a folder no contributor can
    write (a CI cache step keyed on the branch, not a folder of the repository).
    """
    env = os.environ.get("PIZARRA_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pizarra"


def default_cache() -> Cache:
    """The cache under :func:`cache_dir`."""
    return Cache(cache_dir())


def _forget_old_flags(root: Path) -> None:
    """Remove the busy flags of runs more than a day old."""
    day = time.time() - 86_400
    for flag in root.glob(".busy-*"):
        with contextlib.suppress(OSError):
            if flag.stat().st_mtime < day:
                flag.unlink()
