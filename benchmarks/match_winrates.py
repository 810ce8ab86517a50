"""How the match-playing ``optimal`` bot fares: win rates in simulation with 95 % intervals.

Run: ``.venv/bin/python benchmarks/match_winrates.py [--matches 300] [--formats ...]``

For every format and seat count 2..8, one ``optimal`` seat plays against a table of
``optimal:round`` (the round-maximiser) and against a table of ``ev`` (the ``hard`` bot),
under the classic rules with the roll-off for the starter (so no seat has the start for
free).  Each row prints the ``optimal`` seat's win rate with its 95 % (Wilson) interval and
the fair share 1/n -- what any seat of an all-alike table wins.  ``optimal`` is at least as
good as the table where the interval reaches the fair share or lies above it.  The "exact"
column says how ``optimal`` plays: ``yes`` the exact match solver, ``est`` the estimate of
:mod:`shipcaptaincrew.solver.match.estimate` (tables beyond
:data:`~shipcaptaincrew.solver.match.model.MAX_WORK`), ``round`` one round (the match is the
round), ``no`` the round-maximiser (a format the match model does not follow).

``--estimate`` measures what the estimate costs where the exact player exists: one seat
plays by the estimate at a table of exact ``optimal`` players (the engine's own match loop,
bot by bot), so any shortfall from the fair share is the estimate's cost.
"""

from __future__ import annotations

import argparse
import csv
import random
import shlex
import sys
import time

from shipcaptaincrew import provenance
from shipcaptaincrew.bots.solver_bots import OptimalBot
from shipcaptaincrew.engine import (
    apply,
    check_players,
    current_player,
    initial_state,
    is_chance,
    is_terminal,
    sample_chance,
)
from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.sim.run import simulate, wilson
from shipcaptaincrew.solver import SolverError
from shipcaptaincrew.solver.evaluate import evaluate
from shipcaptaincrew.solver.match.advice import Estimate, has_match
from shipcaptaincrew.solver.match.estimate import ESTIMATED_FORMATS
from shipcaptaincrew.solver.match.model import BeyondExact
from shipcaptaincrew.solver.match.tournament import model_for
from shipcaptaincrew.solver.policies import SEAT_KINDS, parse_policy

FORMATS = ("single", "rounds:3", "first_to:21", "wins:2", "tournament", "session")
OPPONENTS = ("optimal:round", "ev")


def _exact(rules_fmt: str, players: int) -> str:
    rules = find_rules("classic").replace(format=rules_fmt)
    if not has_match(rules):
        return "round"  # one round: the match is the round
    try:
        model_for(rules, (parse_policy("optimal", allow=SEAT_KINDS),) * players)
    except BeyondExact:
        return "est" if rules.format.kind in ESTIMATED_FORMATS else "no"
    except SolverError:
        return "no"
    return "yes"


def exact_share(fmt: str, players: int, opponent: str) -> float | None:
    """The exact chance of the best reply to this table (``optimal`` at one seat, knowing the
    others play ``opponent``), the starter rolled for (each place of the first round's play
    order alike), where the exact solver answers; else None."""
    rules = find_rules("classic").replace(format=fmt)
    optimal = parse_policy("optimal", allow=SEAT_KINDS)
    field = parse_policy(opponent, allow=SEAT_KINDS)
    total = 0.0
    for place in range(players):
        lineup = tuple(optimal if q == place else field for q in range(players))
        try:
            total += evaluate(rules, lineup).seat_win_probability[place]
        except SolverError:
            return None
    return total / players


def _engine_wins(rules: Rules, bots: list[OptimalBot], matches: int, seed: int) -> int:
    """Matches the first seat wins, played roll by roll through the engine."""
    rng = random.Random(seed)
    won = 0
    for _ in range(matches):
        s = initial_state(rules, len(bots))
        while not is_terminal(s):
            if is_chance(s):
                s = apply(s, sample_chance(s, rng))
            else:
                s = apply(s, bots[current_player(s)].choose(s, rng))
        won += s.winner == 0
    return won


def estimate_cost(matches: int, seed: int, rows: list[dict[str, object]]) -> None:
    """One seat by the estimate at a table of exact players, where the exact solver reaches
    (its rows, table ``optimal``, added to ``rows``)."""
    print(f"{'format':<12} {'n':>2}  {'estimate wins':>13}  95 % interval   fair")
    for fmt, n in (("rounds:3", 2), ("first_to:21", 2), ("wins:2", 2), ("rounds:2", 3)):
        rules = find_rules("classic").replace(format=fmt)
        bots = [OptimalBot(estimate=Estimate.ALWAYS), *[OptimalBot() for _ in range(n - 1)]]
        won = _engine_wins(rules, bots, matches, seed)
        lo, hi = wilson(won, matches)
        flag = "" if hi >= 1 / n else "  WORSE"
        print(
            f"{fmt:<12} {n:>2}  {won / matches:>13.3f}  [{lo:.3f}, {hi:.3f}]  {1 / n:.3f}{flag}",
            flush=True,
        )
        rows.append(
            {
                "format": fmt,
                "players": n,
                "optimal_plays": "est",
                "table": "optimal",
                "matches": matches,
                "win_rate": won / matches,
                "ci95_low": lo,
                "ci95_high": hi,
                "fair_share": 1 / n,
            }
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=300, help="matches per line-up")
    ap.add_argument("--formats", default=",".join(FORMATS))
    ap.add_argument("--players", default="2,3,4,5,6,7,8")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--estimate", action="store_true", help="measure the estimate against the exact player"
    )
    ap.add_argument("--csv", help="also write the rows to this CSV file (with its provenance)")
    ap.add_argument(
        "--markdown",
        nargs="+",
        metavar=("OUT", "CSV"),
        help="write the page docs/match-winrates.md is, from CSV files written by --csv",
    )
    args = ap.parse_args()
    if args.markdown:
        write_markdown(args.markdown[0], args.markdown[1:])
        return
    rows: list[dict[str, object]] = []
    start = time.perf_counter()
    if args.estimate:
        estimate_cost(args.matches, args.seed, rows)
        print(f"({args.matches} matches per line-up, {time.perf_counter() - start:.0f} s)")
        if args.csv:
            _write_csv(args.csv, rows, args)
        return
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
                rows.append(
                    {
                        "format": fmt,
                        "players": n,
                        "optimal_plays": exact,
                        "table": opp,
                        "matches": args.matches,
                        "win_rate": row["win_rate"],
                        "ci95_low": lo,
                        "ci95_high": hi,
                        "fair_share": 1 / n,
                    }
                )
    print(f"({args.matches} matches per line-up, {time.perf_counter() - start:.0f} s)")
    if args.csv:
        _write_csv(args.csv, rows, args)


def _write_csv(path: str, rows: list[dict[str, object]], args: argparse.Namespace) -> None:
    """The rows, below the package's one provenance record (``# key: value`` lines, as every
    command writes a CSV file: :mod:`shipcaptaincrew.provenance`)."""
    record = provenance.record(
        shlex.join(["python", "benchmarks/match_winrates.py", *sys.argv[1:]]),
        rules="classic",
        seed=args.seed,
        bots=["optimal"] if args.estimate else ["optimal", *OPPONENTS],
        starter="roll-off",
        formats=sorted({str(r["format"]) for r in rows}),
        matches=args.matches,
    )
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write(provenance.csv_header(record))
        out = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["format"])
        out.writeheader()
        out.writerows(rows)


def _notes(src: str, text: list[str]) -> list[str]:
    """The lines under a table: what its file's provenance record says (the comment lines of
    a file written before the record, as they are)."""
    try:
        r = provenance.read(src)
    except ValueError:
        return [t[2:] for t in text if t.startswith("# ")]
    commit = "" if not r.get("commit") else f"; commit {str(r['commit'])[:7]}"
    return [
        f"shipcaptaincrew {r['version']}{commit}; rules {r['rules']}, starter by roll-off",
        f"seed {r['seed']}; command: {r['command']}",
    ]


_PLAYS = {
    "yes": "exact",
    "est": "estimate",
    "round": "one round",
    "no": "the round",
}


def write_markdown(out: str, sources: list[str]) -> None:
    """The documentation page of these measurements: one table per CSV file, its provenance
    (the comment lines) quoted above it."""
    lines = [
        "# How the match-playing bot fares in simulation",
        "",
        "Generated by `benchmarks/match_winrates.py --markdown` from the CSV files its runs "
        "wrote (`--csv`); the lines under each table say which version, seed and command.",
        "",
        "One seat plays `optimal` at a table where every other seat plays the policy of the "
        "column `table`; the starter is rolled for, so a seat of an all-alike table wins the "
        "fair share 1/n.  `plays` says how `optimal` plays there: **exact** (the match "
        "solver), **estimate** (a table too large for it: this round exact, the later rounds "
        "with independent totals), **one round** (the match is one round) or **the round** (a "
        "format the match model does not follow).  The interval is Wilson's 95 % interval; "
        "`optimal` is at least as good as the table wherever it reaches the fair share.  "
        "`best reply` is the exact chance of the best reply to that table where the solver "
        "answers (the mean over the places of the first round's play order): the solver knows "
        "the table's policies, the `optimal` bot does not -- it plays as if everyone played "
        "for the match -- so its sample lies at or below that figure, up to the noise.  "
        "Rows whose table is `optimal` (from `--estimate`) seat the estimate at a table of "
        "exact match-optimal players: what the estimate costs where the exact player exists.",
        "",
    ]
    for src in sources:
        with open(src, encoding="utf-8") as f:
            text = f.read().splitlines()
        notes = _notes(src, text)
        rows = list(csv.DictReader(t for t in text if not t.startswith("#")))
        lines += [
            "| format | n | plays | table | wins | 95 % interval | best reply | fair share | |"
        ]
        lines += ["|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            lo, hi, fair = float(r["ci95_low"]), float(r["ci95_high"]), float(r["fair_share"])
            verdict = "above" if lo > fair else "level" if hi >= fair else "**below**"
            # How this version plays it; a table of exact players is --estimate's.
            against_exact = r["table"] == "optimal"
            plays = "est" if against_exact else _exact(r["format"], int(r["players"]))
            exact = (
                exact_share(r["format"], int(r["players"]), r["table"])
                if plays in ("yes", "round") and not against_exact
                else None
            )
            lines.append(
                f"| `{r['format']}` | {r['players']} | {_PLAYS.get(plays, '')} | "
                f"`{r['table']}` | {float(r['win_rate']):.3f} | [{lo:.3f}, {hi:.3f}] | "
                f"{'' if exact is None else f'{exact:.4f}'} | {fair:.3f} | {verdict} |"
            )
        lines += ["", *(f"*{n}*  " for n in notes), ""]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines).rstrip() + "\n")


if __name__ == "__main__":
    main()
