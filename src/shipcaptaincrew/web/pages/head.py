"""``HEAD`` wherever ``GET`` works: the same answer without its body.

FastAPI routes answer only the methods they are declared with, so ``HEAD /`` was a 405 and
uptime checkers (which use HEAD) saw the app as broken.  This ASGI layer serves a HEAD request
as the GET it stands for and drops the body on the way out: the status and the headers
(``Content-Length`` and ``Content-Type`` included) are the GET's, as HTTP wants them.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """Answer ``HEAD`` as ``GET`` without the body (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # a chunk of the body: not sent
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
