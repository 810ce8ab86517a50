"""Solver benchmark: prints figures (never asserts on time).

Run: ``.venv/bin/python benchmarks/bench_solver.py [--turns 1000000] [--rounds 2000]``

* single-turn solve once the turn graph is compiled ("warm"): exact rationals and floats;
* the win-optimal equilibrium for N = 8 (with every tie-break sub-round 2..8) cold, cached in
  memory, and cached on disk (``$SCC_CACHE_DIR``, here a temporary directory);
* Monte Carlo in the same run: ``--turns`` turns (default 10^6) sampled from the compiled
  graph under the ``ev`` policy (every draw uses the engine's exact chance outcomes), and a
  smaller run through the engine itself (``apply``/``sample_chance``), with the ratio of each
  estimate to the exact figure and its standard error; then ``--rounds`` whole 8-player rounds
  played through the engine by the ``optimal`` bot against the equilibrium's seat odds.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from typing import Any

from shipcaptaincrew import apply, current_player, initial_state, sample_chance
from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.sim import reference
from shipcaptaincrew.solver import graph as graph_mod
from shipcaptaincrew.solver import odds as odds_mod
from shipcaptaincrew.solver import policies as policies_mod
from shipcaptaincrew.solver import policy_choices, turn_graph, turn_odds
from shipcaptaincrew.solver import rounds as rounds_mod

CLASSIC = find_rules("classic")
RULE_SETS = [
    ("classic", CLASSIC),
    ("half cargo", CLASSIC.replace(half_cargo=True)),
    ("wild captain", CLASSIC.replace(wild_captain=True)),
    ("cargo_rerolls=1, bonus 5", CLASSIC.replace(cargo_rerolls=1, same_roll_bonus=5)),
    ("ship-captain-crew", find_rules("ship-captain-crew")),
    # The largest turn graph the options allow (every assignment and keep choice at once):
    # the "any rule set" bound of the issue is checked against this one.
    (
        "wild+half cargo+bonus 3",
        CLASSIC.replace(wild_captain=True, half_cargo=True, same_roll_bonus=3),
    ),
]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def best_of(fn: Any, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_turns() -> None:
    print("== single-turn exact solve, warm (graph compiled and reduced; best of 5) ==")
    print(
        f"{'rules':28} {'nodes':>6} {'edges':>6} {'compile':>11} {'exact ev':>11} "
        f"{'float ev':>11} {'float win':>11}"
    )
    for name, rules in RULE_SETS:
        graph_mod._GRAPHS.pop(rules, None)
        t = time.perf_counter()
        g = turn_graph(rules)
        g.reduced()  # part of compiling: the exact ev solve works on the reduced graph
        compile_t = time.perf_counter() - t

        def exact(rules: Rules = rules) -> None:
            odds_mod._CACHE.clear()
            policies_mod._FIXED.clear()
            turn_odds(rules, "ev", exact=True)

        g_ev = [float(x) for x in g.scores]
        g_win = [1.0 if x >= 8 else 0.0 for x in g.scores]

        def float_ev(g: Any = g, r: list[float] = g_ev) -> None:
            g.evaluate(r)

        def float_win(g: Any = g, r: list[float] = g_win) -> None:
            g.evaluate_lex(r)

        print(
            f"{name:28} {len(g):6} {g.edges:6} {ms(compile_t)} {ms(best_of(exact))} "
            f"{ms(best_of(float_ev))} {ms(best_of(float_win))}"
        )


def bench_equilibrium(rules: Rules) -> None:
    print(f"\n== win-optimal equilibrium, N = 8, {rules} ==")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SCC_CACHE_DIR"] = tmp
        rounds_mod.clear_memory_cache()
        graph_mod._GRAPHS.clear()
        t = time.perf_counter()
        eq = rounds_mod.equilibrium(rules, 8)
        cold = time.perf_counter() - t
        t = time.perf_counter()
        rounds_mod.equilibrium(rules, 8)
        memory = time.perf_counter() - t
        rounds_mod.clear_memory_cache()
        t = time.perf_counter()
        rounds_mod.equilibrium(rules, 8)
        disk = time.perf_counter() - t
    print(
        f"cold (compile + sub-rounds 2..8): {ms(cold)}   memory cache: {ms(memory)}   "
        f"disk cache: {ms(disk)}   iterations: {eq.iterations}"
    )
    code = (
        "import time; t = time.perf_counter(); "
        "from shipcaptaincrew.rules import Rules; "
        "from shipcaptaincrew.solver import equilibrium; "
        f"equilibrium(Rules.from_str({str(rules)!r}), 8, use_disk=False); "
        "print(time.perf_counter() - t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    print(f"cold in a fresh process (imports included, numpy too): {ms(float(out))}")
    print(
        "seat win probability:",
        " ".join(f"{p:.5f}" for p in eq.seat_win_probability),
        f" sum - 1 = {sum(eq.seat_win_probability) - 1:+.1e}",
    )


def sample_from_graph(rules: Rules, policy: str, n: int, seed: int) -> tuple[float, float, float]:
    """Mean score, P(complete) and SE of the mean from ``n`` turns sampled on the graph."""
    import numpy as np

    g = turn_graph(rules)
    choice = policy_choices(rules, policy)
    rng = np.random.default_rng(seed)
    nodes = np.zeros(n, dtype=np.int64)
    kind = np.array(g.kind)
    complete = np.array([s.complete for s in g.states])
    score = np.array(g.score)
    cum = [np.cumsum(p) if p else None for p in g.fprobs]
    kids = [np.array(k, dtype=np.int64) for k in g.kids]
    while True:
        active = kind[nodes] != graph_mod.FINAL_NODE
        if not active.any():
            break
        idx = np.nonzero(active)[0]
        order = idx[np.argsort(nodes[idx], kind="stable")]
        vals = nodes[order]
        cuts = np.flatnonzero(np.diff(vals)) + 1
        for grp in np.split(order, cuts):
            u = int(nodes[grp[0]])
            if kind[u] == graph_mod.CHANCE_NODE:
                c = cum[u]
                assert c is not None
                pick = np.searchsorted(c, rng.random(len(grp)) * c[-1], side="right")
                nodes[grp] = kids[u][np.minimum(pick, len(c) - 1)]
            else:
                nodes[grp] = kids[u][choice[u]]
    s = score[nodes].astype(np.float64)
    return float(s.mean()), float(complete[nodes].mean()), float(s.std(ddof=1) / math.sqrt(n))


def engine_turns(rules: Rules, policy: str, n: int, seed: int) -> tuple[float, float, float]:
    """Mean score, P(complete) and SE of the mean from ``n`` turns played through the engine
    by the bot ``policy`` names (``ev``)."""
    played, completed_on = reference.engine_turns(rules, policy, n, seed)
    scores = played.tolist()
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1))
    return mean, int((completed_on != 0).sum()) / n, sd / math.sqrt(n)


def bench_monte_carlo(turns: int, engine_n: int) -> None:
    print(
        f"\n== Monte Carlo vs exact (policy ev): {turns} turns sampled on the compiled graph, "
        f"{engine_n} through the engine =="
    )
    print(
        f"{'rules':28} {'method':7} {'E[score]':>9} {'ratio':>9} {'(z)':>6} {'P(crew)':>9} "
        f"{'ratio':>9} {'time':>11}"
    )
    for name, rules in RULE_SETS:
        exact = turn_odds(rules, "ev")
        for method, fn, n in (
            ("graph", sample_from_graph, turns),
            ("engine", engine_turns, engine_n),
        ):
            t = time.perf_counter()
            mean, pc, se = fn(rules, "ev", n, 1)
            el = time.perf_counter() - t
            z = (mean - exact.expected_score) / se
            print(
                f"{name:28} {method:7} {mean:9.4f} {mean / exact.expected_score:9.5f} "
                f"{z:+6.2f} {pc:9.5f} {pc / exact.p_complete:9.5f} {ms(el)}"
            )
        print(
            f"{'':28} {'exact':7} {exact.expected_score:9.4f} {'':9} {'':6} {exact.p_complete:9.5f}"
        )


def bench_rounds(rules: Rules, n_players: int, games: int) -> None:
    from shipcaptaincrew.bots import make_bot

    r = rules.replace(starter="chosen")
    eq = rounds_mod.equilibrium(r, n_players)
    bot = make_bot("optimal")
    rng = random.Random(5)
    wins = [0] * n_players
    t = time.perf_counter()
    for _ in range(games):
        s = initial_state(r, n_players, starter=0)
        while not s.is_over:
            p = current_player(s)
            s = apply(s, sample_chance(s, rng) if p == -1 else bot.choose(s, rng))
        assert s.winner is not None
        wins[s.winner] += 1
    el = time.perf_counter() - t
    print(
        f"\n== {games} rounds of {n_players} through the engine, everyone 'optimal' ({ms(el)}) =="
    )
    for i, p in enumerate(eq.seat_win_probability):
        f = wins[i] / games
        se = math.sqrt(p * (1 - p) / games)
        print(
            f"seat {i + 1}: exact {p:.5f}  simulated {f:.5f}  ratio {f / p:.4f}  "
            f"z {(f - p) / se:+.2f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--turns", type=int, default=1_000_000)
    ap.add_argument("--engine-turns", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=2000)
    a = ap.parse_args()
    bench_turns()
    bench_equilibrium(CLASSIC)
    bench_equilibrium(CLASSIC.replace(wild_captain=True))
    bench_equilibrium(RULE_SETS[-1][1])
    bench_monte_carlo(a.turns, a.engine_turns)
    bench_rounds(CLASSIC, 8, a.rounds)


if __name__ == "__main__":
    main()
