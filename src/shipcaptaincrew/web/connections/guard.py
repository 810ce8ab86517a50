"""The HTTP connections themselves, below the app: a deadline for a request's headers and a
cap on the connections one address holds open.

With nothing in front of ``scc serve`` (a pub's laptop, ``--tls-cert`` on a server), uvicorn
faces the clients alone, and it has no limit of its own on how long a request's headers may
take: one address held 20,000 half-sent requests open (a header line every few seconds) until
the process ran out of file descriptors and a player's reconnect failed.  So ``scc serve``
runs uvicorn with :class:`GuardedHttp`, its own HTTP protocol with two limits added:

- the headers of a request must be complete ``header_timeout`` seconds after the connection
  opened, or after the request's first byte on a kept-alive connection (uvicorn's own
  keep-alive timeout covers the wait between requests); otherwise the answer is ``408`` and
  the connection is closed;
- one client network (:func:`.limits.network`, the same identity the WebSocket limits use)
  holds at most ``max_http_connections_per_address`` open connections (:class:`.limits.
  Turnstile`); one more gets ``429`` and is closed at once.  A trusted proxy is not counted.

A connection that becomes a WebSocket leaves the count here: from then on the live table's
own limits count it (:class:`.limits.Doorman`).  The limits are the process's (``configure``
is called once per server process, by ``scc serve`` and by each worker of ``--workers``).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..settings import Settings
from .limits import Turnstile, proxies

#: What the process's connections are held to (None until :func:`configure`: no limits).
_limits: tuple[float, Turnstile] | None = None


def configure(settings: Settings) -> None:
    """Hold this process's HTTP connections to the settings' limits."""
    global _limits
    door = Turnstile(
        settings.max_http_connections_per_address, proxies(settings.forwarded_allow_ips)
    )
    _limits = (settings.header_timeout, door)


def _answer(status: bytes, text: bytes) -> bytes:
    return b"".join(
        (
            b"HTTP/1.1 " + status + b"\r\n",
            b"content-type: text/plain; charset=utf-8\r\n",
            b"content-length: " + str(len(text)).encode() + b"\r\n",
            b"connection: close\r\n\r\n",
            text,
        )
    )


TIMED_OUT = _answer(b"408 Request Timeout", b"The request's headers took too long.\n")
CROWDED = _answer(b"429 Too Many Requests", b"Too many connections from your address.\n")


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools) with a header deadline and a per-address cap."""

    _deadline: asyncio.TimerHandle | None = None
    _counted: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if _limits is None:
            return
        admitted, self._counted = _limits[1].enter(self.client[0] if self.client else None)
        if not admitted:
            transport.write(CROWDED)
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        # The socket is the live table's from now on: its limits count it (limits.Doorman).
        self._disarm()
        self._release()
        super().handle_websocket_upgrade()

    def _arm(self) -> None:
        if _limits is not None and _limits[0] > 0:
            self._deadline = self.loop.call_later(_limits[0], self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _release(self) -> None:
        if _limits is not None and self._counted is not None:
            _limits[1].leave(self._counted)
            self._counted = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.write(TIMED_OUT)
            self.transport.close()
