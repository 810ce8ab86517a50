"""The match solver against an independent backward induction over totals (two players).

Written from first principles and sharing no code with the solver or the engine: the classic
turn (five dice, three rolls, 6 then 5 then 4, several in one roll, the two dice left are the
cargo, rerolled whole while rolls remain) is enumerated die by die here, and the match is a
recursion over the two totals.  Two players share one prize, so every line of play is worth
``1 - x`` to one player when it is worth ``x`` to the other, and a turn is worth the best
expected reward its player can reach: no policies, no tie-breaks between equal choices, just
values -- which the solver's must equal to 1e-9 at every position.

Rules read: the highest total wins (``rounds:3`` after three rounds, ``first_to:21`` among
those who reach 21 in the same round, a session when the next round's starter calls a stop); equal totals go to a tie-break contest of turns, the
round's first player first, the best score winning and any shared best (everyone failing too)
playing again; a round everyone fails is played again; the start passes to the other player.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import product

import numpy as np
import pytest

from shipcaptaincrew.facts import SESSION_ROUNDS
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.solver.match.solve import MatchSolution, solve_match
from shipcaptaincrew.solver.match.view import MatchView, locate
from shipcaptaincrew.solver.policies import SEAT_KINDS, parse_policy

Reward = Callable[[int], float]


@cache
def crew_by_roll() -> dict[tuple[int, int], float]:
    """P(the crew is complete after roll r with cargo c), and (0, 0): never complete."""
    out: dict[tuple[int, int], float] = {}

    @cache
    def one_roll(held: int) -> dict[tuple[int, int], float]:
        """What one roll of the free dice leads to: (roles held after, cargo if complete)."""
        free = 5 - held
        counts: dict[tuple[int, int], int] = {}
        for faces in product(range(1, 7), repeat=free):
            rest, h = list(faces), held
            for need in (6, 5, 4)[held:]:
                if need not in rest:
                    break
                rest.remove(need)
                h += 1
            key = (h, sum(rest) if h == 3 else 0)
            counts[key] = counts.get(key, 0) + 1
        return {key: c / 6**free for key, c in counts.items()}

    def roll(held: int, r: int, p: float) -> None:
        if r > 3:
            out[(0, 0)] = out.get((0, 0), 0.0) + p
            return
        for (h, cargo), q in one_roll(held).items():
            if h == 3:
                out[(r, cargo)] = out.get((r, cargo), 0.0) + p * q
            else:
                roll(h, r + 1, p * q)

    roll(0, 1, 1.0)
    return out


def two_dice() -> dict[int, float]:
    out: dict[int, float] = {}
    for a, b in product(range(1, 7), repeat=2):
        out[a + b] = out.get(a + b, 0.0) + 1 / 36
    return out


def turn_value(reward: Reward) -> float:
    """The best expected reward of one turn: stand on the cargo or reroll it while rolls remain.

    A reroll is worth the mean over two fresh dice of what the cargo is then worth with one
    roll fewer, the same for every cargo it replaces.
    """
    dice = two_dice()
    worth = {c: reward(c) for c in dice}  # no roll left: stand
    by_left = [worth]
    for _ in range(2):
        reroll = sum(p * by_left[-1][c] for c, p in dice.items())
        by_left.append({c: max(worth[c], reroll) for c in dice})
    return sum(
        p * (reward(0) if r == 0 else by_left[3 - r][c]) for (r, c), p in crew_by_roll().items()
    )


def settle(f: Callable[[float], float]) -> float:
    """The fixed point of a map of [0, 1] into itself that is piecewise linear with slope in
    [0, 1): the secant method on f(x) - x, exact once two guesses share a piece."""
    a, b = 0.0, 1.0
    ha, hb = f(a) - a, f(b) - b
    for _ in range(100):
        if hb == ha:
            return b + hb
        a, b, ha = b, b - hb * (b - a) / (hb - ha), hb
        hb = f(b) - b
        if abs(hb) < 1e-16:
            return b + hb
    raise AssertionError("no fixed point")


@cache
def tie_break() -> float:
    """The first player's chance in a tie-break contest of turns between two."""

    def round_value(tau: float) -> float:
        def first(x: int) -> float:
            # The second player's best chance against x: beat it, or tie and play again.
            def second(y: int) -> float:
                return 1.0 if y > x else 1 - tau if y == x else 0.0

            return 1 - turn_value(second)

        return turn_value(first)

    return settle(round_value)


def round_value(
    a: int, b: int, decided: Callable[[int, int], float | None], later: Callable[[int, int], float]
) -> float:
    """The starter's chance at totals (a, b): ``decided(a', b')`` once the round is over, or
    one less the other player's chance ``later(b', a')`` as the next round's starter."""

    def with_replay(again: float) -> float:
        def first(x: int) -> float:
            def second(y: int) -> float:
                if x == 0 and y == 0:
                    return 1 - again
                verdict = decided(a + x, b + y)
                return 1 - (verdict if verdict is not None else 1 - later(b + y, a + x))

            return 1 - turn_value(second)

        return turn_value(first)

    return settle(with_replay)


def by_totals(a: int, b: int) -> float:
    return 1.0 if a > b else 0.0 if a < b else tie_break()


def first_to(target: int) -> Callable[[int, int], float]:
    def decided(a: int, b: int) -> float | None:
        return by_totals(a, b) if max(a, b) >= target else None

    @cache
    def value(a: int, b: int) -> float:
        return round_value(a, b, decided, value)

    return value


def rounds(n: int) -> Callable[[int, int, int], float]:
    @cache
    def value(k: int, a: int, b: int) -> float:
        def decided(a2: int, b2: int) -> float | None:
            return by_totals(a2, b2) if k == n - 1 else None

        return round_value(a, b, decided, lambda b2, a2: value(k + 1, b2, a2))

    return value


def session(cap: int) -> Callable[[int, int, int], float]:
    """A session the programs stop after ``cap`` rounds: after each round the next round's
    starter (the other player) calls -- stop, and the totals decide with the caller first in
    the tie-break, or another round -- and takes the better; after the last it stops."""

    @cache
    def value(k: int, a: int, b: int) -> float:
        def decided(a2: int, b2: int) -> float | None:
            return 1 - by_totals(b2, a2) if k == cap - 1 else None

        def later(b2: int, a2: int) -> float:
            return max(by_totals(b2, a2), value(k + 1, b2, a2))

        return round_value(a, b, decided, later)

    return value


OPTIMAL = (parse_policy("optimal", allow=SEAT_KINDS),) * 2
CLASSIC = find_rules("classic").replace(starter="chosen")


def test_the_turn_enumerated_here_is_the_published_completion() -> None:
    assert sum(crew_by_roll().values()) == pytest.approx(1.0, abs=1e-15)
    assert 1 - crew_by_roll()[(0, 0)] == pytest.approx(42314697971 / 78364164096, abs=1e-15)


def test_first_to_21_is_the_independent_backward_induction() -> None:
    rules = CLASSIC.replace(format="first_to:21")
    sol = solve_match(rules, OPTIMAL, use_disk=False)
    value = first_to(21)
    worst = 0.0
    for a, b in product(range(21), repeat=2):
        view = MatchView.of_round(rules.format, (a, b), ())
        mine = sol.at(locate(sol.model, view))
        assert mine[0] + mine[1] == pytest.approx(1.0, abs=1e-12)
        worst = max(worst, abs(mine[0] - value(a, b)))
    assert worst < 1e-9
    assert sol.seat_win_probability[0] == pytest.approx(value(0, 0), abs=1e-9)


def _worst_gap(
    sol: MatchSolution, points: list[tuple[int, int, int]], value: Callable[[int, int, int], float]
) -> float:
    """The largest gap between the solution's first seat and ``value`` at (rounds played,
    total a, total b) positions; a total of 1 cannot be scored, so those are left out."""
    worst = 0.0
    for k, a, b in points:
        if 1 in (a, b):
            continue
        view = MatchView.of_round(sol.rules.format, (a, b), (), played=k)
        worst = max(worst, abs(sol.at(locate(sol.model, view))[0] - value(k, a, b)))
    return worst


def test_rounds_3_is_the_independent_backward_induction() -> None:
    rules = CLASSIC.replace(format="rounds:3")
    sol = solve_match(rules, OPTIMAL, use_disk=False)
    value = rounds(3)
    reachable = [(k, a, b) for k in (1, 2) for a in range(12 * k + 1) for b in range(12 * k + 1)]
    assert _worst_gap(sol, [(0, 0, 0), *reachable[::5]], value) < 1e-9
    assert np.isclose(sol.seat_win_probability[0], value(0, 0, 0), atol=1e-9)


def test_a_session_is_the_independent_backward_induction() -> None:
    rules = CLASSIC.replace(format="session")
    sol = solve_match(rules, OPTIMAL, use_disk=False)
    value = session(SESSION_ROUNDS)
    points = [
        (k, a, b)
        for k in range(SESSION_ROUNDS)
        for a, b in product(range(0, 12 * k + 1, 3), repeat=2)
    ]
    assert _worst_gap(sol, points, value) < 1e-9
    assert np.isclose(sol.seat_win_probability[0], value(0, 0, 0), atol=1e-9)
