"""The round: an analytic model of how the engine plays and resolves one.

What this is
------------
Single turns are the engine's own (:func:`.graph.turn_graph` walks ``legal_actions`` /
``chance_outcomes`` / ``apply``); a *round* is not walked.  Walking whole rounds through the
engine means one copy of the turn for every table a player can meet, and the fixed points of
replayed rounds on top.  Instead this module is a model, in closed form, of what the engine
does once every seat has posted: the highest score wins, a tie goes to the rules' tie-break,
everyone failing replays the round or carries the pot to the next, rotated round.  The model
mirrors the engine's round resolution (``match._resolve_round``, ``_contest_again``,
``_finish_round``) as equations for the options and values it declares (:data:`MODELLED`: the
turn's options, which it asks of the engine, and the tie-breaks, all-fail rules and rotations
whose equations are below), and refuses any other rule set with a :class:`NotModelledError`
naming the option.  Because the equations restate what the engine decides, they are checked
against the engine's own rounds, value by value (see *How it is checked*), never trusted.

The model
---------
``n`` seats play one turn each, in order.  The player in position ``i`` (0-based) sees the
table -- ``m``, the highest score posted so far, and ``t``, how many players are tied at it
(with ``m = 0``, ``t = i``: everyone before failed) -- and knows ``k = n - 1 - i`` players come
after.  Every player maximises their own probability of winning the round, knowing that
everyone after plays the same way (subgame perfection, solved by backward induction from the
last seat).  A later score above ``m`` makes the table ``(score, 1)``; an equal one ``(m, t+1)``.

A player who ends the turn with ``x`` wins with probability
``P(nobody after beats x and s of them tie it) * R(T, j)`` summed over ``s``, where
``T = t' + s`` is the final size of the group tied at ``x`` (``t'`` = the group including this
player) and ``j = t'`` is this player's place in it: earlier tied players come first, later ones
after, as the engine keeps play order in tie-breaks.

* ``tie_break=cargo_rolloff`` is a fair lottery: ``R(T, j) = 1/T``.
* ``tie_break=replay`` is a smaller round of the same game among the ``T`` tied players in play
  order: ``R(T, j)`` is seat ``j``'s win probability in a ``T``-seat *sub-round* under the same
  equilibrium, which for ``T = n`` feeds back into itself.
* Everyone fails (all scores 0): in a sub-round, and in the main round under
  ``all_fail=replay``, the same round is played again by the same seats in the same order, so
  it is worth the seat's own win probability again.  Under ``all_fail=carry_pot`` the pot goes to
  the winner of the next round, which starts some seats on in play order, so it is worth the
  seat's win probability in that rotated round.
* ``tie_break=round`` plays a real round among the tied, in play order, whose ties go to a
  round of the tied again and whose all-fail follows ``all_fail``: with ``all_fail=replay`` that
  is the replayed sub-round above; for two players it is the main round's own game again
  whatever ``all_fail`` says (its all-fail passes to the next round of both, as the main
  round's does).
* ``tie_break=no_winner``: a shared top score leaves the round without a winner, whoever shares
  it, and the next round decides; every reward then carries P(the top ends shared) times the
  seat's chance in that next round, whose start is asked of the engine like the carried pot's.

Who starts the round after one without a winner is asked of the engine
(:func:`starter_shift` plays such a round through ``post_score`` and reads the next starter),
so ``rotation=next|previous|none|loser`` all come from the engine's own rotation.  Two
combinations are refused with a :class:`SolverError` naming them, for three or more seats:
``tie_break=round`` with ``all_fail=carry_pot`` (a tie round where everyone fails passes to a
round of everyone, whose value depends on which seats were tied) and ``rotation=loser`` with
``tie_break=no_winner`` (the next start is the lowest score, which the model does not track).

These fixed points are solved by iteration to 1e-12 (at most :data:`MAX_ITERATIONS` steps; a
:class:`SolverError` is raised instead of looping).  The same chain with a fixed policy for
everyone (``ev``, ``never``, ``threshold:T``) gives that policy's equilibrium table: then every
player's score distribution is the same whatever the table says.  Same-roll bonus makes scores
above 12 possible; the cargo reroll limit and half cargo change the turn graph, not this model.

What it takes from the engine
-----------------------------
The turn (every score and its odds under each choice) through :func:`.graph.turn_graph`; how
far the start moves after a round without a winner by playing one through the engine
(:func:`starter_shift`).  The rest -- highest score wins, play order is kept among
tied players, who replays after everyone fails -- is the model's reading of the engine.

Where it stops
--------------
The model carries a pot for as long as everyone keeps failing.  In the engine, under
``stakes=pot``, every seat antes each carried round, so after ``starting_chips // ante``
rounds in a row without a winner nobody can ante and the match goes to the broke table.  That
has probability ``p_all_fail_per_round ** (starting_chips // ante)`` (about 2e-7 for two
classic seats with ten chips) and moves a seat's odds by at most as much; the model ignores it.

How it is checked
-----------------
``tests/test_solver_rounds_exact.py`` enumerates the engine's own single-round matches
(``initial_state`` / ``chance_outcomes`` / ``apply``, replays and carried rounds solved as a
linear system, not iterated) for two and three seats under ``ev``, ``threshold:7`` and these
optimal tables, over the tie-breaks, all-fail rules, rotations, stakes and turn variants, and
requires every seat's win probability to agree to 1e-9 (and the broke table's effect to stay
within the bound above).  ``tests/test_solver.py`` adds an independent two-player computation
and rounds played through the engine.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UnmodelledRulesError
from ..facts import MAX_PLAYERS
from ..messages import N_
from ..rules import AllFail, Rules, TieBreak
from .errors import SolverError
from .graph import turn_graph
from .modelled import ROUND
from .policies import Policy, PolicyKind, parse_policy
from .round_pass import TableValues, play, sweep, table_reach
from .round_start import affine_fixed_point, starter_shift, tie_shift

__all__ = [
    "MAX_ITERATIONS",
    "MODELLED",
    "Equilibrium",
    "NotModelledError",
    "SolverError",
    "cache_dir",
    "clear_memory_cache",
    "equilibrium",
    "starter_shift",
]

#: Bound on fixed-point iterations (convergence is geometric; dozens suffice in practice).
MAX_ITERATIONS = 2000
#: Convergence tolerance of the seat win probabilities.
TOLERANCE = 1e-13
_CACHE_VERSION = 2


class NotModelledError(SolverError, UnmodelledRulesError):
    """A rule set outside what a model of the solver states itself (it names the option, in
    the player's language): see :data:`MODELLED` and :mod:`shipcaptaincrew.options.modelled`."""


#: What the round model states itself (see :mod:`.modelled`).
MODELLED = ROUND


@dataclass
class Equilibrium:
    """One round's equilibrium for ``players`` seats.

    ``tables[(i, m, t)]`` is ``(g, d, v)``: the reward vector the player in position ``i``
    faces at table ``(m, t)`` (``g[j]`` = P(win | final score ``scores[j]``)), their score
    distribution under the policy, and their win probability from there.
    """

    rules: Rules
    players: int
    policy: str
    #: True for a tie-break sub-round (everyone failing always replays it).
    sub: bool
    scores: tuple[int, ...]
    #: Each seat's probability of winning the round, position 1 (the starter) first.
    seat_win_probability: tuple[float, ...]
    #: Probability that every player fails in one playing of the round.
    p_all_fail_per_round: float
    iterations: int
    tables: TableValues = field(default_factory=dict, repr=False)

    def g(self, position: int, posted_max: int, tied: int) -> list[float]:
        """The reward vector (per score in :attr:`scores`) of a player at this table."""
        key = (position, posted_max, tied)
        if key not in self.tables:
            raise SolverError(
                f"no table (posted max {posted_max}, {tied} tied) for position {position + 1} "
                f"of {self.players}: impossible under {self.rules}"
            )
        return self.tables[key][0]

    def table_reach(self) -> dict[tuple[int, int, int], float]:
        """P(the player in position ``i`` meets table ``(m, t)``), keyed ``(i, m, t)``.

        Position ``players`` is the table once everyone has played.
        """
        return table_reach(self.scores, self.players, self.tables)

    def to_json(self) -> dict[str, Any]:
        """The ``scc equilibrium --json`` object."""
        return {
            "rules": str(self.rules),
            "players": self.players,
            "policy": self.policy,
            "seat_win_probability": list(self.seat_win_probability),
            "p_all_fail_per_round": self.p_all_fail_per_round,
        }


def cache_dir() -> Path:
    """The on-disk cache: ``$SCC_CACHE_DIR`` or ``~/.cache/shipcaptaincrew``."""
    env = os.environ.get("SCC_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "shipcaptaincrew"


_MEMORY: dict[tuple[Rules, int, str, bool], Equilibrium] = {}


def clear_memory_cache() -> None:
    """Forget every equilibrium held in memory (the disk cache stays)."""
    _MEMORY.clear()


def _key_text(rules: Rules, n: int, policy: str, sub: bool) -> str:
    return f"v{_CACHE_VERSION}|{rules}|players={n}|policy={policy}|sub={sub}"


def _disk_path(key: str) -> Path:
    return cache_dir() / f"equilibrium-{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"


def _load(rules: Rules, n: int, policy: str, sub: bool) -> Equilibrium | None:
    key = _key_text(rules, n, policy, sub)
    path = _disk_path(key)
    try:
        data = json.loads(path.read_text())
        if data.get("key") != key:
            return None
        tables = {
            tuple(int(x) for x in k.split(",")): (v[0], v[1], v[2])
            for k, v in data["tables"].items()
        }
        return Equilibrium(
            rules=rules,
            players=n,
            policy=policy,
            sub=sub,
            scores=tuple(data["scores"]),
            seat_win_probability=tuple(data["seat_win_probability"]),
            p_all_fail_per_round=data["p_all_fail_per_round"],
            iterations=data["iterations"],
            tables=tables,  # type: ignore[arg-type]
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None  # no cache, or a damaged one: solve again


def _save(eq: Equilibrium) -> None:
    key = _key_text(eq.rules, eq.players, eq.policy, eq.sub)
    path = _disk_path(key)
    data = {
        "key": key,
        "scores": list(eq.scores),
        "seat_win_probability": list(eq.seat_win_probability),
        "p_all_fail_per_round": eq.p_all_fail_per_round,
        "iterations": eq.iterations,
        "tables": {f"{i},{m},{t}": list(v) for (i, m, t), v in eq.tables.items()},
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home is no reason to fail: the answer is still right


def equilibrium(
    rules: Rules,
    players: int,
    policy: str | Policy = "optimal",
    *,
    sub: bool = False,
    use_disk: bool = True,
) -> Equilibrium:
    """Each seat's chance of winning a round of ``players`` (1..8) seats.

    ``policy`` is ``optimal`` (everyone maximises their win probability), or a fixed policy
    everyone plays (``ev``, ``never``, ``threshold:T``).  ``sub=True`` solves a tie-break
    sub-round (everyone failing replays it whatever ``all_fail`` says).  Results are cached in
    memory and on disk (see :func:`cache_dir`), keyed by the canonical rules text.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise SolverError(
            N_("players must be 1..{most}, got {n}"), most=MAX_PLAYERS, n=repr(players)
        )
    kinds = (PolicyKind.OPTIMAL, PolicyKind.EV, PolicyKind.NEVER, PolicyKind.THRESHOLD)
    pol = parse_policy(policy, allow=kinds)
    name = str(pol)
    if rules.all_fail is AllFail.REPLAY and rules.tie_break is not TieBreak.NO_WINNER:
        sub = False  # the main round and a sub-round are the same game then
    key = (rules, players, name, sub)
    hit = _MEMORY.get(key)
    if hit is not None:
        return hit
    MODELLED.check(rules, NotModelledError)

    eq = _load(rules, players, name, sub) if use_disk else None
    if eq is None:
        eq = _solve(rules, players, pol, sub, use_disk)
        if use_disk:
            _save(eq)
    _MEMORY[key] = eq
    return eq


def _solve(rules: Rules, n: int, pol: Policy, sub: bool, use_disk: bool) -> Equilibrium:
    graph = turn_graph(rules)
    scores = graph.scores
    if n == 1:
        # A round of one: the lone player wins by completing the crew (no replay is modelled:
        # a replayed round of one would make every choice worth 1).
        g = [1.0 if x > 0 else 0.0 for x in scores]
        d, v = play(graph, pol, [g])
        return Equilibrium(
            rules, 1, str(pol), sub, scores, (1.0,), float(d[0][0]), 0, {(0, 0, 0): (g, d[0], v[0])}
        )
    tie_break = rules.tie_break
    carry = not sub and rules.all_fail is AllFail.CARRY_POT
    # Every contest that breaks a tie with turns replays its ties (a match tie under
    # no_winner too); a main round under no_winner has no winner when the top is shared.
    no_winner = tie_break is TieBreak.NO_WINNER and not sub
    replay_ties = tie_break in (TieBreak.REPLAY, TieBreak.ROUND) or (sub and not no_winner)
    replay_ties = replay_ties and tie_break is not TieBreak.CARGO_ROLLOFF
    if tie_break is TieBreak.ROUND and carry and n > 2:
        raise SolverError(
            N_(
                "tie_break=round with all_fail=carry_pot: a round among the tied where everyone "
                "fails passes to a round of everyone, which the round model follows for two "
                "players only, not {n}"
            ),
            n=n,
        )
    # A sub-round, the main round when everyone failing replays it, and under tie_break=round
    # a round of two (its tie round is the same game again) are their own tie-break.
    self_tie = sub or rules.all_fail is AllFail.REPLAY or tie_break is TieBreak.ROUND
    smaller: dict[int, tuple[float, ...]] = {}
    if replay_ties:
        for size in range(2, n + 1):
            if size < n or not self_tie:
                smaller[size] = equilibrium(
                    rules, size, pol, sub=True, use_disk=use_disk
                ).seat_win_probability
    fail_step = starter_shift(rules, (0,) * n) if carry else 0
    tie_step = tie_shift(rules, n) if no_winner else 0
    w = [1.0 / n] * n
    iteration = 0
    while True:
        iteration += 1
        if iteration > MAX_ITERATIONS:
            raise SolverError(
                f"the {n}-seat round under {rules} did not converge in {MAX_ITERATIONS} iterations"
            )

        def tie_share(size: int, j: int, w: list[float] = w) -> float:
            if size == 1:
                return 1.0
            if not replay_ties:
                return 1.0 / size
            if size == n and self_tie:
                return w[j - 1]
            return smaller[size][j - 1]

        def all_fail_share(i: int, w: list[float] = w) -> float:
            return w[(i - fail_step) % n]

        def tie_carry(i: int, w: list[float] = w) -> float:
            return w[(i - tie_step) % n]

        found = sweep(graph, pol, n, tie_share, all_fail_share, tie_carry if no_winner else None)
        new_w = found.seat_odds
        delta = max(abs(a - b) for a, b in zip(new_w, w))
        if delta < TOLERANCE:
            w = new_w
            break
        # With everyone's choices held fixed the sweep is affine in w: the only terms that
        # read w are "all n tie" (own place), "all fail" (own or rotated place) and, under
        # no_winner, "the top is shared" (rotated place).  Jump to that affine map's fixed
        # point; the next sweep checks that nobody's choices change there (if they do,
        # iteration simply goes on).
        terms = [(found.p_tie_all if replay_ties and self_tie else 0.0, 0)]
        terms += [(found.p_fail, fail_step)]
        terms += [(found.p_tie_top, tie_step)] if no_winner else []
        w = affine_fixed_point(new_w, w, terms)
    total = sum(w)
    if abs(total - 1.0) > 1e-9:
        raise SolverError(f"seat win probabilities sum to {total}, not 1: solver fault")
    return Equilibrium(
        rules, n, str(pol), sub, scores, tuple(w), found.p_fail, iteration, found.tables
    )
