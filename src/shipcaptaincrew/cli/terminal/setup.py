"""Setting up a table: seats and rule options from flags, a short dialogue for whatever is missing.

``scc play`` and ``scc companion`` share it.  Every option the engine has can be given by flag
(``--rules``, ``--set KEY=VALUE``, and the shortcuts ``--format``, ``--stakes``, ``--drinking``,
``--tie-break``, ``--starter``); when neither a preset nor an option is given, the dialogue of
:mod:`.rules` asks for the preset and offers every option of the table.  Rule sets are
always validated by :class:`~shipcaptaincrew.rules.Rules` itself, table sizes by
:func:`~shipcaptaincrew.engine.check_players`, and who starts is the engine's to decide unless
the table names someone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console

from ...bots import DIFFICULTIES
from ...engine import check_players
from ...errors import GameError, InvalidSetupError
from ...facts import MAX_PLAYERS, MIN_PLAYERS, SOLO_PLAYERS
from ...i18n import _
from ...messages import N_
from ...rules import Rules, Starter, find_rules
from ...state import MatchState
from ..common import fail, os_reason
from .match import MatchRunner
from .options import TableFlags
from .prompt import Prompter, QuitMatch
from .rules import ask_rules
from .seats import SeatSpec, parse_seat

__all__ = [
    "Table",
    "match_json",
    "play_table",
    "script_answers",
    "ask_seats",
    "ask_starter",
    "default_log_path",
    "make_console",
    "resolve_seats",
    "resolve_starter",
    "rules_from_flags",
    "set_up_table",
]


def make_console(*, stderr: bool = False) -> Console:
    """A Rich console without automatic highlighting (numbers stay plain for screen readers).

    ``stderr``: the words go to standard error, leaving standard output to a JSON result.
    """
    return Console(highlight=False, stderr=stderr)


def rules_from_flags(flags: TableFlags) -> Rules | None:
    """The rule set the flags describe, or None when no flag names any rule.

    ``--starter`` names who starts, so it also means ``starter=chosen``.
    """
    extra = [
        f"{k}={v}"
        for k, v in (
            ("format", flags.fmt),
            ("stakes", flags.stakes),
            ("drinking", flags.drinking),
            ("tie_break", flags.tie_break),
        )
        if v is not None
    ]
    if flags.rules is None and not flags.settings and not extra:
        return None
    if flags.starter is not None:
        extra.append(f"starter={Starter.CHOSEN.value}")
    try:
        return find_rules(flags.rules or "classic").with_settings([*(flags.settings or []), *extra])
    except GameError as e:
        fail(e)


def resolve_seats(players: Sequence[str], *, allow_bots: bool) -> list[SeatSpec]:
    """Seats from ``--player`` values (refused with one clear line when they make no table)."""
    seats: list[SeatSpec] = []
    for i, text in enumerate(players):
        try:
            seat = parse_seat(text, i)
        except ValueError as e:
            fail(e)
        if seat.bot is not None and not allow_bots:
            fail(
                _("the companion is for people with real dice: no bots ({text})").format(text=text)
            )
        seats.append(seat)
    lowered = [s.name.lower() for s in seats]
    for seat in seats:
        if lowered.count(seat.name.lower()) > 1:
            fail(
                _("two players are called '{name}': give everyone a different name").format(
                    name=seat.name
                )
            )
    return seats


def ask_seats(prompt: Prompter, *, allow_bots: bool) -> list[SeatSpec]:
    """The dialogue: how many players, then each one's name (or ``bot:LEVEL``)."""
    n = prompt.integer(
        _("How many players?"), MIN_PLAYERS, MAX_PLAYERS, default=3 if allow_bots else MIN_PLAYERS
    )
    seats: list[SeatSpec] = []
    levels = ", ".join(f"bot:{level}" for level in DIFFICULTIES)
    for i in range(n):
        default = _("Player {n}").format(n=i + 1)
        hint = (
            _("Name of player {n} (or {bots}; Enter = {default}):")
            if allow_bots
            else _("Name of player {n} (Enter = {default}):")
        )

        def parse(text: str, i: int = i, default: str = default) -> SeatSpec:
            seat = parse_seat(text or default, i)
            if seat.bot is not None and not allow_bots:
                raise ValueError(_("the companion is for people with real dice: no bots"))
            if any(s.name.lower() == seat.name.lower() for s in seats):
                raise ValueError(
                    _("'{name}' is already at the table: choose another name").format(
                        name=seat.name
                    )
                )
            return seat

        seats.append(prompt.ask(hint.format(n=i + 1, bots=levels, default=default), parse))
    return seats


def _bad_starter(value: str, seats: int) -> NoReturn:
    fail(
        _("--starter {value}: give a seat number 1-{n} or a player's name").format(
            value=value, n=seats
        )
    )


def resolve_starter(value: str, names: Sequence[str]) -> int:
    """The seat ``--starter`` names: a seat number from 1, or a player's name."""
    s = value.strip()
    if s.isdigit() and 1 <= int(s) <= len(names):
        return int(s) - 1
    lowered = [n.lower() for n in names]
    if s.lower() in lowered:
        return lowered.index(s.lower())
    _bad_starter(value, len(names))


def ask_starter(prompt: Prompter, rules: Rules, names: Sequence[str]) -> int | None:
    """Under ``starter=chosen``, the seat the table chooses; None leaves it to the engine."""
    if rules.starter is not Starter.CHOSEN or len(names) < MIN_PLAYERS:
        return None
    return prompt.choose(_("Who starts (002: for example the youngest)?"), list(names))


def script_answers(path: Path | None) -> Iterator[str] | None:
    """The lines of a ``--script`` file, one answer each (None: the keyboard answers)."""
    if path is None:
        return None
    try:
        return iter(path.read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError) as e:
        fail(_("cannot read the script {path}: {reason}").format(path=path, reason=os_reason(e)))


def match_json(state: MatchState, names: Sequence[str]) -> dict[str, Any]:
    """The result of a match as ``--json`` prints it (seats are numbered from 0)."""
    return {
        "rules": str(state.rules),
        "players": list(names),
        "rounds": [{"scores": list(r.scores), "winner": r.winner} for r in state.results],
        "totals": list(state.totals),
        "wins": list(state.wins),
        "chips": list(state.chips),
        "sips": list(state.sips),
        "winner": state.winner,
    }


def play_table(
    table: Table, *, as_json: bool, log: Path | None, kind: str, **options: Any
) -> NoReturn:
    """Play the table's match, print the ``--json`` result if asked, exit with its status."""
    status, state = table.play(log=log, kind=kind, **options)
    if as_json:
        typer.echo(json.dumps(match_json(state, [s.name for s in table.seats])))
    raise typer.Exit(status)


def default_log_path(kind: str) -> Path:
    """``logs/<kind>-<UTC time>.jsonl`` in the current directory."""
    import datetime as dt

    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    return Path("logs") / f"{kind}-{stamp}.jsonl"


@dataclass(frozen=True)
class Table:
    """A table ready for a match: the prompter (and its console), the rules, seats, starter."""

    prompt: Prompter
    rules: Rules
    seats: list[SeatSpec]
    starter: int | None

    @property
    def console(self) -> Console:
        """Where the match is told."""
        return self.prompt.console

    def play(self, *, log: Path | None, kind: str, **options: Any) -> tuple[int, MatchState]:
        """Play the match: its exit status and its last state.

        The event log goes to ``log``, else to :func:`default_log_path` of ``kind``;
        ``options`` go to :class:`~.match.MatchRunner`.
        """
        path = log or default_log_path(kind)
        try:
            runner = MatchRunner(
                self.prompt, self.rules, self.seats, log_path=path, starter=self.starter, **options
            )
        except ValueError as e:
            fail(e)
        return runner.run(), runner.game.state


def _check_table(rules: Rules, seats: int, *, companion: bool) -> None:
    try:
        check_players(rules, seats, solo=not companion)
    except GameError as e:
        fail(e)


def set_up_table(
    flags: TableFlags,
    players: Sequence[str] | None,
    *,
    companion: bool,
    answers: Iterator[str] | None = None,
    stderr: bool = False,
    target: int | None = None,
) -> Table:
    """The table the flags of ``scc play`` / ``scc companion`` describe, the dialogue asking
    for whatever they leave out (the companion seats people only, at least two of them).

    A ``--starter`` is checked as soon as the seats are known, before any question about the
    rules, and is not asked again.  Quitting the dialogue (``q``, Ctrl-D, Ctrl-C) says that no
    match was started and exits.  ``answers`` (``--script``) replace the keyboard for the
    dialogue and the match; ``stderr`` tells everything on standard error (``--json``).
    """
    console = make_console(stderr=stderr)
    prompt = Prompter(console, answers)
    rules = rules_from_flags(flags)
    starter = flags.starter
    if not players and starter is not None and starter.strip().isdigit():
        if not 1 <= int(starter) <= MAX_PLAYERS:  # no table seats it: refuse before asking
            _bad_starter(starter, MAX_PLAYERS)
    allow_bots = not companion
    try:
        seats = (
            resolve_seats(players, allow_bots=allow_bots)
            if players
            else ask_seats(prompt, allow_bots=allow_bots)
        )
        names = [s.name for s in seats]
        if len(seats) == SOLO_PLAYERS and target is None and not companion:
            # Said before the rules dialogue, not after it.
            fail(
                _(
                    "one player is solo practice: give the score to reach with --target N, or "
                    "seat more players with -p"
                )
            )
        if target is not None and len(seats) != SOLO_PLAYERS:
            fail(InvalidSetupError(N_("a target score is only for solo practice (players=1)")))
        _check_table(rules or Rules(), len(seats), companion=companion)
        start = resolve_starter(starter, names) if starter is not None else None
        if rules is None:
            fixed = {"starter": Starter.CHOSEN} if starter is not None else {}
            rules = ask_rules(prompt, len(seats), fixed)
        _check_table(rules, len(seats), companion=companion)
        if start is None:
            start = ask_starter(prompt, rules, names)
    except (QuitMatch, KeyboardInterrupt) as e:
        console.print(_("No match was started."))
        raise typer.Exit(130 if isinstance(e, KeyboardInterrupt) else 0) from None
    return Table(prompt, rules, seats, start)
