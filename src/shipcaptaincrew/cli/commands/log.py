"""``scc replay``, ``scc verify`` and ``scc demo``: event logs read back, checked and produced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ...engine import check_players
from ...facts import LANGUAGES, MAX_PLAYERS, MIN_PLAYERS
from ...fair import seed_format, verify_fair_rolls
from ...i18n import _, active_lang
from ...messages import N_
from ...narrate import transcript
from ...notation import LogError, MatchLog, replay_states
from ..app import app
from ..common import (
    LangOpt,
    RulesOpt,
    SetOpt,
    choose_language,
    error_text,
    fail,
    load_rules,
)
from ..helptext import composed, or_words

#: The dice sources of a log (``fair.DiceSource.describe``), in words.
_DICE_SOURCES = {
    "seeded": N_("dice from a seed"),
    "typed": N_("real dice typed in"),
}


def _refuse(path: Path, error: LogError) -> NoReturn:
    """A log that cannot be read or replayed: its path and what is wrong, in one line."""
    fail(_("{path}: {reason}").format(path=path, reason=error_text(error)))


def _load(path: Path) -> MatchLog:
    try:
        return MatchLog.load(path)
    except LogError as e:
        _refuse(path, e)


#: ``--lang`` of ``scc replay``: without it the transcript speaks the match's own language.
ReplayLangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar=N_("LANG"),
        help=composed(
            lambda tr: tr(
                "The language of the transcript: {languages} (without it: the match's own)."
            ).format(languages=or_words(LANGUAGES, tr))
        ),
        callback=choose_language,
        is_eager=True,
    ),
]
LogArg = Annotated[
    Path,
    typer.Argument(metavar=N_("LOG"), help=N_("An event log (JSON lines) written by a match.")),
]


@app.command(help=N_("Replay a match's event log with the engine and print it as a story."))
def replay(
    log: LogArg,
    as_json: Annotated[
        bool,
        typer.Option("--json", help=N_("Print the final state as one JSON object instead.")),
    ] = False,
    lang: ReplayLangOpt = None,
) -> None:
    """The log replayed through the engine (every event checked), told in words."""
    m = _load(log)
    try:
        states = replay_states(m)
    except LogError as e:
        _refuse(log, e)
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
    from ...i18n import active_lang, translator
    from ...i18n.rules_text import rules_title

    tr = translator(active_lang() if lang else m.lang)
    typer.echo(f"# {rules_title(final.rules, tr)} - {', '.join(m.players)}")
    for line in transcript(states, m.players, tr):
        typer.echo(line)
    if not final.is_over:
        typer.echo(tr("(the log ends before the match is over)"))


@app.command(
    help=N_(
        "Recompute every die of a provably fair match from its revealed seed."
        "\n\n"
        "The exit status is 0 when every die matches, 1 when something does not, and 2 for a "
        "log that cannot be read."
    )
)
def verify(log: LogArg, lang: LangOpt = None) -> None:
    """The fair dice recomputed from the log's commitment and revealed seed."""
    m = _load(log)
    from ...i18n import _

    if m.dice.get("source") != "fair":
        source = _DICE_SOURCES.get(str(m.dice.get("source")), N_("an unknown dice source"))
        fail(
            _("{path}: the dice of this match were not provably fair ({source})").format(
                path=log, source=_(source)
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
        _refuse(log, e)
    n = sum(len(r) for r in m.rolls())
    typer.echo(
        _(
            "OK: all {rolls} rolls ({dice} dice) recompute from the revealed seed; "
            "commitment {commitment} matches."
        ).format(rolls=len(m.rolls()), dice=n, commitment=m.dice["commitment"])
    )


@app.command(
    help=N_(
        "Watch a match between bots, told as a transcript, with its event log."
        "\n\n"
        "Bots never stop a session of rounds, so a session stops after --rounds rounds."
    )
)
def demo(
    rules: RulesOpt = "schiff-kapitaen-crew",
    settings: SetOpt = None,
    players: Annotated[
        int,
        typer.Option(
            metavar=N_("N"),
            help=composed(
                lambda tr: tr("The number of bots at the table ({low}..{high}).").format(
                    low=MIN_PLAYERS, high=MAX_PLAYERS
                )
            ),
        ),
    ] = 4,
    seed: Annotated[
        int,
        typer.Option(
            metavar=N_("N"), help=N_("The seed of the dice: the same seed, the same match.")
        ),
    ] = 654,
    rounds: Annotated[
        int | None,
        typer.Option(
            min=1,
            metavar=N_("N"),
            help=N_(
                "Under format=session, stop after this many rounds (bots always call another "
                "round; without it: as many as a simulated session)."
            ),
        ),
    ] = None,
    fair: Annotated[
        bool,
        typer.Option(help=N_("Provably fair dice, the seed revealed at the end.")),
    ] = False,
    log: Annotated[
        Path | None,
        typer.Option(
            metavar=N_("FILE"),
            help=N_("Where to write the event log (without it: logs/demo-SEED.jsonl)."),
        ),
    ] = None,
    lang: LangOpt = None,
) -> None:
    """A match of tip and timid bots, played through :class:`~...game.Game` and told."""
    import random

    from ...bots import SESSION_ROUNDS, TimidBot, TipBot, session_call
    from ...fair import FairDice, SeededDice
    from ...game import Game

    r = load_rules(rules, settings)
    try:
        check_players(r, players)
    except ValueError as e:
        fail(e)
    names = ["Anna", "Bo", "Cyrus", "Dana", "Erik", "Frida", "Gus", "Hanne"][:players]
    path = log or Path("logs") / f"demo-{seed}.jsonl"
    try:
        dice = FairDice(client_seeds=[str(seed)]) if fair else SeededDice(seed)
        game = Game(r, names, dice=dice, log_path=path, kinds=["bot"] * players, lang=active_lang())
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
    from ...i18n import translator

    for line in transcript(replay_states(game.log), names, translator(active_lang())):
        typer.echo(line)
    typer.echo(
        _("Event log: {path}").format(path=path)
        + "  "
        + _("Replay it with: scc replay {path}").format(path=path)
    )
