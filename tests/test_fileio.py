"""Atomic writes: the old file or the new one, never a mix, and nothing left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pizarra.base.fileio import write_atomic, write_cache


def test_write_atomic_replaces_whole_and_keeps_mode(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "lesson.md"
    write_atomic(target, b"one")
    write_atomic(target, b"two", 0o600)
    assert target.read_bytes() == b"two"
    assert os.stat(target).st_mode & 0o777 == 0o600
    assert [p.name for p in target.parent.iterdir()] == ["lesson.md"]


def test_a_failed_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "lesson.md"
    target.write_bytes(b"old")

    def broken(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        write_atomic(target, b"new")
    write_cache(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["lesson.md"]
