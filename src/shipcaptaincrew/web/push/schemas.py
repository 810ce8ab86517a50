"""What a page sends to the ``/api/push`` routes: a browser's subscription as
``PushSubscription.toJSON()`` gives it (``endpoint``, ``expirationTime``, ``keys``) with the
person's choices beside it, and a change of those choices.

Only shapes and sizes are checked here (a wrong one is refused naming the field, see
:mod:`..words.invalid`); what the values mean -- an endpoint the server may send to, keys a
browser could have made, a time zone, a time of day -- is checked by :mod:`.subscriptions`,
which says what is wrong in the person's language.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from ..table.schemas import Lang

Clock = Annotated[str, Field(max_length=5)]
Zone = Annotated[str, Field(min_length=1, max_length=64)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class Keys(_Strict):
    """The browser's ECDH P-256 public key and auth secret (RFC 8291), base64url."""

    p256dh: str = Field(min_length=1, max_length=128)
    auth: str = Field(min_length=1, max_length=64)


class Choices(_Strict):
    """What the person chose: the language to be told in, their time zone, quiet hours
    (``"22:00"`` to ``"07:00"``, both or neither) and whether this table is muted (``room``:
    which table, where the credentials open several: a rematch's seat, a crew member)."""

    lang: Lang | None = None
    time_zone: Zone | None = None
    quiet_start: Clock | None = None
    quiet_end: Clock | None = None
    muted: bool | None = None
    room: str | None = Field(default=None, min_length=1, max_length=16)


class Subscribe(Choices):
    """POST /api/push/subscriptions: the browser's subscription and the person's choices."""

    endpoint: str = Field(min_length=1, max_length=1024)
    expirationTime: float | None = None
    keys: Keys
