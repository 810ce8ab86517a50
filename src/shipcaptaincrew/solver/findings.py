"""The numbers of the strategy report (``docs/strategy.md``), computed by the solver.

:func:`strategy_findings` answers every question the report asks and returns the answers as
one frozen :class:`StrategyFindings`; the Markdown (:mod:`.report`) and the figures
(:mod:`shipcaptaincrew.plots.strategy`) only format them, so the numbers can be tested without
either.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..facts import PLAYER_COUNTS
from ..rules import AllFail, Rules, TieBreak, find_rules
from ..state import TurnPhase
from .decisions import policy_choices
from .graph import turn_graph
from .odds import turn_odds
from .rounds import equilibrium
from .table import DecisionRow, decision_table

__all__ = [
    "POLICIES",
    "VARIANTS",
    "PolicyFindings",
    "StrategyFindings",
    "VariantFindings",
    "WeakTableFindings",
    "strategy_findings",
]

#: The variants compared in the report (each one option changed from classic).
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("classic", {}),
    ("half cargo (000)", {"half_cargo": True}),
    ("bow to stern (000)", {"bow_to_stern": True}),
    ("wild captain (002)", {"wild_captain": True}),
    ("one cargo reroll (001)", {"cargo_rerolls": 1}),
    ("no cargo reroll", {"cargo_rerolls": 0}),
    ("same-roll bonus 5 (001)", {"same_roll_bonus": 5}),
    ("cargo roll-off ties (002)", {"tie_break": TieBreak.CARGO_ROLLOFF}),
    ("all fail carries pot (002)", {"all_fail": AllFail.CARRY_POT}),
)

#: The policies whose score distributions the report compares (classic).
POLICIES = ("never", "threshold:7", "ev", "threshold:8", "threshold:9")


@dataclass(frozen=True)
class VariantFindings:
    """One variant: its turn under best-expected-score play and a four-player round."""

    name: str
    #: The variant has cargo choices (not ``cargo_rerolls=0``).
    has_cargo_choice: bool
    p_complete_by_roll: tuple[float, ...]
    p_complete: float
    expected_score: float
    #: Four players, everyone playing to win: the first and the last seat's odds.
    first_of_four: float
    last_of_four: float
    p_all_four_fail: float


@dataclass(frozen=True)
class PolicyFindings:
    """One policy's turn under classic rules."""

    policy: str
    expected_score: float
    #: Final score -> probability (0 = no full crew).
    distribution: dict[int, float]


@dataclass(frozen=True)
class WeakTableFindings:
    """The best play against a weak posted score (one player at it) and the tip's cost."""

    players: int
    players_after: int
    score_to_beat: int
    #: Rolls left -> the lowest cargo the best play stands on (None: it always rerolls).
    stand_from: dict[int, int | None]
    #: P(win the round) from the start of the turn: best play, and "stand on 9 or better".
    p_win_best: float
    p_win_tip: float

    @property
    def loss(self) -> float:
        """What following the tip costs in win probability."""
        return self.p_win_best - self.p_win_tip


@dataclass(frozen=True)
class StrategyFindings:
    """Every number of the strategy report."""

    #: Classic, standing on the first cargo: P(crew) exactly, and by roll.
    p_complete: Fraction
    p_complete_by_roll: tuple[Fraction, ...]
    variants: tuple[VariantFindings, ...]
    policies: tuple[PolicyFindings, ...]
    #: Rolls left -> cargo -> expected gain of rerolling the cargo over standing (ev).
    reroll_gain: dict[int, dict[int, float]]
    #: Rolls left -> the lowest cargo the best expected-score play stands on.
    ev_stand_from: dict[int, int | None]
    #: Six players: P(win) of a first player ending on 8, and of an 8 averaged over every
    #: seat and table it is posted at; three players: a first player's 9.
    six_first_8: float
    six_average_8: float
    three_first_9: float
    weak_tables: tuple[WeakTableFindings, ...]
    #: Players -> each seat's win probability, everyone playing to win (2..8 players).
    seat_odds: dict[int, tuple[float, ...]]
    #: Largest |P(seat wins) - 1/n| when everyone plays ev or threshold:7, n = 2..8.
    fixed_policy_deviation: float
    #: The win-maximising decision table of a four-player round.
    thresholds_four: tuple[DecisionRow, ...]
    #: Mean first cargo on a completed crew (policy never): classic, and bow to stern.
    mean_cargo: float
    mean_cargo_bow: float
    #: Largest |P(seat wins) - 1/4| without cargo rerolls (nothing to decide).
    no_reroll_deviation: float

    @property
    def weak_stand_from(self) -> tuple[int, ...]:
        """Every stand-from threshold of :attr:`weak_tables` (13 for "always reroll")."""
        return tuple(
            13 if x is None else x for row in self.weak_tables for x in row.stand_from.values()
        )


def strategy_findings() -> StrategyFindings:
    """Solve everything the report states (a few seconds, mostly the equilibria)."""
    classic = find_rules("classic")
    exact = turn_odds(classic, "never", exact=True)
    six_first, six_average, three_first = _table_wins(classic)
    return StrategyFindings(
        p_complete=exact.p_complete,
        p_complete_by_roll=exact.p_complete_by_roll,
        variants=tuple(_variant(name, classic.replace(**opts), opts) for name, opts in VARIANTS),
        policies=tuple(_policy(classic, p) for p in POLICIES),
        reroll_gain=_reroll_gain(classic),
        ev_stand_from={
            row.rolls_left: row.stand_from for row in decision_table(classic, objective="ev")
        },
        six_first_8=six_first,
        six_average_8=six_average,
        three_first_9=three_first,
        weak_tables=_weak_tables(classic),
        seat_odds={n: equilibrium(classic, n).seat_win_probability for n in PLAYER_COUNTS},
        fixed_policy_deviation=max(
            abs(p - 1 / n)
            for n in PLAYER_COUNTS
            for pol in ("ev", "threshold:7")
            for p in equilibrium(classic, n, pol).seat_win_probability
        ),
        thresholds_four=tuple(decision_table(classic, players=4)),
        mean_cargo=_mean_cargo(classic),
        mean_cargo_bow=_mean_cargo(classic.replace(bow_to_stern=True)),
        no_reroll_deviation=max(
            abs(p - 0.25)
            for p in equilibrium(classic.replace(cargo_rerolls=0), 4).seat_win_probability
        ),
    )


def _variant(name: str, rules: Rules, opts: dict[str, Any]) -> VariantFindings:
    o = turn_odds(rules, "ev")
    eq = equilibrium(rules, 4, "optimal")
    w = eq.seat_win_probability
    return VariantFindings(
        name=name,
        has_cargo_choice=opts.get("cargo_rerolls") != 0,
        p_complete_by_roll=o.p_complete_by_roll,
        p_complete=o.p_complete,
        expected_score=o.expected_score,
        first_of_four=w[0],
        last_of_four=w[-1],
        p_all_four_fail=eq.p_all_fail_per_round,
    )


def _policy(rules: Rules, policy: str) -> PolicyFindings:
    o = turn_odds(rules, policy)
    return PolicyFindings(policy, o.expected_score, dict(o.distribution))


def _reroll_gain(rules: Rules) -> dict[int, dict[int, float]]:
    """rolls left -> cargo -> expected score of rerolling (ev play after) minus the cargo."""
    graph = turn_graph(rules)
    choice = policy_choices(rules, "ev")
    e, _ = graph.evaluate([float(x) for x in graph.scores], choice)
    out: dict[int, dict[int, float]] = {}
    for i, s in enumerate(graph.states):
        if s.phase is not TurnPhase.DECIDE or s.bonus or s.cargo_rerolls:
            continue
        acts = [str(a) for a in graph.actions[i]]
        reroll = e[graph.kids[i][acts.index("reroll")]]
        out.setdefault(s.rolls_left, {})[sum(s.cargo)] = reroll - sum(s.cargo)
    return out


def _table_wins(rules: Rules) -> tuple[float, float, float]:
    """A first player's 8 of six, an 8 of six on average where posted, a first 9 of three."""
    eq6 = equilibrium(rules, 6, "optimal")
    j8 = eq6.scores.index(8)
    first = eq6.g(0, 0, 0)[j8]
    num = den = 0.0
    for (i, m, t), reach in eq6.table_reach().items():
        if i == eq6.players:
            continue  # the table after everyone: nobody posts there
        g, d, _ = eq6.tables[(i, m, t)]
        num += reach * d[j8] * g[j8]
        den += reach * d[j8]
    eq3 = equilibrium(rules, 3, "optimal")
    return first, num / den if den else 0.0, eq3.g(0, 0, 0)[eq3.scores.index(9)]


def _weak_tables(rules: Rules) -> tuple[WeakTableFindings, ...]:
    """The best play and the tip "stand on 9 or better" against a posted 4 or 6."""
    graph = turn_graph(rules)
    tip9 = policy_choices(rules, "threshold:9")
    rows = []
    for players in (2, 3, 4, 6):
        table = decision_table(rules, players=players)
        eq = equilibrium(rules, players, "optimal")
        for k in sorted({0, 1, players - 2}):
            if k > players - 2:
                continue
            for beat in (4, 6):
                g = eq.g(players - 1 - k, beat, 1)
                rows.append(
                    WeakTableFindings(
                        players=players,
                        players_after=k,
                        score_to_beat=beat,
                        stand_from={
                            row.rolls_left: row.stand_from
                            for row in table
                            if row.players_after == k and row.score_to_beat == beat
                        },
                        p_win_best=graph.evaluate_lex(g)[0][0],
                        p_win_tip=graph.evaluate(g, tip9)[0][0],
                    )
                )
    return tuple(rows)


def _mean_cargo(rules: Rules) -> float:
    """Mean score of a completed crew when standing on the first cargo (policy never)."""
    o = turn_odds(rules, "never")
    return float(sum(x * p for x, p in o.distribution.items()) / o.p_complete)
