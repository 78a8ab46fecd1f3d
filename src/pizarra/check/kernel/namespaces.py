"""The kernel's own namespaces, done fully: what it sees, what it may write, what it keeps.

Three steps, each in the process that needs it (see :mod:`pizarra.check.kernel.launcher`):

- :func:`enter`: new user, PID, mount, network, IPC, UTS and cgroup namespaces. The user
  namespace maps its root to one host user (``nobody`` when pizarra runs as root), so
  on the host the kernel is never root; the network namespace has only a loopback
  device, down: no network at all, not even ``pizarra serve`` on 127.0.0.1.
- :func:`seal`, in the namespace's first process: every mount read-only (the system, the
  venv, the course, ``/sys/fs/cgroup``), keeping the flags the mount is locked with, as
  bubblewrap does; a fresh ``/proc`` of the PID namespace; private, size-limited tmpfs on
  ``/tmp`` and ``/dev/shm``; the work folder itself a size-limited tmpfs, the one place
  the kernel may write. Nothing written survives the lesson.
- :func:`lock_in`, in the kernel: a nested user and mount namespace, so every mount above
  is *locked* (it can be neither unmounted nor made writable again), then no
  capabilities at all (bounding set cleared, securebits locked, ``no_new_privs``).

This is done by hand rather than by exec'ing bubblewrap because the launcher is a fork
of a warm process (:mod:`pizarra.check.kernel.zygote`): bubblewrap would exec a new
interpreter per lesson and throw away the imports the zygote exists to share.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
import struct
import sys

from pizarra.check.kernel import syscalls as sc
from pizarra.check.kernel.cgroups import mounts

NAMESPACES = (
    sc.CLONE_NEWUSER
    | sc.CLONE_NEWPID
    | sc.CLONE_NEWNS
    | sc.CLONE_NEWNET
    | sc.CLONE_NEWIPC
    | sc.CLONE_NEWUTS
    | sc.CLONE_NEWCGROUP
)

_STATVFS_TO_MOUNT = (
    (os.ST_NOSUID, sc.MS_NOSUID),
    (os.ST_NODEV, sc.MS_NODEV),
    (os.ST_NOEXEC, sc.MS_NOEXEC),
    (os.ST_NODIRATIME, sc.MS_NODIRATIME),
)


def enter(uid: int, gid: int) -> bool:
    """Enter the new namespaces as root of them, mapped to host ``uid``/``gid``; False
    (and nothing changed) where the system does not allow it, :class:`OSError` when it
    went wrong once inside."""
    try:
        sc.unshare(NAMESPACES)
    except OSError:
        return False
    _map(f"0 {uid} 1", f"0 {gid} 1")  # an error here leaves us half inside: no kernel
    sc.mount(None, "/", None, sc.MS_REC | sc.MS_PRIVATE)
    return True


def expose_interpreter(also: list[str]) -> None:
    """As host root, before becoming ``nobody``: in a mount namespace of our own, make the
    folders Python needs (the interpreter, its standard library, the venv, ``sys.path``)
    reachable by ``nobody`` when a folder above them is not (``/root`` is ``0700``): a
    small tmpfs over that folder, hiding the rest of it, with just those folders bound
    read-only into it; the folders ``also`` (the lesson's) too."""
    sc.unshare(sc.CLONE_NEWNS)
    sc.mount(None, "/", None, sc.MS_REC | sc.MS_PRIVATE)
    needed = sorted({*_interpreter_folders(), *also})
    covers: list[str] = []
    for top in sorted({top for path in needed if (top := _closed_above(path))}, key=len):
        if not any(_under(top, done) for done in covers):
            covers.append(top)
    _cover(covers, 1024 * 1024, "0755", needed)


def _cover(tops: list[str], size: int, mode: str, keep: list[str]) -> list[str]:
    """A tmpfs over each of ``tops``, with the folders of ``keep`` under them bound back
    in; those bound."""
    binds: list[str] = []
    for path in sorted(keep):  # a folder comes before those inside it
        if any(_under(path, top) for top in tops) and not any(_under(path, b) for b in binds):
            binds.append(path)
    originals = [os.open(path, os.O_PATH | os.O_DIRECTORY) for path in binds]
    try:
        for top in tops:
            _tmpfs(top, size, mode)
        for path, fd in zip(binds, originals, strict=True):
            os.makedirs(path, mode=0o755, exist_ok=True)
            sc.mount(f"/proc/self/fd/{fd}", path, None, sc.MS_BIND | sc.MS_REC)
    finally:
        for fd in originals:
            os.close(fd)
    return binds


def _interpreter_folders() -> list[str]:
    import pizarra

    found = [sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(sys.executable)]
    found += [p for p in sys.path if p and os.path.isabs(p)]
    found.append(os.path.dirname(os.path.dirname(os.path.abspath(pizarra.__file__))))
    folders = set()
    for path in found:
        for form in (os.path.abspath(path), os.path.realpath(path)):
            if os.path.isdir(form):
                folders.add(form)
    return sorted(folders)


def _closed_above(path: str) -> str | None:
    """The highest folder on the way to ``path`` that others may not search, if any."""
    parts = path.strip("/").split("/")
    for depth in range(len(parts) + 1):
        folder = "/" + "/".join(parts[:depth])
        try:
            if not os.stat(folder).st_mode & 0o001:
                return folder
        except OSError:
            return None
    return None


def _under(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def seal(workdir: str, quota: int, scratch: int, folder: str = "", root: str = "") -> list[str]:
    """Make the file system read-only but for private tmpfs; the mount points that could
    not be made read-only (empty when all could). The kernel starts in ``workdir``; the
    course folder ``root`` around the lesson's ``folder`` (read-only like the rest) is
    bound back, read-only, when it is under ``/tmp``, whose other files the kernel does
    not see."""
    with contextlib.suppress(OSError):
        os.makedirs(workdir, exist_ok=True)  # in a tmpfs of expose_interpreter, if covered
    left = [point for point in _mount_points() if not _read_only(point)]
    sc.mount("proc", "/proc", "proc", sc.MS_NOSUID | sc.MS_NODEV | sc.MS_NOEXEC)
    _minimal_dev()
    places = [place for place in ("/tmp", "/dev/shm") if os.path.isdir(place)]
    keep = [*_interpreter_folders(), *([root or folder] if folder else [])]
    for path in _cover(places, scratch, "1777", keep):
        if not _read_only(path):
            left.append(path)
    os.makedirs(workdir, exist_ok=True)
    _tmpfs(workdir, quota, "0700")
    os.chdir(workdir)
    return left


def writable_layer(folder: str, workdir: str) -> bool:
    """Lay a private, writable layer over the (read-only) lesson ``folder``: an overlay
    whose upper layer lives in the size-limited ``workdir`` tmpfs, so a cell may write
    ``results.csv`` beside the lesson and read it back, as in Jupyter, while the lesson's
    files stay as they are and whatever is written goes with the namespace. False (and
    the folder stays read-only) where the system has no unprivileged overlay, or the
    path cannot be said in overlayfs' options."""
    if any(char in folder for char in ",:\\") or not os.path.isdir(folder):
        return False
    layer = os.path.join(workdir, ".lesson-writes")
    upper, work = os.path.join(layer, "upper"), os.path.join(layer, "work")
    try:
        os.makedirs(upper, mode=0o700, exist_ok=True)
        os.makedirs(work, mode=0o700, exist_ok=True)
        options = f"lowerdir={folder},upperdir={upper},workdir={work}"
        sc.mount("overlay", folder, "overlay", sc.MS_NOSUID | sc.MS_NODEV, options)
    except OSError:
        return False
    return True


DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
"""The device nodes a kernel keeps (as bubblewrap's ``--dev``): no others of the host."""


def _minimal_dev() -> None:
    """A ``/dev`` of its own: a tmpfs with :data:`DEVICES` bound in from the host, the
    usual links to ``/proc/self/fd`` and an empty ``shm`` (its tmpfs comes next);
    read-only once made."""
    found = [name for name in DEVICES if os.path.exists(f"/dev/{name}")]
    originals = [os.open(f"/dev/{name}", os.O_PATH) for name in found]
    try:
        _tmpfs("/dev", 1024 * 1024, "0755", nodev=False)
        for name, fd in zip(found, originals, strict=True):
            os.close(os.open(f"/dev/{name}", os.O_CREAT | os.O_WRONLY, 0o666))
            sc.mount(f"/proc/self/fd/{fd}", f"/dev/{name}", None, sc.MS_BIND)
    finally:
        for fd in originals:
            os.close(fd)
    os.mkdir("/dev/shm", 0o1777)
    os.symlink("/proc/self/fd", "/dev/fd")
    for number, name in enumerate(("stdin", "stdout", "stderr")):
        os.symlink(f"/proc/self/fd/{number}", f"/dev/{name}")
    sc.mount(None, "/dev", None, sc.MS_REMOUNT | sc.MS_BIND | sc.MS_RDONLY | sc.MS_NOSUID)


def loopback_up() -> bool:
    """Bring up the namespace's own loopback device, so a lesson may run a server and
    its client on 127.0.0.1 within itself (it is not the host's loopback)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("16sh14x", b"lo", 0)
        try:
            flags = struct.unpack("16sh14x", fcntl.ioctl(probe, _SIOCGIFFLAGS, request))[1]
            fcntl.ioctl(probe, _SIOCSIFFLAGS, struct.pack("16sh14x", b"lo", flags | 1))
        except OSError:
            return False
    return True


_SIOCGIFFLAGS, _SIOCSIFFLAGS = 0x8913, 0x8914


def limit_nesting() -> bool:
    """Allow one more user namespace below this one, the kernel's own (:func:`lock_in`):
    a cell can then make none, nor any namespace of a kind that needs one. False where the
    limit could not be set."""
    try:
        _write("/proc/sys/user/max_user_namespaces", "1")
    except OSError:
        return False
    return True


def lock_in() -> None:
    """In the kernel: lock every mount, then give up every capability, for good."""
    sc.unshare(sc.CLONE_NEWUSER | sc.CLONE_NEWNS)
    _map("0 0 1", "0 0 1")
    drop_privileges()


def drop_privileges() -> None:
    """No capability now or after any exec, and no way to gain one (setuid files included)."""
    with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as handle:
        last = int(handle.read())
    for cap in range(last + 1):
        sc.prctl(sc.PR_CAPBSET_DROP, cap)
    sc.prctl(sc.PR_SET_SECUREBITS, sc.SECURE_ALL_LOCKED)
    sc.prctl(sc.PR_CAP_AMBIENT, sc.PR_CAP_AMBIENT_CLEAR_ALL)
    sc.clear_capabilities()
    sc.prctl(sc.PR_SET_NO_NEW_PRIVS, 1)


def _map(users: str, groups: str) -> None:
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", users)
    _write("/proc/self/gid_map", groups)


def _mount_points() -> list[str]:
    return sorted({point for _root, point, _type, _options in mounts()}, key=len)


def _read_only(point: str) -> bool:
    """Remount ``point`` read-only, keeping its nosuid/nodev/noexec/atime flags (a mount
    inherited from a more privileged namespace is locked with them); False if it stays
    writable."""
    try:
        flags = os.statvfs(point).f_flag
    except OSError:
        return True  # not reachable from here, so not reachable by the kernel either
    if flags & os.ST_RDONLY:
        return True
    mount_flags = sc.MS_REMOUNT | sc.MS_BIND | sc.MS_RDONLY | sc.MS_SILENT
    for statvfs_flag, mount_flag in _STATVFS_TO_MOUNT:
        if flags & statvfs_flag:
            mount_flags |= mount_flag
    if flags & os.ST_NOATIME:
        mount_flags |= sc.MS_NOATIME
    elif flags & os.ST_RELATIME:
        mount_flags |= sc.MS_RELATIME
    else:
        mount_flags |= sc.MS_STRICTATIME
    try:
        sc.mount(None, point, None, mount_flags)
    except OSError as exc:
        return exc.errno in (errno.EACCES, errno.ENOENT)
    return True


def _tmpfs(place: str, size: int, mode: str, nodev: bool = True) -> None:
    options = f"size={size},nr_inodes={max(1024, size // 4096)},mode={mode}"
    flags = sc.MS_NOSUID | (sc.MS_NODEV if nodev else 0)
    sc.mount("tmpfs", place, "tmpfs", flags, options)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(text)


def report_mounts_left(left: list[str]) -> str:
    """How the read-only step went, for the isolation report."""
    if not left:
        return "read-only"
    shown = ", ".join(left[:5]) + (" ..." if len(left) > 5 else "")
    return f"read-only but for {shown}"
