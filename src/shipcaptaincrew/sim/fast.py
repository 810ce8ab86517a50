"""Whole matches at NumPy speed: many matches step at once through :mod:`.steps`' tables.

Each step of the loop draws one keyed uniform per live match (:mod:`.keyed`): a turn's
score and crew by exact inverse transform from its node's turn distribution, or a roll-off's
dice; then a gather in the step table gives the next node and what the step adds to the
record.  Steps not met before are resolved by the engine as they come
(:meth:`.steps.MatchTable.plain_step`, :meth:`~.steps.MatchTable.keyed_step`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rules import Rules
from .keyed import uniforms
from .match import STAT_NAMES
from .steps import CELLS, Col, MatchTable, NodeKind, match_table

__all__ = ["dice_outcomes", "draw_outcomes", "fast_matches", "follow", "sample_turns"]


def _plain_steps(t: MatchTable, codes: np.ndarray) -> np.ndarray:
    """Step ids of (node, outcome) codes, asking the engine for the ones not met before."""
    ids: np.ndarray = t.plain[codes]
    if ids.min() < 0:
        for c in np.unique(codes[ids < 0]).tolist():
            t.plain[c] = t.plain_step(c)
        ids = t.plain[codes]
    return ids


def _keyed_steps(t: MatchTable, step: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Step ids of keyed steps at their totals keys, asking the engine for the ones not met
    before: a dense table where the keys are few (:attr:`.steps.MatchTable.by_totals`), else
    a sorted array of (step, key) combinations."""
    if t.by_totals is not None:
        return t.by_totals.lookup(step, key, t.n_steps, t.keyed_step)
    combos = step * t.key_space + key
    keys, vals = t.keyed_keys, t.keyed_vals
    pos = np.minimum(np.searchsorted(keys, combos), max(0, len(keys) - 1))
    hit = (keys[pos] == combos) if len(keys) else np.zeros(len(combos), bool)
    if not hit.all():
        new = np.unique(combos[~hit])
        got = np.array(
            [t.keyed_step(*divmod(c, t.key_space)) for c in new.tolist()], dtype=np.int64
        )
        keys = np.concatenate([keys, new])
        order = np.argsort(keys, kind="stable")
        t.keyed_keys, t.keyed_vals = keys[order], np.concatenate([vals, got])[order]
        pos = np.searchsorted(t.keyed_keys, combos)
    result: np.ndarray = t.keyed_vals[pos]
    return result


def follow(
    t: MatchTable,
    nd: np.ndarray,
    outcome: np.ndarray,
    tot: np.ndarray,
    own: np.ndarray,
    rows: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The steps of matches ``rows`` at nodes ``nd`` meeting ``outcome`` (a turn's score, or
    dice in base 6), where ``tot`` holds every match's totals (a row each) and ``own`` its
    rounds of its own finished: the step ids and their packed words
    (:attr:`.steps.MatchTable.step_word`).  Steps not met
    before are resolved by the engine, per count of rounds or order of the totals if they
    read those; the caller adds the record (``t.steps[ids]``) and moves on to ``words >> 3``."""
    step = _plain_steps(t, nd * t.width + outcome)
    sw = t.step_word[step]
    flagged = np.flatnonzero(sw & 3)
    if not flagged.size:  # most steps read neither the count nor the totals
        return step, sw
    counted = flagged[(sw[flagged] & 2) == 2]
    if counted.size:
        step[counted] = t.by_count.lookup(
            step[counted], own[rows[counted]], t.n_steps, t.count_step
        )
        sw[counted] = t.step_word[step[counted]]
    keyed = flagged[(sw[flagged] & 1) == 1]  # a count-keyed step may compare the totals next
    if keyed.size:
        p = t.players
        final = tot[rows[keyed]] + t.steps[step[keyed], Col.FIXED : Col.FIXED + p]
        step[keyed] = _keyed_steps(t, step[keyed], t.totals_key(final))
        sw[keyed] = t.step_word[step[keyed]]
    return step, sw


def fast_matches(rules: Rules, bots: list[str], seed: int, first: int, size: int) -> dict[str, Any]:
    """Matches ``first .. first + size - 1`` of a seed, in the arrays of :meth:`.MatchRunner.run`."""
    t = match_table(rules, bots)
    p, m = t.players, size
    match_no = first + np.arange(m, dtype=np.int64)
    # Per (match, seat), flat: draws used, sips, totals, round wins.
    draws, sips, tot, wins = (np.zeros(m * p, dtype=np.int64) for _ in range(4))
    played: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (flat seat, score, crew)
    winner = np.full(m, -1, dtype=np.int64)
    rounds = np.zeros(m, dtype=np.int64)
    own = np.zeros(m, dtype=np.int64)  # rounds of the match's own finished (tie rounds not)
    rec = _Rounds(m, p)
    live = np.arange(m)
    nd = np.full(m, t.start, dtype=np.int64)  # the node of each live match
    while live.size:
        word = t.node_word[nd]
        kind, seat, arg = word & 3, (word >> 2) & 15, word >> 6
        flat = live * p + seat
        u = uniforms(seed, match_no[live], seat, draws[flat])
        draws[flat] += 1
        on_turn = kind == NodeKind.TURN
        outcome, crew = draw_outcomes(t, arg, on_turn, u)
        if crew.size:
            played.append((flat[on_turn], outcome[on_turn], crew))
        step, sw = follow(t, nd, outcome, tot.reshape(m, p), own, live)
        nd = sw >> 3
        touch = (sw & 4) == 4
        if touch.any():
            at, row = live[touch], t.steps[step[touch]]
            cells = (at[:, None] * p + np.arange(p)).ravel()
            tot[cells] += row[:, Col.FIXED : Col.FIXED + p].ravel()
            sips[cells] += row[:, Col.FIXED + p : Col.FIXED + 2 * p].ravel()
            wins[cells] += row[:, Col.FIXED + 2 * p : Col.FIXED + 3 * p].ravel()
            new = row[:, Col.NEW_ROUND] == 1
            rec.add(at[new], rounds[at[new]], row[new], p)
            rounds[at[new]] += 1
            own[at] += row[:, Col.OWN]
        over = (t.node_word[nd] & 3) == NodeKind.OVER
        if over.any():
            winner[live[over]] = t.nodes[nd[over], 3]
            live, nd = live[~over], nd[~over]
    who, score, crew = (np.concatenate(x) for x in zip(*played))
    turns = np.bincount(who, minlength=m * p)
    ssum = np.bincount(who, weights=score, minlength=m * p).astype(np.int64)
    crews = np.bincount(who, weights=crew, minlength=m * p).astype(np.int64)
    width = t.max_score + 1
    hist = np.bincount(who % p * width + score, minlength=p * width)
    stats = np.zeros((m, len(STAT_NAMES), p), dtype=np.int64)
    has = winner >= 0
    stats[np.flatnonzero(has), 0, winner[has]] = 1
    for k, a in ((1, turns), (2, ssum), (3, crews), (5, sips), (6, tot), (7, wins)):
        stats[:, k, :] = a.reshape(m, p)
    return {
        "stats": stats,
        "winner": winner,
        "rounds": rounds,
        "hist": hist.reshape(p, t.max_score + 1),
        **rec.arrays(max(1, int(rounds.max(initial=0)))),
    }


def draw_outcomes(
    t: MatchTable, arg: np.ndarray, on_turn: np.ndarray, u: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The outcome at each node for one uniform each (``arg``: the nodes' sampler or dice):
    a turn's score where ``on_turn``, a roll-off's dice in base 6 elsewhere; and the crews
    completed by those turns, in their order."""
    if on_turn.all():
        return sample_turns(t, arg, u)
    outcome = dice_outcomes(arg, u)
    crew = np.zeros(0, dtype=np.int64)
    if on_turn.any():
        outcome[on_turn], crew = sample_turns(t, arg[on_turn], u[on_turn])
    return outcome, crew


def sample_turns(
    t: MatchTable, samplers: np.ndarray, u: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Turn scores and crews completed, each drawn from its node's sampler by ``u``."""
    if len(t.cdf) == 1:
        j = _inverse(t, 0, u)
        return t.turn_score[0][j], t.turn_crew[0][j]
    score = np.empty(len(u), dtype=np.int64)
    crew = np.empty(len(u), dtype=np.int64)
    for k in np.unique(samplers).tolist():
        sel = samplers == k
        j = _inverse(t, k, u[sel])
        score[sel], crew[sel] = t.turn_score[k][j], t.turn_crew[k][j]
    return score, crew


def dice_outcomes(dice: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The faces of a roll-off's ``dice`` (one or two) for uniforms ``u``, as one number in
    base 6 (the outcome code of a dice node); a uniform at a turn node gives a number the
    caller overwrites."""
    faces: np.ndarray = np.minimum((u * 6.0 ** dice.clip(0, 2)).astype(np.int64), 35)
    return faces


def _inverse(t: MatchTable, k: int, u: np.ndarray) -> np.ndarray:
    """Outcome indices of sampler ``k`` for uniforms ``u``: exact inverse transform."""
    cdf = t.cdf[k]
    j: np.ndarray = t.first[k][(u * CELLS).astype(np.int64)]
    for _ in range(t.spill[k]):
        j += u >= cdf[j]
    return j


class _Rounds:
    """Each match's rounds as they finish: starter, winner, scores by seat and the seats in
    play order (-1: none), grown as matches play more rounds."""

    def __init__(self, m: int, p: int) -> None:
        self.starter = np.full((m, 8), -1, dtype=np.int64)
        self.winner = np.full((m, 8), -1, dtype=np.int64)
        self.scores = np.full((m, 8, p), -1, dtype=np.int64)
        self.order = np.full((m, 8, p), -1, dtype=np.int64)

    def add(self, at: np.ndarray, r: np.ndarray, row: np.ndarray, p: int) -> None:
        if not len(at):
            return
        while r.max() >= self.starter.shape[1]:
            w = self.starter.shape[1]
            self.starter = np.pad(self.starter, ((0, 0), (0, w)), constant_values=-1)
            self.winner = np.pad(self.winner, ((0, 0), (0, w)), constant_values=-1)
            self.scores = np.pad(self.scores, ((0, 0), (0, w), (0, 0)), constant_values=-1)
            self.order = np.pad(self.order, ((0, 0), (0, w), (0, 0)), constant_values=-1)
        self.starter[at, r] = row[:, Col.STARTER]
        self.winner[at, r] = row[:, Col.WINNER]
        self.scores[at, r] = row[:, Col.FIXED + 3 * p : Col.FIXED + 4 * p]
        self.order[at, r] = row[:, Col.FIXED + 4 * p :]

    def arrays(self, width: int) -> dict[str, np.ndarray]:
        """The :data:`~.match.ROUND_ARRAYS`, ``width`` rounds wide."""
        return {
            "round_starter": self.starter[:, :width],
            "round_winner": self.winner[:, :width],
            "round_scores": self.scores[:, :width],
            "round_order": self.order[:, :width],
        }
