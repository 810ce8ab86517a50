"""Match solver benchmark: prints figures (never asserts on time).

Run: ``.venv/bin/python benchmarks/bench_match.py [--format first_to:50] [--decisions 2000]``

* the exact two-player match solve, cold (a fresh process, turn graph compiled first and timed
  apart, no cache), then loaded from the disk cache in a fresh process, then from memory;
* ``--decisions`` decisions of the ``optimal`` bot at states of real matches (played by the
  bot itself through the engine), each timed: the first visit of a position (its round tree
  is played once) and repeated visits; the median, the 99th percentile and the worst.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from shipcaptaincrew.bots import make_bot
from shipcaptaincrew.engine import apply, initial_state, is_chance, is_terminal, sample_chance
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.state import Phase

_CHILD = """
import sys, time
t0 = time.perf_counter()
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.solver.graph import turn_graph
from shipcaptaincrew.solver.match.advice import match_solution
rules = find_rules("classic").replace(format=sys.argv[1])
t1 = time.perf_counter(); turn_graph(rules); t2 = time.perf_counter()
sol = match_solution(rules, 2)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, sol.seconds, sol.iterations, sol.seat_win_probability[0])
"""


def _child(fmt: str, cache: str) -> list[float]:
    env = {**os.environ, "SCC_CACHE_DIR": cache}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, fmt], env=env, capture_output=True, text=True, check=True
    )
    return [float(x) for x in out.stdout.split()]


def _decisions(fmt: str, count: int) -> tuple[list[float], list[float]]:
    rules = find_rules("classic").replace(format=fmt)
    bot = make_bot("optimal")
    rng = random.Random(1)
    first: list[float] = []
    again: list[float] = []
    s = initial_state(rules, 2)
    while len(first) + len(again) < count:
        if is_terminal(s):
            s = initial_state(rules, 2)
        if is_chance(s):
            s = apply(s, sample_chance(s, rng))
            continue
        t = time.perf_counter()
        action = bot.choose(s, rng)
        first.append(time.perf_counter() - t)
        if s.phase is Phase.TURN:
            t = time.perf_counter()
            bot.choose(s, rng)
            again.append(time.perf_counter() - t)
        s = apply(s, action)
    return first, again


def _show(name: str, xs: list[float]) -> None:
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
    print(
        f"  {name:<28} n={len(xs):5d}  median {1e3 * statistics.median(xs):7.3f} ms  "
        f"p99 {1e3 * p99:7.3f} ms  worst {1e3 * xs[-1]:7.3f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--format", default="first_to:50")
    ap.add_argument("--decisions", type=int, default=2000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        imp, graph, solve, inner, its, p0 = _child(args.format, cache)
        print(f"two players, {args.format} (classic), exact:")
        print(f"  imports {imp:.3f} s, turn graph {graph:.3f} s")
        print(
            f"  cold solve            {solve:.3f} s  (the solver counts {inner:.3f} s; "
            f"{int(its)} policy rounds; seat 1 wins {p0:.9f})"
        )
        _, _, load, _, _, _ = _child(args.format, cache)
        print(f"  load from disk cache  {load:.3f} s")
        os.environ["SCC_CACHE_DIR"] = cache
        from shipcaptaincrew.solver.match.advice import match_solution

        match_solution(find_rules("classic").replace(format=args.format), 2)
        t = time.perf_counter()
        match_solution(find_rules("classic").replace(format=args.format), 2)
        print(f"  from memory           {1e6 * (time.perf_counter() - t):.1f} us")
        first, again = _decisions(args.format, args.decisions)
    print("optimal bot decisions in played matches:")
    _show("every decision, first ask", first)
    _show("a turn decision, asked again", again)


if __name__ == "__main__":
    main()
