"""``scc replay``, ``scc verify`` and ``scc demo``: event logs read back, checked and produced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..engine import check_players
from ..facts import LANGUAGES, MAX_PLAYERS, MIN_PLAYERS
from ..fair import seed_format, verify_fair_rolls
from ..narrate import transcript
from ..notation import LogError, MatchLog, replay_states
from .app import app
from .common import LangOpt, RulesOpt, SetOpt, choose_language, fail, load_rules


def _load(path: Path) -> MatchLog:
    try:
        return MatchLog.load(path)
    except LogError as e:
        fail(f"{path}: {e}")


#: ``--lang`` of ``scc replay``: without it the transcript speaks the match's own language.
ReplayLangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help=f"Language of the transcript: {', '.join(LANGUAGES)} (default: the match's).",
        callback=choose_language,
        is_eager=True,
    ),
]


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="An event log (JSON lines) written by a match.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final state summary as JSON.")
    ] = False,
    lang: ReplayLangOpt = None,
) -> None:
    """Replay a match log with the engine and print a readable transcript."""
    m = _load(log)
    try:
        states = replay_states(m)
    except LogError as e:
        fail(f"{log}: {e}")
    final = states[-1][0]
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "rules": m.rules,
                    "players": m.players,
                    "events": len(m.events),
                    "over": final.is_over,
                    "winner": final.winner,
                    "totals": list(final.totals),
                    "chips": list(final.chips),
                    "sips": list(final.sips),
                    "rounds": len(final.results),
                }
            )
        )
        return
    from ..i18n import active_lang, translator
    from ..i18n.rules_text import rules_title

    tr = translator(active_lang() if lang else m.lang)
    typer.echo(f"# {rules_title(final.rules, tr)} - {', '.join(m.players)}")
    for line in transcript(states, m.players, tr):
        typer.echo(line)
    if not final.is_over:
        typer.echo(tr("(the log ends before the match is over)"))


@app.command()
def verify(
    log: Annotated[Path, typer.Argument(help="An event log of a provably fair match.")],
    lang: LangOpt = None,
) -> None:
    """Recompute every die of a provably fair match from its revealed seed.

    Exit status 0 when every die matches, 1 when something does not, 2 for an unreadable log.
    """
    m = _load(log)
    from ..i18n import _

    if m.dice.get("source") != "fair":
        fail(
            _("{path}: the dice of this match were not provably fair ({source})").format(
                path=log, source=m.dice.get("source")
            )
        )
    if m.server_seed is None:
        fail(
            _("{path}: the server seed has not been revealed (is the match finished?)").format(
                path=log
            )
        )
    problems = verify_fair_rolls(
        m.server_seed,
        str(m.dice.get("commitment")),
        list(m.dice.get("client_seeds", [])),
        m.rolls(),
        seed_format(m.dice),
    )
    if problems:
        for p in problems:
            typer.echo(f"MISMATCH {p}")  # a fixed word, so scripts can look for it
        raise typer.Exit(1)
    try:
        replay_states(m)  # the dice are fair; the events must also follow the rules
    except LogError as e:
        fail(f"{log}: {e}")
    n = sum(len(r) for r in m.rolls())
    typer.echo(
        _(
            "OK: all {rolls} rolls ({dice} dice) recompute from the revealed seed; "
            "commitment {commitment} matches."
        ).format(rolls=len(m.rolls()), dice=n, commitment=m.dice["commitment"])
    )


@app.command()
def demo(
    rules: RulesOpt = "schiff-kapitaen-crew",
    settings: SetOpt = None,
    players: Annotated[
        int, typer.Option(help=f"Number of bot players ({MIN_PLAYERS}-{MAX_PLAYERS}).")
    ] = 4,
    seed: Annotated[int, typer.Option(help="Seed for the dice (same seed, same match).")] = 654,
    rounds: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Under format=session, stop after this many rounds (bots always call another "
            "round; default: as many as a simulated session).",
        ),
    ] = None,
    fair: Annotated[
        bool, typer.Option(help="Use provably fair dice (seed revealed at the end).")
    ] = False,
    log: Annotated[Path | None, typer.Option(help="Where to write the event log.")] = None,
    lang: LangOpt = None,
) -> None:
    """Watch a scripted demo match between bots, printed as a transcript.

    Bots never stop a session of rounds, so a session stops after --rounds rounds.
    """
    import random

    from ..bots import SESSION_ROUNDS, TimidBot, TipBot, session_call
    from ..fair import FairDice, SeededDice
    from ..game import Game

    r = load_rules(rules, settings)
    try:
        check_players(r, players)
    except ValueError as e:
        fail(e)
    names = ["Anna", "Bo", "Cyrus", "Dana", "Erik", "Frida", "Gus", "Hanne"][:players]
    path = log or Path("logs") / f"demo-{seed}.jsonl"
    try:
        dice = FairDice(client_seeds=[str(seed)]) if fair else SeededDice(seed)
        game = Game(r, names, dice=dice, log_path=path, kinds=["bot"] * players)
    except ValueError as e:
        fail(e)
    rng = random.Random(seed)
    bots = [TipBot() if i % 2 == 0 else TimidBot() for i in range(players)]
    limit = SESSION_ROUNDS if rounds is None else rounds
    while not game.is_over:
        if game.is_chance:
            game.roll()
        else:
            stop = session_call(game.state, limit)
            game.push(stop or bots[game.current_player()].choose(game.state, rng))
    from ..i18n import _, active_lang, translator

    for line in transcript(replay_states(game.log), names, translator(active_lang())):
        typer.echo(line)
    typer.echo(
        _("Event log: {path}").format(path=path)
        + "  "
        + _("Replay it with: scc replay {path}").format(path=path)
    )
