"""Issue 35 on three workers (one PostgreSQL database, one Redis): a blip never lets anyone be
removed, a leave asked while someone was away is undone by whichever worker they come back
through, votes about a silent turn are counted the same on every worker, seats for the next
match are one per network wherever they are asked, and a table screen is the one a seated
player paired, at most ``max_screens`` a table, whichever worker each is on."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx

from .conftest import Client, make_room


class Screen(Client):
    """A table screen: its hello says so (with the screen token it was given, if any)."""

    def __init__(self, base_ws: str, code: str, token: str | None = None, name: str = "") -> None:
        super().__init__(base_ws, code, None, name)
        self.screen_token = token
        self.welcome: dict[str, Any] = {}

    async def open(self) -> Client:
        from websockets.asyncio.client import connect

        self.ws = await connect(f"{self.base}/ws/rooms/{self.code}", open_timeout=10)
        hello = {"type": "hello", "screen": True, "screen_token": self.screen_token}
        await self.ws.send(json.dumps(hello))
        self.welcome = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
        assert self.welcome["type"] == "welcome", self.welcome
        self.screen_token = self.welcome["screen"]["token"]
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def told(self, kind: str, timeout: float = 30.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for m in self.messages:
                if m["type"] == kind:
                    return m
            await asyncio.sleep(0.02)
        raise AssertionError(f"{self.name}: no {kind} message")


async def reply(client: Client, after: int, *kinds: str) -> dict[str, Any]:
    """The first message of one of ``kinds`` received after index ``after``."""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        for m in client.messages[after:]:
            if m["type"] in kinds:
                return m
        await asyncio.sleep(0.02)
    raise AssertionError(f"{client.name}: no {kinds} after {after}")


def test_a_blip_removes_nobody_and_a_leave_is_undone_through_another_worker(
    make_cluster: Any,
) -> None:
    a, b, c = make_cluster(3, SCC_ABSENT_GRACE="10000")

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Bob", "Mallory", "Cy"], settings=["starter=chosen"])
        bob = await Client(a.ws, code, tokens[0], "bob").open()
        mallory = await Client(b.ws, code, tokens[1], "mallory").open()
        cy = await Client(c.ws, code, tokens[2], "cy").open()
        await mallory.until(lambda r: all(p["online"] for p in r["players"]))
        await bob.close()  # Bob's phone drops on worker A
        room = await mallory.until(lambda r: not r["players"][0]["online"])
        n = len(mallory.messages)
        await mallory.send(type="remove_after_round", seat=0, version=room["version"])
        err = await mallory.next_reply(n)
        assert err["code"] == "not_host" and "only just gone" in err["message"]
        bob = await Client(c.ws, code, tokens[0], "bob").open()  # back, through worker C
        await mallory.until(lambda r: r["players"][0]["online"])
        # Bob (the host) asks, on A, for Cy to leave while Cy is away; Cy comes back on B.
        await cy.close()
        room = await bob.until(lambda r: not r["players"][2]["online"])
        await bob.send(type="remove_after_round", seat=2, version=room["version"])
        await mallory.until(lambda r: r["players"][2]["leaving"])
        cy = await Client(b.ws, code, tokens[2], "cy").open()
        for p in (bob, mallory, cy):
            room = await p.until(
                lambda r: r["players"][2]["online"] and not r["players"][2]["leaving"]
            )
        assert "Cy is back and stays in the match." in bob.lines()
        log = httpx.get(f"{a.url}/api/rooms/{code}").json()
        assert not log["players"][2]["leaving"] and not log["players"][2]["left"]
        for p in (bob, mallory, cy):
            assert not [e for e in p.errors() if e["code"] != "not_host"]
            await p.close()

    asyncio.run(scenario())


def test_votes_about_a_silent_turn_count_on_every_worker(make_cluster: Any) -> None:
    # (A bot's pause of a second: each worker shows the turn a bot plays while it lasts.)
    a, b, c = make_cluster(3, SCC_ABSENT_GRACE="10000", SCC_SILENT_GRACE="0.5", SCC_BOT_DELAY="1")

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna", "Bo", "Cy"], settings=["starter=chosen"])
        anna = await Client(a.ws, code, tokens[0], "anna").open()
        bo = await Client(b.ws, code, tokens[1], "bo").open()
        cy = await Client(c.ws, code, tokens[2], "cy").open()
        room = await bo.until(
            lambda r: r["match"]["actor"] == 0 and all(p["online"] for p in r["players"])
        )
        await asyncio.sleep(room["silent"]["wait_s"] + 0.6)  # Anna's phone is locked
        await bo.send(type="play_for", seat=0)  # Bo on B: one of the two votes
        await cy.until(lambda r: r["silent"] is not None and r["silent"]["votes"] == [1])
        assert anna.room["played_for"] is None
        await cy.send(type="play_for", seat=0)  # Cy on C: the majority
        seen = await anna.until(lambda r: r["played_for"] is not None)
        assert seen["played_for"] == {"seat": 0, "by": "silent"}
        await anna.until(lambda r: r["match"]["actor"] != 0)
        assert "Anna has been silent a long while: a bot plays this turn, as Bo and Cy asked." in (
            anna.lines()
        )
        for p in (anna, bo, cy):
            await p.close()

    asyncio.run(scenario())


def test_one_seat_a_network_at_the_next_match_on_every_worker(make_cluster: Any) -> None:
    workers = make_cluster(3)

    async def scenario() -> None:
        with httpx.Client(base_url=workers[0].url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna", "Bo"], settings=["starter=chosen"])
        anna = await Client(workers[0].ws, code, tokens[0], "anna").open()
        phantoms = [
            await Client(workers[i % 3].ws, code, None, f"ghost{i}").open() for i in range(6)
        ]
        marks = [len(p.messages) for p in phantoms]
        await asyncio.gather(
            *(p.send(type="seat_next", name=f"Ghost{i}") for i, p in enumerate(phantoms))
        )
        answers = [await reply(p, n, "seat_next", "error") for p, n in zip(phantoms, marks)]
        granted = [p for p, m in zip(phantoms, answers) if m["type"] == "seat_next"]
        refused = [m for m in answers if m["type"] == "error"]
        assert len(granted) == 1, answers
        assert all(m["code"] in ("full", "conflict") for m in refused), refused
        room = await anna.until(
            lambda r: r["rematch"] is not None and len(r["rematch"]["next_seats"]) == 1
        )
        await granted[0].close()  # the phantom goes: its seat with it
        await anna.until(lambda r: not (r["rematch"] or {}).get("next_seats"))
        for p in phantoms:
            await p.close()
        await anna.close()
        assert room["status"] == "playing"

    asyncio.run(scenario())


def test_table_screens_are_paired_at_most_max_screens_on_every_worker(make_cluster: Any) -> None:
    a, b, c = make_cluster(3, SCC_MAX_SCREENS="2")

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna", "Bo"])
        anna = await Client(b.ws, code, tokens[0], "anna").open()
        # Eight screens nobody paired, over the three workers: spectators, no table screen.
        fakes = [await Screen((a, b, c)[i % 3].ws, code, name=f"fake{i}").open() for i in range(8)]
        room = await anna.until(lambda r: r["spectators"] == 8)
        assert room["screens"] == 0
        # Anna (on B) pairs a screen on A and one on C; a third, anywhere, is one too many.
        tv = await Screen(a.ws, code, name="tv").open()
        tv2 = await Screen(c.ws, code, name="tv2").open()
        # Both counted, so B has heard of both codes (each worker's report carries its
        # screens' codes with its spectators: waiting for 9 once let C's report, with tv2,
        # pass for A's, and B did not know tv's code yet).
        await anna.until(lambda r: r["spectators"] >= 10)
        for screen, want in ((tv, 1), (tv2, 2)):
            n = len(anna.messages)
            await anna.send(type="pair", code=screen.welcome["screen"]["code"])
            said = await reply(anna, n, "paired", "error")
            assert said == {"type": "paired", "code": screen.welcome["screen"]["code"]}, said
            await screen.told("paired")
            await anna.until(lambda r, w=want: r["screens"] == w)
        third = fakes[4]  # (on worker B)
        n = len(anna.messages)
        await anna.send(type="pair", code=third.welcome["screen"]["code"])
        err = await reply(anna, n, "error")
        assert err["code"] == "full"
        for p in (tv, tv2, *fakes, anna):
            await p.close()

    asyncio.run(scenario())
