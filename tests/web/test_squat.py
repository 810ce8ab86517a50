"""No squatting, no fake screens (issue 35): an outsider cannot take the next match's seats
with a connection per seat, nor walk into the rematch by reading its code off the finished
table, and a table screen is the one a seated player paired, not whoever says so."""

from __future__ import annotations

import json
from typing import Any

from .conftest import Player, open_table
from .test_crowds import knock, paired_screen, refused
from .test_protocol import play_out


def test_six_phantom_seats_from_one_address_get_one_and_it_leaves_with_its_connection(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client()
    code, tokens = open_table(
        client, ["Anna", "Bo"], settings=["starter=chosen", "format=rounds:1"]
    )
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [anna, bo]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    phantoms = [Player(client, code, None, lang="de") for _ in range(6)]
    players += phantoms
    for i, phantom in enumerate(phantoms):
        phantom.send(type="seat_next", name=f"Ghost{i}")
    assert phantoms[0].next("seat_next")["name"] == "Ghost0"
    for phantom in phantoms[1:]:
        err = phantom.next("error")
        assert err["code"] == "full"
        assert err["message"].startswith("Dein Netz hat schon 1 Platz bei der nächsten Partie")
    room = anna.until(lambda r: r["rematch"] is not None and len(r["rematch"]["next_seats"]) == 1)
    # The friend watching asks from elsewhere: the table is not full of phantoms.
    assert room["rematch"]["next_seats"] == [{"name": "Ghost0", "color": None, "avatar": None}]
    # The phantom's connection goes: its seat with it.
    phantoms[0].close()
    players.remove(phantoms[0])
    anna.until(lambda r: not (r["rematch"] or {}).get("next_seats"))
    final = play_out({0: anna, 1: bo}, anna)
    for p in (anna, bo):
        p.send(type="rematch", version=final["version"])
    new = anna.next("moved")["code"]
    names = [p["name"] for p in client.get(f"/api/rooms/{new}").json()["players"]]
    assert names == ["Anna", "Bo"]  # nobody long gone was carried into the rematch


def test_the_host_turns_a_newcomer_down(make_client: Any, players: list[Player]) -> None:
    client = make_client()
    code, tokens = open_table(client, ["Anna", "Bo"], settings=["starter=chosen"])
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    cy = Player(client, code, None, lang="nb")
    players += [anna, bo, cy]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    cy.send(type="seat_next", name="Cy")
    cy.next("seat_next")
    bo.send(type="refuse_next", name="Cy")  # not the host
    assert bo.next("error")["code"] == "not_host"
    anna.until(lambda r: (r["rematch"] or {}).get("next_seats"))
    anna.send(type="refuse_next", name="Cy")
    anna.until(lambda r: not (r["rematch"] or {}).get("next_seats"))
    err = cy.next("error")
    assert err["code"] == "no_rematch" and err["message"].startswith("Verten holder neste parti")
    cy.send(type="seat_next", name="Cy")  # and asks no more
    assert cy.next("error")["message"].startswith("Verten holder neste parti")


def test_the_rematch_takes_only_the_people_still_there_and_its_code_stays_with_them(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(open_lists=True)  # (the finished table is listed for all)
    code, tokens = open_table(client, ["Anna", "Bo", "Cy"], settings=["starter=chosen"])
    anna, bo, cy = (Player(client, code, t) for t in tokens)
    players += [anna, bo, cy]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    final = play_out({0: anna, 1: bo, 2: cy}, anna)
    cy.send(type="rematch", version=final["version"])  # Cy says yes, then goes home
    anna.until(lambda r: r["rematch"]["confirmed"] == [2])
    cy.close()
    players.remove(cy)
    anna.until(lambda r: not r["players"][2]["online"])
    anna.send(type="rematch", version=final["version"])
    bo.send(type="rematch", version=final["version"])
    new = anna.next("moved")["code"]
    names = [p["name"] for p in client.get(f"/api/rooms/{new}").json()["players"]]
    assert names == ["Anna", "Bo"]
    # The finished table, as /history lists it, never shows where the table went.
    assert code in [m["code"] for m in client.get("/api/matches").json()]
    assert new not in client.get(f"/api/rooms/{code}").text
    late = Player(client, code, None)  # a stranger opening the finished table
    players.append(late)
    assert late.room["rematch"]["moved_on"] and new not in json.dumps(late.seen)
    late.send(type="seat_next", name="Mallory")
    err = late.next("error")
    assert err["code"] == "no_rematch" and new not in err["message"]
    assert new not in json.dumps(late.seen)


def test_an_unpaired_screen_is_a_spectator_counted_against_its_address(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(max_connections_per_address=3, max_screens=4)
    code, tokens = open_table(client, ["Anna", "Bo"])
    anna = Player(client, code, tokens[0])
    players.append(anna)
    opened = [knock(client, code, screen=True) for _ in range(3)]
    try:
        for _, _, welcome in opened:
            assert welcome["seat"] is None and welcome["screen"]["paired"] is False
            assert len(welcome["screen"]["code"]) == 4
        room = anna.until(lambda r: r["spectators"] == 3)
        assert room["screens"] == 0  # no phone turns compact for a screen nobody paired
        err, close = refused(client, code, screen=True, lang="de")  # the address is full
        assert err["code"] == "crowded" and close == 4429
        assert err["message"].startswith("Zu viele Verbindungen aus deinem Netz")
    finally:
        for ctx, _, _ in opened:
            ctx.__exit__(None, None, None)


def test_a_seated_player_pairs_the_screen_and_only_then_it_is_the_table_screen(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(max_screens=1)
    code, tokens = open_table(client, ["Anna", "Bo"], settings=["starter=chosen"])
    anna, watcher = Player(client, code, tokens[0], lang="de"), Player(client, code, None)
    players += [anna, watcher]
    ctx, ws, welcome = knock(client, code, screen=True)
    try:
        pairing = welcome["screen"]["code"]
        watcher.send(type="pair", code=pairing)  # a spectator cannot pair
        assert watcher.next("error")["code"] == "spectator"
        wrong = "0000" if pairing != "0000" else "1111"
        anna.send(type="pair", code=wrong)
        err = anna.next("error")
        assert err["message"] == (
            f"Kein Tischbildschirm zeigt den Code {wrong}: Schau auf den Bildschirm "
            "und gib seinen Code ein."
        )
        anna.send(type="pair", code=pairing)
        assert anna.next("paired")["code"] == pairing
        while ws.receive_json()["type"] != "paired":
            pass
        room = anna.until(lambda r: r["screens"] == 1)
        assert room["spectators"] == 2  # (the watcher, and the screen)
    finally:
        ctx.__exit__(None, None, None)
    anna.until(lambda r: r["screens"] == 0)
    # Reloaded, it is the table screen at once (its token), without a new pairing.
    token = welcome["screen"]["token"]
    ctx, ws, again = knock(client, code, screen=True, screen_token=token)
    try:
        assert again["screen"] == {"token": token, "paired": True, "code": None}
        anna.until(lambda r: r["screens"] == 1)
        # The table has all the screens it may: another one cannot be paired meanwhile.
        other_ctx, _, other = knock(client, code, screen=True)
        try:
            anna.send(type="pair", code=other["screen"]["code"])
            err = anna.next("error")
            assert err["code"] == "full" and err["message"].startswith("Dieser Tisch")
        finally:
            other_ctx.__exit__(None, None, None)
    finally:
        ctx.__exit__(None, None, None)


def test_four_fake_screens_cannot_keep_the_paired_screen_out(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(max_spectators=4, max_screens=4)
    code, tokens = open_table(client, ["Anna", "Bo"])
    anna = Player(client, code, tokens[0])
    players.append(anna)
    token = paired_screen(client, code, anna)
    fakes = [knock(client, code, screen=True) for _ in range(4)]
    try:
        assert refused(client, code, screen=True)[0]["code"] == "crowded"  # the table is full
        room = anna.until(lambda r: r["spectators"] == 4)
        assert room["screens"] == 0
        ctx, _, welcome = knock(client, code, screen=True, screen_token=token)
        try:
            assert welcome["type"] == "welcome" and welcome["screen"]["paired"]
            anna.until(lambda r: r["screens"] == 1)
        finally:
            ctx.__exit__(None, None, None)
    finally:
        for ctx, _, _ in fakes:
            ctx.__exit__(None, None, None)


def test_the_paired_screen_follows_the_table_to_its_next_match(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client()
    code, tokens = open_table(client, ["Anna", "Bo"], settings=["starter=chosen"])
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [anna, bo]
    token = paired_screen(client, code, anna)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    ctx, ws, _ = knock(client, code, screen=True, screen_token=token)
    try:
        final = play_out({0: anna, 1: bo}, anna)
        for p in (anna, bo):
            p.send(type="rematch", version=final["version"])
        new = anna.next("moved")["code"]
        while (msg := ws.receive_json())["type"] != "moved":
            pass
        assert msg == {"type": "moved", "code": new}
    finally:
        ctx.__exit__(None, None, None)
    ctx, _, welcome = knock(client, new, screen=True, screen_token=token)
    ctx.__exit__(None, None, None)
    assert welcome["screen"]["paired"]  # no new pairing at the next match
