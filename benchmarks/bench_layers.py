"""What each layer of the simulator's fast paths buys, at 10^4, 10^5 and 10^6 matches.

Prints figures; asserts nothing.  One set-up (classic rules, two players ``ev`` against
``tip``, ``rounds:3``: the issue's example), one core, every figure from the same run:

* **engine loop** -- :class:`~shipcaptaincrew.sim.match.MatchRunner`: every turn sampled from
  the bot's turn table, the engine playing everything between turns.  The baseline of every
  ratio.  Measured at 10^4 and 10^5 matches; at 10^6 it is *estimated* from the 10^5 rate (it
  costs the same per match however many are played: no table fills as it goes), and the
  line says so.
* **step tables** -- :mod:`shipcaptaincrew.sim.steps`: each distinct step played once by the
  engine, then looked up, stacked layer on layer, each line adding one to the line above:

  1. exact scores: the nodes hold the round's scores themselves (``scores_carried=False``),
     the format's decisions found like any keyed step;
  2. + carried scores: each match carries the round's scores, the nodes mark who posted
     (far fewer nodes and steps, :class:`~shipcaptaincrew.sim.steps.probes.PostedMark`).
     The tables as :func:`~shipcaptaincrew.sim.run.simulate` plays them.

A layer that buys less than 2x at 10^5 matches goes.  Gone, measured in the run that
measured the others (the first set-up here; x = over the line above it):

* a dense lookup of keyed steps by the order of the totals (one gather instead of a binary
  search, for the 16 orders of two players): x0.98 at 10^4, x0.82 at 10^5, x1.07 at 10^6;
  its steps are found in the sorted table like every other player count's;
* a dense lookup of the format's decision at a round's end by count and order of the totals
  (``DECISION_ROWS``): x0.99, x1.28 and x0.79; at four players ``rounds:5`` x0.79 at 10^4
  and x1.08 at 10^5 over carried scores; a decision is found as any keyed step.

Every step-table line starts cold (its tables empty, filled by the engine as the run meets
new steps), as a new configuration of a sweep would; what the runs share -- the solver's turn
graph and the bots' turn tables -- is built before any timing.  The ratio ``xN`` is against
the engine loop at the same number of matches; ``+xN`` against the line above.

Run:  .venv/bin/python benchmarks/bench_layers.py [--sizes 10000,100000,1000000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import shipcaptaincrew.sim.steps.table as table_module
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.sim.run import simulate
from shipcaptaincrew.sim.steps import MatchTable

RULES = find_rules("classic").replace(format="rounds:3")
BOTS = ["ev", "tip"]
#: Above this many matches the engine loop is estimated from its rate at this many.
LOOP_MEASURED = 100_000


@contextmanager
def layer(carried: bool) -> Iterator[None]:
    """The step tables with some layers off, cold: their cache emptied before and after."""
    table_module._CACHE.clear()
    try:
        # match_table() would pick carried scores itself where the rules allow them.
        table_module._CACHE[(RULES, tuple(BOTS))] = MatchTable(RULES, BOTS, scores_carried=carried)
        yield
    finally:
        table_module._CACHE.clear()


def seconds(run: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    run()
    return time.perf_counter() - t0


LAYERS = [  # (name, carried scores)
    ("step tables: exact scores", False),
    ("  + carried scores (as played)", True),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="matches per line")
    sizes = [int(x) for x in parser.parse_args().sizes.split(",")]
    # What every path shares, built outside the timing: turn graph, turn tables, policies.
    simulate(RULES, BOTS, 200, seed=0, engine_loop=True)
    simulate(RULES, BOTS, 200, seed=0)
    print(f"== what each layer of the fast paths buys ({RULES}, {','.join(BOTS)}, one core) ==")
    loop_rate = 0.0
    for n in sizes:
        if n <= LOOP_MEASURED:
            loop = seconds(lambda n=n: simulate(RULES, BOTS, n, seed=1, engine_loop=True))
            loop_rate, note = n / loop, "measured"
        else:
            loop, note = n / loop_rate, f"estimated from {LOOP_MEASURED:,}"
        print(f"{n:>9,} matches  engine loop {loop:8.2f} s  {n / loop:9,.0f}/s  ({note})")
        above = loop
        for name, carried in LAYERS:
            with layer(carried):
                dt = seconds(lambda n=n: simulate(RULES, BOTS, n, seed=1))
            print(
                f"{'':19}{name:38} {dt:8.2f} s  {n / dt:9,.0f}/s  x{loop / dt:6.1f}"
                f"  (+x{above / dt:5.2f})"
            )
            above = dt


if __name__ == "__main__":
    main()
