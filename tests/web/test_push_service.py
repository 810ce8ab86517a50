"""The tests' push service (tests/push_service.py) reads what a real sender sends, and refuses
what a real push service refuses: a message encrypted and signed by pywebpush and py-vapid (the
libraries the server sends with) is decrypted and its claims read; a wrong key, a tampered
body, a token for another origin or one that lives too long are refused."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.need import need_module
from tests.push_service import PushService

need_module("pywebpush")

from py_vapid import Vapid  # noqa: E402
from pywebpush import WebPusher  # noqa: E402

from shipcaptaincrew.web.push.keys import VapidKeys  # noqa: E402


@pytest.fixture
def push() -> Iterator[PushService]:
    service = PushService().start()
    yield service
    service.stop()


def send(
    push: PushService,
    sub: Any,
    keys: VapidKeys,
    data: bytes,
    claims: dict[str, Any] | None = None,
    tamper: bool = False,
) -> int:
    vapid = Vapid.from_pem(keys.private_pem.encode())
    headers = vapid.sign(
        claims
        or {"sub": "mailto:ops@example.org", "aud": push.origin, "exp": int(time.time()) + 3600}
    )
    pusher = WebPusher(sub.json())
    if tamper:
        body = pusher.encode(data, "aes128gcm")["body"]
        body = body[:-1] + bytes([body[-1] ^ 1])
        import requests

        headers.update({"TTL": "60", "Content-Encoding": "aes128gcm"})
        return requests.post(sub.endpoint, data=body, headers=headers, timeout=10).status_code
    return int(pusher.send(data, headers, ttl=60, content_encoding="aes128gcm").status_code)


def test_a_message_is_decrypted_and_its_vapid_token_read(push: PushService) -> None:
    keys = VapidKeys.generate()
    push.server_key = keys.public_key
    sub = push.subscribe()
    payload = {"title": "Dein Zug an Tisch ABC234", "body": "Bo würfelt 6 5 4 · 3 3."}
    assert send(push, sub, keys, json.dumps(payload).encode()) == 201
    (message,) = push.wait(1)
    assert message.data == payload
    assert message.claims["aud"] == push.origin
    assert message.claims["sub"] == "mailto:ops@example.org"
    assert message.key == keys.public_key
    assert message.headers["content-encoding"] == "aes128gcm"
    assert push.refused == []


def test_what_a_push_service_refuses_is_refused(push: PushService) -> None:
    keys, other = VapidKeys.generate(), VapidKeys.generate()
    push.server_key = keys.public_key
    sub = push.subscribe()
    now = int(time.time())
    assert send(push, sub, other, b"{}") == 403  # another server's key
    assert send(push, sub, keys, b"{}", tamper=True) == 400  # one bit of the body changed
    wrong_aud = {"sub": "mailto:a@b.org", "aud": "http://127.0.0.1:1", "exp": now + 60}
    assert send(push, sub, keys, b"{}", wrong_aud) == 401
    too_long = {"sub": "mailto:a@b.org", "aud": push.origin, "exp": now + 25 * 3600}
    assert send(push, sub, keys, b"{}", too_long) == 401
    reasons = [reason for _, _, reason in push.refused]
    assert len(reasons) == 4 and push.messages == []
    assert "another key" in reasons[0] and "decrypt" in reasons[1]
    assert "aud" in reasons[2] and "exp" in reasons[3]


def test_answers_on_demand(push: PushService) -> None:
    keys = VapidKeys.generate()
    sub = push.subscribe(500, 410)
    assert [send(push, sub, keys, b"{}") for _ in range(3)] == [500, 410, 201]
    assert [m.status for m in push.received(sub, status=None)] == [500, 410, 201]


@pytest.mark.parametrize(
    ("public_url", "subject"),
    [
        ("https://pub.test:8443/", "https://pub.test"),
        ("https://dice.example.org", "https://dice.example.org"),
        ("http://192.168.1.20:8000", "mailto:push@localhost"),
        ("", "mailto:push@localhost"),
    ],
)
def test_the_contact_is_one_the_library_signs(public_url: str, subject: str) -> None:
    """A public URL with a port (a proxy on 8443) made a contact py-vapid refused: nothing
    was sent.  The contact is the site's https origin without it, and it signs."""
    from shipcaptaincrew.web.push.sender import contact
    from shipcaptaincrew.web.settings import Settings

    said = contact(Settings(public_url=public_url))
    assert said == subject
    claims = {"sub": said, "aud": "https://push.example.org", "exp": int(time.time()) + 600}
    assert Vapid.from_pem(VapidKeys.generate().private_pem.encode()).sign(claims)
