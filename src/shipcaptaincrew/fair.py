"""Dice sources: a seeded PRNG, a provably fair commit-reveal source, and real dice typed in.

Every source has ``roll(n) -> faces`` (the engine's :class:`~.engine.DiceSource`) and
``describe()`` for the event log's header.

**Provably fair** (:class:`FairDice`): before the match the server picks a secret 32-byte seed
and publishes ``commitment = SHA-256(seed)``.  Players may add seeds of their own; they are
written one after another as ``<length>:<seed>``, the length in UTF-8 bytes (so ``["a|b"]``
and ``["a", "b"]`` are different inputs: ``3:a|b`` and ``1:a1:b``).  Die number ``k``
(counting from 0 over the whole match) is derived from
``HMAC-SHA256(key=seed, msg=f"{client_input}:{k}:{block}")``: each digest byte ``b < 252``
gives the face ``b % 6 + 1`` and bytes ``>= 252`` are skipped (252 is the largest multiple of
6 not above 256, so there is no modulo bias); a digest without a usable byte moves on to the
next block.  At the end the seed is revealed and anyone can recompute every die
(:func:`verify_fair_rolls`, ``scc verify LOG``).

The log's header says how its client seeds were written (``client_seed_format``); logs from
before the length prefix have no such key and joined their seeds with ``|``
(:attr:`SeedFormat.JOINED`), which is how they are still read.  Without client seeds the two
agree: the input is empty.

>>> d = FairDice(bytes(32), client_seeds=["anna", "bo"])
>>> d.commitment[:16]
'66687aadf862bd77'
>>> client_input(["anna", "bo"])
'4:anna2:bo'
>>> d.roll(5)
(6, 4, 3, 4, 5)
>>> verify_fair_rolls(bytes(32).hex(), d.commitment, ["anna", "bo"], [[6, 4, 3, 4, 5]])
[]
>>> old = verify_fair_rolls(bytes(32).hex(), d.commitment, ["anna", "bo"], [[5, 2, 2, 3, 2]],
...                         SeedFormat.JOINED)  # a log from before the prefix
>>> old
[]
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from .dice import check_faces

__all__ = [
    "FairDice",
    "FairnessError",
    "SeedFormat",
    "SeededDice",
    "TypedDice",
    "bot_seed",
    "client_input",
    "fair_die",
    "seed_format",
    "source_from_description",
    "verify_fair_rolls",
]


class FairnessError(ValueError):
    """A revealed seed that does not match its commitment, or a die that does not recompute."""


class SeededDice:
    """Reproducible dice from a seeded ``random.Random`` (same seed, same game)."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed if seed is not None else secrets.randbelow(2**63)
        self._rng = random.Random(self.seed)

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` dice."""
        return tuple(self._rng.randint(1, 6) for _ in range(n))

    def describe(self) -> dict[str, Any]:
        """The log header entry: the seed replays the same dice."""
        return {"source": "seeded", "seed": self.seed}


class SeedFormat(StrEnum):
    """How the client seeds are written into each die's input (the log header's
    ``client_seed_format``)."""

    #: Each seed as ``<length in UTF-8 bytes>:<seed>``, one after another: unambiguous.
    PREFIXED = "length-prefixed"
    #: The first logs' way, seeds joined with ``|`` (``["a|b"]`` and ``["a", "b"]`` alike);
    #: read for those logs only.
    JOINED = "joined"


def client_input(client_seeds: Iterable[str], form: SeedFormat = SeedFormat.PREFIXED) -> str:
    """The client seeds as each die's input carries them (see the module docstring)."""
    if form is SeedFormat.JOINED:
        return "|".join(client_seeds)
    return "".join(f"{len(s.encode())}:{s}" for s in client_seeds)


def seed_format(dice: Mapping[str, Any]) -> SeedFormat:
    """The client seeds' format a log header's dice entry names (a log without the key is
    from before it: :attr:`SeedFormat.JOINED`)."""
    return SeedFormat(dice.get("client_seed_format", SeedFormat.JOINED))


def bot_seed(server_seed: bytes) -> bytes:
    """The seed of a server's own choices (its bots, a turn timer's default) for a match whose
    fair dice come from ``server_seed``: derived one way (HMAC-SHA256), so the choices, which
    everyone sees, reveal nothing about the dice's seed, and the same server seed still
    plays the same match."""
    return hmac.digest(server_seed, b"shipcaptaincrew bots", "sha256")


def _face(mac: Callable[[bytes], bytes], client_seed: str, index: int) -> int:
    block = 0
    while True:
        for b in mac(f"{client_seed}:{index}:{block}".encode()):
            if b < 252:
                return b % 6 + 1
        block += 1  # probability (4/256)**32 per block: practically never


def fair_die(server_seed: bytes, client_seed: str, index: int) -> int:
    """Face of die number ``index`` (no modulo bias; see the module docstring)."""
    return _face(lambda msg: hmac.digest(server_seed, msg, "sha256"), client_seed, index)


class _KeyedHmac:
    """HMAC-SHA256 under one key with the key's two padded blocks hashed once (RFC 2104).

    ``hmac.digest`` re-derives them (and looks the digest up in OpenSSL) on every call; a match
    rolls hundreds of dice under the same seed, so the server keeps the two hash states and
    copies them: about a third of the time per die.  The bytes are HMAC's (checked die by die
    against :mod:`hmac` in the tests).
    """

    BLOCK = 64  # SHA-256's block size in bytes

    def __init__(self, key: bytes) -> None:
        if len(key) > self.BLOCK:
            key = hashlib.sha256(key).digest()
        key = key.ljust(self.BLOCK, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def __call__(self, msg: bytes) -> bytes:
        inner = self._inner.copy()
        inner.update(msg)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()


class FairDice:
    """Provably fair dice: the seed is committed by its hash before the match, revealed after."""

    def __init__(
        self,
        server_seed: bytes | None = None,
        client_seeds: Sequence[str] = (),
        seed_format: SeedFormat = SeedFormat.PREFIXED,
    ) -> None:
        self._seed = server_seed if server_seed is not None else secrets.token_bytes(32)
        self.client_seeds = list(client_seeds)
        #: How the client seeds enter each die (a match begun before the length prefix
        #: goes on as it began).
        self.seed_format = seed_format
        self.commitment = hashlib.sha256(self._seed).hexdigest()
        #: Dice rolled so far: the index of the next die.  A caller that could not use a roll
        #: (its move was refused) sets it back, and the same dice come again.
        self.count = 0
        self.revealed = False
        self._mac = _KeyedHmac(self._seed)
        #: Faces worked out ahead (die index -> face) by :meth:`prepare`.
        self._ahead: dict[int, int] = {}

    def add_client_seed(self, seed: str) -> None:
        """Mix in a player's seed; only before the first die, so no one can steer the dice."""
        if self.count:
            raise FairnessError("client seeds can only be added before the first roll")
        self.client_seeds.append(seed)
        self._ahead.clear()  # worked out with the old seeds

    def _die(self, index: int) -> int:
        face = self._ahead.get(index)
        if face is None:
            face = _face(self._mac, client_input(self.client_seeds, self.seed_format), index)
        return face

    def prepare(self, n: int = 5) -> None:
        """Work out the next ``n`` dice now, so the roll that needs them is only a lookup.

        A die is a function of the seeds and its number alone, so computing it early changes
        nothing but *when* the work is done: a server does it after a broadcast, while the
        player thinks, instead of between their tap and everyone's update.  The faces stay in
        this object (like the seed they come from) until they are rolled.
        """
        if self.revealed:
            return
        start = self.count
        self._ahead = {i: self._die(i) for i in range(start, start + n)}

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` dice, continuing the match's die counter."""
        if self.revealed:
            raise FairnessError("the seed has been revealed: these dice are spent")
        faces = tuple(self._die(self.count + i) for i in range(n))
        self.count += n
        return faces

    def reveal(self) -> str:
        """The server seed in hex; after this the source rolls no more."""
        self.revealed = True
        self._ahead.clear()
        return self._seed.hex()

    def describe(self) -> dict[str, Any]:
        """The log header entry: the commitment and the client seeds (the seed comes at the end)."""
        return {
            "source": "fair",
            "commitment": self.commitment,
            "client_seeds": self.client_seeds,
            "client_seed_format": self.seed_format.value,
        }


class TypedDice:
    """Real dice at a real table: ``ask(n)`` returns the faces the players typed in."""

    def __init__(self, ask: Callable[[int], Sequence[int]]) -> None:
        self._ask = ask

    def roll(self, n: int) -> tuple[int, ...]:
        """Ask for ``n`` faces and check them (a face outside 1..6 or a wrong count is refused)."""
        faces = tuple(self._ask(n))
        check_faces(faces, n)
        return faces

    def describe(self) -> dict[str, Any]:
        """The log header entry."""
        return {"source": "typed"}


def verify_fair_rolls(
    server_seed_hex: str,
    commitment: str,
    client_seeds: Sequence[str],
    rolls: Sequence[Sequence[int]],
    seed_format: SeedFormat = SeedFormat.PREFIXED,
) -> list[str]:
    """Recompute every die of a match; returns the problems found (empty = all fair).

    ``seed_format``: how the match wrote its client seeds (:func:`seed_format` of its log
    header)."""
    try:
        seed = bytes.fromhex(server_seed_hex)
    except ValueError:
        return ["the revealed seed is not hexadecimal"]
    if hashlib.sha256(seed).hexdigest() != commitment:
        return ["the revealed seed does not match the commitment published before the match"]
    problems = []
    index = 0
    combined = client_input(client_seeds, seed_format)
    mac = _KeyedHmac(seed)
    for r, faces in enumerate(rolls, 1):
        expected = [_face(mac, combined, index + i) for i in range(len(faces))]
        if list(faces) != expected:
            problems.append(f"roll {r}: logged {list(faces)}, the seed gives {expected}")
        index += len(faces)
    return problems


def source_from_description(desc: dict[str, Any]) -> SeededDice | None:
    """Rebuild a seeded source from a log header (None for sources that cannot be rebuilt)."""
    if desc.get("source") == "seeded":
        return SeededDice(desc["seed"])
    return None
