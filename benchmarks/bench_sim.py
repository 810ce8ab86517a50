"""Benchmark of the vectorised simulator.  Prints figures; asserts nothing.

Measured in one run, so the ratios compare like with like on this machine:

* turns per second of the vectorised sampler against a plain Python loop over the engine
  (``sample_chance`` + ``apply`` + the bot's ``choose`` for every roll; target >= 100x);
* against the bare cost of drawing the same number of dice with NumPy
  (``Generator.integers(1, 7, int8)`` for E[dice per turn] x turns; target <= 3x that floor);
* memory: ``--turns`` turns (default 10**8) in chunks of 10**6, peak RSS (target < 1 GiB);
* matches per second of whole matches for a few formats (the engine plays every round);
* whole matches on the step tables (:mod:`shipcaptaincrew.sim.steps.fast`) against the engine loop
  in the same run, 4 players ``rounds:5`` (target >= 100,000/s for ``ev``/``threshold:T``,
  >= 20,000/s for ``optimal``, the match-optimal bot): the first batch (the engine fills the
  tables as steps come, and the match bot's positions are worked out as they come), the next
  batch of new matches, and the first batch again (every step known: the loop alone);
  ``optimal:round`` is the round-maximiser;
* whole runs of up to a million matches from a cold start, each in a fresh process (the
  tables filled during the run): what a sweep of that many matches per configuration costs;
* common random numbers: two cells that differ in seat 0's bot, same seed -- how often seat 1
  scores the same in round 1, and the variance of a paired difference against an unpaired one;
* building the turn tables: the solver's turn graph compiled cold (the one enumeration of the
  engine's turn, shared with the solver), then a bot folded into it, per bot.

Run:  .venv/bin/python benchmarks/bench_sim.py [--turns 100000000] [--quick]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

import numpy as np

from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.sim.match import MatchRunner
from shipcaptaincrew.sim.policy import make_policy
from shipcaptaincrew.sim.reference import engine_turns
from shipcaptaincrew.sim.run import simulate, simulate_turns
from shipcaptaincrew.sim.steps import fast_refusal, match_table
from shipcaptaincrew.sim.steps.fast import fast_matches
from shipcaptaincrew.sim.tables import build_table
from shipcaptaincrew.solver import ContestView, turn_graph
from shipcaptaincrew.solver import graph as graph_mod


def best_of(repeat: int, fn: object) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return min(times)


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def turns_section(quick: bool) -> None:
    print("== turns per second (one core) ==")
    n_vec = 1_000_000
    n_py = 5_000 if quick else 20_000
    for preset, changes, bot in [
        ("classic", {}, "tip"),
        ("classic", {}, "ev"),
        ("ship-captain-crew", {"wild_captain": True}, "tip"),
        ("classic", {"half_cargo": True, "wild_captain": True}, "random"),
    ]:
        rules = find_rules(preset).replace(**changes)
        table = build_table(rules, make_policy(bot, rules))
        dice = float(table.exact().expected_dice)
        rng = np.random.default_rng(1)
        table.sample_scores(rng, 10_000)  # warm up
        t_vec = best_of(3, lambda t=table, g=rng: t.sample_scores(g, n_vec))
        t_full = best_of(3, lambda t=table, g=rng: t.sample(g, n_vec))
        n_dice = round(dice * n_vec)
        t_floor = best_of(3, lambda g=rng, k=n_dice: g.integers(1, 7, size=k, dtype=np.int8))
        t0 = time.perf_counter()
        engine_turns(rules, bot, n_py, seed=1)
        t_py = (time.perf_counter() - t0) / n_py * n_vec
        print(
            f"{rules!s:45} {bot:7} E[dice]={dice:5.2f}  vectorised {n_vec / t_vec / 1e6:6.1f} M"
            f" turns/s (with completion stats {n_vec / t_full / 1e6:5.1f} M)  engine loop "
            f"{n_vec / t_py / 1e3:6.1f} k turns/s  speed-up x{t_py / t_vec:7.0f}  "
            f"vs dice floor x{t_vec / t_floor:4.2f}"
        )


def memory_section(turns: int) -> None:
    print(f"== memory: {turns:,} turns with simulate_turns (chunks of 1,000,000) ==")
    rules = find_rules("classic")
    exact = float(build_table(rules, make_policy("tip", rules)).exact().expected_score)
    before = peak_rss_mib()
    t0 = time.perf_counter()
    out = simulate_turns(rules, "tip", turns, seed=2026)
    dt = time.perf_counter() - t0
    print(
        f"{turns:,} turns in {dt:.1f} s ({turns / dt / 1e6:.1f} M turns/s, with completion "
        f"stats); mean score {out['expected_score']:.5f} +- {out['expected_score_se']:.5f} "
        f"(exact {exact:.5f}); peak RSS {peak_rss_mib():.0f} MiB (before {before:.0f} MiB; "
        "target < 1024 MiB)"
    )


def matches_section(quick: bool) -> None:
    print("== whole matches per second (one core, engine plays every round) ==")
    n = 500 if quick else 2_000
    for preset, fmt, bots in [
        ("classic", None, ["tip", "ev"]),
        ("classic", None, ["tip", "ev", "timid", "optimal"]),
        ("ship-captain-crew", None, ["tip", "ev", "timid"]),
        ("skip-kaptein-mannskap", None, ["tip", "ev", "timid"]),
        ("classic", "rounds:5", ["tip", "ev", "timid"]),
        ("classic", "tournament", ["tip"] * 6),
    ]:
        rules = find_rules(preset)
        if fmt:
            rules = rules.replace(format=fmt)
        runner = MatchRunner(rules, bots, np.random.default_rng(3))
        runner.run(50)  # build the tables first
        t0 = time.perf_counter()
        out = runner.run(n)
        dt = time.perf_counter() - t0
        print(
            f"{rules!s:45} {','.join(bots):26} {n / dt:8.0f} matches/s "
            f"({out['rounds'].mean():.2f} rounds/match)"
        )


def fast_section(quick: bool) -> None:
    print("== whole matches: step tables against the engine loop (one core, 4 players) ==")
    n = 20_000 if quick else 100_000
    n_loop = 300 if quick else 1_000
    rules = find_rules("classic").replace(format="rounds:5")
    for bot in ("ev", "threshold:7", "optimal:round", "optimal"):
        bots = [bot] * 4
        runner = MatchRunner(rules, bots, np.random.default_rng(3))
        runner.run(20)  # the turn tables first
        size = n_loop // 10 if bot == "optimal" else n_loop  # its loop is slow
        t0 = time.perf_counter()
        runner.run(size)
        loop = size / (time.perf_counter() - t0)
        refusal = fast_refusal(rules, bots)
        if refusal is not None:
            # Said, not hidden: this line-up plays through the engine loop only.
            print(f"{rules!s:40} {bot:12} engine loop {loop:7.0f}/s  tables: {refusal.value}")
            continue
        rates = []
        for first in (0, n, 0):
            t0 = time.perf_counter()
            fast_matches(rules, bots, 1, first, n)
            rates.append(n / (time.perf_counter() - t0))
        table = match_table(rules, bots)
        print(
            f"{rules!s:40} {bot:12} engine loop {loop:7.0f}/s  tables: first {n:,} "
            f"{rates[0]:8.0f}/s, next {n:,} {rates[1]:8.0f}/s, first again {rates[2]:8.0f}/s "
            f"(x{rates[2] / loop:.0f}; {len(table.nodes.states):,} states, {table.rows.n_steps:,} steps)"
        )


def _cold_run(bot: str, matches: int, engine_loop: bool) -> tuple[float, str]:
    """Seconds for ``matches`` matches of four ``bot`` in a fresh process, and the path."""
    code = (
        "import time; from shipcaptaincrew.rules import find_rules; "
        "from shipcaptaincrew.sim.run import simulate; "
        "r = find_rules('classic').replace(format='rounds:5'); t0 = time.perf_counter(); "
        f"out = simulate(r, [{bot!r}] * 4, {matches}, seed=1, engine_loop={engine_loop}); "
        "print(time.perf_counter() - t0, out.path)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds, path = done.stdout.split(maxsplit=1)
    return float(seconds), path.strip().split(":")[0]


def cold_section(quick: bool) -> None:
    """Whole runs from a cold start, the step tables filled as the run goes, in a fresh
    process each: what a sweep of that many matches per configuration costs, against the
    engine's own match loop (a fresh process too, fewer matches) in the same run."""
    print("== whole runs from a cold start (fresh process, one core, 4 players rounds:5) ==")
    runs = [  # (bot, matches on the tables, matches in the engine loop)
        ("ev", 1_000_000, 2_000),
        ("threshold:7", 1_000_000, 2_000),
        ("optimal", 1_000_000, 300),
    ]
    if quick:
        runs = [("ev", 200_000, 500), ("optimal", 100_000, 100)]
    for bot, matches, baseline in runs:
        loop, _ = _cold_run(bot, baseline, engine_loop=True)
        dt, path = _cold_run(bot, matches, engine_loop=False)
        print(
            f"{bot:12} {matches:>9,} matches in {dt:6.1f} s: {matches / dt:8,.0f} matches/s "
            f"({path}); engine loop {baseline / loop:6,.0f}/s (x{loop / baseline * matches / dt:,.0f}; "
            "imports and process start not counted)"
        )


def pairing_section(quick: bool) -> None:
    print("== common random numbers: cells differing in seat 0's bot, same seed ==")
    n = 5_000 if quick else 20_000
    rules = find_rules("classic").replace(format="rounds:3")
    a = simulate(rules, ["ev", "tip", "tip"], n, seed=3)
    b = simulate(rules, ["threshold:7", "tip", "tip"], n, seed=3)
    c = simulate(rules, ["threshold:7", "tip", "tip"], n, seed=4)
    first = [r.per_round["round_scores"][:, 0, 1] for r in (a, b, c)]
    for name in ("won", "total"):
        x, y, z = (r.stat(name)[:, 0].astype(float) for r in (a, b, c))
        print(
            f"seat 0 {name:5}: Var(paired diff) {np.var(x - y):.4f}, Var(unpaired diff) "
            f"{np.var(x - z):.4f} (variance reduction x{np.var(x - z) / np.var(x - y):.1f})"
        )
    print(
        f"seat 1 scores the same in round 1: paired {float((first[0] == first[1]).mean()):.1%}, "
        f"unpaired {float((first[0] == first[2]).mean()):.1%} of {n:,} matches"
    )


def tables_section() -> None:
    print("== building turn tables (best of 3; the graph compile is cold) ==")
    classic = find_rules("classic")
    views = [ContestView(4, 0, 2, 1)] + [ContestView(4, m, 1, 1) for m in (5, 7, 9)]
    for rules in [
        classic,
        classic.replace(half_cargo=True),
        classic.replace(wild_captain=True),
        classic.replace(wild_captain=True, half_cargo=True, same_roll_bonus=3),
    ]:
        graph_mod._GRAPHS.pop(rules, None)
        t0 = time.perf_counter()
        turn_graph(rules)
        cells = [f"{rules!s:58} graph {1000 * (time.perf_counter() - t0):6.1f} ms"]
        for bot in ("tip", "ev", "random"):
            p = make_policy(bot, rules)
            build_table(rules, p)  # the ev choices are solved once, outside the timing
            t = best_of(3, lambda r=rules, q=p: build_table(r, q))
            cells.append(f"{bot} {1000 * t:6.1f} ms")
        opt = make_policy("optimal", rules, 4)
        for v in views:
            build_table(rules, opt, v)
        t = best_of(3, lambda r=rules, q=opt: [build_table(r, q, v) for v in views])
        cells.append(f"optimal, 4 views {1000 * t:6.1f} ms")
        print("  ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--turns", type=int, default=100_000_000, help="turns for the memory check (default 10**8)"
    )
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument(
        "--only",
        choices=["fast", "cold", "pairing"],
        help="run one section (fast and cold: the whole-match figures)",
    )
    args = parser.parse_args()
    if args.only == "fast":
        fast_section(args.quick)
        return
    if args.only == "cold":
        cold_section(args.quick)
        return
    if args.only == "pairing":
        pairing_section(args.quick)
        return
    fast_section(args.quick)
    cold_section(args.quick)
    pairing_section(args.quick)
    tables_section()
    turns_section(args.quick)
    matches_section(args.quick)
    memory_section(args.turns)


if __name__ == "__main__":
    main()
