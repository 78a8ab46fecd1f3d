"""Security headers on every answer of ``pizarra serve``.

HTML answers set their own page's policy (see :mod:`pizarra.render.csp`); every other
answer gets the page-independent one, so nothing leaves without a policy.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pizarra.render.csp import SECURITY_HEADERS, policy

CSP = "Content-Security-Policy"


class SecurityHeaders:
    """ASGI middleware adding ``nosniff``, a referrer policy and a default CSP."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if CSP not in headers:
                    headers[CSP] = policy("", header=True)
            await send(message)

        await self.app(scope, receive, send_with_headers)
