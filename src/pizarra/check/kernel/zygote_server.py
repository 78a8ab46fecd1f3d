"""The zygote's side of :mod:`pizarra.check.kernel.zygote`: import once, then fork launchers.

``python -s -P -m pizarra.check.kernel.zygote_server FD PID`` imports the kernel's modules and
:data:`WARM`, then serves, in turn, every private channel that pizarra's processes hand
it through the shared socket ``FD``: one launcher forked per request, answered on the
channel it came from. It ends when process ``PID`` (pizarra) ends or the shared socket is
closed by every process holding it. It never runs lesson code: only the forked children
do, after they have become launchers.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import sys
from typing import cast

WARM = ("numpy",)
"""Modules imported once in the zygote when installed: lessons import them, costly. None
may hold a random state seeded at import (forks would share it): ``numpy`` leaves
``numpy.random`` to the first use, and the stdlib's ``random`` reseeds itself in a fork;
a test draws numbers in two lessons."""

HELLO = b"channel"
"""The only message on the shared socket: it carries one end of a private channel."""


def main(argv: list[str]) -> None:
    """The zygote: import, then fork a launcher per request until pizarra has gone."""
    import importlib

    shared = socket.socket(fileno=int(argv[1]))
    parent = _watch(int(argv[2]))
    importlib.import_module("pizarra.check.kernel.launcher")
    importlib.import_module("pizarra.check.kernel.child").prepare()
    for name in WARM:
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    channels: dict[int, socket.socket] = {}
    poller = select.poll()
    poller.register(shared, select.POLLIN)
    poller.register(parent, select.POLLIN)
    while True:
        events = poller.poll(1000)
        _reap()
        for fd, _event in events:
            if fd == parent:
                os._exit(0)  # pizarra has gone, even if workers of it are left
            if fd == shared.fileno():
                channel = _accept(shared)
                if channel is not None:
                    channels[channel.fileno()] = channel
                    poller.register(channel, select.POLLIN)
            elif fd in channels and not _serve(channels[fd], (shared, *channels.values()), parent):
                poller.unregister(fd)
                channels.pop(fd).close()


def _watch(pid: int) -> int:
    """A pidfd of pizarra, readable once it has ended; exits if it already has."""
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        os._exit(0)
    if os.getppid() != pid:
        os._exit(0)
    return pidfd


def _accept(shared: socket.socket) -> socket.socket | None:
    """The private channel a process sends through the shared socket; exits at its end."""
    try:
        message, fds, _flags, _addr = socket.recv_fds(shared, len(HELLO), 1)
    except OSError:
        os._exit(0)
    if not message:
        os._exit(0)  # every process of pizarra has closed it
    if message == HELLO and len(fds) == 1:
        return socket.socket(fileno=fds[0])
    for fd in fds:
        os.close(fd)
    return None


def _serve(channel: socket.socket, inherited: tuple[socket.socket, ...], parent: int) -> bool:
    """Fork a launcher for the request on ``channel`` and answer with its pidfd (an empty
    answer when that failed); False once the channel is closed or broken."""
    try:
        message, fds, _flags, _addr = socket.recv_fds(channel, 65536, 5)
    except OSError:
        return False
    if not message or len(fds) != 5:
        for fd in fds:
            os.close(fd)
        return bool(message) and _answer(channel, b"", None)
    request = json.loads(message)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        for sock in inherited:
            sock.close()
        os.close(parent)
        _become_launcher(request, fds)
    for fd in fds:
        os.close(fd)
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return _answer(channel, b"", None)
    try:
        return _answer(channel, json.dumps({"pid": pid}).encode(), pidfd)
    finally:
        os.close(pidfd)


def _answer(channel: socket.socket, reply: bytes, pidfd: int | None) -> bool:
    try:
        socket.send_fds(channel, [reply], [] if pidfd is None else [pidfd])
    except OSError:
        return False  # that process has gone: its kernel reads EOF and ends
    return True


def _become_launcher(request: dict[str, object], fds: list[int]) -> None:
    try:
        os.setsid()
        from pizarra.check.kernel import launcher as kernel_launcher

        kernel_launcher.move_fds({fd: target for target, fd in enumerate(fds)})
        os.chdir(cast(str, request["cwd"]))
        os.environ.clear()
        os.environ.update(cast(dict[str, str], request["env"]))
        sys.argv = [str(kernel_launcher.__file__), str(request["memory"]), "3", "4"]
        kernel_launcher.main(sys.argv)
    finally:
        os._exit(70)


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] != 0:
            pass


if __name__ == "__main__":
    main(sys.argv)
