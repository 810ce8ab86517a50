"""The exact solver: published values, an independent brute force, Monte Carlo through the engine."""

from __future__ import annotations

import itertools
import math
import random
import zlib
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings

from shipcaptaincrew import (
    PRESETS,
    Roll,
    apply,
    initial_turn,
    is_chance,
    is_terminal,
    sample_chance,
)
from shipcaptaincrew.rules import AllFail, Rotation, Rules, TieBreak, find_rules
from shipcaptaincrew.solver import (
    ContestView,
    PositionNotReachableError,
    SolverError,
    UnknownPolicyError,
    advise,
    equilibrium,
    optimal_action,
    optimal_choices,
    policy_action,
    position_after_roll,
    turn_graph,
    turn_odds,
)
from shipcaptaincrew.solver import rounds as rounds_mod
from shipcaptaincrew.state import TurnPhase

from .strategies import rule_sets

CLASSIC = find_rules("classic")

#: One option changed from classic: every turn and round variant the engine supports.
VARIANTS = [
    CLASSIC.replace(half_cargo=True),
    CLASSIC.replace(bow_to_stern=True),
    CLASSIC.replace(wild_captain=True),
    CLASSIC.replace(wild_captain=True, wild_face=2),
    CLASSIC.replace(cargo_rerolls=1),
    CLASSIC.replace(cargo_rerolls=0),
    CLASSIC.replace(same_roll_bonus=4),
    CLASSIC.replace(tie_break="cargo_rolloff"),
    CLASSIC.replace(all_fail="carry_pot"),
]


# -- the published value ----------------------------------------------------------------------


def test_classic_completion_is_the_published_value() -> None:
    o = turn_odds(CLASSIC, "never", exact=True)
    assert o.p_complete == Fraction(42314697971, 78364164096)
    assert sum(o.p_complete_by_roll) == o.p_complete
    assert o.p_complete_by_roll[0] == Fraction(205, 1296)
    assert abs(turn_odds(CLASSIC).p_complete - 0.53998) < 1e-5


# -- an independent brute force (plain loops over dice; no engine, no solver) --------------


def _brute(
    required: tuple[int, int, int],
    limit: int | None,
    bonus: int,
    policy: str,
    half: bool = False,
) -> Fraction:
    """Expected score of one turn by enumeration, classic order and free set-aside rules.

    ``half``: a cargo reroll may keep one die and roll the other (half cargo).
    """
    faces = range(1, 7)

    def pair(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a <= b else (b, a)

    @cache
    def cargo_value(cargo: tuple[int, int], rolls_left: int, rerolls_left: int) -> Fraction:
        stand = Fraction(sum(cargo))
        if policy == "never" or rolls_left == 0 or rerolls_left == 0:
            return stand
        options = [stand]
        options.append(
            sum(
                (
                    cargo_value(pair(a, b), rolls_left - 1, rerolls_left - 1)
                    for a in faces
                    for b in faces
                ),
                Fraction(0),
            )
            / 36
        )
        if half:
            for keep in set(cargo):
                options.append(
                    sum(
                        (
                            cargo_value(pair(keep, d), rolls_left - 1, rerolls_left - 1)
                            for d in faces
                        ),
                        Fraction(0),
                    )
                    / 6
                )
        return max(options)

    @cache
    def turn_value(held: int, rolls_left: int) -> Fraction:
        if rolls_left == 0:
            return Fraction(0)
        total = Fraction(0)
        outcomes = list(itertools.product(faces, repeat=5 - held))
        for dice in outcomes:
            rest = list(dice)
            got = held
            while got < 3 and required[got] in rest:
                rest.remove(required[got])
                got += 1
            if got == 3:
                extra = bonus if held == 0 else 0
                r = 3 if limit is None else limit
                total += cargo_value(pair(rest[0], rest[1]), rolls_left - 1, r) + extra
            else:
                total += turn_value(got, rolls_left - 1)
        return total / len(outcomes)

    return turn_value(0, 3)


@pytest.mark.parametrize(
    "rules",
    [
        CLASSIC,
        CLASSIC.replace(cargo_rerolls=1),
        CLASSIC.replace(same_roll_bonus=3),
        CLASSIC.replace(bow_to_stern=True),
        CLASSIC.replace(half_cargo=True),
        CLASSIC.replace(half_cargo=True, cargo_rerolls=1),
    ],
    ids=str,
)
@pytest.mark.parametrize("policy", ["never", "ev"])
def test_expected_score_matches_brute_force(rules: Rules, policy: str) -> None:
    expected = _brute(
        rules.required_faces, rules.cargo_rerolls, rules.same_roll_bonus, policy, rules.half_cargo
    )
    assert turn_odds(rules, policy, exact=True).expected_score == expected


def test_known_ev_decisions() -> None:
    # With one roll left the cargo 7 is a true tie (stand); with two rolls left 7 rerolls.
    t = position_after_roll(CLASSIC, 0, (6, 5, 4, 3, 4), 1)
    assert t.cargo == (3, 4) and str(policy_action(CLASSIC, "ev", t)) == "reroll"
    t = position_after_roll(CLASSIC, 0, (6, 5, 4, 4, 4), 1)
    assert str(policy_action(CLASSIC, "ev", t)) == "stand"
    t = position_after_roll(CLASSIC, 2, (4, 3, 4), 2)
    assert t.rolls_left == 1 and str(policy_action(CLASSIC, "ev", t)) == "stand"
    t = position_after_roll(CLASSIC, 2, (4, 3, 3), 2)
    assert str(policy_action(CLASSIC, "ev", t)) == "reroll"


# -- Monte Carlo through the real engine --------------------------------------------------


def _play_turn(rules: Rules, policy: str, rng: random.Random) -> tuple[int, int]:
    """Play one turn through the engine: (final score, roll that completed the crew or 0)."""
    t = initial_turn(rules)
    completed_on = 0
    while not is_terminal(t):
        if is_chance(t):
            t = apply(t, sample_chance(t, rng))
        else:
            t = apply(t, policy_action(rules, policy, t))
        if t.complete and not completed_on:
            completed_on = t.rolls_used
    return t.score, completed_on


def _within_4_se(got: float, p: float, n: int) -> bool:
    """A sample frequency within 4 standard errors of p (plus one count for rare events)."""
    return abs(got - p) < 4 * math.sqrt(p * (1 - p) / n) + 1 / n


@pytest.mark.parametrize("rules", [*PRESETS.values(), *VARIANTS], ids=lambda r: str(r))
@pytest.mark.parametrize("policy", ["never", "ev", "threshold:8"])
def test_monte_carlo_agrees_with_exact(rules: Rules, policy: str) -> None:
    """Every figure of ``turn_odds`` against turns played through the engine itself."""
    rng = random.Random(zlib.crc32(f"{rules}|{policy}".encode()))
    n = 2000
    exact = turn_odds(rules, policy)
    runs = [_play_turn(rules, policy, rng) for _ in range(n)]
    mean = sum(s for s, _ in runs) / n
    var = sum((x - exact.expected_score) ** 2 * p for x, p in exact.distribution.items())
    assert abs(mean - exact.expected_score) < 4 * math.sqrt(var / n) + 1e-12
    assert _within_4_se(sum(1 for _, c in runs if c) / n, exact.p_complete, n)
    for roll in (1, 2, 3):
        got = sum(1 for _, c in runs if c == roll) / n
        assert _within_4_se(got, exact.p_complete_by_roll[roll - 1], n), roll
    seen = {s for s, _ in runs}
    assert seen <= set(exact.distribution), seen - set(exact.distribution)
    for score, q in exact.distribution.items():
        got = sum(1 for s, _ in runs if s == score) / n
        assert _within_4_se(got, q, n), score


# -- the round -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        CLASSIC,
        PRESETS["ship-captain-crew"],
        CLASSIC.replace(all_fail="carry_pot"),
        CLASSIC.replace(all_fail="carry_pot", rotation="right"),
        CLASSIC.replace(all_fail="carry_pot", rotation="none"),
        CLASSIC.replace(half_cargo=True),
    ],
    ids=str,
)
def test_seat_probabilities_sum_to_one(rules: Rules) -> None:
    for n in range(2, 9):
        eq = equilibrium(rules, n, "optimal", use_disk=False)
        assert abs(sum(eq.seat_win_probability) - 1) < 1e-9
        assert all(0 < p < 1 for p in eq.seat_win_probability)
        assert 0 <= eq.p_all_fail_per_round < 1


def test_fixed_policies_are_fair_and_optimal_favours_the_last_seat() -> None:
    for n in (2, 5):
        for pol in ("ev", "threshold:7", "never"):
            eq = equilibrium(CLASSIC, n, pol, use_disk=False)
            assert all(abs(p - 1 / n) < 1e-9 for p in eq.seat_win_probability)
        w = equilibrium(CLASSIC, n, "optimal", use_disk=False).seat_win_probability
        assert list(w) == sorted(w) and w[-1] > w[0]


def test_p_all_fail_is_the_power_of_the_turn_failure() -> None:
    fail = turn_odds(CLASSIC, "ev").distribution[0]
    assert equilibrium(CLASSIC, 3, "ev", use_disk=False).p_all_fail_per_round == pytest.approx(
        fail**3, rel=1e-12
    )


def test_last_player_plays_to_beat_the_table() -> None:
    # Last of two, 9 posted: stand on 10, reroll 8 (a tie would be replayed: worth about 1/2).
    t = position_after_roll(CLASSIC, 0, (6, 5, 4, 4, 6), 1)
    best = advise(t, posted=[9], players_after=0)[0]
    assert str(best.action) == "stand" and best.win_probability == pytest.approx(1.0)
    t = position_after_roll(CLASSIC, 0, (6, 5, 4, 4, 4), 1)
    assert str(advise(t, posted=[9], players_after=0)[0].action) == "reroll"
    # Standing on 8 below a 9 can never win.
    stand = [c for c in advise(t, posted=[9], players_after=0) if str(c.action) == "stand"]
    assert stand[0].win_probability == 0.0


def test_advice_matches_the_lookup_table_and_is_sorted() -> None:
    rng = random.Random(7)
    rules = CLASSIC.replace(half_cargo=True)
    graph = turn_graph(rules)
    decisions = [s for s in graph.states if s.phase is TurnPhase.DECIDE]
    for _ in range(30):
        t = rng.choice(decisions)
        posted = [rng.choice([0, 5, 7, 8, 9, 10]) for _ in range(rng.randint(0, 3))]
        after = rng.randint(0, 7 - len(posted))
        choices = advise(t, posted=posted, players_after=after)
        wins = [c.win_probability for c in choices]
        assert all(a >= b - 1e-12 for a, b in zip(wins, wins[1:]))
        n = len(posted) + 1 + after
        m = max(posted, default=0)
        tied = posted.count(m)
        if n > 1:
            act = optimal_action(rules, ContestView(n, m, tied, after), t)
            assert act == choices[0].action


def _play_match(rules: Rules, bots: list[str], rng: random.Random) -> int:
    from shipcaptaincrew import initial_state
    from shipcaptaincrew.bots import make_bot

    players = [make_bot(b) for b in bots]
    s = initial_state(rules, len(bots), starter=0)
    from shipcaptaincrew import current_player

    while not s.is_over:
        p = current_player(s)
        if p == -1:
            s = apply(s, sample_chance(s, rng))
        else:
            s = apply(s, players[p].choose(s, rng))
    assert s.winner is not None
    return s.winner


@pytest.mark.parametrize(
    "rules",
    [
        CLASSIC.replace(starter="chosen"),
        PRESETS["ship-captain-crew"].replace(starter="chosen", stakes="points"),
        CLASSIC.replace(starter="chosen", tie_break="cargo_rolloff"),
        CLASSIC.replace(starter="chosen", all_fail="carry_pot", rotation="right"),
        CLASSIC.replace(starter="chosen", half_cargo=True),
        CLASSIC.replace(starter="chosen", bow_to_stern=True),
        CLASSIC.replace(starter="chosen", cargo_rerolls=1, same_roll_bonus=3),
        CLASSIC.replace(starter="chosen", wild_captain=True),
    ],
    ids=str,
)
def test_equilibrium_matches_play_through_the_engine(rules: Rules) -> None:
    """Whole rounds (ties, replays, carried pots included) played by the engine, seat odds."""
    rng = random.Random(11)
    n, games = 3, 1500
    eq = equilibrium(rules, n, "optimal", use_disk=False)
    wins = [0] * n
    for _ in range(games):
        wins[_play_match(rules, ["optimal"] * n, rng)] += 1
    for seat in range(n):
        p = eq.seat_win_probability[seat]
        assert abs(wins[seat] / games - p) < 4 * math.sqrt(p * (1 - p) / games)


def test_optimal_is_never_worse_than_ev_against_the_same_field() -> None:
    rules = CLASSIC.replace(starter="chosen")
    games = 1500
    for seat in (0, 2):
        diff = []
        for g in range(games):
            mine = ["ev"] * 3
            mine[seat] = "optimal"
            a = _play_match(rules, mine, random.Random(g)) == seat
            b = _play_match(rules, ["ev"] * 3, random.Random(g)) == seat
            diff.append(int(a) - int(b))
        mean = sum(diff) / games
        sd = math.sqrt(sum((d - mean) ** 2 for d in diff) / (games - 1))
        assert mean > -4 * sd / math.sqrt(games) - 1e-12


# -- bad input, bounded work, caching -------------------------------------------------------


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(UnknownPolicyError, match="unknown policy 'greedy'"):
        turn_odds(CLASSIC, "greedy")
    with pytest.raises(UnknownPolicyError, match="optimal"):
        turn_odds(CLASSIC, "optimal")  # a turn alone has no table to win against
    with pytest.raises(UnknownPolicyError):
        equilibrium(CLASSIC, 3, "threshold:x")
    with pytest.raises(SolverError, match=r"players must be 1\.\.8"):
        equilibrium(CLASSIC, 9)
    t = position_after_roll(CLASSIC, 0, (6, 5, 4, 1, 2), 1)
    with pytest.raises(SolverError, match="13 is impossible"):
        advise(t, posted=[13], players_after=0)
    with pytest.raises(SolverError, match="at most 8"):
        advise(t, posted=[5, 5, 5], players_after=5)
    with pytest.raises(SolverError, match="players after"):
        advise(t, posted=[], players_after=-1)
    with pytest.raises(SolverError, match="nothing can be held before the first roll"):
        position_after_roll(CLASSIC, 1, (5, 4, 3, 2), 1)
    with pytest.raises(SolverError, match=r"rolls used must be 1\.\.3"):
        position_after_roll(CLASSIC, 0, (6, 5, 4, 3, 2), 4)
    with pytest.raises(ValueError, match="needs 3 dice"):
        position_after_roll(CLASSIC, 2, (4, 3), 2)
    with pytest.raises(SolverError, match="tied must be"):
        optimal_choices(CLASSIC, ContestView(3, 0, 2, 2))
    other = initial_turn(CLASSIC.replace(half_cargo=True))
    with pytest.raises(PositionNotReachableError):
        turn_graph(CLASSIC).node(other)


def test_a_fixed_point_that_does_not_converge_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    rounds_mod.clear_memory_cache()
    monkeypatch.setattr(rounds_mod, "MAX_ITERATIONS", 1)
    with pytest.raises(SolverError, match="did not converge in 1 iterations"):
        rounds_mod.equilibrium(CLASSIC.replace(same_roll_bonus=7), 2, use_disk=False)
    rounds_mod.clear_memory_cache()


def test_disk_cache_round_trips(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCC_CACHE_DIR", str(tmp_path))
    rules = CLASSIC.replace(cargo_rerolls=1)
    first = equilibrium(rules, 3)
    rounds_mod.clear_memory_cache()
    files = list(rounds_mod.cache_dir().glob("equilibrium-*.json"))
    assert files
    again = equilibrium(rules, 3)
    assert again is not first
    assert again.seat_win_probability == first.seat_win_probability
    assert again.g(2, 7, 1) == first.g(2, 7, 1)
    rounds_mod.clear_memory_cache()


def test_wild_captain_assignments_are_advised() -> None:
    rules = CLASSIC.replace(wild_captain=True)
    t = apply(initial_turn(rules), Roll((6, 1, 4, 1, 5)))
    assert t.phase is TurnPhase.ASSIGN
    choices = advise(t, posted=[7], players_after=1)
    assert {str(c.action) for c in choices} >= {"take:114", "take:654"}
    assert str(choices[0].action) == "take:114"  # ship and captain wild: cargo 5 + 6
    assert choices[0].expected_score == pytest.approx(11.0)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(rule_sets())
def test_any_rule_set_gives_consistent_odds(rules: Rules) -> None:
    o = turn_odds(rules, "ev", exact=True)
    assert sum(o.distribution.values()) == 1
    assert sum(o.p_complete_by_roll) == o.p_complete == 1 - o.distribution.get(0, Fraction(0))
    never = turn_odds(rules, "never", exact=True)
    assert never.p_complete == o.p_complete
    assert never.expected_score <= o.expected_score
    eq = equilibrium(rules, 2, use_disk=False)
    assert abs(sum(eq.seat_win_probability) - 1) < 1e-9
    # Three seats: every rule set is solved but two, which are refused by name.
    refused = {
        ("tie_break=round", "all_fail=carry_pot"): (
            rules.tie_break is TieBreak.ROUND and rules.all_fail is AllFail.CARRY_POT
        ),
        ("rotation=loser", "tie_break=no_winner"): (
            rules.rotation is Rotation.LOSER and rules.tie_break is TieBreak.NO_WINNER
        ),
    }
    try:
        eq3 = equilibrium(rules, 3, use_disk=False)
    except SolverError as e:
        named = [names for names, hit in refused.items() if hit]
        assert named and all(name in str(e) for name in named[0]), e
    else:
        assert not any(refused.values())
        assert abs(sum(eq3.seat_win_probability) - 1) < 1e-9


@pytest.mark.parametrize(
    "rules",
    [
        CLASSIC,
        CLASSIC.replace(half_cargo=True),
        CLASSIC.replace(wild_captain=True),
        CLASSIC.replace(cargo_rerolls=1, same_roll_bonus=2),
    ],
    ids=str,
)
def test_reduced_graph_gives_the_same_values_and_choices(rules: Rules) -> None:
    import numpy as np

    from shipcaptaincrew.solver.batch import evaluate_batch, evaluate_batch_nodes

    graph = turn_graph(rules)
    red, cls = graph.reduced()
    assert len(red) < len(graph) and len(cls) == len(graph)
    rng = np.random.default_rng(3)
    gs = rng.random((6, len(graph.scores)))
    gs[0] = np.round(gs[0] * 3)  # many exact ties
    v, dist, choice = evaluate_batch(graph, gs)
    v_full, dist_full, choice_full = evaluate_batch_nodes(graph, gs)
    assert np.allclose(v, v_full, atol=1e-13) and np.allclose(dist, dist_full, atol=1e-13)
    assert (choice == choice_full).all()
    for g in gs:
        a = graph.evaluate_lex(list(g))
        b = graph._evaluate_lex_nodes(list(g))
        assert a[2] == b[2] and max(abs(x - y) for x, y in zip(a[0], b[0])) < 1e-12


# -- an independent two-player round (plain loops; no engine, no solver) --------------------


@cache
def _roll_outcomes(held: int) -> tuple[tuple[int, int, int], ...]:
    """Rolling the free dice with ``held`` roles held: (roles held after, cargo sum, ways)."""
    required = (6, 5, 4)
    ways: dict[tuple[int, int], int] = {}
    for dice in itertools.product(range(1, 7), repeat=5 - held):
        rest = list(dice)
        got = held
        while got < 3 and required[got] in rest:
            rest.remove(required[got])
            got += 1
        key = (got, sum(rest) if got == 3 else 0)
        ways[key] = ways.get(key, 0) + 1
    return tuple((got, c, k) for (got, c), k in sorted(ways.items()))


def _best_response(g: dict[int, float]) -> tuple[float, dict[int, float]]:
    """Classic turn maximising E[g(score)], ties to the higher mean score: value, distribution.

    Written from the rules (6-5-4 in order, cargo = the other two dice, free cargo rerolls
    while rolls remain), independently of the engine and the solver.
    """
    two: dict[int, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        two[a + b] = two.get(a + b, 0) + 1
    Plan = tuple[float, float, dict[int, float]]  # (value, mean score, distribution)

    def mix(plans: list[tuple[float, Plan]]) -> Plan:
        dist: dict[int, float] = {}
        for w, (_, _, d) in plans:
            for x, p in d.items():
                dist[x] = dist.get(x, 0.0) + w * p
        return (sum(w * p[0] for w, p in plans), sum(w * p[1] for w, p in plans), dist)

    def better(a: Plan, b: Plan) -> Plan:
        if abs(a[0] - b[0]) <= 1e-12:
            return a if a[1] >= b[1] - 1e-12 else b
        return a if a[0] > b[0] else b

    @cache
    def cargo(c: int, rolls_left: int) -> Plan:
        stand: Plan = (g[c], float(c), {c: 1.0})
        if rolls_left == 0:
            return stand
        again = mix([(k / 36, cargo(s, rolls_left - 1)) for s, k in two.items()])
        return better(stand, again)  # stand first: it wins ties of both numbers

    @cache
    def turn(held: int, rolls_left: int) -> Plan:
        if rolls_left == 0:
            return (g[0], 0.0, {0: 1.0})
        total = 6 ** (5 - held)
        return mix(
            [
                (k / total, cargo(c, rolls_left - 1) if got == 3 else turn(got, rolls_left - 1))
                for got, c, k in _roll_outcomes(held)
            ]
        )

    v, _, d = turn(0, 3)
    return v, d


@pytest.mark.parametrize("tie_break", ["cargo_rolloff", "replay"])
def test_two_player_equilibrium_matches_an_independent_computation(tie_break: str) -> None:
    scores = [0, *range(2, 13)]
    w = [0.5, 0.5]
    for _ in range(40):  # fixed point: ties (replay) and all-fail replays feed back

        def share(j: int, w: list[float] = w) -> float:
            return 0.5 if tie_break == "cargo_rolloff" else w[j]

        # Second player, table (m, 1) or (0, 1) after a failed first player.
        second: dict[int, tuple[float, dict[int, float]]] = {}
        for m in scores:
            g2 = {
                x: 1.0 if x > m else share(1) if x == m > 0 else w[1] if x == m == 0 else 0.0
                for x in scores
            }
            second[m] = _best_response(g2)
        g1 = {}
        for x in scores:
            d2 = second[x][1]
            beat = sum(p for y, p in d2.items() if y > x)
            tie = d2.get(x, 0.0)
            g1[x] = (1 - beat - tie) + tie * (share(0) if x > 0 else w[0])
        v1, d1 = _best_response(g1)
        v2 = sum(p * second[x][0] for x, p in d1.items())
        w = [v1, v2]
    eq = equilibrium(CLASSIC.replace(tie_break=tie_break), 2, use_disk=False)
    assert eq.seat_win_probability == pytest.approx(w, abs=1e-9)


@pytest.mark.parametrize(
    "rules",
    [
        CLASSIC.replace(wild_captain=True, half_cargo=True, same_roll_bonus=3),
        CLASSIC.replace(bow_to_stern=True, cargo_rerolls=1),
    ],
    ids=str,
)
def test_ev_choices_on_the_reduced_graph_are_the_full_graph_choices(rules: Rules) -> None:
    """The ev policy is maximised on the reduced graph; the full graph must agree exactly."""
    from shipcaptaincrew.solver import policy_choices

    graph = turn_graph(rules)
    values, full = graph.evaluate_exact([Fraction(x) for x in graph.scores])
    assert policy_choices(rules, "ev") == full
    assert turn_odds(rules, "ev", exact=True).expected_score == values[0]


def test_win_probabilities_never_leave_0_to_1() -> None:
    t = position_after_roll(CLASSIC, 0, (6, 5, 4, 3, 2), 1)  # alone: a crew is a win
    for c in advise(t, posted=[], players_after=0):
        assert 0.0 <= c.win_probability <= 1.0
    assert advise(t, posted=[], players_after=0)[0].win_probability == 1.0
