"""The web load benchmark before and after: another revision's server against this tree's.

Checks out ``--base`` (a commit or tag; default ``0454d28``, main before the table redesign)
into a temporary git worktree, then runs ``bench_web.py``'s measurement against that
revision's server and against this tree's, alternately for ``--rounds`` rounds (so a load
that comes and goes on the machine falls on both), and prints each figure's median for both
and the ratio after / before.  Same interpreter, same packages, same load generator: only the
server's code differs.  The floor (the echo endpoint) is measured in each run too; its ratio
shows how much of a difference is the machine's.

    .venv/bin/python benchmarks/bench_web_compare.py                  # 500 players, 10 s
    .venv/bin/python benchmarks/bench_web_compare.py --base v0.1 -n 100 -s 20 --rounds 3

Prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import run
from served import server

ROOT = Path(__file__).resolve().parents[1]
#: Lower is better for these figures (latencies); higher for the rest (throughput).
LOWER_IS_BETTER = (
    "table p50",
    "table p99",
    "floor p50",
    "floor p99",
    "p99 / floor",
    "bytes a picture",
    "errors",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="0454d28", help="the revision to compare with")
    ap.add_argument("-n", "--players", type=int, default=500)
    ap.add_argument("-s", "--seconds", type=float, default=10.0)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--port", type=int, default=8766)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), args.base],
            check=True,
        )
        try:
            runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
            for r in range(args.rounds):
                for label, src in (("before", tree / "src"), ("after", None)):
                    print(f"\n== round {r + 1}, {label} ({args.base if src else 'this tree'})")
                    with server(args.port, src=src) as url:
                        figures = asyncio.run(run(url, args.players, args.seconds, args.think))
                    runs[label].append(figures)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
            )
    print(f"\n{args.players} players, {args.rounds} rounds of {args.seconds:.0f} s: medians")
    print(f"{'figure':<16} {'before':>10} {'after':>10} {'after/before':>13}")
    for key in runs["before"][0]:
        before = statistics.median(f[key] for f in runs["before"])
        after = statistics.median(f[key] for f in runs["after"])
        scale, unit = (1000, "ms") if key.endswith(("p50", "p99")) else (1, "")
        ratio = after / before if before else float("nan")
        better = "lower is better" if key in LOWER_IS_BETTER else "higher is better"
        print(
            f"{key:<16} {before * scale:>8.2f}{unit:>2} {after * scale:>8.2f}{unit:>2} "
            f"{ratio:>12.2f}x  ({better})"
        )


if __name__ == "__main__":
    main()
