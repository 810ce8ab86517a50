"""A session's "another round?" is asked of the people (issue 35): in a session with bots the
people were asked once in five rounds, because only the next round's first player decides and
a bot always goes on.  Now any person at the table may answer, the bots wait for them (a while:
then they go on), and the story names who answered."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Player, open_table
from .test_absent import act, events


@pytest.mark.timeout(120)
def test_the_people_answer_another_round_whoever_starts_it(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(silent_grace=10_000)
    code, tokens = open_table(
        client, ["Anna"], ["easy", "easy", "easy"], settings=["starter=chosen", "format=session"]
    )
    anna = Player(client, code, tokens[0])
    players.append(anna)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    asked, for_bots = 0, 0
    while asked < 3:
        room = anna.until(
            lambda r: (
                r["match"] is not None
                and (r["match"]["phase"] == "another_round" or r["match"]["actor"] == 0)
            )
        )
        if room["match"]["phase"] != "another_round":
            act(anna, room)
            anna.until(lambda r, v=room["version"]: r["version"] > v)
            continue
        # Asked, whoever starts the next round (a bot, two times in three here).
        asked += 1
        assert set(room["match"]["legal"]) == {"next_round", "stop"}
        actor = room["match"]["actor"]
        choice = "next_round" if asked < 3 else "stop"
        anna.send(type="act", action=choice, version=room["version"])
        done = anna.until(lambda r, v=room["version"]: r["version"] > v)
        last = events(client, code)[-1]
        assert last["action"] == choice and last["seat"] == actor
        if actor != 0:
            for_bots += 1
            assert last["answered_by"] == 0
            said = (
                "Anna calls another round."
                if choice == "next_round"
                else ("Anna calls a stop: the totals decide the match.")
            )
            assert said in anna.lines
        if choice == "stop":
            assert done["match"]["over"]
    assert for_bots >= 1  # (the question came to Anna when a bot starts the round, too)
    final = anna.until(lambda r: r["status"] == "over")
    assert final["podium"]["ranking"]
