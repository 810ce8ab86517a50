"""The provably fair dice: the published construction, die by die."""

from __future__ import annotations

import hashlib
import hmac

from shipcaptaincrew.fair import FairDice, fair_die


def reference_die(server_seed: bytes, client_seed: str, index: int) -> int:
    """The construction as the verify page documents it, spelled out with the classic HMAC API."""
    block = 0
    while True:
        digest = hmac.new(server_seed, f"{client_seed}:{index}:{block}".encode(), hashlib.sha256).digest()
        for b in digest:
            if b < 252:
                return b % 6 + 1
        block += 1


def test_each_die_is_the_published_hmac_construction() -> None:
    seed = bytes(range(32))
    for client in ("", "alice", "alice|bob"):
        assert [fair_die(seed, client, i) for i in range(300)] == \
            [reference_die(seed, client, i) for i in range(300)]


def test_dice_continue_the_counter() -> None:
    dice = FairDice(bytes(32), ["x"])
    faces = dice.roll(5) + dice.roll(3)
    assert faces == tuple(reference_die(bytes(32), "x", i) for i in range(8))
