"""One cell's round trip with its kernel: the request written, stdout, stderr and the
answer read, all without blocking, until the cell's marker or the deadline."""

from __future__ import annotations

import os
import selectors
import time
from typing import TYPE_CHECKING

from pizarra.check.kernel.answers import Answer, ProtocolError

if TYPE_CHECKING:
    from pizarra.check.kernel.execute import Session

_CHUNK = 65536


_POLL = 0.05

_STATUS_WAIT = 2.0
"""Seconds to wait, once the kernel's pipes closed, for its supervisor's exit report."""


FIGURE_LIMIT = 16 * 1024 * 1024
"""Bytes of one cell's answer (its figures, base64-encoded)."""

LESSON_FIGURE_LIMIT = 64 * 1024 * 1024
"""Bytes of SVG all the cells of one lesson may draw: what pizarra holds of a lesson's
figures until its page is written."""


class Pump:
    """Sends one request, then drains stdout, stderr and the answer without blocking.

    The cell is done when its answer has arrived and its marker has come through both
    stdout and stderr (the kernel writes the markers first, so they are already in the
    pipes). A background process the cell started may keep writing: its bytes count
    towards whichever cell is running when they arrive.
    """

    def __init__(self, session: Session, marker: bytes) -> None:
        self.session = session
        self.marker = marker
        self.buffers = {name: bytearray(carry) for name, carry in session.carry.items()}
        for carry in session.carry.values():
            carry.clear()
        self.seen = {"out": False, "err": False}
        self.answer: Answer | None = None
        self.protocol_error = ""

    def text(self, name: str) -> str:
        return bytes(self.buffers[name][: self.session.limit]).decode("utf-8", errors="replace")

    def run(self, request: bytes, deadline: float) -> str:
        """``done``, ``exited``, ``timeout``, ``truncated``, ``figures too large``,
        ``lesson figures too large`` or ``protocol`` (:attr:`protocol_error` says what)."""
        session = self.session
        stdin = session.proc.stdin
        assert stdin is not None
        if session.response_fd < 0 or session.ended:
            return "exited"
        pending = memoryview(request)
        by_fd = {fd: name for name, fd in session.fds.items()}
        with selectors.DefaultSelector() as sel:
            for fd in (*by_fd, session.response_fd, session.status_fd):
                sel.register(fd, selectors.EVENT_READ)
            os.set_blocking(stdin.fileno(), False)
            sel.register(stdin.fileno(), selectors.EVENT_WRITE)
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return "timeout"
                for key, _ in sel.select(min(remaining, _POLL)):
                    fd = int(key.fd)
                    if fd == stdin.fileno():
                        pending = self._feed(fd, pending)
                        if not pending:
                            sel.unregister(fd)
                    elif fd == session.status_fd:
                        if not self._status(fd):
                            sel.unregister(fd)
                    elif fd == session.response_fd:
                        try:
                            if not self._answer(fd):
                                return self._drain()
                        except ProtocolError as exc:
                            self.protocol_error = str(exc)
                            return "protocol"
                        if len(session.pending) > FIGURE_LIMIT:
                            return "figures too large"
                        if session.figure_bytes > LESSON_FIGURE_LIMIT:
                            return "lesson figures too large"
                    elif not self._take(fd, by_fd[fd]):
                        sel.unregister(fd)
                        self.seen[by_fd[fd]] = True
                    if any(len(b) > session.limit for b in self.buffers.values()):
                        return "truncated"
                if session.ended:
                    return self._drain()
                if self.answer is not None and all(self.seen.values()):
                    return "done"

    def _drain(self) -> str:
        """After the kernel ended: what it left in the pipes, then ``exited``."""
        session = self.session
        deadline = time.monotonic() + _STATUS_WAIT
        while not session.ended and session.status_fd >= 0 and time.monotonic() < deadline:
            if _ready(session.status_fd, deadline - time.monotonic()):
                self._status(session.status_fd)  # its supervisor reports the exit next
        if self.session.response_fd >= 0 and _ready(self.session.response_fd):
            try:
                self._answer(self.session.response_fd)
            except ProtocolError as exc:
                self.protocol_error = str(exc)
                return "protocol"
        for name, fd in self.session.fds.items():
            while not self.seen[name] and self._take(fd, name) and _ready(fd):
                pass
        if any(len(b) > self.session.limit for b in self.buffers.values()):
            return "truncated"
        return "exited"

    def _feed(self, fd: int, pending: memoryview) -> memoryview:
        try:
            return pending[os.write(fd, pending[:_CHUNK]) :]
        except BlockingIOError:
            return pending
        except BrokenPipeError:
            return pending[len(pending) :]

    def _answer(self, fd: int) -> bool:
        """Read the answer pipe; False at end of file (the kernel has gone)."""
        chunk = _read(fd)
        if chunk == b"":
            return False
        if chunk:
            self.session.pending += chunk
            if len(self.session.pending) > FIGURE_LIMIT:
                return True  # run() stops the cell: its figures are too large
        while (answer := self.session.take_answer()) is not None:
            self.answer = answer
            self.session.figure_bytes += answer.figure_bytes
        return True

    def _status(self, fd: int) -> bool:
        """Read the launcher's status pipe; False at end of file (it has gone)."""
        chunk = _read(fd)
        if chunk == b"":
            self.session.ended = True
            return False
        if chunk:
            self.session.status_pending += chunk
            if len(self.session.status_pending) > _CHUNK:
                self.session.status_pending.clear()  # never this long: not the launcher's
            self.session.take_status()
        return True

    def _take(self, fd: int, name: str) -> bool:
        """Read what is ready, cutting at the marker; False at end of file."""
        chunk = _read(fd)
        if chunk is None:
            return True
        if chunk == b"":
            return False
        if self.seen[name]:
            self.session.carry[name] += chunk
            return True
        buffer = self.buffers[name]
        buffer += chunk
        at = buffer.find(self.marker)
        if at >= 0:
            self.session.carry[name] += buffer[at + len(self.marker) :]
            del buffer[at:]
            self.seen[name] = True
        return True


def _read(fd: int) -> bytes | None:
    """A chunk, ``b""`` at end of file, None when nothing is ready after all."""
    try:
        return os.read(fd, _CHUNK)
    except BlockingIOError:
        return None


def _ready(fd: int, timeout: float = 0) -> bool:
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        return bool(sel.select(max(timeout, 0)))
