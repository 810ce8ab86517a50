"""The provably fair dice: the published construction, die by die."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from shipcaptaincrew.fair import (
    FairDice,
    FairnessError,
    SeedFormat,
    _KeyedHmac,
    bot_seed,
    client_input,
    fair_die,
    verify_fair_rolls,
)


def reference_die(server_seed: bytes, client_seed: str, index: int) -> int:
    """The construction as the verify page documents it, spelled out with the classic HMAC API."""
    block = 0
    while True:
        digest = hmac.new(
            server_seed, f"{client_seed}:{index}:{block}".encode(), hashlib.sha256
        ).digest()
        for b in digest:
            if b < 252:
                return b % 6 + 1
        block += 1


def test_each_die_is_the_published_hmac_construction() -> None:
    seed = bytes(range(32))
    for client in ("", "alice", "alice|bob"):
        assert [fair_die(seed, client, i) for i in range(300)] == [
            reference_die(seed, client, i) for i in range(300)
        ]


def test_dice_continue_the_counter() -> None:
    dice = FairDice(bytes(32), ["x"])
    faces = dice.roll(5) + dice.roll(3)
    assert faces == tuple(reference_die(bytes(32), "1:x", i) for i in range(8))


def test_client_seeds_are_written_unambiguously() -> None:
    """Each seed goes in with its length: a seed with a "|" in it is not two seeds, nor are
    two seeds one.  (The first logs joined them with "|": the same input for both.)"""
    assert client_input(["a|b"]) == "3:a|b" and client_input(["a", "b"]) == "1:a1:b"
    assert client_input(["é", ""]) == "2:é0:"  # (bytes of UTF-8)
    one, two = FairDice(bytes(32), ["a|b"]), FairDice(bytes(32), ["a", "b"])
    assert one.roll(30) != two.roll(30)
    joined = [FairDice(bytes(32), seeds, SeedFormat.JOINED) for seeds in (["a|b"], ["a", "b"])]
    assert joined[0].roll(30) == joined[1].roll(30)
    # No client seeds: both forms are the empty input, the same dice.
    assert FairDice(bytes(32)).roll(30) == FairDice(bytes(32), [], SeedFormat.JOINED).roll(30)


def test_a_log_is_verified_in_the_form_its_header_names() -> None:
    seed = bytes(range(32))
    for form in SeedFormat:
        dice = FairDice(seed, ["anna", "b|o"], form)
        rolls = [list(dice.roll(n)) for n in (5, 3, 1)]
        header = dice.describe()
        assert header["client_seed_format"] == form.value
        assert verify_fair_rolls(seed.hex(), dice.commitment, ["anna", "b|o"], rolls, form) == []
        other = next(f for f in SeedFormat if f is not form)
        assert verify_fair_rolls(seed.hex(), dice.commitment, ["anna", "b|o"], rolls, other)


def test_the_bots_seed_is_the_servers_seed_one_way() -> None:
    seed = bytes(range(32))
    assert bot_seed(seed) == bot_seed(bytes(range(32))) and len(bot_seed(seed)) == 32
    assert bot_seed(seed) != seed and bot_seed(seed) != bot_seed(bytes(32))
    assert bot_seed(seed) == hmac.new(seed, b"shipcaptaincrew bots", hashlib.sha256).digest()


def test_keyed_hmac_is_hmac_for_every_key_length() -> None:
    """The kept pad states give HMAC's bytes, for short, block-sized and over-long keys."""
    for key in (b"", bytes(1), bytes(range(32)), bytes(range(64)), bytes(range(65)), b"k" * 200):
        mac = _KeyedHmac(key)
        for msg in (b"", b"anna|bo:0:0", b"x" * 300):
            assert mac(msg) == hmac.new(key, msg, hashlib.sha256).digest()


def test_dice_worked_out_ahead_are_the_same_dice() -> None:
    """``prepare`` changes when a die is computed, never which face it shows."""
    plain = FairDice(bytes(range(32)), ["a"])
    ahead = FairDice(bytes(range(32)), ["a"])
    rolled_plain, rolled_ahead = [], []
    for n in (5, 3, 2, 5, 1, 5, 4):
        rolled_plain.append(plain.roll(n))
        ahead.prepare()
        rolled_ahead.append(ahead.roll(n))
    assert rolled_ahead == rolled_plain
    # A refused move sets the counter back: the same dice come again, prepared or not.
    ahead.prepare()
    first = ahead.roll(5)
    ahead.count -= 5
    assert ahead.roll(5) == first
    ahead.count -= 7
    assert ahead.roll(2) == rolled_plain[-1][2:]


def test_client_seed_added_after_prepare_is_not_ignored() -> None:
    early = FairDice(bytes(32))
    early.prepare()
    early.add_client_seed("carol")
    assert early.roll(5) == tuple(reference_die(bytes(32), "5:carol", i) for i in range(5))


def test_no_dice_after_the_reveal() -> None:
    dice = FairDice(bytes(32))
    dice.prepare()
    dice.reveal()
    dice.prepare()  # nothing to work out any more
    with pytest.raises(FairnessError):
        dice.roll(1)
