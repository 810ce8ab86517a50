"""The vectorised turn simulator: tables derived from the engine, against the exact solver.

* exact: the chain the simulator samples from gives *exactly* the solver's odds (rationals);
* sampled: completion by roll, score distribution and expected score within 4 standard errors
  of the solver, for every preset and each turn variant;
* the vectorised sampler and the plain engine loop agree on the same statistics.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from shipcaptaincrew.rules import PRESETS, Rules
from shipcaptaincrew.sim.policy import SolverPolicy, make_policy
from shipcaptaincrew.sim.reference import engine_turns
from shipcaptaincrew.sim.tables import IllegalPolicyError, TurnSample, build_table, score_paths
from shipcaptaincrew.solver import turn_odds

#: Turn variants (rule options that change the turn).
VARIANTS: dict[str, dict[str, object]] = {
    "plain": {},
    "wild_captain": {"wild_captain": True},
    "half_cargo": {"half_cargo": True},
    "bow_to_stern": {"bow_to_stern": True},
    "one_reroll": {"cargo_rerolls": 1},
    "no_reroll": {"cargo_rerolls": 0},
    "bonus": {"same_roll_bonus": 3},
    "wild_half": {"wild_captain": True, "half_cargo": True},
}
SOLVER_POLICIES = ("never", "threshold:7", "ev")
CASES = [(p, v) for p in PRESETS for v in VARIANTS]


def rules_of(preset: str, variant: str) -> Rules:
    return PRESETS[preset].replace(**VARIANTS[variant])


def within(estimate: float, exact: float, se: float, k: float = 4.0) -> bool:
    return abs(estimate - exact) <= k * se + 1e-12


@pytest.mark.parametrize(("preset", "variant"), CASES)
def test_chain_is_exactly_the_solver(preset: str, variant: str) -> None:
    """The engine-derived chain reproduces the solver's exact odds, for each fixed policy."""
    rules = rules_of(preset, variant)
    for policy in SOLVER_POLICIES:
        mine = build_table(rules, SolverPolicy(rules, policy)).exact()
        theirs = turn_odds(rules, policy, exact=True)
        assert mine.p_complete_by_roll == theirs.p_complete_by_roll, policy
        assert mine.distribution == theirs.distribution, policy
        assert mine.expected_score == theirs.expected_score, policy


@pytest.mark.parametrize(("preset", "variant"), CASES)
def test_sampled_turns_agree_with_solver(preset: str, variant: str) -> None:
    """Completion by roll, distribution and expected score within 4 SE of the exact solver."""
    rules = rules_of(preset, variant)
    n = 100_000
    for k, policy in enumerate(SOLVER_POLICIES):
        table = build_table(rules, SolverPolicy(rules, policy))
        sample = table.sample(np.random.default_rng([17, k, len(CASES)]), n)
        got = sample.summary()
        exact = turn_odds(rules, policy)
        for est, p in [
            (got["p_complete"], exact.p_complete),
            *zip(got["p_complete_by_roll"], exact.p_complete_by_roll),
        ]:
            assert within(est, p, math.sqrt(p * (1 - p) / n)), (policy, est, p)
        for score, p in exact.distribution.items():
            est = got["distribution"].get(score, 0.0)
            assert within(est, p, math.sqrt(p * (1 - p) / n)), (policy, score, est, p)
        assert set(got["distribution"]) <= set(exact.distribution)
        var = sum(p * (s - exact.expected_score) ** 2 for s, p in exact.distribution.items())
        assert within(got["expected_score"], exact.expected_score, math.sqrt(var / n)), policy


@pytest.mark.parametrize("variant", ["plain", "wild_captain", "half_cargo", "one_reroll"])
@pytest.mark.parametrize("bot", ["timid", "tip", "ev", "random"])
def test_vectorised_agrees_with_plain_engine_loop(variant: str, bot: str) -> None:
    """Same bot, same statistics (completion by roll, score distribution, expected score):
    vectorised turns vs turns played roll by roll through the engine (two-sample, 4 SE)."""
    rules = rules_of("classic", variant)
    n_engine, n_vec = 3_000, 200_000
    scores, completed = engine_turns(rules, bot, n_engine, seed=5)
    vec = build_table(rules, make_policy(bot, rules)).sample(np.random.default_rng(5), n_vec)
    plain = TurnSample(scores, completed, vec.rolls).summary()
    fast = vec.summary()

    def close(a: float, b: float, va: float, vb: float) -> bool:
        return abs(a - b) <= 4 * math.sqrt(va / n_engine + vb / n_vec) + 1e-12

    for key in ("p_complete",):
        p = fast[key]
        assert close(plain[key], p, p * (1 - p), p * (1 - p)), key
    for a, b in zip(plain["p_complete_by_roll"], fast["p_complete_by_roll"]):
        assert close(a, b, b * (1 - b), b * (1 - b))
    v = float(np.var(vec.scores))
    assert close(plain["expected_score"], fast["expected_score"], v, v)
    # The score distribution, score by score (a score neither run saw is 0 in both).
    assert set(plain["distribution"]) <= set(fast["distribution"])
    for score, p in fast["distribution"].items():
        est = plain["distribution"].get(score, 0.0)
        assert close(est, p, p * (1 - p), p * (1 - p)), (score, est, p)


def test_alias_rows_reproduce_the_exact_probabilities() -> None:
    """Each alias row, read back slot by slot, gives the row's probabilities to 2**-58."""
    rules = Rules(wild_captain=True, half_cargo=True)
    table = build_table(rules, make_policy("random", rules))
    for i, row in enumerate(table.rows):
        start, bits = int(table._starts[i]), int(table._shifts[i])
        width, scale = 2**bits, 2.0**64
        implied: dict[int, float] = {}
        for j in range(width):
            stay = float(table._thresholds[start + j]) / scale
            own, other = table._pairs[2 * (start + j)], table._pairs[2 * (start + j) + 1]
            implied[own] = implied.get(own, 0.0) + stay / width
            implied[other] = implied.get(other, 0.0) + (1 - stay) / width
        for k, p in row:
            assert abs(implied.get(k, 0.0) - float(p)) < 1e-12, (i, k)


def test_exact_odds_of_classic_first_roll() -> None:
    """P(6, 5 and 4 among five dice) = 205/1296, whatever the cargo policy."""
    for bot in ("timid", "tip", "random"):
        odds = build_table(Rules(), make_policy(bot, Rules())).exact()
        assert odds.p_complete_by_roll[0] == Fraction(205, 1296)
        assert sum(odds.distribution.values()) == 1


def test_score_paths_end_turns_with_each_score() -> None:
    """Every reachable score has a legal engine path (bonus scores included)."""
    from shipcaptaincrew.engine import apply, initial_turn

    rules = Rules(same_roll_bonus=3)
    paths = score_paths(rules)
    assert set(paths) == {0, *range(2, 16)}
    for score, path in paths.items():
        t = initial_turn(rules)
        for a in path:
            t = apply(t, a)
        assert t.score == score and t.phase.value == "done"


def test_illegal_policy_is_refused() -> None:
    """A bot that answers with an action the engine does not allow is caught at build time."""
    from shipcaptaincrew.actions import RerollCargo

    class Cheat:
        name = "cheat"
        contextual = False

        def decide(self, turn, context):  # type: ignore[no-untyped-def]
            return ((RerollCargo(keep=6), Fraction(1)),)

    with pytest.raises(IllegalPolicyError, match="cheat"):
        build_table(Rules(), Cheat())


@pytest.mark.parametrize("variant", ["plain", "one_reroll", "no_reroll", "wild_captain"])
def test_roll_count_is_read_from_the_engine_chain(variant: str) -> None:
    """The sampler's step count is the longest path of the engine-derived chain: the most
    ``rolls_used`` of any turn state the engine reaches (three under every sheet)."""
    from shipcaptaincrew.solver import turn_graph

    rules = rules_of("classic", variant)
    table = build_table(rules, make_policy("random", rules))
    assert table.rolls == max(t.rolls_used for t in turn_graph(rules).states) == 3
    sample = table.sample(np.random.default_rng(0), 5_000)
    assert len(sample.summary()["p_complete_by_roll"]) == table.rolls
    assert set(np.unique(sample.completed_on)) <= set(range(table.rolls + 1))
