"""Sending the outbox: each worker's loop that claims due rows and delivers them.

A claimed row is looked at before it goes: a muted table or a turn already played is skipped;
in the person's quiet hours it waits for them to end; while the person is at the table it
waits and is looked at again (``Settings.push_wait``).  Then it is encrypted for the browser
(RFC 8291, ``aes128gcm``) and signed for the server (VAPID, RFC 8292) by pywebpush and
py-vapid, and posted to the push service (RFC 8030) with a ``TTL``, an ``Urgency`` and a
``Topic`` (so a copy of it sent again replaces the first while undelivered).  The answer
decides: 201 (or 200, 202) sent; 404 or 410 the subscription is gone and is dropped; 429, a
5xx or no answer at all is tried again later, each time twice as late (a ``Retry-After`` is
honoured), up to ``Settings.push_attempts`` tries; any other answer is a refusal for good.
Redirects are not followed: a push service answers, it does not send the server elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any
from urllib.parse import urlsplit

import requests
from py_vapid import Vapid
from pywebpush import WebPusher

from ..settings import Settings
from .endpoints import addresses, public
from .keys import VapidKeys, b64url
from .models import PushState
from .outbox import BATCH, Claimed, Outbox
from .quiet import QuietHours

log = logging.getLogger("shipcaptaincrew.web")

#: Seconds to wait for a push service's answer.
TIMEOUT = 10.0
#: A retry's wait at most, whatever the back-off or the push service's Retry-After says.
LONGEST_WAIT = timedelta(hours=1)
#: Rows sent at once by one worker.
AT_ONCE = 8
#: How long a VAPID token is good for (RFC 8292 allows up to 24 hours).
TOKEN_LIFE = 12 * 3600


class Look(Enum):
    """What a claimed row's turn is like now (see :class:`Sender`)."""

    SEND = "send"  #: still the person's turn, and they are not at the table
    PLAYED = "played"  #: the turn is over (or the table gone): nothing to say
    HERE = "here"  #: the person is at the table: look again later
    UNSURE = "unsure"  #: who is at the table is not known yet here: look again soon


@dataclass(frozen=True)
class Answer:
    """A push service's answer (``status`` None: none came)."""

    status: int | None
    detail: str
    retry_after: float | None = None


class _NoRedirects(requests.Session):
    """A session that never follows a redirect (see the module)."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def topic(tag: str) -> str:
    """The ``Topic`` header of a notification (at most 32 base64url characters, RFC 8030)."""
    return b64url(hashlib.sha256(tag.encode()).digest())[:32]


def _retry_after(value: str | None) -> float | None:
    """Seconds a ``Retry-After`` asks for (a number of seconds or an HTTP date)."""
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def deliver(row: Claimed, keys: VapidKeys, subject: str, ttl: int, local: bool) -> Answer:
    """Encrypt, sign and post one notification (blocking: run it in a thread)."""
    parts = urlsplit(row.endpoint)
    if not local:
        port = parts.port or 443
        found = addresses(parts.hostname or "", port)
        if not found or not all(public(a) for a in found):
            return Answer(None, "private" if found else "unresolved")
    vapid = Vapid.from_pem(keys.private_pem.encode())
    claims = {
        "sub": subject,
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + TOKEN_LIFE,
    }
    headers = dict(vapid.sign(claims))
    headers["Urgency"] = "normal"
    headers["Topic"] = topic(str(row.payload.get("tag", row.id)))
    subscription = {"endpoint": row.endpoint, "keys": {"p256dh": row.p256dh, "auth": row.auth}}
    data = json.dumps(row.payload, ensure_ascii=False).encode()
    with _NoRedirects() as session:
        try:
            response = WebPusher(subscription, requests_session=session).send(
                data, headers, ttl=ttl, content_encoding="aes128gcm", timeout=TIMEOUT
            )
        except requests.RequestException as e:
            return Answer(None, type(e).__name__)
    status = int(response.status_code)
    return Answer(status, response.reason or "", _retry_after(response.headers.get("Retry-After")))


def contact(settings: Settings) -> str:
    """VAPID's ``sub``: the operator's contact (``Settings.vapid_subject``, see there), else
    the public site's https origin without its port (RFC 8292 wants a contact URL, and the
    library refuses one with a port: a server behind a proxy on port 8443 sent nothing)."""
    if settings.vapid_subject:
        return settings.vapid_subject
    url = urlsplit(settings.public_url.strip())
    if url.scheme == "https" and url.hostname:
        return f"https://{url.hostname}"
    return "mailto:push@localhost"


class Sender:
    """One worker's loop over the outbox (see the module)."""

    def __init__(
        self,
        settings: Settings,
        outbox: Outbox,
        keys: Callable[[], VapidKeys],
        clock: Callable[[], datetime],
        look: Callable[[Claimed], Awaitable[Look]],
        worker: str,
    ) -> None:
        self.settings, self.outbox, self.keys = settings, outbox, keys
        self.clock, self.look, self.worker = clock, look, worker
        #: Set to look at the outbox now (a row was written here).
        self.wake = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self._gate = asyncio.Semaphore(AT_ONCE)

    @property
    def subject(self) -> str:
        """VAPID's ``sub``: the operator's contact (see :func:`contact`)."""
        return contact(self.settings)

    def start(self) -> None:
        """Start the loop on the running event loop."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self, grace: float) -> None:
        """Finish the sendings under way (up to ``grace`` seconds), claim nothing more."""
        self._stopping = True
        self.wake.set()
        if self._task is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._task), grace)
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while not self._stopping:
            try:
                full = await self.round()
            except Exception:  # the database away, say: look again at the next poll
                log.warning("push outbox not read", exc_info=True)
                full = False
            if full or self._stopping:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.settings.push_poll)
            self.wake.clear()

    async def round(self) -> bool:
        """Claim and handle the rows due now; whether there may be more."""
        now = self.clock()
        ids = await asyncio.to_thread(self.outbox.due, now)
        jobs = []
        for row_id in ids:
            if self._stopping:
                break
            row = await asyncio.to_thread(self.outbox.claim, row_id, self.worker, now)
            if row is not None:
                jobs.append(self._handle(row))
        await asyncio.gather(*jobs)
        return len(ids) >= BATCH and not self._stopping

    async def _handle(self, row: Claimed) -> None:
        async with self._gate:
            try:
                state, outcome, due, attempts = await self._decide(row)
            except Exception:
                log.warning("push not handled", exc_info=True, extra={"room": row.code})
                state, outcome = PushState.PENDING, "error"
                due, attempts = self._later(row.attempts), row.attempts + 1
                if attempts >= self.settings.push_attempts:
                    state, due = PushState.FAILED, None
            await asyncio.to_thread(
                self.outbox.settle, row, self.worker, state, outcome, due, attempts
            )
            if state is PushState.GONE:
                await asyncio.to_thread(self.outbox.drop, row.subscription_id)
            log.info(
                "push %s",
                state.value,
                extra={"room": row.code, "turn": row.turn, "seat": row.seat, "outcome": outcome},
            )

    async def _decide(self, row: Claimed) -> tuple[PushState, str, datetime | None, int | None]:
        """What to do with a claimed row: (its state now, what happened, when it is due again,
        its tries)."""
        now = self.clock()
        if row.muted:
            return PushState.SKIPPED, "muted", None, None
        look = await self.look(row)
        if look is Look.PLAYED:
            return PushState.SKIPPED, "turn played", None, None
        if row.quiet_start is not None and row.quiet_end is not None:
            quiet = QuietHours(row.quiet_start, row.quiet_end, row.time_zone)
            if quiet.quiet_at(now):
                return PushState.PENDING, "quiet hours", quiet.ends_after(now), None
        if look is Look.HERE:
            wait = timedelta(seconds=max(self.settings.push_wait, 1.0))
            return PushState.PENDING, "at the table", now + wait, None
        if look is Look.UNSURE:
            return PushState.PENDING, "who is here not known yet", now + timedelta(seconds=2), None
        answer = await asyncio.to_thread(
            deliver,
            row,
            self.keys(),
            self.subject,
            self.settings.push_ttl,
            self.settings.push_local_endpoints,
        )
        said = f"{answer.status or 'no answer'} {answer.detail}".strip()
        if answer.status in (200, 201, 202):
            return PushState.SENT, said, None, row.attempts + 1
        if answer.status in (404, 410) or answer.detail == "private":
            return PushState.GONE, said, None, row.attempts + 1
        tries = row.attempts + 1
        if (answer.status is None or answer.status == 429 or answer.status >= 500) and (
            tries < self.settings.push_attempts
        ):
            return PushState.PENDING, said, self._later(row.attempts, answer.retry_after), tries
        return PushState.FAILED, said, None, tries

    def _later(self, attempts: int, retry_after: float | None = None) -> datetime:
        """When to try again after ``attempts`` failed tries (doubling; a Retry-After at least)."""
        wait = timedelta(seconds=self.settings.push_retry * 2**attempts)
        if retry_after is not None:
            wait = max(wait, timedelta(seconds=retry_after))
        return self.clock() + min(wait, LONGEST_WAIT)
