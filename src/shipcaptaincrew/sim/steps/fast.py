"""Whole matches at NumPy speed: many matches step at once through :mod:`.table`'s tables.

Each step of the loop draws one keyed uniform per live match (:mod:`..keyed`): a turn's
score and crew by exact inverse transform from its node's turn distribution, or a roll-off's
dice; then a gather in the step table gives the next node and what the step adds to the
record.  Steps not met before are resolved by the engine as they come
(:meth:`.table.MatchTable.outcome_step`, :meth:`~.table.MatchTable.keyed_step`).  A match's
record -- totals, sips, round wins, its count of rounds and the scores of the round being
played -- is a column of one array (:func:`new_record`) that the steps add to.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...facts import FACES
from ...rules import TURN_LIMITS, Rules
from ..keyed import uniforms
from ..match import ROUND_DTYPE, STAT_NAMES
from .match_turns import Positions
from .nodes import arg_at, due_at, seat_at
from .rows import RecordRows, child_at
from .table import Due, MatchTable, StepBits, StepColumn, match_table

__all__ = [
    "dice_outcomes",
    "draw_outcomes",
    "fast_matches",
    "follow",
    "new_record",
    "sample_turns",
]


def _outcome_steps(t: MatchTable, codes: np.ndarray) -> np.ndarray:
    """Step ids of (node, outcome) codes, asking the engine for the ones not met before."""
    ids: np.ndarray = t.by_outcome[codes]
    if ids.min() < 0:
        for c in np.unique(codes[ids < 0]).tolist():
            t.by_outcome[c] = t.outcome_step(c)
        ids = t.by_outcome[codes]
    return ids


def _keyed_steps(t: MatchTable, step: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Step ids of keyed steps at their totals keys, asking the engine for the ones not met
    before: the (step, key) combinations kept sorted (:attr:`~.table.MatchTable.by_totals`).
    (A dense table for the few keys of two players bought nothing measurable:
    ``benchmarks/bench_layers.py``.)"""
    space = t.keys.space

    def resolve(new: np.ndarray, _: np.ndarray) -> np.ndarray:
        return np.array([t.keyed_step(*divmod(c, space)) for c in new.tolist()], dtype=np.int64)

    return t.by_totals.lookup(step * space + key, resolve)


def _resolved(
    t: MatchTable, codes: np.ndarray, record: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The steps of (node, outcome) ``codes`` at matches ``rows``, resolved per pattern of
    zeros among the round's scores, count of rounds or order of the totals where they read
    those (in the order the engine reads them; a step resolved by one may read the next):
    the step ids and their words."""
    step = _outcome_steps(t, codes)
    sw = t.rows.step_word[step]
    p = t.players
    for _ in range(4):  # each of the three at most once, then nothing is left to read
        flagged = np.flatnonzero(sw & StepBits.KEYED)
        if not flagged.size:  # most steps read none of these
            return step, sw
        zeros = flagged[(sw[flagged] & StepBits.ZEROS) != 0]
        if zeros.size:
            scored = (record[t.rec.scores, rows[zeros]] > 0) * (1 << np.arange(p))[:, None]
            step[zeros] = t.by_zeros.lookup(
                step[zeros], scored.sum(axis=0), t.rows.n_steps, t.zeros_step
            )
            sw[zeros] = t.rows.step_word[step[zeros]]
        counted = flagged[(sw[flagged] & (StepBits.ZEROS | StepBits.COUNT)) == StepBits.COUNT]
        if counted.size:
            own = record[t.rec.count, rows[counted]]
            step[counted] = t.by_count.lookup(step[counted], own, t.rows.n_steps, t.count_step)
            sw[counted] = t.rows.step_word[step[counted]]
        keyed = flagged[(sw[flagged] & StepBits.KEYED) == StepBits.TOTALS]
        if keyed.size:
            final = record[t.rec.totals, rows[keyed]] + t.rows.adds[step[keyed], :p].T
            step[keyed] = _keyed_steps(t, step[keyed], t.keys.key_of(final))
            sw[keyed] = t.rows.step_word[step[keyed]]
    raise AssertionError("a step of the tables kept asking for more than it can read")


def _add(
    t: MatchTable,
    step: np.ndarray,
    sw: np.ndarray,
    outcome: np.ndarray,
    record: np.ndarray,
    rows: np.ndarray,
) -> np.ndarray:
    """Add what steps ``step`` (words ``sw``) do to the records of matches ``rows``: the
    score of the round they post (``outcome``), then the totals, sips, round wins and count
    of rounds they add.  The positions (in ``rows``) of the steps that touched the totals."""
    p, m = t.players, record.shape[1]
    flat = record.reshape(-1)  # column c of match i at c * m + i
    # Every outcome goes to its step's column: the seat's score of the round where the step
    # posts one, else the spare column (one scatter, no asking which steps post).
    flat[t.rows.post_col[step] * m + rows] = outcome
    touch = np.flatnonzero(sw & StepBits.TOUCH)
    if touch.size:
        at, hit = rows[touch], step[touch]
        flat[t.rows.add_col[hit] * m + at[:, None]] += t.rows.add_val[
            hit
        ]  # each (match, column) once
        some = np.flatnonzero(sw[touch] & StepBits.CARRIES)
        if some.size:
            at, mask = at[some], t.rows.carried[hit[some]]
            first = t.rec.scores.start
            for s in range(p):  # a row of the record per seat: 1-D gathers
                record[s, at] += record[first + s, at] * mask[:, s]
    return touch


def follow(
    t: MatchTable, nd: np.ndarray, outcome: np.ndarray, record: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """Matches ``rows`` at nodes ``nd`` meet ``outcome`` (a turn's score, or dice in base 6):
    each takes its step, and where that ended a round, the format's decision after it.
    ``record`` holds every match's record, a column each (:func:`new_record`), and gets what the
    steps add.  Returns the nodes the matches are at now, and per step taken the positions
    (in ``rows``) of the matches whose record it touched with the step ids there.  Steps not
    met before are resolved by the engine, per count of rounds or order of the totals if
    they read those.  (The first pair's steps are those of every row, the second's those of
    its positions only.)"""
    step, sw = _resolved(t, nd * t.width + outcome, record, rows)
    touched = [(_add(t, step, sw, outcome, record, rows), step)]
    child = child_at(sw)
    ended = np.flatnonzero(sw & StepBits.ENDS)
    if ended.size:  # the format decides: a step of its own, with no random number
        at = rows[ended]
        step2, sw2 = _resolved(t, child[ended] * t.width, record, at)
        pos = _add(t, step2, sw2, outcome[ended], record, at)
        touched.append((ended[pos], step2[pos]))  # positions in rows, and their steps
        child[ended] = child_at(sw2)
    return child, touched


def new_record(matches: int, players: int) -> np.ndarray:
    """Zeroed records of matches for :func:`follow`, a column each, its rows those of
    :class:`~.rows.RecordRows`.  Rows, not columns, per figure: the hot loop reads and
    adds one figure of many matches at a time."""
    return np.zeros((RecordRows(players).size, matches), dtype=np.int64)


def fast_matches(rules: Rules, bots: list[str], seed: int, first: int, size: int) -> dict[str, Any]:
    """Matches ``first .. first + size - 1`` of a seed, in the arrays of :meth:`.MatchRunner.run`."""
    t = match_table(rules, bots)
    p, m = t.players, size
    match_no = first + np.arange(m, dtype=np.int64)
    draws = np.zeros(m * p, dtype=np.int64)  # per (match, seat), flat: uniforms used
    record = new_record(m, p)
    played: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (flat seat, score, crew)
    winner = np.full(m, -1, dtype=np.int64)
    rounds = np.zeros(m, dtype=np.int64)
    rec = _Rounds(m, p)
    live = np.arange(m)
    nd = np.full(m, t.start, dtype=np.int64)  # the node of each live match
    while live.size:
        word = t.nodes.word[nd]
        kind, seat = due_at(word), seat_at(word)
        flat = live * p + seat
        u = uniforms(seed, match_no[live], seat, draws[flat])
        draws[flat] += 1
        on_turn = kind == Due.TURN
        outcome, crew = draw_outcomes(t, nd, on_turn, u, record, live)
        if crew.size:
            played.append((flat[on_turn], outcome[on_turn], crew))
        nd, touched = follow(t, nd, outcome, record, live)
        for k, (pos, steps) in enumerate(touched):
            step = steps[pos] if k == 0 else steps
            new = np.flatnonzero(t.rows.steps[step, StepColumn.NEW_ROUND] == 1)
            if new.size:
                at = live[pos[new]]
                rec.add(at, rounds[at], t.rows.steps[step[new]], record[t.rec.scores, at].T, p)
                rounds[at] += 1
        over = due_at(t.nodes.word[nd]) == Due.OVER
        if over.any():
            winner[live[over]] = t.nodes.winner[nd[over]]
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
    stats[:, 1, :] = turns.reshape(m, p)
    stats[:, 2, :] = ssum.reshape(m, p)
    stats[:, 3, :] = crews.reshape(m, p)
    stats[:, 5, :] = record[t.rec.sips].T
    stats[:, 6, :] = record[t.rec.totals].T
    stats[:, 7, :] = record[t.rec.wins].T
    return {
        "stats": stats,
        "winner": winner,
        "rounds": rounds,
        "hist": hist.reshape(p, t.max_score + 1),
        **rec.arrays(max(1, int(rounds.max(initial=0)))),
    }


def draw_outcomes(
    t: MatchTable,
    nd: np.ndarray,
    on_turn: np.ndarray,
    u: np.ndarray,
    record: np.ndarray,
    rows: np.ndarray,
    crews: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """The outcome at each of nodes ``nd`` of matches ``rows`` (records ``record``) for one
    uniform each: a turn's score where ``on_turn``, a roll-off's dice in base 6 elsewhere;
    and the crews completed by those turns, in their order (none unless ``crews``)."""
    arg = arg_at(t.nodes.word[nd])
    if on_turn.all():
        return sample_turns(t, nd, arg, u, record, rows, crews)
    outcome = np.empty(len(u), dtype=np.int64)
    dice = np.flatnonzero(~on_turn)
    outcome[dice] = dice_outcomes(arg[dice], u[dice])
    crew = np.zeros(0, dtype=np.int64)
    turns = np.flatnonzero(on_turn)
    if turns.size:
        outcome[turns], crew = sample_turns(
            t, nd[turns], arg[turns], u[turns], record, rows[turns], crews
        )
    return outcome, crew


def sample_turns(
    t: MatchTable,
    nd: np.ndarray,
    samplers: np.ndarray,
    u: np.ndarray,
    record: np.ndarray,
    rows: np.ndarray,
    crews: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Turn scores and crews completed (none unless ``crews``), each drawn from its node's
    sampler by ``u``, or by match position where the match-optimal bot plays a round
    (:mod:`.match_turns`)."""
    none = np.zeros(0, dtype=np.int64)
    if t.samplers.match_turns is None and len(t.samplers.draw) == 1:
        j = t.samplers.draw[0](u)
        return t.samplers.turn_score[0][j], t.samplers.turn_crew[0][j] if crews else none
    score = np.empty(len(u), dtype=np.int64)
    crew = np.empty(len(u), dtype=np.int64) if crews else none
    plain = np.arange(len(u))
    if t.samplers.match_turns is not None:
        by_match = t.nodes.by_match[nd] == 1
        at = np.flatnonzero(by_match)
        if at.size:
            r, n = rows[at], nd[at]
            score[at] = t.samplers.match_turns.draw(
                u[at],
                Positions(
                    t.nodes.order[n],
                    t.nodes.place[n],
                    record[t.rec.count, r],
                    record[t.rec.totals, r].T,
                    record[t.rec.scores, r].T,
                ),
            )
            if crews:
                crew[at] = score[at] > 0  # a full crew scores, none does not
        plain = np.flatnonzero(~by_match)
    for k in np.unique(samplers[plain]).tolist():
        sel = plain[samplers[plain] == k]
        j = t.samplers.draw[k](u[sel])
        score[sel] = t.samplers.turn_score[k][j]
        if crews:
            crew[sel] = t.samplers.turn_crew[k][j]
    return score, crew


def dice_outcomes(dice: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The faces of a roll-off's ``dice`` (one die, or the cargo's dice of a cargo roll-off)
    for uniforms ``u``, as one number in base 6 (the outcome code of a dice node); a uniform
    at a turn node gives a number the caller overwrites."""
    most = TURN_LIMITS.cargo_dice
    sides = len(FACES)
    faces: np.ndarray = np.minimum(
        (u * float(sides) ** dice.clip(0, most)).astype(np.int64), sides**most - 1
    )
    return faces


class _Rounds:
    """Each match's rounds as they finish: starter, winner, scores by seat and the seats in
    play order (-1: none).  Kept as the pieces the loop hands over and laid out once at the
    end (one scatter per array instead of one per pass of the loop)."""

    def __init__(self, m: int, p: int) -> None:
        self.m, self.p = m, p
        self._at: list[np.ndarray] = []
        self._r: list[np.ndarray] = []
        self._rows: list[np.ndarray] = []  # starter, winner, scores by seat, play order

    def add(
        self, at: np.ndarray, r: np.ndarray, row: np.ndarray, carried: np.ndarray, p: int
    ) -> None:
        """Rounds ``r`` of matches ``at`` as step rows ``row`` finished them (a score of -2 is
        the seat's own, from ``carried``)."""
        if not len(at):
            return
        scores = row[:, StepColumn.FIXED + 4 * p : StepColumn.FIXED + 5 * p]
        self._at.append(at)
        self._r.append(r)
        self._rows.append(
            np.column_stack(
                [
                    row[:, StepColumn.STARTER],
                    row[:, StepColumn.WINNER],
                    np.where(scores == -2, carried, scores),
                    row[:, StepColumn.FIXED + 5 * p :],
                ]
            ).astype(ROUND_DTYPE)
        )

    def arrays(self, width: int) -> dict[str, np.ndarray]:
        """The :data:`~.match.ROUND_ARRAYS`, ``width`` rounds wide."""
        m, p = self.m, self.p
        out = np.full((m, width, 2 + 2 * p), -1, dtype=ROUND_DTYPE)
        if self._at:
            at, r = np.concatenate(self._at), np.concatenate(self._r)
            out[at, r] = np.concatenate(self._rows)
        return {
            "round_starter": out[:, :, 0],
            "round_winner": out[:, :, 1],
            "round_scores": out[:, :, 2 : 2 + p],
            "round_order": out[:, :, 2 + p :],
        }
