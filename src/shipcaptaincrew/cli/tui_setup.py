"""Setting up a table: rule options from flags, and a short dialogue for whatever is missing.

``scc play`` and ``scc companion`` share it.  Every option the engine has can be given by flag
(``--rules``, ``--set KEY=VALUE``, and the shortcuts ``--format``, ``--stakes``, ``--drinking``,
``--tie-break``); when neither a preset nor an option is given, the dialogue asks for the preset,
the format, the stakes and drinking, and then takes any further ``KEY=VALUE`` option.  Rule
sets are always validated by :class:`~shipcaptaincrew.rules.Rules` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console

from ..engine import InvalidSetupError
from ..i18n import UnknownLanguageError, _, detect_lang, use
from ..rules import (
    PRESET_DESCRIPTIONS,
    PRESETS,
    InvalidRulesError,
    Rules,
    Stakes,
    Starter,
    find_rules,
)
from .common import fail
from .tui_match import BotSpecError, MatchRunner, SeatSpec, parse_seat
from .tui_options import (
    DrinkingOpt,
    FormatOpt,
    LangOpt,
    LogOpt,
    StakesOpt,
    StarterOpt,
    TableFlags,
    TieBreakOpt,
)
from .tui_prompt import Prompter, QuitMatch, parse_int

__all__ = [
    "DrinkingOpt",
    "FormatOpt",
    "LangOpt",
    "LogOpt",
    "StakesOpt",
    "StarterOpt",
    "Table",
    "TieBreakOpt",
    "ask_rules",
    "ask_seats",
    "ask_starter",
    "default_log_path",
    "make_console",
    "resolve_seats",
    "rules_from_flags",
    "set_up_table",
    "setup_language",
]


def setup_language(lang: str | None) -> str:
    """Choose the language from ``--lang`` or the environment, for every message after this."""
    try:
        code = detect_lang(lang)
    except UnknownLanguageError as e:
        fail(str(e))
    use(code)
    return code


def make_console() -> Console:
    """A Rich console without automatic highlighting (numbers stay plain for screen readers)."""
    return Console(highlight=False)


def rules_from_flags(
    rules: str | None,
    settings: Sequence[str] | None,
    *,
    fmt: str | None,
    stakes: str | None,
    drinking: str | None,
    tie_break: str | None,
) -> Rules | None:
    """The rule set the flags describe, or None when no flag names any rule."""
    extra = [
        f"{k}={v}"
        for k, v in (
            ("format", fmt),
            ("stakes", stakes),
            ("drinking", drinking),
            ("tie_break", tie_break),
        )
        if v is not None
    ]
    if rules is None and not settings and not extra:
        return None
    try:
        return find_rules(rules or "classic").with_settings([*(settings or []), *extra])
    except InvalidRulesError as e:
        fail(str(e))


def resolve_seats(players: Sequence[str], *, allow_bots: bool) -> list[SeatSpec]:
    """Seats from ``--player`` values (refused with one clear line when they make no table)."""
    seats: list[SeatSpec] = []
    for i, text in enumerate(players):
        try:
            seat = parse_seat(text, i)
        except (ValueError, BotSpecError) as e:
            fail(str(e))
        if seat.bot is not None and not allow_bots:
            fail(
                _("the companion is for people with real dice: no bots ({text})").format(text=text)
            )
        seats.append(seat)
    _check_names(seats)
    return seats


def _check_names(seats: Sequence[SeatSpec]) -> None:
    names = [s.name.lower() for s in seats]
    for n in names:
        if names.count(n) > 1:
            fail(
                _("two players are called '{name}': give everyone a different name").format(name=n)
            )
    if len(seats) > 8:
        fail(_("at most 8 players sit at one table (001), got {n}").format(n=len(seats)))


def ask_seats(prompt: Prompter, *, allow_bots: bool) -> list[SeatSpec]:
    """The dialogue: how many players, then each one's name (or ``bot:LEVEL``)."""
    n = prompt.integer(_("How many players?"), 2, 8, default=3 if allow_bots else 2)
    seats: list[SeatSpec] = []
    for i in range(n):
        default = _("Player {n}").format(n=i + 1)
        hint = (
            _("Name of player {n} (or bot:easy, bot:medium, bot:hard; Enter = {default}):")
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

        seats.append(prompt.ask(hint.format(n=i + 1, default=default), parse))
    return seats


def _menu_setting(
    prompt: Prompter, title: str, rules: Rules, key: str, choices: Sequence[tuple[str, str]]
) -> Rules:
    """One menu for one option: "as the preset says" first, then each value in words.

    ``choices`` pairs a value with its description; the value stays visible in brackets so
    the player learns the ``--set KEY=VALUE`` spelling too.  Returns the rule set with the
    chosen value (validated by :class:`Rules` itself).
    """
    current = str(getattr(rules, key).value)
    menu = [_("as the preset says ({value})").format(value=current)]
    menu += [f"{words} ({value})" for value, words in choices]
    k = prompt.choose(title, menu, default=0)
    if not k:
        return rules
    return _with(prompt, rules, f"{key}={choices[k - 1][0]}")


def _with(prompt: Prompter, rules: Rules, setting: str) -> Rules:
    try:
        return rules.with_settings([setting])
    except InvalidRulesError as e:  # e.g. a pot whose chips cannot pay the preset's ante
        prompt.complain(str(e))
        return rules


def _ask_number_setting(
    prompt: Prompter, question: str, rules: Rules, key: str, lo: int, hi: int, default: int
) -> Rules:
    """A whole number for ``key`` (asked again when the rule set refuses it)."""

    def parse(text: str) -> Rules:
        n = default if text == "" else parse_int(text, lo, hi)
        try:
            return rules.with_settings([f"{key}={n}"])
        except InvalidRulesError as e:
            raise ValueError(str(e)) from None

    return prompt.ask(f"{question} [{lo}-{hi}, " + _("Enter = {n}").format(n=default) + "]", parse)


def ask_rules(prompt: Prompter, players: int) -> Rules:
    """The dialogue: preset, format, stakes (ante, chips), drinking, tie-break, starter, more.

    Every option the engine has is reachable: the menus cover the ones a table usually
    talks about, and the closing ``KEY=VALUE`` question takes any other (variants such as
    ``half_cargo=true``).  Each answer is checked by :class:`Rules` at once.
    """
    names = list(PRESETS)
    console = prompt.console
    console.print(_("Which rules?"))
    k = prompt.choose(_("Preset"), [f"{n}: {_(PRESET_DESCRIPTIONS[n])}" for n in names], default=0)
    rules = PRESETS[names[k]]

    formats = [
        ("single", _("one round")),
        ("rounds", _("a number of rounds, highest total wins")),
        ("first_to", _("rounds until someone reaches a score")),
    ]
    if players >= 3:
        formats.append(("tournament", _("tournament: two preliminary rounds and a final")))
    menu = [_("as the preset says ({value})").format(value=rules.format)]
    menu += [
        f"{words} ({value}{':N' if value in ('rounds', 'first_to') else ''})"
        for value, words in formats
    ]
    k = prompt.choose(_("Match format"), menu, default=0)
    if k:
        kind = formats[k - 1][0]
        if kind == "rounds":
            rules = _ask_format_n(prompt, rules, "rounds", _("How many rounds?"), 3, 1000)
        elif kind == "first_to":
            rules = _ask_format_n(prompt, rules, "first_to", _("Which total wins?"), 50, 10000)
        else:
            rules = _with(prompt, rules, f"format={kind}")

    rules = _menu_setting(
        prompt,
        _("Stakes"),
        rules,
        "stakes",
        [("points", _("points only")), ("pot", _("a pot of chips: everyone antes each round"))],
    )
    if rules.stakes is Stakes.POT:
        rules = _ask_number_setting(
            prompt, _("Chips each player antes per round?"), rules, "ante", 1, 1000, rules.ante
        )
        rules = _ask_number_setting(
            prompt,
            _("Chips each player starts with?"),
            rules,
            "starting_chips",
            rules.ante,
            1_000_000,
            max(rules.starting_chips, rules.ante),
        )
    rules = _menu_setting(
        prompt,
        _("Drinking"),
        rules,
        "drinking",
        [
            ("none", _("no drinking")),
            ("all_but_winner", _("everyone but the round's winner sips")),
            ("last_drinks", _("the lowest score drinks")),
            ("captain_hands_out", _("the winner rolls a die and hands out that many sips")),
        ],
    )
    rules = _menu_setting(
        prompt,
        _("Tie-break"),
        rules,
        "tie_break",
        [
            ("replay", _("the tied players play a new turn")),
            ("cargo_rolloff", _("the tied players roll their two cargo dice")),
        ],
    )
    rules = _menu_setting(
        prompt,
        _("Who starts"),
        rules,
        "starter",
        [
            ("rolloff", _("everyone rolls one die, the highest starts")),
            ("chosen", _("the table chooses")),
        ],
    )

    while True:

        def parse(text: str, base: Rules = rules) -> Rules | None:
            if not text:
                return None
            try:
                return base.with_settings(text.split())
            except InvalidRulesError as e:
                raise ValueError(str(e)) from None

        more = prompt.ask(
            _("More options as KEY=VALUE (e.g. half_cargo=true), Enter to start:"), parse
        )
        if more is None:
            return rules
        rules = more
        console.print(_("Rules: {rules}").format(rules=rules), markup=False)


def _ask_format_n(
    prompt: Prompter, rules: Rules, kind: str, question: str, default: int, hi: int
) -> Rules:
    """``rounds:N`` or ``first_to:N`` with N asked (the format itself checks the range)."""

    def parse(text: str) -> Rules:
        n = default if text == "" else parse_int(text, 1, hi)
        try:
            return rules.with_settings([f"format={kind}:{n}"])
        except InvalidRulesError as e:
            raise ValueError(str(e)) from None

    return prompt.ask(f"{question} [1-{hi}, " + _("Enter = {n}").format(n=default) + "]", parse)


def ask_starter(
    prompt: Prompter, rules: Rules, names: Sequence[str], starter: str | None
) -> int | None:
    """The starting seat under ``starter=chosen`` (from ``--starter`` or asked); else None."""
    if starter is not None:
        s = starter.strip()
        lowered = [n.lower() for n in names]
        if s.isdigit() and 1 <= int(s) <= len(names):
            return int(s) - 1
        if s.lower() in lowered:
            return lowered.index(s.lower())
        fail(
            _("--starter {value}: give a seat number 1-{n} or a player's name").format(
                value=starter, n=len(names)
            )
        )
    if rules.starter is not Starter.CHOSEN or len(names) < 2:
        return None
    return prompt.choose(_("Who starts (002: for example the youngest)?"), list(names))


def default_log_path(kind: str) -> Path:
    """``logs/<kind>-<UTC time>.jsonl`` in the current directory."""
    import datetime as dt

    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    return Path("logs") / f"{kind}-{stamp}.jsonl"


@dataclass(frozen=True)
class Table:
    """A table ready for a match: the console, the rule set, the seats and who starts."""

    console: Console
    rules: Rules
    seats: list[SeatSpec]
    starter: int | None

    def play(self, *, log: Path | None, kind: str, **options: Any) -> NoReturn:
        """Play the match and exit with its status.

        The event log goes to ``log``, else to :func:`default_log_path` of ``kind``;
        ``options`` go to :class:`~.tui_match.MatchRunner`.
        """
        path = log or default_log_path(kind)
        try:
            runner = MatchRunner(
                self.console, self.rules, self.seats, log_path=path, starter=self.starter, **options
            )
        except (InvalidSetupError, ValueError) as e:
            fail(str(e))
        raise typer.Exit(runner.run())


def set_up_table(
    flags: TableFlags, players: Sequence[str] | None, *, lang: str | None, companion: bool
) -> Table:
    """The table the flags of ``scc play`` / ``scc companion`` describe, the dialogue asking
    for whatever they leave out (the companion seats people only, at least two of them).

    Quitting the dialogue (``q``, Ctrl-D, Ctrl-C) says that no match was started and exits.
    """
    setup_language(lang)
    console = make_console()
    prompt = Prompter(console)
    starter = flags.starter
    r = rules_from_flags(
        flags.rules,
        flags.settings,
        fmt=flags.fmt,
        stakes=flags.stakes,
        drinking=flags.drinking,
        tie_break=flags.tie_break,
    )
    if starter is not None and r is not None:
        r = r.replace(starter="chosen")
    allow_bots = not companion
    try:
        seats = (
            resolve_seats(players, allow_bots=allow_bots)
            if players
            else ask_seats(prompt, allow_bots=allow_bots)
        )
        if companion and len(seats) < 2:
            fail(_("the companion needs 2 to 8 players"))
        if r is None:
            r = ask_rules(prompt, len(seats))
            if starter is not None:
                r = r.replace(starter="chosen")
        start = ask_starter(prompt, r, [s.name for s in seats], starter)
    except (QuitMatch, KeyboardInterrupt) as e:
        console.print(_("No match was started."))
        raise typer.Exit(130 if isinstance(e, KeyboardInterrupt) else 0) from None
    return Table(console, r, seats, start)
