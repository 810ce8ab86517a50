"""How the match-playing ``optimal`` bot fares: win rates in simulation with 95 % intervals.

Run: ``.venv/bin/python benchmarks/match_winrates.py [--matches 300] [--formats ...]``

For every format and seat count 2..8, one ``optimal`` seat plays against a table of
``optimal:round`` (the round-maximiser) and against a table of ``ev`` (the ``hard`` bot),
under the classic rules with the roll-off for the starter (so no seat has the start for
free).  Each row prints the ``optimal`` seat's win rate with its 95 % (Wilson) interval and
the fair share 1/n -- what any seat of an all-alike table wins.  ``optimal`` is at least as
good as the table where the interval reaches the fair share or lies above it.  Where the
exact match solver does not reach (the tournament, sessions, tables beyond
:data:`~shipcaptaincrew.solver.match_model.MAX_WORK`), ``optimal`` plays the round as
``optimal:round`` does, which the "exact" column says.
"""

from __future__ import annotations

import argparse
import time

from shipcaptaincrew.engine import check_players
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.sim.run import simulate
from shipcaptaincrew.solver import SolverError
from shipcaptaincrew.solver.match_model import MatchModel
from shipcaptaincrew.solver.policies import SEAT_KINDS, parse_policy

FORMATS = ("single", "rounds:3", "first_to:21", "wins:2", "tournament")
OPPONENTS = ("optimal:round", "ev")


def _exact(rules_fmt: str, players: int) -> str:
    rules = find_rules("classic").replace(format=rules_fmt)
    if rules.format.kind.value in ("single",):
        return "round"  # one round: the match is the round
    try:
        MatchModel(rules, (parse_policy("optimal", allow=SEAT_KINDS),) * players)
    except SolverError:
        return "no"
    return "yes"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=300, help="matches per line-up")
    ap.add_argument("--formats", default=",".join(FORMATS))
    ap.add_argument("--players", default="2,3,4,5,6,7,8")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    start = time.perf_counter()
    print(
        f"{'format':<12} {'n':>2} {'exact':>5}  {'vs':<14} {'optimal wins':>12}  95 % interval"
        "   fair"
    )
    for fmt in args.formats.split(","):
        rules = find_rules("classic").replace(format=fmt)
        for n in (int(x) for x in args.players.split(",")):
            try:
                check_players(rules, n)
            except ValueError as e:
                print(f"{fmt:<12} {n:>2}  not played: {e}")
                continue
            exact = _exact(fmt, n)
            for opp in OPPONENTS:
                bots = ["optimal", *[opp] * (n - 1)]
                res = simulate(rules, bots, args.matches, seed=args.seed, workers=args.workers)
                row = res.summary()["bots"]["optimal"]
                lo, hi = row["ci95"]
                flag = "" if hi >= 1 / n else "  WORSE"
                print(
                    f"{fmt:<12} {n:>2} {exact:>5}  {opp:<14} {row['win_rate']:>12.3f}  "
                    f"[{lo:.3f}, {hi:.3f}]  {1 / n:.3f}{flag}",
                    flush=True,
                )
    print(f"({args.matches} matches per line-up, {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
