"""``scc odds``, ``scc strategy``, ``scc advise``, ``scc equilibrium`` and ``scc report strategy``.

Thin shells over :mod:`shipcaptaincrew.solver`: they read options, call the solver and print
Rich tables or JSON.  Bad input exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from ..facts import MAX_PLAYERS, MIN_PLAYERS, ROLLS
from .app import app
from .common import RulesOpt, SetOpt, fail, load_rules

report_app = typer.Typer(help="Regenerate the published reports (docs/*.md and their pictures).")
app.add_typer(report_app, name="report")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
_PLAYERS_HELP = f"Players in the round ({MIN_PLAYERS}..{MAX_PLAYERS})."


def _fmt(x: Any) -> str:
    return f"{float(x):.6f}"


@app.command()
def odds(
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    policy: Annotated[
        str, typer.Option("--policy", help="never, ev or threshold:T (reroll cargo below T).")
    ] = "ev",
    exact: Annotated[bool, typer.Option("--exact", help="Exact fractions p/q.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Exact odds of one turn: completion by roll, score distribution, expected score."""
    from ..solver import UnknownPolicyError, turn_odds

    r = load_rules(rules, settings)
    try:
        o = turn_odds(r, policy, exact=exact)
    except UnknownPolicyError as e:
        fail(e)
    data = o.to_json()
    if as_json:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console
    from rich.table import Table

    show: Callable[[Any], str] = str if exact else _fmt
    con = Console()
    t = Table(title=f"One turn under {r}, policy {o.policy}")
    t.add_column("quantity")
    t.add_column("probability / value", justify="right")
    for i, p in enumerate(data["p_complete_by_roll"], 1):
        t.add_row(f"crew completed on roll {i}", show(p))
    t.add_row(f"crew completed within {ROLLS} rolls", show(data["p_complete"]))
    t.add_row("expected score", show(data["expected_score"]))
    con.print(t)
    d = Table(title="Score distribution")
    d.add_column("score", justify="right")
    d.add_column("probability", justify="right")
    for k, v in data["distribution"].items():
        d.add_row(k, show(v))
    con.print(d)


@app.command()
def strategy(
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    players: Annotated[int, typer.Option("--players", help=_PLAYERS_HELP)] = 2,
    objective: Annotated[
        str, typer.Option("--objective", help="win (best chance to win) or ev (best score).")
    ] = "win",
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write a heat-map PNG of the table.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """The decision table: stand or reroll by cargo, rolls left, score to beat, players after."""
    from ..solver import SolverError
    from ..solver.table import decision_table

    r = load_rules(rules, settings)
    if objective not in ("win", "ev"):
        fail(f"unknown objective {objective!r}: use win or ev")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        fail(f"--players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    try:
        rows = decision_table(r, objective=objective, players=players)
    except SolverError as e:
        fail(e)
    if plot is not None:
        if plot.suffix.lower() != ".png":
            fail(f"--plot needs a .png file name, got {plot}")
        if not rows:
            fail(f"nothing to plot: under {r} no cargo can be rerolled, so there is no decision")
        from ..plots.strategy import plot_strategy

        try:
            plot_strategy(r, rows, objective, players, plot)
        except OSError as e:
            fail(f"cannot write {plot}: {e}")
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "rules": str(r),
                    "objective": objective,
                    "players": players,
                    "rows": [row.to_json() for row in rows],
                }
            )
        )
        return
    from rich.console import Console
    from rich.table import Table

    if not rows:
        typer.echo(f"No decisions under {r}: no cargo can be rerolled, so every cargo stands.")
        return
    cargos = sorted({c for row in rows for c in row.decisions})
    title = (
        f"Best expected score under {r}"
        if objective == "ev"
        else f"Win-maximising play, {players} players, under {r}"
    )
    t = Table(title=title + "  (S = stand, R = reroll, Kn = keep n, reroll the other)")
    t.add_column("rolls left", justify="right", overflow="fold")
    if objective == "win":
        t.add_column("players after", justify="right", overflow="fold")
        t.add_column("score to beat", justify="right", overflow="fold")
    for c in cargos:
        t.add_column(str(c), justify="center", overflow="fold")
    t.add_column("stand from", justify="right", overflow="fold")

    def short(a: str | None) -> str:
        if a is None:
            return ""
        return "/".join(
            "S" if x == "stand" else "R" if x == "reroll" else "K" + x[-1] for x in a.split("/")
        )

    for row in rows:
        cells = [str(row.rolls_left)]
        if objective == "win":
            cells += [str(row.players_after), str(row.score_to_beat or "-")]
        cells += [short(row.decisions.get(c)) for c in cargos]
        cells.append(str(row.stand_from) if row.stand_from is not None else "never")
        t.add_row(*cells)
    Console().print(t)
    if plot is not None:
        Console().print(f"heat map written to {plot}")


def _parse_held(text: str) -> int:
    from ..state import ROLE_NAMES

    t = text.strip().lower()
    if t in ("", "none", "-"):
        return 0
    names = [x.strip() for x in t.split(",") if x.strip()]
    for n in names:
        if n not in ROLE_NAMES:
            fail(f"--held: unknown role {n!r}; use ship, captain, crew (comma separated) or none")
    if tuple(names) != ROLE_NAMES[: len(names)]:
        fail(
            f"--held {text!r}: roles are held in order ship, captain, crew, "
            f"so {len(names)} held means {','.join(ROLE_NAMES[: len(names)])}"
        )
    return len(names)


def _parse_posted(text: str | None) -> list[int]:
    if text is None or not text.strip() or text.strip().lower() == "none":
        return []
    out = []
    for part in text.split(","):
        p = part.strip()
        try:
            out.append(int(p))
        except ValueError:
            fail(f"--posted: {p!r} is not a score (use numbers like 9,0,7)")
    return out


@app.command()
def advise(
    held: Annotated[
        str, typer.Option("--held", help="Roles held before the roll: ship,captain,crew or none.")
    ],
    roll: Annotated[str, typer.Option("--roll", help="Faces rolled now, e.g. 6531 or 6,5,3.")],
    rolls_used: Annotated[
        int, typer.Option("--rolls-used", help="Rolls used, this one included (1..3).")
    ],
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    posted: Annotated[
        str | None,
        typer.Option("--posted", help="Scores posted before you this round, e.g. 9,0,7."),
    ] = None,
    players_after: Annotated[
        int, typer.Option("--players-after", help="Players still to play after you.")
    ] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Every legal choice after this roll, with its win probability and expected score.

    When the roll leaves nothing to decide (the crew is not complete yet, or the turn is over)
    there is no choice: JSON ``best`` is null and ``choices`` is empty.
    """
    from ..dice import parse_faces
    from ..solver import advise as solver_advise
    from ..solver import position_after_roll

    r = load_rules(rules, settings)
    n_held = _parse_held(held)
    scores = _parse_posted(posted)
    try:
        faces = parse_faces(roll)
        turn = position_after_roll(r, n_held, faces, rolls_used)
        choices = solver_advise(turn, posted=scores, players_after=players_after)
    except ValueError as e:
        fail(e)
    position = {
        "held": list(turn.held_roles),
        "cargo": list(turn.cargo) if turn.complete else None,
        "rolls_used": turn.rolls_used,
        "rolls_left": turn.rolls_left,
        "phase": turn.phase.value,
        "posted": scores,
        "players_after": players_after,
    }
    data = {
        "rules": str(r),
        "position": position,
        "best": str(choices[0].action) if choices else None,
        "choices": [c.to_json() for c in choices],
    }
    if as_json:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console
    from rich.table import Table

    con = Console()
    held_txt = ", ".join(turn.held_roles) or "nothing"
    cargo_txt = f", cargo {turn.cargo[0]} + {turn.cargo[1]}" if turn.complete else ""
    con.print(
        f"After roll {turn.rolls_used}: held {held_txt}{cargo_txt}; "
        f"posted {scores or 'nothing'}; {players_after} to play after."
    )
    if not choices:
        if turn.phase.value == "done":
            con.print(f"No choice: the turn is over with score {turn.score}.")
        else:
            con.print("No choice: the next roll is forced (the crew is not complete yet).")
        return
    t = Table(title=f"Choices under {r}, best first")
    t.add_column("action")
    t.add_column("win probability", justify="right")
    t.add_column("expected score", justify="right")
    for c in choices:
        t.add_row(str(c.action), f"{c.win_probability:.4f}", f"{c.expected_score:.3f}")
    con.print(t)


@app.command()
def equilibrium(
    players: Annotated[int, typer.Option("--players", help=_PLAYERS_HELP)],
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    policy: Annotated[
        str, typer.Option("--policy", help="optimal, ev or threshold:T (everyone plays it).")
    ] = "optimal",
    as_json: JsonOpt = False,
) -> None:
    """Each seat's chance of winning the round when everyone plays the policy."""
    from ..solver import SolverError, UnknownPolicyError
    from ..solver import equilibrium as solve

    r = load_rules(rules, settings)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        fail(f"--players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    try:
        eq = solve(r, players, policy)
    except (UnknownPolicyError, SolverError) as e:
        fail(e)
    data = eq.to_json()
    if as_json:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"{players} players, everyone plays {eq.policy}, under {r}")
    t.add_column("seat (play order)", justify="right")
    t.add_column("win probability", justify="right")
    for i, p in enumerate(eq.seat_win_probability, 1):
        t.add_row(str(i), f"{p:.6f}")
    con = Console()
    con.print(t)
    con.print(f"P(everyone fails in one round) = {eq.p_all_fail_per_round:.6g}")


@report_app.command("strategy")
def report_strategy(
    out: Annotated[
        Path, typer.Option("--out", help="Directory for strategy.md and img/strategy_*.png.")
    ] = Path("docs"),
) -> None:
    """Regenerate docs/strategy.md and its pictures from the solver."""
    from ..plots.strategy import write_report

    try:
        path = write_report(out)
    except OSError as e:
        fail(f"cannot write the report into {out}: {e}")
    typer.echo(f"wrote {path}")
