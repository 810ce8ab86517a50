"""The /api/push contract: the server's VAPID key (made once, kept in the database), a seat's
subscriptions made, read, changed, muted and ended, and every bad one refused in the person's
language naming what is wrong -- never a traceback, never an address inside the network."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import pytest

from tests.need import need_module
from tests.push_service import PushService

from .conftest import open_table

need_module("pywebpush")


@pytest.fixture
def push() -> Iterator[PushService]:
    service = PushService().start()
    yield service
    service.stop()


def test_the_key_is_made_once_and_kept_with_the_database(make_client: Any) -> None:
    first = make_client().get("/api/push/key")
    assert first.status_code == 200
    key = first.json()["key"]
    point = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(point) == 65 and point[0] == 4  # an uncompressed P-256 point, as browsers take it
    # Another server on the same database (a restart, another worker) has the same key.
    assert make_client().get("/api/push/key").json() == {"key": key}


def test_a_seat_subscribes_reads_changes_and_ends(make_client: Any, push: PushService) -> None:
    client = make_client(push_local_endpoints=True)
    code, (anna, bo) = open_table(client, ["Anna", "Bo"])
    phone = push.subscribe()
    body = {
        **phone.json(),
        "time_zone": "Europe/Oslo",
        "quiet_start": "22:30",
        "quiet_end": "07:00",
    }
    r = client.post("/api/push/subscriptions", json=body, headers={"X-Seat-Token": bo})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["room"] == code and made["seat"] == 1
    assert (made["quiet_start"], made["quiet_end"], made["time_zone"]) == (
        "22:30",
        "07:00",
        "Europe/Oslo",
    )
    assert made["muted"] is False and made["lang"] == "en"
    assert "endpoint" not in made  # a capability: never shown back
    # The same browser again: the same subscription, brought up to date.
    again = client.post(
        "/api/push/subscriptions", json={**phone.json(), "lang": "nb"}, headers={"X-Seat-Token": bo}
    )
    assert again.status_code == 201 and again.json()["id"] == made["id"]
    assert again.json()["lang"] == "nb" and again.json()["quiet_start"] is None
    url = f"/api/push/subscriptions/{made['id']}"
    changed = client.patch(
        url,
        json={"muted": True, "quiet_start": "23:00", "quiet_end": "06:00"},
        headers={"X-Seat-Token": bo},
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["muted"] is True and changed.json()["quiet_end"] == "06:00"
    assert client.get(url, headers={"X-Seat-Token": bo}).json() == changed.json()
    # Another seat's token opens nothing of Bo's; neither does none.
    for headers, status in (({"X-Seat-Token": anna}, 404), ({}, 403)):
        assert client.get(url, headers=headers).status_code == status
        assert client.delete(url, headers=headers).status_code == status
        assert client.patch(url, json={"muted": False}, headers=headers).status_code == status
    assert client.delete(url, headers={"X-Seat-Token": bo}).status_code == 200
    gone = client.get(url, headers={"X-Seat-Token": bo, "X-Lang": "de"})
    assert gone.status_code == 404
    assert gone.json()["detail"] == "Dein Platz hat kein solches Abonnement."


BAD = [
    # (what is changed, the language, the status, the code, what the refusal says)
    ({"endpoint": "http://push.example.org/x"}, "de", 422, "bad_subscription", "https://"),
    ({"endpoint": "https://127.0.0.1/x"}, "en", 422, "bad_subscription", "private network"),
    ({"endpoint": "https://10.1.2.3/x"}, "nb", 422, "bad_subscription", "privat"),
    ({"endpoint": "https://[::1]:8443/x"}, "en", 422, "bad_subscription", "private network"),
    ({"endpoint": "https://localhost/x"}, "en", 422, "bad_subscription", "private network"),
    (
        {"endpoint": "https://user:pw@push.example.invalid/x"},
        "en",
        422,
        "bad_subscription",
        "not a push address",
    ),
    ({"endpoint": "x" * 2000}, "en", 422, "invalid", "Push address"),
    (
        {"keys": {"p256dh": "AAAA", "auth": "c2VjcmV0c2VjcmV0MTIzNA"}},
        "de",
        422,
        "bad_subscription",
        "P-256",
    ),
    ({"keys": {"p256dh": None, "auth": "x"}}, "en", 422, "invalid", "Push key"),
    ({"time_zone": "Mars/Olympus_Mons"}, "nb", 422, "bad_subscription", "Mars/Olympus_Mons"),
    ({"quiet_start": "22:00"}, "en", 422, "bad_subscription", "both a start and an end"),
    ({"quiet_start": "25:00", "quiet_end": "07:00"}, "de", 422, "bad_subscription", "22:00"),
    ({"colour": "red"}, "en", 422, "invalid", "colour"),
]


@pytest.mark.parametrize(("change", "lang", "status", "code", "says"), BAD)
def test_bad_subscriptions_are_refused_in_words(
    make_client: Any,
    push: PushService,
    change: dict[str, Any],
    lang: str,
    status: int,
    code: str,
    says: str,
) -> None:
    client = make_client()  # a public server: no local endpoints
    _, (token,) = open_table(client, ["Anna"])
    good = push.subscribe().json()
    good["endpoint"] = "https://push.example.invalid/send/abc"  # never resolves: checked at sending
    assert (
        client.post(
            "/api/push/subscriptions", json=good, headers={"X-Seat-Token": token}
        ).status_code
        == 201
    )
    r = client.post(
        f"/api/push/subscriptions?lang={lang}",
        json={**good, **change},
        headers={"X-Seat-Token": token},
    )
    assert r.status_code == status, r.text
    assert r.json()["code"] == code
    assert says in r.json()["detail"], r.json()["detail"]


def test_only_a_seat_at_an_open_table_subscribes(make_client: Any, push: PushService) -> None:
    client = make_client(push_local_endpoints=True)
    body = push.subscribe().json()
    no_token = client.post("/api/push/subscriptions", json=body, headers={"X-Lang": "nb"})
    assert no_token.status_code == 403 and no_token.json()["code"] == "bad_token"
    wrong = client.post("/api/push/subscriptions", json=body, headers={"X-Seat-Token": "x" * 43})
    assert wrong.status_code == 403
    garbage = client.post(
        "/api/push/subscriptions", content=b"\xff\x00", headers={"X-Seat-Token": "x" * 43}
    )
    assert garbage.status_code == 422 and garbage.json()["detail"]
