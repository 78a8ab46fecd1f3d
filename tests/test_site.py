"""Publishing the site: one atomic exchange, and nothing left behind by killed builds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pizarra.site import write as site
from pizarra.site.write import exchange, remove_stale, write_site

OLD = {"index.html": b"old", "a/b.css": b"old css"}
NEW = {"index.html": b"new", "c.js": b"new js"}

KILL_AT = """
import os, signal, sys
from pathlib import Path
from pizarra.site import write as site

def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)

step, out = sys.argv[1], Path(sys.argv[2])
if step == "staged":
    site._swap = lambda staging, out: die()
elif step == "exchanged":
    real = site.exchange
    site.exchange = lambda a, b: real(a, b) and die()
elif step == "between-renames":
    site.exchange = lambda a, b: False
    real_rename = Path.rename
    def rename(self, target):
        result = real_rename(self, target)
        if ".old-" in str(target):
            die()
        return result
    Path.rename = rename
site.write_site({"index.html": b"new", "c.js": b"new js"}, out)
"""


def _content(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in out.rglob("*")
        if p.is_file() and p.name != site.MARKER
    }


def _leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


def test_exchange_swaps_two_folders(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    (b / "x").write_text("b")
    assert exchange(a, b), "this system has renameat2(RENAME_EXCHANGE)"
    assert (a / "x").read_text() == "b"
    assert (b / "x").read_text() == "a"


@pytest.mark.parametrize(
    ("step", "expected"), [("staged", OLD), ("exchanged", NEW), ("between-renames", None)]
)
def test_a_build_killed_at_any_step_leaves_a_whole_site_and_the_next_cleans_up(
    tmp_path: Path, step: str, expected: dict[str, bytes] | None
) -> None:
    out = tmp_path / "site"
    write_site(OLD, out)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    killed = subprocess.run([sys.executable, "-c", KILL_AT, step, str(out)], env=env, check=False)
    assert killed.returncode == -9
    if expected is None:
        # Without the atomic exchange there is a window with no site: documented.
        assert not out.exists()
    else:
        assert _content(out) == expected
    assert _leftovers(out), "the killed build left its temporary folder"
    write_site(NEW, out)
    assert _content(out) == NEW
    assert _leftovers(out) == [], "the next build removes what killed builds left"


def test_the_temporary_folder_of_a_running_build_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "site"
    running = tmp_path / f".site.new-{os.getppid()}-abc"
    running.mkdir()
    assert remove_stale(out) == []
    assert running.is_dir()


def test_a_normal_build_uses_the_exchange_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real = site.exchange

    def spy(a: Path, b: Path) -> bool:
        calls.append((a.name, b.name))
        return real(a, b)

    monkeypatch.setattr(site, "exchange", spy)
    out = tmp_path / "site"
    write_site(OLD, out)
    write_site(NEW, out)
    assert len(calls) == 1 and calls[0][1] == "site"
    assert _content(out) == NEW
    assert _leftovers(out) == []


def test_a_staged_site_ends_holding_exactly_the_last_files(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(OLD, out)
    staged = site.StagedSite(out)
    early = {"index.html": b"early", "gone.html": b"dropped later", "a/b.css": b"kept"}
    staged.write(early)
    assert (out / "index.html").read_bytes() == b"old"  # nothing replaced yet
    staged.finish({"index.html": b"final", "a/b.css": early["a/b.css"], "z.js": b"z"})
    found = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    assert found == {"index.html", "a/b.css", "z.js", site.MARKER}
    assert (out / "index.html").read_bytes() == b"final"
    assert [p.name for p in tmp_path.iterdir()] == ["site"]


def test_a_discarded_staged_site_leaves_the_old_one(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(OLD, out)
    staged = site.StagedSite(out)
    staged.write(NEW)
    staged.discard()
    assert (out / "index.html").read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["site"]


def test_files_written_soon_are_there_before_the_site_is_finished(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(OLD, out)
    staged = site.StagedSite(out)
    staged.write_soon({"uno/index.html": b"uno", "uno/n-2.html": b"dos"})
    staged.write_soon({"dos/index.html": b"tres"})
    staged.write({"index.html": b"portada"})  # waits for the thread first
    found = {str(p.relative_to(staged.staging)) for p in staged.staging.rglob("*") if p.is_file()}
    assert found == {"uno/index.html", "uno/n-2.html", "dos/index.html", "index.html"}
    assert (out / "index.html").read_bytes() == b"old"
    staged.finish({"index.html": b"portada", "dos/index.html": b"tres"})
    found = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    assert found == {"index.html", "dos/index.html", site.MARKER}


def test_a_failure_of_the_writing_thread_reaches_the_build(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(OLD, out)
    staged = site.StagedSite(out)
    staged.write_soon({"../escape.html": b"x"})
    with pytest.raises(site.SiteWriteError, match="outside the site"):
        staged.finish(NEW)
    staged.discard()
    assert (out / "index.html").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_discarded_site_waits_for_what_was_written_soon(tmp_path: Path) -> None:
    out = tmp_path / "site"
    staged = site.StagedSite(out)
    staged.write_soon({f"p{i}/index.html": b"x" * 10_000 for i in range(200)})
    staged.discard()
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_file_with_the_previous_bytes_is_linked_not_written(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(OLD, out)
    before = {name: (out / name).stat().st_ino for name in OLD}
    write_site({"index.html": b"new", "a/b.css": b"old css"}, out)
    assert (out / "a/b.css").stat().st_ino == before["a/b.css"], "the same file, linked"
    assert (out / "a/b.css").stat().st_nlink == 1, "the old site is gone"
    assert (out / "index.html").read_bytes() == b"new"
    assert (out / "index.html").stat().st_ino != before["index.html"]


def test_a_linked_file_given_again_never_writes_into_the_old_site(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(OLD, out)
    staged = site.StagedSite(out)
    staged.write({"a/b.css": b"old css"})  # linked to the old site's file
    staged.write({"a/b.css": b"changed css"})
    assert (out / "a/b.css").read_bytes() == b"old css", "the served site is unchanged"
    staged.finish({"a/b.css": b"changed css"})
    assert (out / "a/b.css").read_bytes() == b"changed css"


def test_a_symbolic_link_in_the_old_site_is_not_followed(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(OLD, out)
    outside = tmp_path / "outside.css"
    outside.write_bytes(b"old css")
    (out / "a/b.css").unlink()
    (out / "a/b.css").symlink_to(outside)
    write_site(OLD, out)
    assert not (out / "a/b.css").is_symlink()
    assert (out / "a/b.css").read_bytes() == b"old css"
    assert outside.stat().st_nlink == 1, "no link was made to the file outside the site"
