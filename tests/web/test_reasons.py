"""A bot's reason on the table: every choice a bot makes reaches each viewer with the bot's
own explanation (``Bot.explain``), in the viewer's language with its number format."""

from __future__ import annotations

import re
from typing import Any

from .conftest import Player, open_table
from .test_protocol import play_out


def _steps(p: Player) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(the picture before, the picture after) of every move p saw."""
    pictures = [m["room"] for m in p.seen if m["type"] == "room" and m["room"]["match"]]
    return [
        (b, a) for b, a in zip(pictures, pictures[1:], strict=False) if a["version"] > b["version"]
    ]


def test_every_bot_choice_comes_with_its_reason_in_each_language(
    client: Any, players: list[Player]
) -> None:
    code, tokens = open_table(client, ["Anna"], ["hard"], settings=["format=rounds:5"])
    anna = Player(client, code, tokens[0])
    de = Player(client, code, None, lang="de")
    players += [anna, de]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    play_out({0: anna}, anna)
    de.until(lambda r: r["status"] == "over")
    steps = _steps(anna)
    explained = [(b, a["moment"]) for b, a in steps if a["moment"] and "reason" in a["moment"]]
    bot_choices = [b for b, _ in steps if b["match"]["actor"] == 1 and not b["match"]["chance"]]
    # Every choice of the bot is explained, and nothing else is (a roll is nobody's choice).
    assert [b["version"] for b, _ in explained] == [b["version"] for b in bot_choices]
    kinds = {m["kind"] for _, m in explained}
    assert "choice" in kinds and kinds & {"turn_end", "round_end", "match_end"}  # reroll, stand
    for before, moment in explained:
        why = moment["reason"]
        assert why["seat"] == 1 and why["action"] in before["match"]["legal"]
        # The turn the bot chose in, to word its move by ("Stand on 9", not the next turn's 0).
        turn = before["match"]["turn"]
        assert why["turn"] == (turn and {"score": turn["score"], "held": turn["held"]}), why
        assert re.fullmatch(r"expects \d+\.\d\d points; .+\.", why["text"]), why
        if moment["kind"] == "choice":
            assert moment["seat"] == 1 and moment["action"] == why["action"]
    german = [
        a["moment"]["reason"]["text"]
        for _, a in _steps(de)
        if a["moment"] and "reason" in a["moment"]
    ]
    assert len(german) == len(explained)
    assert all(re.match(r"erwartet \d+,\d\d Punkte", t) for t in german), german
