"""The key that proves a cache entry was written on this machine, by pizarra.

A course built in CI often comes from a pull request, and anything committed to it is
untrusted, a cache folder included: a forged entry could carry a pickle that runs code in
pizarra, a claim marked "checked" that is false, or files for the site. So every entry is
stored with an HMAC-SHA256 tag under a secret key that lives outside any project
(``$XDG_CONFIG_HOME/pizarra/cache.key``, made at first use, readable by its owner only),
and an entry whose tag does not match is not there. A cache folder carries a stamp made
with the same key; a folder without one, that already holds files, was not made here and
is not used at all.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import stat
from functools import cache
from pathlib import Path

TAG = 32
"""Bytes of an entry's tag (SHA-256)."""

STAMP = ".pizarra-cache-stamp"
"""The file of a cache folder that says this machine's pizarra made it."""


class Untrusted(Exception):
    """The key cannot be had, or a cache folder was not made on this machine."""


def key_path() -> Path:
    """Where the key is kept: the user's configuration folder, never a project's."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "pizarra" / "cache.key"


@cache
def machine_key() -> bytes:
    """This user's key, made the first time (32 random bytes, mode 0600). Raises
    :class:`Untrusted` when it cannot be read or made, or when another user could
    have written it."""
    path = key_path()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.write(fd, secrets.token_bytes(32))
            finally:
                os.close(fd)
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            info = os.fstat(fd)
            key = os.read(fd, 64)
        finally:
            os.close(fd)
    except OSError as exc:
        raise Untrusted(f"cannot read or make the cache key {path}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
        raise Untrusted(f"the cache key {path} is not a file of this user")
    if info.st_mode & 0o077:
        raise Untrusted(f"the cache key {path} may be read or written by others (chmod 600 it)")
    if len(key) < 32:
        raise Untrusted(f"the cache key {path} is too short: remove it to make a new one")
    return key


def tag(key: bytes, kind: str, name: str, value: bytes) -> bytes:
    """The tag of ``value`` stored under ``name`` in ``kind``: moving a value to another
    key or kind breaks it too."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for part in (kind.encode(), name.encode("utf-8", "surrogatepass")):
        mac.update(len(part).to_bytes(4, "big") + part)
    mac.update(value)
    return mac.digest()


def seal(key: bytes, kind: str, name: str, value: bytes) -> bytes:
    """``value`` as stored: its tag, then the value."""
    return tag(key, kind, name, value) + value


def opened(key: bytes, kind: str, name: str, stored: bytes) -> bytes | None:
    """The value of a stored entry, or None when its tag is not this machine's."""
    value = stored[TAG:]
    if len(stored) < TAG or not hmac.compare_digest(stored[:TAG], tag(key, kind, name, value)):
        return None
    return value


def folder_stamp(key: bytes) -> bytes:
    return tag(key, "folder", "pizarra cache folder", b"")


def claim_folder(root: Path, key: bytes) -> None:
    """Make ``root`` a cache folder of this machine, or raise :class:`Untrusted` when it
    holds files but no valid stamp (a folder committed to a project, or made elsewhere)."""
    stamp = root / STAMP
    want = folder_stamp(key).hex()
    try:
        if stamp.read_text(encoding="ascii").strip() == want:
            return
    except (OSError, UnicodeDecodeError):
        pass
    root.mkdir(parents=True, exist_ok=True)
    others = [p.name for p in root.iterdir() if p.name not in (STAMP, ".gitignore")]
    if others:
        raise Untrusted(
            f"the cache folder {root} was not made by pizarra on this machine; it is not "
            "used (remove it, or set PIZARRA_CACHE_DIR to a folder of your own)"
        )
    stamp.write_text(want + "\n", encoding="ascii")
