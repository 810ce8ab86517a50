"""The match section of ``docs/strategy.md``: the Markdown of :class:`~.findings.MatchFindings`.

Like :mod:`..report`, only formatting: every comparison in the prose is computed from the
findings.  Its picture (:data:`MATCH_FIGURES`) is drawn by :mod:`shipcaptaincrew.plots.strategy`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...facts import SESSION_ROUNDS
from .findings import OPPONENTS, MatchFindings

__all__ = ["MATCH_FIGURES", "match_markdown"]

#: The section's pictures: ``img/strategy_<name>.png``.
MATCH_FIGURES = ("match_rounds3",)

_NAMES = {
    "optimal:round": "the round-maximiser (`optimal:round`)",
    "ev": "best expected score (`ev`)",
    "threshold:7": "the sheets' tip (`threshold:7`)",
}


def _pp(x: float) -> str:
    """A worth in percentage points, signed; rounding-level values print as 0."""
    return "0.00" if abs(x) < 5e-7 else f"{100 * x:+.2f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out + [""]


def match_markdown(m: MatchFindings) -> str:
    """The section, as Markdown text."""
    keys = sorted({(w.players, w.format) for w in m.worth}, key=lambda k: (k[0], k[1]))
    by = {(w.players, w.format, w.opponent): w for w in m.worth}
    rows = [[str(n), f"`{fmt}`", *(_pp(by[n, fmt, o].worth) for o in OPPONENTS)] for n, fmt in keys]
    turns = [w for w in m.worth if w.format != "session"]  # a session's worth is its calls
    best = max(turns, key=lambda w: w.worth if w.opponent == "optimal:round" else -1.0)
    calls = [w for w in m.worth if w.format == "session"]
    session_note = (
        "  A session is decided by its calls more than by its turns: the `optimal` caller "
        "stops where that is worth more (always when it alone leads), every other policy plays "
        f"on to round {SESSION_ROUNDS}, where programs stop a session "
        f"({_pp(min(w.worth for w in calls))} to {_pp(max(w.worth for w in calls))} points)."
        if calls
        else ""
    )
    wins = [w for w in m.worth if w.format.startswith("wins:") and w.opponent == "optimal:round"]
    wins_note = (
        "  In `wins:N` a round won is the only way forward, so the round-maximiser already "
        "plays for the match (its worth is at most "
        f"{max(abs(w.worth) for w in wins) * 100:.3f} points there)."
        if wins
        else ""
    )
    last = {
        r.other: r.stand_from
        for r in m.rounds3
        if r.mine == 1 and r.posted is None and r.rolls_left == 1
    }
    level = last[0]
    behind = min(last)
    ahead = max(k for k, c in last.items() if c is not None and c < (level or 13))
    md = [
        "## Playing for the match",
        "",
        "Everything above plays for the round.  A match (`rounds:N`, `first_to:N`, `wins:N`) "
        "is won on the totals, and the best play then depends on the score of the match.  "
        "The match solver (`shipcaptaincrew.solver.match.solve`) solves every position of a "
        "match exactly -- the totals, the rounds played, the scores posted, the players to "
        "come -- by backward induction over rounds, with policy iteration where a round "
        "comes back (everyone fails, a tie for the round), and is checked against an exact "
        "walk of the engine's own matches and an independent backward induction over totals.",
        "",
        "### What knowing the match is worth",
        "",
        "One seat plays for the match (`optimal`, best-responding to the table); every "
        "other seat plays the policy of the column.  The figure is that seat's chance to win "
        "the match, averaged over every place in the first round's play order, less the fair "
        "share 1/n, in percentage points (exact):",
        "",
        *_table(
            ["players", "format", *(_NAMES[o] for o in OPPONENTS)],
            rows,
        ),
        f"Against the round-maximiser knowing the match is worth most in `{best.format}` "
        f"({best.players} players: {_pp(best.worth)} points).{wins_note}{session_note}  "
        "Beyond what the exact "
        "solver reaches (four or more players of a match, three of a long one) the `optimal` "
        "bot plays by an estimate (`shipcaptaincrew.solver.match.estimate`: this round exact, "
        "the later rounds with independent totals from the round equilibrium); "
        "`benchmarks/match_winrates.py` measures it in simulation with 95 % intervals, against "
        "the round-maximiser and `ev` up to eight players and against the exact player where "
        "one exists ([the figures](match-winrates.md)).",
        "",
        "### How the stand threshold moves with the score",
        "",
        f"Two players, `rounds:3`, the round's opener with one roll left: level before the "
        f"last round it stands from a cargo of {level}, like the round-maximiser; "
        f"{-behind} behind it stands only on {last[behind] or 'nothing (it always rerolls)'}; "
        f"{ahead} ahead already on {last[ahead]}.  A lead so large that every choice wins the "
        "match falls back to the round's own threshold (ties go to the round chance).  The "
        "whole table, for the opener and for the second player against a posted 0, 5 or 8, "
        "with one and two rolls left (`scc strategy --format rounds:3` prints it):",
        "",
        "![Match-optimal stand thresholds, rounds:3](img/strategy_match_rounds3.png)",
        "",
        "### Where the round-maximiser and the tips go wrong",
        "",
        "Last round of `rounds:3`, 11 against 14, the other posted 5, and a first roll that "
        "completes the crew with a cargo of 7: standing wins the round and loses the match "
        f"(match chance {100 * m.trailing_stand:.1f}%); rerolling the cargo wins the match "
        f"{100 * m.trailing_reroll:.1f}% of the time.  The round-maximiser "
        + ("stands." if m.trailing_round_plan_stands else "rerolls too.")
        + "  Over whole matches the round-maximiser and the sheets' tip lose the points of "
        "the table above to a player who plays for the match.",
        "",
    ]
    return "\n".join(md)
