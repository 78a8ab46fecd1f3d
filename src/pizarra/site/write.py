"""Pages and assets -> the output folder, replaced atomically.

The new site is written into a sibling temporary folder ``.NAME.new-PID-*``; only
when every file is written does it take the old site's place. On Linux that is one
``renameat2(RENAME_EXCHANGE)`` call: at every instant the output path holds either
the whole old site or the whole new one, even if the build is killed. Where the
exchange is missing (other systems, some file systems) two renames are used, and a
kill between them leaves no output folder until the next build. A failure before
the swap leaves the previous site exactly as it was, and the temporary folders of
killed builds (their process gone) are removed by the next build.

A file the previous site holds with the same bytes is not written again: the new site
gets a hard link to it. After a one-line edit of a 200-lesson course, all but a dozen
of 1,872 files are such links, and removing the old site after the swap then frees
no disk blocks: it took 3.8 s when every file was new (on a disk mounted with
``discard``, freeing blocks is slow), and the links take less than writing did.
A linked file is never written through: a file given again with other bytes replaces
the link.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import queue
import shutil
import stat
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

MARKER = ".pizarra-site"
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


class SiteWriteError(Exception):
    """The output folder could not be replaced; the old one is untouched."""


def ensure_replaceable(out: Path) -> None:
    """Raise :class:`SiteWriteError` unless ``out`` is absent, empty or a pizarra site."""
    if out.exists() and not _is_replaceable(out):
        raise SiteWriteError(
            f"{out} exists and was not made by pizarra (no {MARKER} file); "
            "refusing to replace it — choose another output folder with -o"
        )


def write_site(files: Mapping[str, bytes], out: Path) -> None:
    """Replace ``out`` by a folder holding exactly ``files`` (relative POSIX paths)."""
    staged = StagedSite(out)
    try:
        staged.finish(files)
    except BaseException:
        staged.discard()
        raise


class StagedSite:
    """The new site being written beside ``out``, before it takes the old one's place.

    A build writes the pages it has while Pagefind is still making the index
    (:meth:`write`), then the rest (:meth:`finish`), which also makes the folder hold
    exactly the files given last and swaps it in; or :meth:`discard` drops it all.
    """

    def __init__(self, out: Path) -> None:
        self.out = out.resolve()
        ensure_replaceable(self.out)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        remove_stale(self.out)
        prefix = f".{self.out.name}.new-{os.getpid()}-"
        self.staging = Path(tempfile.mkdtemp(prefix=prefix, dir=self.out.parent))
        self.written: dict[str, bytes] = {}
        self._previous = self.out if self.out.is_dir() else None
        """The site being replaced, whose unchanged files are linked, not written."""
        self._linked: set[str] = set()
        """The files of the staged site that are links to the previous site's."""
        self._folders: set[Path] = {self.staging}
        """Folders made in the staged site (each file's is made once, not per file)."""
        self._later: queue.SimpleQueue[dict[str, bytes] | None] | None = None
        self._writer: threading.Thread | None = None
        self._failure: list[BaseException] = []

    def write_soon(self, files: Mapping[str, bytes]) -> None:
        """:meth:`write`, by a thread of its own: the caller (a build waiting for its
        lessons) does not wait for the disk. The next :meth:`write`, :meth:`finish` or
        :meth:`discard` waits for it first, and raises what it raised."""
        if self._writer is None:
            self._later = queue.SimpleQueue()
            self._writer = threading.Thread(target=self._write_later, name="site", daemon=True)
            self._writer.start()
        assert self._later is not None
        self._later.put(dict(files))

    def write(self, files: Mapping[str, bytes]) -> None:
        """Write every file of ``files`` not written yet as it is."""
        self._settle()
        self._write(files)

    def finish(self, files: Mapping[str, bytes]) -> None:
        """Make the staged folder hold exactly ``files``, then put it in ``out``'s place."""
        self._settle()
        final = {**files, MARKER: self.written.get(MARKER, _MARK)}
        for name in set(self.written) - set(final):
            (self.staging / _safe_relative(name)).unlink()
            del self.written[name]
        self.write(final)
        os.chmod(self.staging, 0o755)
        _swap(self.staging, self.out)

    def discard(self) -> None:
        """Drop the staged folder: ``out`` stays as it was."""
        with contextlib.suppress(Exception):
            self._settle()
        shutil.rmtree(self.staging, ignore_errors=True)

    def _write(self, files: Mapping[str, bytes]) -> None:
        for name, data in files.items():
            if self.written.get(name) is not data:
                target = self.staging / _safe_relative(name)
                if target.parent not in self._folders:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    self._folders.add(target.parent)
                if name in self._linked:  # never through the link, into the old site
                    target.unlink()
                    self._linked.discard(name)
                if self._link_unchanged(name, target, data):
                    self._linked.add(name)
                else:
                    target.write_bytes(data)
                self.written[name] = data

    def _link_unchanged(self, name: str, target: Path, data: bytes) -> bool:
        """Link ``target`` to the previous site's file ``name`` if that is a plain file
        holding ``data``; False where it is not, or where links cannot be made."""
        if self._previous is None or name == MARKER:
            return False
        old = self._previous / _safe_relative(name)
        try:
            info = old.lstat()
            if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
                return False
            if old.read_bytes() != data:
                return False
            os.link(old, target, follow_symlinks=False)
        except OSError:
            return False
        return True

    def _write_later(self) -> None:
        assert self._later is not None
        while (files := self._later.get()) is not None:
            if not self._failure:
                try:
                    self._write(files)
                except BaseException as exc:  # raised again by _settle, in the caller's thread
                    self._failure.append(exc)

    def _settle(self) -> None:
        """Wait until what :meth:`write_soon` was given is written."""
        if self._writer is not None and self._later is not None:
            self._later.put(None)
            self._writer.join()
            self._writer = self._later = None
        if self._failure:
            raise self._failure[0]


_MARK = b"built by pizarra\n"


def remove_stale(out: Path) -> list[Path]:
    """Remove the temporary folders of earlier builds of ``out`` whose process is gone."""
    removed = []
    for kind in ("new", "old"):
        prefix = f".{out.name}.{kind}-"
        for folder in out.parent.glob(prefix + "*"):
            pid = folder.name.removeprefix(prefix).split("-", 1)[0]
            if folder.is_dir() and not folder.is_symlink() and not _alive(pid):
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
    return removed


def exchange(a: Path, b: Path) -> bool:
    """Swap the paths ``a`` and ``b`` in one atomic step; False where the system cannot."""
    if sys.platform != "linux":
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = (
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    )
    renameat2.restype = ctypes.c_int
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _alive(pid: str) -> bool:
    """True if process ``pid`` (read from a folder name) may still be writing it."""
    if not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _is_replaceable(out: Path) -> bool:
    return out.is_dir() and ((out / MARKER).is_file() or not any(out.iterdir()))


def _safe_relative(name: str) -> Path:
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise SiteWriteError(f"refusing to write outside the site: {name!r}")
    return Path(*path.parts)


def _swap(staging: Path, out: Path) -> None:
    if not out.exists():
        staging.rename(out)
        return
    if exchange(staging, out):
        shutil.rmtree(staging, ignore_errors=True)
        return
    retired = out.with_name(f".{out.name}.old-{os.getpid()}")
    shutil.rmtree(retired, ignore_errors=True)
    out.rename(retired)
    try:
        staging.rename(out)
    except BaseException:
        retired.rename(out)
        raise
    shutil.rmtree(retired, ignore_errors=True)
