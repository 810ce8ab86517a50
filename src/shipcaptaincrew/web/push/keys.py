"""The server's VAPID key pair (RFC 8292): made once, kept in the database.

A browser subscribes for one server key (``applicationServerKey``), and its push service then
takes only messages signed with that key.  A key made anew at every start would silently end
every subscription; a key per worker would be refused by half the push services' checks.  So
the first worker to start makes the pair and stores it (row 1 of ``push_keys``); a worker that
loses the race to insert it reads the winner's.  It lives with the rooms, so a backup of the
database carries it and a restored server still reaches every phone.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .models import PushKey

#: The row of the one key pair.
KEY_ROW = 1


def b64url(data: bytes) -> str:
    """Base64url without padding, as the Web Push specifications write keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of a base64url text with or without padding (ValueError if it is not one)."""
    if not text or any(c not in _B64URL for c in text.rstrip("=")):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@dataclass(frozen=True)
class VapidKeys:
    """The key pair: the private key as PKCS#8 PEM (what py-vapid loads), the public key as
    browsers take it."""

    private_pem: str
    public_key: str

    @classmethod
    def generate(cls) -> VapidKeys:
        """A new P-256 key pair."""
        private = ec.generate_private_key(ec.SECP256R1())
        pem = private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode("ascii")
        point = private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return cls(pem, b64url(point))


def server_keys(sessions: sessionmaker[Session]) -> VapidKeys:
    """The server's key pair, made and stored the first time (see the module)."""
    stored = _read(sessions)
    if stored is not None:
        return stored
    made = VapidKeys.generate()
    try:
        with sessions() as db, db.begin():
            db.add(PushKey(id=KEY_ROW, private_pem=made.private_pem, public_key=made.public_key))
    except IntegrityError:  # another worker stored its pair first: that one is the server's
        pass
    stored = _read(sessions)
    assert stored is not None
    return stored


def _read(sessions: sessionmaker[Session]) -> VapidKeys | None:
    with sessions() as db:
        row = db.scalar(select(PushKey).where(PushKey.id == KEY_ROW))
        return None if row is None else VapidKeys(row.private_pem, row.public_key)
