"""The SQLite side of the cache: each kind's schema, patience with other processes' locks,
and pruning a kind to its budget."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable

KEEP_RUNS = 5
"""Entries used by one of this many most recent runs are kept while pruning allows."""


BUSY_TIMEOUT_MS = 5_000
"""How long to wait for another process's write before giving up on this one."""


SCHEMA = (
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


CURRENT = "entries_used_size"
"""The index only the current schema has: a database that has it needs no change."""


LOCKED = ("SQLITE_BUSY", "SQLITE_LOCKED")
"""SQLite's answers while another connection holds the lock a step needs."""


def is_current(connection: sqlite3.Connection) -> bool:
    """True when the schema is all there (an open need not write then); False when unsure."""
    query = "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?"
    try:
        return connection.execute(query, (CURRENT,)).fetchone() is not None
    except sqlite3.OperationalError:
        return False  # made, or found, by make_schema


def make_schema(connection: sqlite3.Connection) -> None:
    connection.execute("BEGIN IMMEDIATE")
    try:
        for statement in SCHEMA:
            connection.execute(statement)
        connection.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise


def patiently(step: Callable[[], object]) -> None:
    """``step``, tried again while the database is locked, until the busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.001
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorname not in LOCKED:
                raise
            if time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def prune_to(db: sqlite3.Connection, budget: int) -> None:
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
