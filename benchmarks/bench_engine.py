"""The engine's own loop beside plain Python, in one run.  Prints figures; asserts nothing.

What one turn costs when it is played a step at a time through the public API -- what an
environment step, a bot at a table or the simulator's engine path pays -- against two floors
measured in the same process, so the ratios compare like with like on this machine:

* **bare dice**: a loop that only draws the dice a classic turn draws (five, then the free
  dice, then the cargo) with ``random.Random.randint``, and decides nothing;
* **plain class**: a class-based turn in plain Python, the way a short script would write
  this game (a ``Turn`` object with ``roll`` and ``choose`` methods, a list of held dice,
  mutated in place), with the classic rules only and the same policy;
* **class peer**: the same turn in the shape the published Python versions of this game take
  (a ``Die`` object per die, a ``Cup`` that rolls the dice not banked and banks them one by
  one, a game that plays the turn with a flag per role), written here from that shape: what
  the engine's loop is to be as fast as;
* **engine turn**: :func:`~shipcaptaincrew.engine.initial_turn`, then
  ``current_player`` / ``sample_chance`` / ``legal_actions`` / ``apply`` until the turn ends:
  frozen states, every rule of the rule set, checked actions;
* **engine match**: the same calls on a whole two-player match of rounds (the turns inside
  rounds, with the contest, the totals and the round's end), per turn played.

Every loop plays the same policy (stand on a cargo of 8 or more, else reroll while rolls
remain) from the same seed, so each draws the same dice on average.  The figures are turns per
second of this process's CPU time (``time.process_time``), which other work on a shared
machine disturbs less than the wall clock; the ratios are what to compare between runs.

Run:  .venv/bin/python benchmarks/bench_engine.py [--seconds 2]
(``PYTHONPATH=OTHER/src`` runs it on another copy of the code, e.g. the code before a change.)
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import shipcaptaincrew
from shipcaptaincrew.actions import Action, RerollCargo, Stand
from shipcaptaincrew.engine import (
    CHANCE,
    TERMINAL,
    apply,
    current_player,
    initial_state,
    initial_turn,
    legal_actions,
    sample_chance,
)
from shipcaptaincrew.rules import find_rules

#: The policy of every loop: stand on this cargo or more.
STAND_ON = 8


def bare_dice(rng: random.Random) -> int:
    """Draw a classic turn's dice and decide nothing: five, the free ones twice, no rules."""
    free = 5
    for _ in range(3):
        faces = [rng.randint(1, 6) for _ in range(free)]
        free = max(2, free - (6 in faces) - (5 in faces))
    return 0


class PlainTurn:
    """One classic turn as a short plain-Python script would write it (the classic rules only)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.held: list[int] = []
        self.cargo: list[int] = []
        self.rolls_left = 3

    def roll(self) -> None:
        """Roll the free dice and set aside what the roles need, in order."""
        dice = [self.rng.randint(1, 6) for _ in range(5 - len(self.held) if not self.cargo else 2)]
        self.rolls_left -= 1
        if len(self.held) == 3:
            self.cargo = dice
            return
        for need in (6, 5, 4)[len(self.held) :]:
            if need not in dice:
                break
            dice.remove(need)
            self.held.append(need)
        if len(self.held) == 3:
            self.cargo = dice

    def score(self) -> int:
        return sum(self.cargo) if len(self.held) == 3 else 0

    def play(self) -> int:
        while self.rolls_left:
            self.roll()
            if len(self.held) == 3 and self.score() >= STAND_ON:
                break
        return self.score()


def plain_class(rng: random.Random) -> int:
    return PlainTurn(rng).play()


class Die:
    """One die that remembers the face it shows."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.value = 0

    def roll(self) -> None:
        self.value = self.rng.randint(1, 6)


class Cup:
    """The cup's five dice; a banked die is set aside and not rolled again."""

    def __init__(self, rng: random.Random) -> None:
        self.dice = [Die(rng) for _ in range(5)]
        self.banked = [False] * 5

    def roll(self) -> None:
        for die, banked in zip(self.dice, self.banked):
            if not banked:
                die.roll()

    def bank_face(self, face: int) -> bool:
        """Bank one free die showing ``face``; whether there was one."""
        for i, die in enumerate(self.dice):
            if not self.banked[i] and die.value == face:
                self.banked[i] = True
                return True
        return False

    def free_total(self) -> int:
        return sum(d.value for d, banked in zip(self.dice, self.banked) if not banked)


def class_peer(rng: random.Random) -> int:
    """A turn the way a class-based game object plays it: a flag per role, in order."""
    cup = Cup(rng)
    ship = captain = crew = False
    for _ in range(3):
        cup.roll()
        if not ship:
            ship = cup.bank_face(6)
        if ship and not captain:
            captain = cup.bank_face(5)
        if captain and not crew:
            crew = cup.bank_face(4)
        if crew and cup.free_total() >= STAND_ON:
            break
    return cup.free_total() if crew else 0


def engine_turn(rng: random.Random) -> int:
    """One turn through the engine's public functions, step by step."""
    state = initial_turn(RULES)
    while True:
        who = current_player(state)
        if who == TERMINAL:
            return state.score
        if who == CHANCE:
            state = apply(state, sample_chance(state, rng))
        else:
            acts = legal_actions(state)
            state = apply(state, STAND if state.score >= STAND_ON else _reroll(acts))
    return 0


def _reroll(acts: tuple[Action, ...]) -> Action:
    return REROLL if REROLL in acts else acts[0]


def engine_match(rng: random.Random) -> int:
    """A two-player match of three rounds through the engine; returns the turns it played."""
    state = initial_state(MATCH_RULES, 2, starter=0)
    turns = 0
    while True:
        who = current_player(state)
        if who == TERMINAL:
            return turns
        turn = state.turn
        if who == CHANCE:
            turns += turn is not None and turn.rolls_used == 0  # a turn's first roll
            state = apply(state, sample_chance(state, rng))
            continue
        acts = legal_actions(state)
        if turn is not None and STAND in acts:
            state = apply(state, STAND if turn.score >= STAND_ON else _reroll(acts))
        else:
            state = apply(state, acts[0])


RULES = find_rules("classic")
MATCH_RULES = find_rules("classic").replace(starter="chosen", format="rounds:3")
STAND, REROLL = Stand(), RerollCargo()


def rate(play: Callable[[random.Random], int], seconds: float, *, per_call: bool = True) -> float:
    """Turns per CPU second of ``play`` over about ``seconds`` of this process's CPU time (best
    of three slices): on a machine shared with others the wall clock counts their work too."""
    rng = random.Random(1)
    best = 0.0
    for _ in range(3):
        turns = 0
        start = time.process_time()
        end = start + seconds / 3
        while time.process_time() < end:
            for _ in range(200):
                n = play(rng)
                turns += 1 if per_call else n
        best = max(best, turns / (time.process_time() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per loop")
    args = parser.parse_args()
    print(f"engine from {shipcaptaincrew.__file__}")
    figures = {
        "bare dice": rate(bare_dice, args.seconds),
        "plain class": rate(plain_class, args.seconds),
        "class peer": rate(class_peer, args.seconds),
        "engine turn": rate(engine_turn, args.seconds),
        "engine match": rate(engine_match, args.seconds, per_call=False),
    }
    floor = figures["bare dice"]
    plain, peer = figures["plain class"], figures["class peer"]
    for name, turns in figures.items():
        print(
            f"{name:13} {turns / 1e3:7.1f} k turns/s (CPU)  x{turns / floor:4.2f} of the bare dice"
            f"  x{turns / plain:4.2f} of the plain class  x{turns / peer:4.2f} of the class peer"
        )


if __name__ == "__main__":
    main()
