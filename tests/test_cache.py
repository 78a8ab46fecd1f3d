"""The shared cache: one SQLite file per kind, concurrent processes, bounded by pruning."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from pizarra.base import cache as cache_module
from pizarra.base import cache_db, trust
from pizarra.base.cache import Cache


def test_values_round_trip_and_persist(tmp_path: Path) -> None:
    with Cache(tmp_path) as first:
        assert first.get("claims", "k") is None
        first.put("claims", "k", b"value")
        assert first.get("claims", "k") == b"value"
        assert Cache(tmp_path).get("claims", "k") is None, "not committed before a flush"
    second = Cache(tmp_path)
    assert second.get("claims", "k") == b"value"
    assert second.get("cells", "k") is None, "kinds do not share entries"
    assert [p.name for p in tmp_path.glob("*.sqlite3")] == ["claims.sqlite3"], "reading makes none"
    assert (tmp_path / ".gitignore").read_text() == "*\n"


def test_many_writes_commit_in_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache_module, "FLUSH_EVERY", 10)
    store = Cache(tmp_path)
    for n in range(25):
        store.put("cells", str(n), b"x")
    assert Cache(tmp_path).get("cells", "15") == b"x"
    assert Cache(tmp_path).get("cells", "24") is None
    store.flush()
    assert Cache(tmp_path).get("cells", "24") == b"x"


def _writer(root: str, worker: int) -> None:
    store = Cache(Path(root))
    for n in range(200):
        store.put("claims", f"{worker}-{n}", f"{worker}:{n}".encode())
        if n % 50 == 0:
            store.flush()
            store.get("claims", f"{(worker + 1) % 4}-{n}")
    store.close()


def test_concurrent_processes_lose_nothing(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(tmp_path), w)) for w in range(4)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=120)
        assert process.exitcode == 0
    store = Cache(tmp_path)
    for worker in range(4):
        for n in range(200):
            assert store.get("claims", f"{worker}-{n}") == f"{worker}:{n}".encode()


def test_pruning_keeps_what_recent_runs_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_db, "KEEP_RUNS", 2)
    budget = {"fonts": 1000}
    with Cache(tmp_path, budget) as run:
        for n in range(5):
            run.put("fonts", f"old{n}", b"x" * 100)
    for n in range(2):
        with Cache(tmp_path, budget) as run:
            run.put("fonts", f"new{n}", b"x" * 100)
            assert run.get("fonts", "old0") == b"x" * 100
    store = Cache(tmp_path, budget)
    assert store.size("fonts") == 700, "under budget, nothing is dropped"
    with Cache(tmp_path, budget) as run:
        run.put("fonts", "big", b"y" * 600)
    kept = {k for k in ("old0", "old1", "new0", "new1", "big") if store.get("fonts", k)}
    assert kept == {"old0", "new1", "big"}, "entries no run of the last two used are gone"
    assert store.size("fonts") == 800


def test_a_broken_database_only_costs_time(tmp_path: Path) -> None:
    (tmp_path / "claims.sqlite3").write_bytes(b"this is not a database" * 100)
    with Cache(tmp_path) as store:
        store.put("claims", "k", b"v")
        assert store.get("claims", "other") is None
    blocker = tmp_path / "file"
    blocker.write_text("")
    with Cache(blocker / "cache") as unwritable:
        unwritable.put("cells", "k", b"v")
        assert unwritable.get("cells", "k") is None


def test_kind_names_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="invalid cache kind"):
        Cache(tmp_path).get("../escape", "k")


def test_many_keys_are_read_in_a_few_queries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "MANY", 3)
    with Cache(tmp_path) as first:
        for n in range(7):
            first.put("claims", f"k{n}", f"v{n}".encode())
    store = Cache(tmp_path)
    store.put("claims", "pending", b"not yet committed")
    store.put("claims", "k6", b"newer than the committed one")
    wanted = ["k0", "nope", "k6", "pending", *(f"k{n}" for n in range(1, 6)), "k0"]
    found = store.get_many("claims", wanted)
    expected = {f"k{n}": f"v{n}".encode() for n in range(6)}
    expected |= {"k6": b"newer than the committed one", "pending": b"not yet committed"}
    assert found == expected
    assert store.get_many("cells", ["k0"]) == {}
    assert all(store.get("claims", key) == value for key, value in found.items())


def entries_in_file(database: Path, copy: Path) -> list[tuple[str, bytes]]:
    """The entries of ``database``'s own file, without its write-ahead log."""
    import shutil
    import sqlite3

    shutil.copyfile(database, copy)
    connection = sqlite3.connect(copy)
    try:
        return [(k, bytes(v)) for k, v in connection.execute("SELECT key, value FROM entries")]
    except sqlite3.OperationalError:  # not even the table: everything is in the log
        return []
    finally:
        connection.close()


def test_a_checkpoint_moves_the_log_into_the_database_file(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    reader = Cache(tmp_path / "c")
    cache.prepare(["kind"])
    assert reader.get("kind", "other") is None  # another connection stays open throughout
    cache.put("kind", "key", b"value")
    cache.flush()
    database = tmp_path / "c" / "kind.sqlite3"
    assert entries_in_file(database, tmp_path / "before.sqlite3") == []
    cache.checkpoint()
    [(key, stored)] = entries_in_file(database, tmp_path / "after.sqlite3")
    assert key == "key" and stored[trust.TAG :] == b"value"  # after this machine's tag
    assert reader.get("kind", "key") == b"value"
    cache.close()
    reader.close()


def test_a_kind_holds_any_entry_once_one_is_put(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    assert not cache.holds_any("kind")
    cache.put("kind", "key", b"value")
    assert cache.holds_any("kind"), "waiting for the flush counts"
    cache.flush()
    assert Cache(tmp_path / "c").holds_any("kind") and not cache.holds_any("other")


def test_reading_makes_no_database_and_preparing_makes_one(tmp_path: Path) -> None:
    """A read of a kind nothing was written to answers at once and makes no file (a cold
    build's first reads); a kind made later, by another process, is read then."""
    reader = Cache(tmp_path / "c")
    assert reader.get("kind", "k") is None and reader.get_many("kind", ["k"]) == {}
    assert not reader.holds_any("kind") and reader.size("kind") == 0
    assert not (tmp_path / "c" / "kind.sqlite3").exists()
    writer = Cache(tmp_path / "c")
    writer.put("kind", "k", b"v")
    writer.flush()
    assert reader.get("kind", "k") == b"v"
    reader.prepare(["made", "kind"])
    assert (tmp_path / "c" / "made.sqlite3").exists()
    writer.put("made", "k", b"w")
    writer.flush()
    assert reader.get("made", "k") == b"w" and reader.holds_any("made")
    reader.close()
    writer.close()


def test_a_process_that_opens_a_kind_while_another_writes_it_keeps_its_writes(
    tmp_path: Path,
) -> None:
    """Switching a database to WAL answers "locked" at once, without waiting, while
    another connection is writing to it: the open waits for the writer, so the values
    are kept, instead of being dropped for the whole run (as when a build's workers
    made the same kind at once)."""
    import sqlite3
    import threading

    trust.claim_folder(tmp_path, trust.machine_key())
    writer = sqlite3.connect(
        tmp_path / "claims.sqlite3", isolation_level=None, check_same_thread=False
    )
    writer.execute("CREATE TABLE other (x)")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO other VALUES (1)")
    done = threading.Timer(0.3, lambda: writer.execute("COMMIT"))
    done.start()
    cache = Cache(tmp_path)
    cache.put("claims", "k", b"v")
    cache.flush()
    done.join()
    writer.close()
    assert Cache(tmp_path).get("claims", "k") == b"v"


def test_pruning_reads_sizes_from_an_index_not_from_the_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row's size comes after its value, so a query that reads sizes from the table
    reads every value too (30 ms for a kind at its 64 MB budget, at every commit that
    brings a value). Each query pruning makes is answered from an index instead, and a
    database made with the older index, on ``used`` alone, gets the new one."""
    import sqlite3

    trust.claim_folder(tmp_path, trust.machine_key())
    older = sqlite3.connect(tmp_path / "fonts.sqlite3", isolation_level=None)
    older.execute(
        "CREATE TABLE entries (key TEXT PRIMARY KEY, value BLOB NOT NULL,"
        " size INTEGER NOT NULL, used INTEGER NOT NULL)"
    )
    older.execute("CREATE INDEX entries_used ON entries (used)")
    older.execute("INSERT INTO entries VALUES ('old', x'00', 1, 1)")
    older.close()
    queries: list[str] = []
    connect = cache_module._connect

    def traced(path: Path) -> sqlite3.Connection:
        connection = connect(path)
        connection.set_trace_callback(queries.append)
        return connection

    monkeypatch.setattr(cache_module, "_connect", traced)
    with Cache(tmp_path, {"fonts": 150}) as run:
        assert run.get("fonts", "old") is None  # an entry with no tag is not this machine's
        for n in range(3):
            run.put("fonts", f"new{n}", b"x" * 100)
    kept = Cache(tmp_path)
    assert [k for k in ("old", "new0", "new1", "new2") if kept.get("fonts", k)] == ["new2"]
    check = sqlite3.connect(tmp_path / "fonts.sqlite3")
    made = "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    assert [name for (name,) in check.execute(made)] == ["entries_used_size"]
    reads = [q for q in queries if q.startswith("SELECT") and "sqlite_master" not in q]
    assert sum("SUM(size)" in q for q in reads) == 2, "pruning summed the sizes twice"
    for query in reads:  # pruning's, and the gets'
        for *_, detail in check.execute("EXPLAIN QUERY PLAN " + query):
            assert "entries" not in detail or "INDEX" in detail, (query, detail)
