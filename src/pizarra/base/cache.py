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
or read-only database only makes the run slower.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

FLUSH_EVERY = 512
"""Buffered writes that trigger a commit before :meth:`Cache.flush` is called."""

MANY = 500
"""Keys one query of :meth:`Cache.get_many` asks for (SQLite allows 32,766 parameters)."""

KEEP_RUNS = 5
"""Entries used by one of this many most recent runs are kept while pruning allows."""

DEFAULT_BUDGET = 64 * 2**20
"""Bytes a kind may hold before pruning (values only; the database adds a little)."""

BUSY_TIMEOUT_MS = 5_000
"""How long to wait for another process's write before giving up on this one."""

_KIND = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS entries (
        key TEXT PRIMARY KEY,
        value BLOB NOT NULL,
        size INTEGER NOT NULL,
        used INTEGER NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS entries_used_size ON entries (used, size)",
    "DROP INDEX IF EXISTS entries_used",
)
"""The statements that make a kind's table, run in one transaction: the table, and an
index that covers every query of pruning. ``size`` comes after the value in a row, so
without the index summing the sizes reads every value (30 ms for a kind at its budget,
at every commit that brings a value). A database made with the older index, on
``used`` alone, is given this one when it is first opened."""

_CURRENT = "entries_used_size"
"""The index only the current schema has: a database that has it needs no change."""

_LOCKED = ("SQLITE_BUSY", "SQLITE_LOCKED")
"""SQLite's answers while another connection holds the lock a step needs."""


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

    def __init__(self, root: Path, budgets: dict[str, int] | None = None) -> None:
        self.root = root
        """The cache folder (``$PIZARRA_CACHE_DIR`` or ``.pizarra-cache``)."""
        self.budgets = dict(budgets or {})
        """Byte budget per kind; :data:`DEFAULT_BUDGET` for the others."""
        self.run = time.time_ns()
        """This run's stamp, put on every entry it reads or writes; worker processes
        of one build inherit it, so a run is a build, not a process."""
        self._lock = threading.Lock()
        self._kinds: dict[str, _Kind | None] = {}
        self._pid = os.getpid()

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
            except sqlite3.Error:
                return None
            if row is None:
                return None
            store.used.add(key)
            self._maybe_flush(kind, store)
            return bytes(row[0])

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
                except sqlite3.Error:
                    return found
                for key, value in rows:
                    found[key] = bytes(value)
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
            except sqlite3.Error:
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
                del self._kinds[kind]  # opened again, by whoever writes it

    def _open(self, kind: str, make: bool = True) -> _Kind | None:
        """The kind's database, opened on first use. Without ``make``, a kind that has no
        database yet is None, and is not made: nothing can be read from it."""
        if self._pid != os.getpid():
            self._kinds = {}
            self._pid = os.getpid()
        if kind in self._kinds:  # only a valid name gets there
            return self._kinds[kind]
        path = self._path(kind)
        if not make and not path.exists():
            return None  # another process may make it later: asked again then
        store: _Kind | None = None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            _ignore_in_git(self.root)
            store = _Kind(_connect(path))
        except (OSError, sqlite3.Error):
            store = None
        self._kinds[kind] = store
        return store

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
        db = store.connection
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(
                "INSERT OR REPLACE INTO entries (key, value, size, used) VALUES (?, ?, ?, ?)",
                [(k, v, len(v), self.run) for k, v in puts.items()],
            )
            db.executemany(
                "UPDATE entries SET used = MAX(used, ?) WHERE key = ?",
                [(self.run, k) for k in used],
            )
            if prune and puts:  # only new values can take a kind over its budget
                _prune(db, self.budgets.get(kind, DEFAULT_BUDGET))
            db.execute("COMMIT")
        except sqlite3.Error:
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
        _patiently(lambda: connection.execute("PRAGMA journal_mode=WAL"))
        connection.execute("PRAGMA synchronous=NORMAL")
        if not _is_current(connection):
            _patiently(lambda: _make_schema(connection))
    except BaseException:
        connection.close()
        raise
    return connection


def _is_current(connection: sqlite3.Connection) -> bool:
    """True when the schema is all there (an open need not write then); False when unsure."""
    query = "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?"
    try:
        return connection.execute(query, (_CURRENT,)).fetchone() is not None
    except sqlite3.OperationalError:
        return False  # made, or found, by _make_schema


def _make_schema(connection: sqlite3.Connection) -> None:
    connection.execute("BEGIN IMMEDIATE")
    try:
        for statement in _SCHEMA:
            connection.execute(statement)
        connection.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise


def _patiently(step: Callable[[], object]) -> None:
    """``step``, tried again while the database is locked, until the busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.001
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorname not in _LOCKED:
                raise
            if time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _prune(db: sqlite3.Connection, budget: int) -> None:
    """Bring the kind under ``budget``: entries no recent run used first, then the
    least recently used."""
    total = int(db.execute("SELECT COALESCE(SUM(size), 0) FROM entries").fetchone()[0])
    if total <= budget:
        return
    recent = db.execute(
        "SELECT DISTINCT used FROM entries ORDER BY used DESC LIMIT 1 OFFSET ?", (KEEP_RUNS - 1,)
    ).fetchone()
    if recent is not None:
        db.execute("DELETE FROM entries WHERE used < ?", (recent[0],))
    total = int(db.execute("SELECT COALESCE(SUM(size), 0) FROM entries").fetchone()[0])
    if total <= budget:
        return
    excess = total - budget
    freed = 0
    doomed = []
    for key, size in db.execute("SELECT key, size FROM entries ORDER BY used, key"):
        doomed.append((key,))
        freed += int(size)
        if freed >= excess:
            break
    db.executemany("DELETE FROM entries WHERE key = ?", doomed)


def _ignore_in_git(root: Path) -> None:
    marker = root / ".gitignore"
    if not marker.exists():
        with contextlib.suppress(OSError):
            marker.write_text("*\n", encoding="utf-8")


def cache_dir() -> Path:
    """Where derived assets are kept between builds.

    ``$PIZARRA_CACHE_DIR`` if set, else ``.pizarra-cache/`` in the current directory:
    next to the project (so CI can cache it with the workspace and ``git clean`` removes
    it) rather than in the home folder, which containers and CI often throw away.
    """
    env = os.environ.get("PIZARRA_CACHE_DIR")
    return Path(env) if env else Path.cwd() / ".pizarra-cache"


def default_cache() -> Cache:
    """The cache under :func:`cache_dir`."""
    return Cache(cache_dir())
