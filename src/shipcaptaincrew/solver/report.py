"""``docs/strategy.md`` and its pictures, generated from the solver (never typed by hand).

Run ``scc report strategy`` to regenerate.  Every number in the report comes from the calls
shown next to it; the prose only states what the numbers say (the comparisons are computed).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..rules import Rules, find_rules
from .decisions import policy_choices
from .graph import turn_graph
from .odds import turn_odds
from .rounds import equilibrium
from .table import DecisionRow, decision_table

__all__ = ["VARIANTS", "plot_strategy", "write_report"]

#: The variants compared in the report (each one option changed from classic).
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("classic", {}),
    ("half cargo (000)", {"half_cargo": True}),
    ("bow to stern (000)", {"bow_to_stern": True}),
    ("wild captain (002)", {"wild_captain": True}),
    ("one cargo reroll (001)", {"cargo_rerolls": 1}),
    ("no cargo reroll", {"cargo_rerolls": 0}),
    ("same-roll bonus 5 (001)", {"same_roll_bonus": 5}),
    ("cargo roll-off ties (002)", {"tie_break": "cargo_rolloff"}),
    ("all fail carries pot (002)", {"all_fail": "carry_pot"}),
)


def _tiny(x: float) -> str:
    """A difference that floating point cannot tell from 0 prints as such (stable output)."""
    return "below 1e-12 (rounding only)" if abs(x) < 1e-12 else f"{x:.1e}"


def _signed(x: float) -> str:
    """``+1.234`` / ``-0.028``; a rounding-level value prints as an exact ``0.000``."""
    return "0.000" if abs(x) < 5e-13 else f"{x:+.3f}"


def _pct(p: float, digits: int = 2) -> str:
    return f"{100 * float(p):.{digits}f}%"


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_strategy(
    rules: Rules, rows: Sequence[DecisionRow], objective: str, players: int, path: Path
) -> None:
    """Heat map of the decision table (``scc strategy --plot``).

    ``ev``: stand / reroll by cargo and rolls left.  ``win``: the lowest cargo to stand on,
    by score to beat and players after, one panel per number of rolls left.
    """
    if not rows:
        raise ValueError(f"nothing to plot: under {rules} there is no cargo decision")
    plt = _plt()
    lefts = sorted({r.rolls_left for r in rows})
    if objective == "ev":
        cargos = sorted({c for r in rows for c in r.decisions})
        fig, ax = plt.subplots(figsize=(10, 1.4 + 1.1 * len(lefts)))
        grid: list[list[float]] = []
        for r in sorted(rows, key=lambda r: r.rolls_left):
            cells = []
            for j, c in enumerate(cargos):
                d = r.decisions.get(c, "")
                acts = d.split("/") if d else []
                cells.append(1.0 if acts == ["stand"] else 0.0 if acts == ["reroll"] else 0.5)
                label = "\n".join(a.replace("reroll:keep", "keep ") for a in acts)
                ax.text(j, len(grid), label, ha="center", va="center", fontsize=7)
            grid.append(cells)
        ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto", origin="lower")
        ax.set_xticks(range(len(cargos)), [str(c) for c in cargos])
        ax.set_yticks(range(len(lefts)), [f"{x} left" for x in lefts])
        ax.set_xlabel("cargo (green: stand, red: reroll both, yellow: depends on the pair)")
    else:
        fig, axes = plt.subplots(1, len(lefts), figsize=(6 * len(lefts), 4.2), squeeze=False)
        for ax, left in zip(axes[0], lefts):
            sel = [r for r in rows if r.rolls_left == left]
            ks = sorted({r.players_after for r in sel if r.players_after is not None})
            ms = sorted({r.score_to_beat for r in sel if r.score_to_beat is not None})
            grid = [[float("nan")] * len(ms) for _ in ks]
            for r in sel:
                assert r.players_after is not None and r.score_to_beat is not None
                sf = r.stand_from
                grid[ks.index(r.players_after)][ms.index(r.score_to_beat)] = (
                    13.0 if sf is None else float(sf)
                )
            im = ax.imshow(grid, cmap="viridis_r", vmin=2, vmax=13, aspect="auto", origin="lower")
            for a, row in enumerate(grid):
                for b, v in enumerate(row):
                    if v == v:  # not NaN
                        ax.text(
                            b,
                            a,
                            "-" if v >= 13 else str(int(v)),
                            ha="center",
                            va="center",
                            fontsize=8,
                            color="white" if v < 8 else "black",
                        )
            ax.set_xticks(range(len(ms)), [str(m) if m else "none" for m in ms])
            ax.set_yticks(range(len(ks)), [str(k) for k in ks])
            ax.set_xlabel("score to beat (posted by one player)")
            ax.set_ylabel("players after")
            ax.set_title(f"{left} roll{'s' if left != 1 else ''} left")
            fig.colorbar(im, ax=ax, label="stand on cargo >= (- = always reroll)")
    what = "best expected score" if objective == "ev" else f"best chance to win, {players} players"
    fig.suptitle(f"When to stand: {what} ({rules})")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out + [""]


def _reroll_gain(rules: Rules) -> dict[int, dict[int, float]]:
    """rolls left -> cargo -> expected score of rerolling (ev play after) minus the cargo."""
    graph = turn_graph(rules)
    choice = policy_choices(rules, "ev")
    e, _ = graph.evaluate([float(x) for x in graph.scores], choice)
    out: dict[int, dict[int, float]] = {}
    for i, s in enumerate(graph.states):
        if s.phase.value != "decide" or s.bonus or s.cargo_rerolls:
            continue
        acts = [str(a) for a in graph.actions[i]]
        reroll = e[graph.kids[i][acts.index("reroll")]]
        out.setdefault(s.rolls_left, {})[sum(s.cargo)] = reroll - sum(s.cargo)
    return out


def write_report(out: Path) -> Path:
    """Write ``strategy.md`` and ``img/strategy_*.png`` under ``out``; returns the .md path."""
    plt = _plt()
    img = out / "img"
    img.mkdir(parents=True, exist_ok=True)
    classic = find_rules("classic")
    md: list[str] = [
        "# Ship, Captain and Crew: exact odds and the best strategy",
        "",
        "*Generated by `scc report strategy` from the exact solver "
        "(`shipcaptaincrew.solver`); do not edit by hand.*",
        "",
        "Every figure below is exact (rational arithmetic for single turns, fixed points "
        "solved to 1e-12 for rounds) and comes from the rules engine itself: the solver "
        "walks the engine's legal actions and chance outcomes and never re-implements a rule.",
        "",
        "## The round model",
        "",
        "n seats play one turn each, in order.  The player in position i sees the table -- m, "
        "the highest score posted so far, and t, the number of players tied at it -- and "
        "knows k players come after.  Each player maximises their own probability of winning "
        "the round, knowing that everyone after plays the same way (subgame-perfect, solved "
        "by backward induction from the last seat).  A later higher score makes the table "
        "(score, 1), an equal one (m, t+1).  A player who finishes with x wins with "
        "probability P(nobody after beats x) x R(T, j), where T is the final size of the "
        "group tied at x and j the player's place in it (earlier tied players first, as play "
        "order is kept).  `tie_break=cargo_rolloff` is a fair lottery, R(T, j) = 1/T; "
        "`replay` is a smaller round of the same game among the tied players, so R(T, j) is "
        "seat j's win probability in a T-seat round under the same equilibrium (for T = n it "
        "feeds back into itself).  If everyone fails, a tie-break round and a main round "
        "under `all_fail=replay` are played again by the same seats; under "
        "`all_fail=carry_pot` the pot goes to the winner of the next round, whose starter "
        "moves by the rules' rotation.  The fixed points are solved by iteration to 1e-12.  "
        "The same chain with everyone on a fixed policy (`ev`, `threshold:T`) gives those "
        "policies' tables.",
        "",
    ]

    # -- completion odds ------------------------------------------------------------------
    exact = turn_odds(classic, "never", exact=True)
    md += [
        "## Completing ship, captain and crew",
        "",
        f"Classic rules: P(crew within 3 rolls) = {exact.p_complete} = "
        f"{float(exact.p_complete):.6f}.  By roll: "
        + ", ".join(f"roll {i}: {p} ({_pct(p)})" for i, p in enumerate(exact.p_complete_by_roll, 1))
        + ".",
        "",
    ]
    rows = []
    names, comp = [], []
    for name, opts in VARIANTS:
        r = classic.replace(**opts)
        o = turn_odds(r, "ev")
        names.append(name)
        comp.append(o.p_complete_by_roll)
        rows.append([name, *(_pct(p) for p in o.p_complete_by_roll), _pct(o.p_complete)])
    md += _table(["rules", "roll 1", "roll 2", "roll 3", "within 3 rolls"], rows)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    bottom = [0.0] * len(names)
    for i in range(3):
        vals = [c[i] for c in comp]
        ax.barh(names, vals, left=bottom, label=f"on roll {i + 1}")
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xlabel("probability of completing the crew")
    ax.invert_yaxis()
    ax.legend(loc="lower right")
    ax.set_title("Completion odds by roll (best-expected-score play)")
    fig.tight_layout()
    fig.savefig(img / "strategy_completion.png", dpi=110)
    plt.close(fig)
    md += ["![Completion by roll](img/strategy_completion.png)", ""]

    # -- score distributions --------------------------------------------------------------
    policies = ["never", "threshold:7", "ev", "threshold:8", "threshold:9"]
    odds = {p: turn_odds(classic, p) for p in policies}
    scores = sorted({s for o in odds.values() for s in o.distribution})
    md += [
        "## Score distribution per policy (classic)",
        "",
        "`never` stands on the first cargo; `threshold:T` rerolls both cargo dice while the "
        "cargo is below T (`threshold:7` is the sheets' tip); `ev` maximises the expected "
        "score.",
        "",
    ]
    md += _table(
        ["policy", "E[score]", *(str(s) for s in scores)],
        [
            [
                p,
                f"{odds[p].expected_score:.4f}",
                *(_pct(odds[p].distribution.get(s, 0.0), 1) for s in scores),
            ]
            for p in policies
        ],
    )
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / len(policies)
    for j, p in enumerate(policies):
        xs = [s + (j - len(policies) / 2 + 0.5) * width for s in scores]
        ax.bar(
            xs,
            [odds[p].distribution.get(s, 0.0) for s in scores],
            width=width,
            label=f"{p} (E={odds[p].expected_score:.3f})",
        )
    ax.set_xticks(scores)
    ax.set_xlabel("final score (0 = no crew)")
    ax.set_ylabel("probability")
    ax.legend()
    ax.set_title("Score distribution of one turn (classic)")
    fig.tight_layout()
    fig.savefig(img / "strategy_distribution.png", dpi=110)
    plt.close(fig)
    md += ["![Score distributions](img/strategy_distribution.png)", ""]

    # -- the tips ---------------------------------------------------------------------------
    gain = _reroll_gain(classic)
    ev_rows = decision_table(classic, objective="ev")
    ev_stand = {row.rolls_left: row.stand_from for row in ev_rows}
    md += [
        "## The sheets' tips against the exact numbers",
        "",
        "Expected gain of rerolling both cargo dice (then playing for the best expected "
        "score) over standing, by cargo and rolls left (classic):",
        "",
    ]
    cargos = sorted(gain[1])
    md += _table(
        ["rolls left", *(str(c) for c in cargos)],
        [[left, *(_signed(gain[left][c]) for c in cargos)] for left in sorted(gain)],
    )
    tip_e, ev_e = odds["threshold:7"].expected_score, odds["ev"].expected_score
    md += [
        '**"Reroll cargo at six or less" (000/003).**  With one roll left the best '
        f"expected-score play stands from {ev_stand.get(1)}; with two rolls left it stands "
        f"from {ev_stand.get(2)}.  The tip is "
        + ("right" if ev_stand.get(1) == 7 else "not exact")
        + " for the last roll, but with two rolls left a 7 is worth rerolling too "
        f"(gain {gain[2][7]:+.3f}) and an 8 is "
        + (
            f"worth standing on (gain {gain[2][8]:+.3f})"
            if gain[2][8] <= 0
            else f"worth rerolling (gain {gain[2][8]:+.3f})"
        )
        + f".  Over a whole turn the tip scores {tip_e:.4f} on average against "
        f"{ev_e:.4f} for the best play: {ev_e - tip_e:.4f} points "
        f"({_pct((ev_e - tip_e) / ev_e)}) short.",
        "",
        '**"Re-roll below 7, 7 is neutral" (002).**  With one roll left this is exactly '
        f"right: rerolling a 7 gains {_signed(gain[1][7])} (two dice average 7) and every cargo "
        "below 7 gains 7 minus the cargo.  With two rolls left it is wrong: the second "
        f"reroll is an option worth having, so a 7 gains {gain[2][7]:+.3f}, not 0.",
        "",
    ]
    # "With six players a cargo of 8 will rarely win"
    eq6 = equilibrium(classic, 6, "optimal")
    sc = list(eq6.scores)
    j8 = sc.index(8)
    first = eq6.g(0, 0, 0)[j8]
    # Averaged over every seat and table a final 8 actually meets.
    num = den = 0.0
    reach = _table_reach(eq6)
    for (i, m, t), pr in reach.items():
        g_it, d_it, _ = eq6.tables[(i, m, t)]
        num += pr * d_it[j8] * g_it[j8]
        den += pr * d_it[j8]
    avg8 = num / den if den else 0.0
    eq3 = equilibrium(classic, 3, "optimal")
    first3_9 = eq3.g(0, 0, 0)[sc.index(9)]
    md += [
        '**"With six players a cargo of 8 will rarely win; with three a 9 might be enough" '
        f"(002).**  In a six-player round with everyone playing to win, a first player who "
        f"ends on 8 wins {_pct(first)} of the time; averaged over every seat and table where "
        f"an 8 is actually posted it wins {_pct(avg8)}.  "
        + ("So the tip is right: an 8 rarely wins." if avg8 < 0.25 else "So the tip overstates it.")
        + f"  With three players a first player's 9 wins {_pct(first3_9)}.",
        "",
    ]
    # "Stand on 9 or better against a weak posted score": the thresholds the best play uses,
    # and what following the tip instead costs in win probability over the whole turn.
    graph_c = turn_graph(classic)
    tip9 = policy_choices(classic, "threshold:9")
    weak_rows = []
    weak_from: list[int] = []
    losses: list[float] = []
    for players in (2, 3, 4, 6):
        table = decision_table(classic, players=players)
        eq_p = equilibrium(classic, players, "optimal")
        for k in sorted({0, 1, players - 2}):
            if k > players - 2:
                continue
            position = players - 1 - k
            for beat in (4, 6):
                stands = {
                    row.rolls_left: row.stand_from
                    for row in table
                    if row.players_after == k and row.score_to_beat == beat
                }
                g = eq_p.g(position, beat, 1)
                best = graph_c.evaluate_lex(g)[0][0]
                tip = graph_c.evaluate(g, tip9)[0][0]
                losses.append(best - tip)
                weak_from += [13 if x is None else x for x in stands.values()]
                weak_rows.append(
                    [
                        players,
                        k,
                        beat,
                        *("never" if stands.get(left) is None else stands[left] for left in (1, 2)),
                        _pct(best),
                        _pct(tip),
                        f"{100 * (best - tip):.2f}",
                    ]
                )
    md += [
        '**"Stand on 9 or better if a weak opponent already posted a low score" (002).**  '
        "The lowest cargo the win-maximising player stands on when the best posted score is "
        "a weak 4 or 6 (one player at it), and the chance of winning the round from the start "
        "of the turn with the best play against the tip (stand on 9 or better, else reroll; "
        "the players after play to win):",
        "",
    ]
    md += _table(
        [
            "players",
            "players after",
            "score to beat",
            "stand from (1 roll left)",
            "stand from (2 rolls left)",
            "P(win) best",
            "P(win) tip",
            "loss (points)",
        ],
        weak_rows,
    )
    above9 = sum(1 for x in weak_from if x > 9)
    below9 = sum(1 for x in weak_from if x < 9)
    worst = max(range(len(losses)), key=lambda i: losses[i])
    md += [
        f"Of these {len(weak_from)} decisions (situation and rolls left) the best play stands "
        f"on less than 9 in {below9} and needs more than 9 in {above9}; it stands from exactly "
        f'9 in {len(weak_from) - below9 - above9}.  So "9 or better" rerolls cargos the '
        f"best play stands on in {below9} of {len(weak_from)}: it is too cautious, most of all "
        "for the last player, who only has to beat the posted score.  It costs "
        f"{100 * min(losses):.2f} to {100 * losses[worst]:.2f} percentage points of the chance "
        f"to win the round (worst: {weak_rows[worst][0]} players, {weak_rows[worst][1]} after, "
        f"{weak_rows[worst][2]} to beat).  Only with several players still to come does the "
        f"threshold climb to {max(weak_from)}.",
        "",
    ]

    # -- seats ----------------------------------------------------------------------------
    md += ["## Win probability by seat (classic)", ""]
    seat_rows = []
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for n in range(2, 9):
        eq = equilibrium(classic, n, "optimal")
        w = eq.seat_win_probability
        seat_rows.append(
            [n, *(f"{p:.4f}" for p in w), *([""] * (8 - n)), f"{(w[-1] - w[0]) / (1 / n):+.1%}"]
        )
        ax.plot(range(1, n + 1), [p * n for p in w], marker="o", label=f"{n} players")
    md += [
        "Everyone plays to win (the equilibrium above).  The last column is the last seat's "
        "edge over the first, relative to a fair share 1/n.  When everyone plays a fixed "
        "policy (`ev`, `threshold:T`) every seat wins exactly 1/n: the scores are then "
        "independent and identically distributed and ties are settled fairly.",
        "",
    ]
    md += _table(["players", *(f"seat {i}" for i in range(1, 9)), "last vs first"], seat_rows)
    dev = max(
        abs(p - 1 / n)
        for n in range(2, 9)
        for pol in ("ev", "threshold:7")
        for p in equilibrium(classic, n, pol).seat_win_probability
    )
    md += [
        f"(Largest deviation from 1/n under `ev` or `threshold:7`, N = 2..8: {_tiny(dev)}.)",
        "",
    ]
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xlabel("seat (play order)")
    ax.set_ylabel("win probability x n (1 = fair share)")
    ax.legend(ncol=2)
    ax.set_title("Going last is better: win probability by seat (everyone plays to win)")
    fig.tight_layout()
    fig.savefig(img / "strategy_seats.png", dpi=110)
    plt.close(fig)
    md += ["![Seat odds](img/strategy_seats.png)", ""]

    # -- thresholds -----------------------------------------------------------------------
    rows4 = decision_table(classic, players=4)
    plot_strategy(classic, rows4, "win", 4, img / "strategy_threshold.png")
    md += [
        "## How the winning threshold moves",
        "",
        "Lowest cargo to stand on for the win-maximising player in a four-player round, by "
        "the score to beat (posted by one player) and the number of players still to play "
        "(`-`: always reroll).  With nobody after, stand on anything that beats the table; "
        "each player still to come pushes the threshold up.  Where standing and rerolling "
        "win equally often (e.g. the last player when everyone before failed) the higher "
        "expected score decides.",
        "",
        "![Thresholds](img/strategy_threshold.png)",
        "",
    ]
    thr_rows = []
    for row in rows4:
        if row.score_to_beat in (0, 6, 8, 10):
            thr_rows.append(
                [
                    row.rolls_left,
                    row.players_after,
                    row.score_to_beat or "none",
                    row.stand_from if row.stand_from is not None else "never",
                ]
            )
    md += _table(["rolls left", "players after", "score to beat", "stand from"], thr_rows)

    # -- variants -------------------------------------------------------------------------
    md += ["## How each variant changes the odds", ""]
    var_rows = []
    e_vals = []
    no_edge: list[str] = []  # variants (with cargo choices) where seat 4 does not beat seat 1
    for name, opts in VARIANTS:
        r = classic.replace(**opts)
        o = turn_odds(r, "ev")
        eq = equilibrium(r, 4, "optimal")
        w = eq.seat_win_probability
        e_vals.append(o.expected_score)
        if opts.get("cargo_rerolls") != 0 and not w[-1] > w[0] + 1e-9:
            no_edge.append(name)
        var_rows.append(
            [
                name,
                _pct(o.p_complete),
                f"{o.expected_score:.4f}",
                f"{w[0]:.4f}",
                f"{w[-1]:.4f}",
                f"{eq.p_all_fail_per_round:.4g}",
            ]
        )
    md += _table(
        ["rules", "P(crew)", "E[score] (ev)", "4 players: seat 1", "seat 4", "P(all 4 fail)"],
        var_rows,
    )
    cargo_c = _mean_cargo(classic)
    cargo_b = _mean_cargo(classic.replace(bow_to_stern=True))
    flat = equilibrium(classic.replace(cargo_rerolls=0), 4).seat_win_probability
    md += [
        f"Collecting 1-2-3 instead of 6-5-4 does not change the completion odds, but the "
        f"first cargo averages {cargo_b:.4f} instead of {cargo_c:.4f} (on a completed crew): "
        "the dice left over from a completing roll lean away from the faces taken, low in the "
        "classic game and high when collecting from the bow.  Without cargo rerolls there is "
        "nothing to decide, so seeing the posted scores is worth nothing and every seat wins "
        f"the same (largest difference from 1/4: {_tiny(max(abs(p - 0.25) for p in flat))}).  "
        + (
            "Every other variant keeps the late seats' edge."
            if not no_edge
            else "No edge for the last seat under: " + ", ".join(no_edge) + "."
        ),
        "",
    ]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.barh([n for n, _ in VARIANTS], e_vals, color="tab:blue")
    ax.invert_yaxis()
    ax.set_xlabel("expected score of one turn (best-expected-score play)")
    ax.set_title("Variants")
    fig.tight_layout()
    fig.savefig(img / "strategy_variants.png", dpi=110)
    plt.close(fig)
    md += ["![Variants](img/strategy_variants.png)", ""]
    path = out / "strategy.md"
    path.write_text("\n".join(md))
    return path


def _mean_cargo(rules: Rules) -> float:
    """Mean score of a completed crew when standing on the first cargo (policy never)."""
    o = turn_odds(rules, "never")
    return float(sum(x * p for x, p in o.distribution.items()) / o.p_complete)


def _table_reach(eq: Any) -> dict[tuple[int, int, int], float]:
    """P(position i meets table (m, t)) in an equilibrium."""
    scores = eq.scores
    reach: dict[tuple[int, int], float] = {(0, 0): 1.0}
    out: dict[tuple[int, int, int], float] = {}
    for i in range(eq.players):
        nxt: dict[tuple[int, int], float] = {}
        for (m, t), r in reach.items():
            out[(i, m, t)] = r
            d = eq.tables[(i, m, t)][1]
            for x, p in zip(scores, d):
                if p:
                    st = (x, 1) if x > m else (m, t + 1) if x == m else (m, t)
                    nxt[st] = nxt.get(st, 0.0) + r * p
        reach = nxt
    return out
