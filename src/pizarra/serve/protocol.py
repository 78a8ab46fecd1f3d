"""The HTTP edge of ``pizarra serve``: the listening socket and uvicorn's h11 protocol,
bounded.

uvicorn waits forever for a request's headers and, when a request turns out to be
malformed half-way (a bad chunk size), answers 400 but lets the application's own
answer fail with a logged traceback. :class:`BoundedH11Protocol` gives every request
:data:`HEADER_TIMEOUT` seconds to send its headers and drops the application's
answer once the connection is in error. :func:`listen` binds with ``SO_REUSEADDR``
so a restarted server never trips over the last one's ``TIME_WAIT`` connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0
"""Seconds a client has, from its first byte (or from connecting), to finish its headers."""


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on request headers and a quiet 400."""

    _header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        _no_delay(transport)
        self._arm_header_deadline()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._arm_header_deadline()
        else:
            self._cancel_header_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_deadline()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True
            cycle.message_event.set()
            if cycle.response_started:
                self.transport.close()
                return
        super().send_400_response(msg)

    def _arm_header_deadline(self) -> None:
        if self._header_deadline is None:
            self._header_deadline = self.loop.call_later(HEADER_TIMEOUT, self._header_timeout)

    def _cancel_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _header_timeout(self) -> None:
        self._header_deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def _no_delay(transport: asyncio.Transport) -> None:
    """Send each answer at once (``TCP_NODELAY``). asyncio sets it only on sockets made
    with ``IPPROTO_TCP`` as their protocol number, not on those accepted from a socket
    made with 0 (:func:`listen`, or one a caller passes): without it, an asset whose body
    follows its headers in a small second segment waited for the browser's delayed
    acknowledgement, 40 ms per request on a page that fetches eight of them."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def listen(port: int, host: str = "127.0.0.1") -> socket.socket:
    """A listening socket on ``host:port``; raises :class:`OSError` if the port is taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock
