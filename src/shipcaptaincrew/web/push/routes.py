"""/api/push: the server's public key, and a person's subscriptions to "your turn".

``GET /api/push/key`` gives the key a page subscribes with (``applicationServerKey``).
``POST /api/push/subscriptions`` keeps a browser's subscription for the seat whose token is in
``X-Seat-Token``, or for the crew member whose key is in ``X-Member-Key`` (201, with the
subscription as the page shows it, its ``id`` first); with the same ``id`` and credentials,
``GET``, ``PATCH`` (quiet hours, time zone, language, ``muted`` for a ``room``) and ``DELETE``
read, change and end it.  Refusals come in the request's language
(``?lang=``/``X-Lang``), each naming what is wrong.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends

from ..crews.identity import MemberKey
from ..deps import ServiceDep, TokenDep
from .schemas import Choices, Subscribe
from .subscriptions import Credentials, Subscriptions

router = APIRouter(prefix="/api/push", tags=["push"])


def credentials(token: TokenDep = None, member: MemberKey = None) -> Credentials:
    """What the request shows to say whose subscription it is (see :mod:`.owners`)."""
    return Credentials(seat_token=token, member_key=member)


CredentialsDep = Annotated[Credentials, Depends(credentials)]


def _subscriptions(service: ServiceDep) -> Subscriptions:
    return Subscriptions(service.settings, service.sessions)


SubscriptionsDep = Annotated[Subscriptions, Depends(_subscriptions)]


@router.get("/key")
async def key(service: ServiceDep) -> dict[str, str]:
    """The server's VAPID public key, base64url (the same on every worker and after a restart)."""
    keys = await asyncio.to_thread(service.push.keys)
    return {"key": keys.public_key}


@router.post("/subscriptions", status_code=201)
async def subscribe(req: Subscribe, who: CredentialsDep, subs: SubscriptionsDep) -> dict[str, Any]:
    """Keep this browser's subscription for the seat (again: its keys and choices updated)."""
    return await asyncio.to_thread(subs.subscribe, who, req)


@router.get("/subscriptions/{sub_id}")
async def show(sub_id: str, who: CredentialsDep, subs: SubscriptionsDep) -> dict[str, Any]:
    """A subscription of the seat's, as its page shows it."""
    return await asyncio.to_thread(subs.show, who, sub_id)


@router.patch("/subscriptions/{sub_id}")
async def change(
    sub_id: str, req: Choices, who: CredentialsDep, subs: SubscriptionsDep
) -> dict[str, Any]:
    """Change quiet hours, time zone, language or whether the table is muted."""
    return await asyncio.to_thread(subs.change, who, sub_id, req)


@router.delete("/subscriptions/{sub_id}")
async def remove(sub_id: str, who: CredentialsDep, subs: SubscriptionsDep) -> dict[str, str]:
    """End a subscription: no more notifications to this browser for this seat."""
    await asyncio.to_thread(subs.remove, who, sub_id)
    return {"removed": sub_id}
