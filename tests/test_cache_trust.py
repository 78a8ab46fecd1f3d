"""A cache is untrusted input: only entries this machine's pizarra wrote are read.

A pull request may commit a cache folder, and a forged entry could be a pickle that runs
code in pizarra, a false claim marked checked, a cell output never run, or files for the
site (security run 3, C1). Every entry carries an HMAC under a key kept outside the
project, and a folder this machine did not make is not used at all.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

from pizarra.base import cache as cache_module
from pizarra.base import trust
from pizarra.base.cache import Cache
from pizarra.site.search import _pack, _unpack, index_file


def forge(root: Path, kind: str, key: str, stored: bytes) -> None:
    """Write a row into a kind's database behind the cache's back, as an attacker would."""
    with sqlite3.connect(root / f"{kind}.sqlite3") as db:
        db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, 1)", (key, stored, len(stored)))


def test_a_value_written_by_pizarra_is_read_back(tmp_path: Path) -> None:
    with Cache(tmp_path / "c") as cache:
        cache.put("claims", "k", b"checked")
    assert Cache(tmp_path / "c").get("claims", "k") == b"checked"


def test_a_forged_value_is_not_there(tmp_path: Path) -> None:
    with Cache(tmp_path / "c") as cache:
        cache.put("claims", "k", b"real")
    forge(tmp_path / "c", "claims", "k", b"\x00" * trust.TAG + b"forged")
    forge(tmp_path / "c", "claims", "short", b"x")
    reader = Cache(tmp_path / "c")
    assert reader.get("claims", "k") is None and reader.get("claims", "short") is None
    assert reader.get_many("claims", ["k", "short"]) == {}


def test_a_value_moved_to_another_key_or_kind_is_not_there(tmp_path: Path) -> None:
    with Cache(tmp_path / "c") as cache:
        cache.put("claims", "true", b"checked")
        cache.put("cells", "other", b"x")
    with sqlite3.connect(tmp_path / "c" / "claims.sqlite3") as db:
        [(stored,)] = db.execute("SELECT value FROM entries WHERE key = 'true'").fetchall()
    forge(tmp_path / "c", "claims", "false", stored)
    forge(tmp_path / "c", "cells", "true", stored)
    reader = Cache(tmp_path / "c")
    assert reader.get("claims", "true") == b"checked"
    assert reader.get("claims", "false") is None and reader.get("cells", "true") is None


def test_a_value_tagged_with_another_machines_key_is_not_there(tmp_path: Path) -> None:
    other = os.urandom(32)
    with Cache(tmp_path / "c") as cache:
        cache.put("lessons", "k", b"mine")
    forge(tmp_path / "c", "lessons", "k", trust.seal(other, "lessons", "k", b"theirs"))
    assert Cache(tmp_path / "c").get("lessons", "k") is None


def test_a_folder_this_machine_did_not_make_is_not_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = os.urandom(32)
    committed = tmp_path / "repo" / ".pizarra-cache"
    with Cache(committed, key=elsewhere) as made:  # as an attacker's machine made it
        made.put("parsed", "k", b"payload")
    assert Cache(committed, key=elsewhere).get("parsed", "k") == b"payload"
    capsys.readouterr()
    ours = Cache(committed)
    assert ours.get("parsed", "k") is None
    ours.put("parsed", "k", b"ours")
    ours.flush()
    assert "was not made by pizarra on this machine" in capsys.readouterr().err
    assert Cache(committed, key=elsewhere).get("parsed", "k") == b"payload", "left as it was"


def test_a_folder_with_files_but_no_stamp_is_refused(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "claims.sqlite3").write_bytes(b"")
    cache = Cache(tmp_path / "c")
    cache.put("claims", "k", b"v")
    cache.flush()
    assert cache.get("claims", "k") is None
    assert not (tmp_path / "c" / trust.STAMP).exists()


def test_an_empty_folder_is_made_a_cache_folder(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    with Cache(tmp_path / "c") as cache:
        cache.put("claims", "k", b"v")
    assert (tmp_path / "c" / trust.STAMP).is_file()
    assert Cache(tmp_path / "c").get("claims", "k") == b"v"


def test_the_key_is_made_once_for_its_owner_only(tmp_path: Path) -> None:
    path = trust.key_path()
    assert str(path).startswith(os.environ["XDG_CONFIG_HOME"])
    key = trust.machine_key()
    assert path.stat().st_mode & 0o777 == 0o600 and len(key) == 32
    trust.machine_key.cache_clear()
    assert trust.machine_key() == key


def test_a_key_others_may_write_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    trust.machine_key.cache_clear()
    try:
        trust.machine_key()
        trust.key_path().chmod(0o666)
        trust.machine_key.cache_clear()
        with pytest.raises(trust.Untrusted, match="chmod 600"):
            trust.machine_key()
        cache = Cache(tmp_path / "c")
        cache.put("claims", "k", b"v")
        cache.flush()
        assert cache.get("claims", "k") is None
        assert "building without a cache" in capsys.readouterr().err
    finally:
        trust.machine_key.cache_clear()


def test_the_default_cache_is_outside_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PIZARRA_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert not cache_module.cache_dir().is_relative_to(tmp_path)


def test_a_held_lock_costs_one_wait_then_the_run_uses_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "BUSY_TIMEOUT_MS", 50)
    with Cache(tmp_path / "c") as cache:
        for kind in ("claims", "cells"):
            cache.put(kind, "k", b"v")
    holders = []
    for kind in ("claims", "cells"):
        holder = sqlite3.connect(tmp_path / "c" / f"{kind}.sqlite3", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        holders.append(holder)
    try:
        waits: list[str] = []
        connect = cache_module._connect

        def counted(path: Path) -> sqlite3.Connection:
            waits.append(path.name)
            return connect(path)

        monkeypatch.setattr(cache_module, "_connect", counted)
        run = Cache(tmp_path / "c")
        assert run.get("claims", "k") == b"v", "readers do not wait for a writer (WAL)"
        run.put("claims", "k2", b"v")
        run.flush()  # waits for the lock, in vain
        assert run.given_up
        assert run.get("cells", "k") is None and run.get("claims", "k") is None
        run.put("cells", "k2", b"v")
        run.flush()
        assert waits == ["claims.sqlite3"], "one wait, then no cache for the run"
    finally:
        for holder in holders:
            holder.close()


def test_a_kept_search_index_names_only_files_of_its_folder() -> None:
    good = {"pagefind/pagefind.js": b"js", "pagefind/index/es_1.pf_index": b"x"}
    assert _unpack(_pack(good)) == good
    for bad in (
        "t/index.html",
        "evil.html",
        "pagefind/../t/index.html",
        "/pagefind/x",
        "pagefind//x",
        "pagefind/./x",
        "pagefind\\x",
        "pagefind/a\\..\\b",
    ):
        assert not index_file(bad)
        assert _unpack(_pack({**good, bad: b"<script>"})) is None


def test_cache_threads_share_one_trusted_folder(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(50):
                cache.put("claims", f"{n}-{i}", b"v")
                cache.get("claims", f"{n}-{i}")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cache.close()
    assert errors == [] and Cache(tmp_path / "c").get("claims", "3-49") == b"v"


def test_a_cache_path_that_is_a_file_means_no_cache(tmp_path: Path) -> None:
    (tmp_path / "c").write_text("not a folder")
    cache = Cache(tmp_path / "c")
    cache.prepare(["claims", "lessons"])
    cache.put("claims", "k", b"v")
    cache.flush()
    assert cache.get("claims", "k") is None and not cache.holds_any("claims")


def test_the_workers_of_a_run_share_its_giving_up(tmp_path: Path) -> None:
    """One process's lock wait tells the others of the same run (the flag file)."""
    main = Cache(tmp_path / "c")
    main.put("claims", "k", b"v")
    main.flush()
    worker = Cache(tmp_path / "c")
    worker.run = main.run
    assert worker.get("claims", "k") == b"v"
    main._failed(sqlite3.OperationalError("database is locked"))
    assert worker.get("claims", "k") is None and worker.given_up
