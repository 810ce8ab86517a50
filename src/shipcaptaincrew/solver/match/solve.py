"""The exact match solver: every position's match and round chances for a table of policies.

Each seat plays a policy: ``optimal`` (the best chance of winning the match, then of winning
the round, then the best score: subgame perfect, every later seat and round playing the same
way), ``optimal:round`` (the round equilibrium's play, whatever the match), or a fixed one
(``ev``, ``never``, ``threshold:T``).  The positions of :mod:`.model` (the tournament's:
:mod:`.tournament`) are solved level by
level from the last rounds back: at every position the round is played seat by seat over the
tree of posted scores (:func:`.play.play_contest`), every line of scores leading to a
decided match or to a position already solved.

Lines that lead back into their own level -- a round everyone fails and is replayed, a round
left without a winner -- make the values of a level unknowns of each other.  They are found
by policy iteration: guess them, play the level, solve the linear equations of that fixed play
(``U = A + M U``, ``M`` the chance of coming back, a fraction of a round), play again with the
solution, and stop when no seat's play changes; a level that does not settle within
:data:`~.play.MAX_POLICY_ITERATIONS` raises :class:`~..rounds.SolverError`.

Values are kept per position in play order: entry ``j`` is the chance of the ``j``-th player
of that round winning the match, entry ``n + j`` of winning the round (the first round from
there with a winner).  Solutions are cached in memory and on disk (:func:`~..rounds.cache_dir`)
like the round equilibria.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...rules import Rules
from ..graph import TIE_TOLERANCE
from ..policies import Policy
from ..rounds import SolverError, cache_dir
from .model import MatchModel, Resolution
from .play import MAX_POLICY_ITERATIONS, Seat, Tree, leaf_mass, play_contest, seat_for
from .tournament import model_for

__all__ = ["MatchSolution", "clear_match_cache", "solve_match"]

#: Lines of scores resolved at once (bounds the working arrays of a level).
_CHUNK_LINES = 1 << 18
#: Convergence of the linear equations of a level (a Neumann series; terms shrink by at least
#: the chance of coming back, itself below one half).
_TOLERANCE = 1e-15
_CACHE_VERSION = 1


@dataclass
class MatchSolution:
    """Every position's values for one rule set and one policy per seat (play order)."""

    model: MatchModel
    #: (positions, 2n): per position code, match chances then round chances, in play order.
    values: np.ndarray
    #: Policy-iteration rounds over all levels, and the seconds the solve took (0: cached).
    iterations: int
    seconds: float
    _trees: OrderedDict[int, Tree] = field(default_factory=OrderedDict, repr=False)

    @property
    def rules(self) -> Rules:
        """The rule set solved."""
        return self.model.rules

    @property
    def policies(self) -> tuple[Policy, ...]:
        """Each seat's policy, as the seat plays first in the first round."""
        return self.model.policies

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.model.n

    def at(self, code: int) -> np.ndarray:
        """The value vector (2n) of a position."""
        out: np.ndarray = self.values[code]
        return out

    @property
    def seat_win_probability(self) -> tuple[float, ...]:
        """Each seat's chance of winning the match, the first round's starter first."""
        v = self.values[self.model.codes.initial()]
        return tuple(float(x) for x in v[: self.players])

    @property
    def round_win_probability(self) -> tuple[float, ...]:
        """Each seat's chance of winning the first round (a round without a winner passes on)."""
        v = self.values[self.model.codes.initial()]
        return tuple(float(x) for x in v[self.players :])

    def tree(self, code: int) -> Tree:
        """The round at a position played out over its tree of posted scores (kept for reuse)."""
        hit = self._trees.get(code)
        if hit is None:
            codes = np.array([code], dtype=np.int64)
            res = self.model.resolve(codes)
            hit = _play(self.model, self.values, codes, res)[0]
            self._trees[code] = hit
            if len(self._trees) > 4096:
                self._trees.popitem(last=False)
        return hit

    def after_round(self, code: int, line: int, winner_place: int) -> np.ndarray:
        """The value vector (2n) after the round at ``code`` ends with the line of scores
        ``line`` and the player at ``winner_place`` winning it (a tie for it just broken)."""
        res = self.model.resolve(np.array([code], dtype=np.int64), winner_place)
        out: np.ndarray = _leaf_values(self.model, self.values, res)[0, line]
        return out

    @property
    def p_all_fail_per_round(self) -> float:
        """The chance that everyone fails in one playing of the first round."""
        return float(leaf_mass(self.tree(self.model.codes.initial()))[0, 0])


def _seats(model: MatchModel, offset: int) -> list[Seat]:
    n = model.n
    return [
        seat_for(model.rules, model.policies[(offset + p) % n], n, p, p, n + p, False)
        for p in range(n)
    ]


def _leaf_values(model: MatchModel, values: np.ndarray, res: Resolution) -> np.ndarray:
    """(B, L, 2n): the value of every line, from the positions it leads to."""
    n = model.n
    out = res.term.copy()
    seats = np.arange(n)
    on: tuple[np.ndarray, np.ndarray] | None = None
    for k, br in enumerate(res.branches):
        here = values[br.code]
        idx = (seats - br.shift[..., None]) % n
        match = br.w_match[..., None] * np.take_along_axis(here[..., :n], idx, axis=-1)
        rnd = br.w_round[..., None] * np.take_along_axis(here[..., n:], idx, axis=-1)
        out[..., :n] += match
        out[..., n:] += rnd
        if k == 0:
            on = match, rnd
    if res.stop is not None and res.caller is not None and on is not None:
        # A session: the next round's first player stops where that is worth more to it
        # (the first branch is going on; see match_session).
        match, rnd = on
        c = np.maximum(res.caller, 0)[..., None]
        going = np.take_along_axis(match, c, axis=-1)[..., 0]
        stopping = np.take_along_axis(res.stop, c, axis=-1)[..., 0]
        stops = (res.caller >= 0) & (stopping > going + TIE_TOLERANCE)
        out[..., :n] += stops[..., None] * (res.stop - match)
        out[..., n:] -= stops[..., None] * rnd  # stopped: no later round to win this one
    return out


def _play(model: MatchModel, values: np.ndarray, codes: np.ndarray, res: Resolution) -> list[Tree]:
    """The round at each position played out; one tree per position (B = 1 each)."""
    leaves = _leaf_values(model, values, res)
    offsets = codes % model.period
    trees: list[Tree | None] = [None] * len(codes)
    for o in np.unique(offsets):
        rows = np.flatnonzero(offsets == o)
        tree = play_contest(model.rules, _seats(model, int(o)), leaves[rows])
        for k, r in enumerate(rows):
            trees[r] = Tree(
                tuple(d[k : k + 1] for d in tree.dists), tuple(v[k : k + 1] for v in tree.values)
            )
    return [t for t in trees if t is not None]


@dataclass
class _Links:
    """Lines that lead back into the level being solved: (row, target row, shift, weights)."""

    row: np.ndarray
    target: np.ndarray
    shift: np.ndarray
    w_match: np.ndarray
    w_round: np.ndarray

    def apply(self, u: np.ndarray) -> np.ndarray:
        """Sum over the links of each row: weight * the target's values, shifted."""
        n = u.shape[1] // 2
        idx = (np.arange(n) - self.shift[:, None]) % n
        t = u[self.target]
        part = np.concatenate(
            [
                self.w_match[:, None] * np.take_along_axis(t[:, :n], idx, axis=1),
                self.w_round[:, None] * np.take_along_axis(t[:, n:], idx, axis=1),
            ],
            axis=1,
        )
        out = np.zeros_like(u)
        np.add.at(out, self.row, part)
        return out


def _solve_batch(model: MatchModel, values: np.ndarray, codes: np.ndarray) -> int:
    """Solve the positions of a batch of levels in place; returns the policy iterations."""
    n = model.n
    where = np.full(model.size, -1, dtype=np.int64)
    where[codes] = np.arange(len(codes))
    values[codes, :n] = 1.0 / n
    values[codes, n:] = 0.0
    chunk = max(1, _CHUNK_LINES // len(model.x))
    parts = [codes[i : i + chunk] for i in range(0, len(codes), chunk)]
    resolutions = [model.resolve(part) for part in parts]
    before: list[tuple[np.ndarray, ...]] | None = None
    for iteration in range(1, MAX_POLICY_ITERATIONS + 1):
        roots, dists, links = [], [], []
        for part, res in zip(parts, resolutions):
            leaves = _leaf_values(model, values, res)
            offsets = part % model.period
            root = np.empty((len(part), 2 * n))
            mass = np.empty((len(part), len(model.x)))
            for o in np.unique(offsets):
                rows = np.flatnonzero(offsets == o)
                tree = play_contest(model.rules, _seats(model, int(o)), leaves[rows])
                root[rows] = tree.root
                mass[rows] = leaf_mass(tree)
                dists.append(tree.dists)
            roots.append(root)
            links.append(_links(res, where, part, mass))
        root_all = np.concatenate(roots)
        link = _Links(*(np.concatenate([getattr(k, f) for k in links]) for f in _LINK_FIELDS))
        if not len(link.row) or (before is not None and _same(before, dists)):
            values[codes] = root_all
            return iteration
        before = dists
        values[codes] = _fixed_point(root_all, link, values[codes])
    raise SolverError(
        f"the match under {model.rules} did not settle in {MAX_POLICY_ITERATIONS} policy rounds"
    )


_LINK_FIELDS = ("row", "target", "shift", "w_match", "w_round")


def _links(res: Resolution, where: np.ndarray, part: np.ndarray, mass: np.ndarray) -> _Links:
    rows, targets, shifts, wm, wr = [], [], [], [], []
    base = where[part]
    for br in res.branches:
        hit = (where[br.code] >= 0) & ((br.w_match > 0) | (br.w_round > 0))
        b, line = np.nonzero(hit)
        rows.append(base[b])
        targets.append(where[br.code[b, line]])
        shifts.append(br.shift[b, line])
        wm.append(mass[b, line] * br.w_match[b, line])
        wr.append(mass[b, line] * br.w_round[b, line])
    return _Links(*(np.concatenate(x) for x in (rows, targets, shifts, wm, wr)))


def _same(a: list[tuple[np.ndarray, ...]], b: list[tuple[np.ndarray, ...]]) -> bool:
    return all(np.array_equal(x, y) for ta, tb in zip(a, b) for x, y in zip(ta, tb))


def _fixed_point(root: np.ndarray, link: _Links, guess: np.ndarray) -> np.ndarray:
    """Solve ``U = A + M U`` for the play just made, where ``root = A + M guess``."""
    a = root - link.apply(guess)
    u = root
    for _ in range(100_000):
        nxt: np.ndarray = a + link.apply(u)
        if np.abs(nxt - u).max() < _TOLERANCE:
            return nxt
        u = nxt
    raise SolverError("a level of the match keeps coming back (everyone always fails?)")


# -- caching ---------------------------------------------------------------------------------

_MEMORY: OrderedDict[tuple[Rules, tuple[Policy, ...]], MatchSolution] = OrderedDict()


def clear_match_cache() -> None:
    """Forget every match solution held in memory (the disk cache stays)."""
    _MEMORY.clear()


def _disk_path(rules: Rules, policies: tuple[Policy, ...]) -> tuple[str, Path]:
    key = f"v{_CACHE_VERSION}|{rules}|{','.join(map(str, policies))}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return key, cache_dir() / f"match-{digest}.npz"


def solve_match(
    rules: Rules, policies: tuple[Policy, ...], *, use_disk: bool = True
) -> MatchSolution:
    """Every position of a match under ``rules`` with one policy per seat, solved exactly."""
    hit = _MEMORY.get((rules, policies))
    if hit is not None:
        return hit
    model = model_for(rules, policies)
    key, path = _disk_path(rules, policies)
    sol = _load(model, key, path) if use_disk else None
    if sol is None:
        start = time.perf_counter()
        values = np.zeros((model.size, 2 * model.n))
        iterations = 0
        levels = model.codes.levels()
        for i in range(0, len(levels), model.codes.span):
            iterations += _solve_batch(
                model, values, np.concatenate(levels[i : i + model.codes.span])
            )
        sol = MatchSolution(model, values, iterations, time.perf_counter() - start)
        if use_disk:
            _save(sol, key, path)
    _MEMORY[(rules, policies)] = sol
    if len(_MEMORY) > 16:
        _MEMORY.popitem(last=False)
    return sol


def _load(model: MatchModel, key: str, path: Path) -> MatchSolution | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["key"]) != key or data["values"].shape != (model.size, 2 * model.n):
                return None
            return MatchSolution(model, data["values"].copy(), int(data["iterations"]), 0.0)
    except (OSError, ValueError, KeyError):
        return None  # no cache, or a damaged one: solve again


def _save(sol: MatchSolution, key: str, path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(tmp, key=np.array(key), values=sol.values, iterations=sol.iterations)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home is no reason to fail: the answer is still right
