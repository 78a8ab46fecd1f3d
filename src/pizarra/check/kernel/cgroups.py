"""A memory and a process limit for one lesson's kernel: cgroups of its own, where they can be made.

A memory cgroup counts everything the kernel holds, which ``RLIMIT_DATA`` does not: shared
mappings, ``memfd`` and tmpfs files, and every process it forks, together. A pids cgroup
bounds its processes whatever their user. The launcher makes them as children of its own
cgroups, so they sit inside any limit an operator put pizarra in: with cgroup v1 (one
hierarchy per controller, writable by root) or a cgroup v2 subtree this user may write
and whose controllers are enabled for children. Where neither can be made, nothing is
made and the launcher's rlimits are all there is (:mod:`pizarra.check.kernel.launcher`).

A cgroup is named after the launcher's process id, so one left by a launcher that was
killed is recognised and removed by the next one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass

PREFIX = "pizarra-kernel-"


@dataclass(frozen=True)
class Group:
    """A cgroup made for one kernel."""

    path: str
    controllers: tuple[str, ...]
    """``memory`` and/or ``pids``: what it limits."""
    version: int


def create(memory: int, processes: int) -> list[Group]:
    """Cgroups limiting memory to ``memory`` bytes and tasks to ``processes``; as many of
    the two limits as this system allows (possibly none)."""
    groups: list[Group] = []
    wanted = ["memory", "pids"]
    for controller in list(wanted):
        base = _v1_dir(controller)
        if base is not None and (group := _make(base, (controller,), 1, memory, processes)):
            groups.append(group)
            wanted.remove(controller)
    if wanted and (base := _v2_dir()) is not None:
        group = _make(base, tuple(wanted), 2, memory, processes)
        if group is not None:
            groups.append(group)
    return groups


def join(groups: list[Group]) -> list[Group]:
    """Move this process into ``groups``; those it could join."""
    joined = []
    for group in groups:
        with contextlib.suppress(OSError):
            _write(os.path.join(group.path, "cgroup.procs"), str(os.getpid()))
            joined.append(group)
    return joined


def remove(groups: list[Group]) -> None:
    """Kill whatever is left in ``groups`` and remove them."""
    for group in groups:
        for _ in range(200):
            _kill_members(group.path)
            try:
                os.rmdir(group.path)
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.005)  # dying processes leave the cgroup a moment later


def _make(
    base: str, controllers: tuple[str, ...], version: int, memory: int, processes: int
) -> Group | None:
    _sweep(base)
    path = os.path.join(base, f"{PREFIX}{os.getpid()}")
    try:
        os.mkdir(path, 0o755)
    except OSError:
        return None
    try:
        if version == 2:
            _enable(base, path, controllers)
        for controller in controllers:
            for name, value in _limits(controller, version, memory, processes):
                _write(os.path.join(path, name), value)
    except OSError:
        with contextlib.suppress(OSError):
            os.rmdir(path)
        return None
    return Group(path, controllers, version)


def _limits(controller: str, version: int, memory: int, processes: int) -> list[tuple[str, str]]:
    if controller == "pids":
        return [("pids.max", str(processes))]
    if version == 1:
        found = [("memory.limit_in_bytes", str(memory))]
        return [*found, ("memory.memsw.limit_in_bytes", str(memory))]  # no swap either
    return [("memory.max", str(memory)), ("memory.swap.max", "0")]


def _enable(base: str, path: str, controllers: tuple[str, ...]) -> None:
    """cgroup v2: the controllers must be enabled in the parent for the child to have them."""
    if all(os.path.exists(os.path.join(path, f"{c}.max")) for c in controllers):
        return
    _write(os.path.join(base, "cgroup.subtree_control"), " ".join(f"+{c}" for c in controllers))
    if not all(os.path.exists(os.path.join(path, f"{c}.max")) for c in controllers):
        raise OSError("controllers not available")


def _sweep(base: str) -> None:
    """Remove cgroups of launchers that no longer exist (killed before they could)."""
    with contextlib.suppress(OSError):
        for name in os.listdir(base):
            pid = name[len(PREFIX) :]
            if name.startswith(PREFIX) and pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                remove([Group(os.path.join(base, name), (), 0)])


def _kill_members(path: str) -> None:
    with contextlib.suppress(OSError):
        with open(os.path.join(path, "cgroup.procs"), encoding="ascii") as handle:
            members = [int(p) for p in handle.read().split()]
        for pid in members:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _v1_dir(controller: str) -> str | None:
    own = _own_cgroups().get(controller)
    for root, point, fstype, options in mounts():
        if fstype == "cgroup" and controller in options.split(",") and own is not None:
            return _below(point, root, own)
    return None


def _v2_dir() -> str | None:
    own = _own_cgroups().get("")
    for root, point, fstype, _options in mounts():
        if fstype == "cgroup2" and own is not None:
            return _below(point, root, own)
    return None


def _below(point: str, root: str, own: str) -> str | None:
    """The folder of cgroup ``own`` in a hierarchy mounted at ``point`` from ``root``."""
    if root != "/":
        if own != root and not own.startswith(root + "/"):
            return None
        own = own[len(root) :]
    path = os.path.join(point, own.lstrip("/"))
    return path if os.path.isdir(path) else None


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup per v1 controller, and under ``""`` its v2 cgroup."""
    found: dict[str, str] = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup", encoding="utf-8") as handle:
        for line in handle:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) == 3:
                for name in parts[1].split(",") if parts[1] else [""]:
                    found[name] = parts[2]
    return found


def mounts() -> list[tuple[str, str, str, str]]:
    """The mount table as ``(root, mount point, type, super options)``, unescaped."""
    table = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            head, _, tail = line.partition(" - ")
            fields, rest = head.split(), tail.split()
            if len(fields) >= 5 and len(rest) >= 3:
                table.append((_unescape(fields[3]), _unescape(fields[4]), rest[0], rest[2]))
    return table


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash as octal escapes."""
    for code in ("\\040", "\\011", "\\012", "\\134"):
        field = field.replace(code, chr(int(code[1:], 8)))
    return field


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(text)
