"""Drive the real ``scc`` program in a pseudo-terminal (pexpect), as a player at the keyboard.

Shared by ``tests/test_play*.py`` and ``tests/test_companion*.py``.  The terminal is ``dumb``
so Rich prints no colour codes and the text can be matched as it is.  Seeds for scripted
matches are *found* by playing the same match through the engine first (:func:`find_seed`),
so a test asks for "a match with a tie-break" rather than hard-coding dice.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pexpect

from shipcaptaincrew.actions import Action, RerollCargo, Stand, Take
from shipcaptaincrew.bots import make_bot
from shipcaptaincrew.fair import SeededDice
from shipcaptaincrew.formats import FORMAT_KINDS
from shipcaptaincrew.game import Game
from shipcaptaincrew.options import Group, Option, OptionType, options_in
from shipcaptaincrew.rules import PRESET_NAMES, Rules

SCC = str(Path(sys.executable).parent / "scc")

#: Any question the terminal game asks ends with a bracketed hint like ``[1-3, ?]``.
MENU = re.compile(r"\[1-(\d)(?:, \?)?(?:, Enter = \d+)?\] ")
#: The set-up dialogue's menu of every option (English), Enter starting the match.
OPTIONS_MENU = re.compile(r"Option to change \[1-\d+, Enter = start\] ")
#: The preset question's hint: one line per preset, the first by default.
PRESET_HINT = rf"\[1-{len(PRESET_NAMES)}, Enter = 1\] "


def menu_options(rules: Rules, fixed: tuple[str, ...] = ()) -> list[str]:
    """The options the set-up menu lists under ``rules``, in its order (by group, then as the
    table lists them): those that mean something (``Rules.says``), less those ``fixed`` by flags.
    """
    shown = [o.name for g in Group for o in options_in(g) if rules.says(o.name)]
    return [name for name in shown if name not in fixed]


def options_hint(rules: Rules, enter: str = "start", fixed: tuple[str, ...] = ()) -> str:
    """The options menu's bracketed hint under ``rules`` (a regular expression)."""
    return rf"\[1-{len(menu_options(rules, fixed))}, Enter = {re.escape(enter)}\] "


def format_hint(default: int) -> str:
    """The match format question's hint: one line per format kind (a regular expression)."""
    return rf"\[1-{len(FORMAT_KINDS)}, Enter = {default}\] "


def number_hint(option: Option, default: str) -> str:
    """A number question's hint from the option's bounds (a regular expression)."""
    lo, hi = option.bounds
    more = " or no limit" if option.unlimited else ""
    return rf"\[{lo}-{hi}{more}, Enter = {re.escape(default)}\] "


def spawn(
    args: list[str], *, lang: str = "en_GB.UTF-8", cwd: Path | None = None, timeout: float = 30
) -> pexpect.spawn:
    """``scc ARGS`` in a 50x140 pseudo-terminal without colour."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(
        {"TERM": "dumb", "LANG": lang, "COLUMNS": "140", "LINES": "50", "PYTHONIOENCODING": "utf-8"}
    )
    return pexpect.spawn(
        SCC,
        args,
        env=env,
        cwd=str(cwd) if cwd else None,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(50, 140),
        preexec_fn=_default_signals,
    )


def companion(names: list[str], *flags: str, log: Path | None = None) -> pexpect.spawn:
    """``scc companion`` for the people ``names`` (a ``-p`` each), then ``flags`` and ``--log``."""
    args = ["companion", *(word for name in names for word in ("-p", name)), *flags]
    return spawn([*args, "--log", str(log)] if log else args)


def finish(child: pexpect.spawn, status: int = 0) -> str:
    """The program's output up to its end, which must come with ``status`` and no traceback."""
    child.expect(pexpect.EOF)
    out: str = child.before
    child.close()
    assert child.exitstatus == status, out
    assert "Traceback" not in out
    return out


def _default_signals() -> None:
    """Ctrl-C must reach the program as at a real keyboard, whatever the test run inherited:
    a suite started in the background (or by a harness) ignores SIGINT, and an ignored signal
    stays ignored across exec, so the child's ``sendintr`` would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


HumanPolicy = Callable[[tuple[Action, ...]], int]


def stand_first(acts: tuple[Action, ...]) -> int:
    """The index a scripted person picks: the first choice (stand, or the first assignment)."""
    return 0


def play_offline(
    rules: Rules, seats: list[str | None], seed: int, human: HumanPolicy = stand_first
) -> Game:
    """The match ``scc play --seed SEED`` plays when every person answers with ``human``.

    ``seats``: None for a person, a bot spec for a bot.  Mirrors the terminal game exactly:
    the dice come from ``SeededDice(seed)`` and bots draw from ``random.Random(seed)``.
    """
    names = [f"P{i}" for i in range(len(seats))]
    game = Game(rules, names, dice=SeededDice(seed))
    bots = [make_bot(s) if s is not None else None for s in seats]
    rng = random.Random(seed)
    while not game.is_over:
        if game.is_chance:
            game.roll()
            continue
        acts = game.legal_actions()
        bot = bots[game.current_player()]
        if len(acts) == 1:
            game.push(acts[0])
        elif bot is not None:
            game.push(bot.choose(game.state, rng))
        else:
            game.push(acts[human(acts)])
    return game


def find_seed(
    rules: Rules,
    seats: list[str | None],
    wanted: Callable[[Game], bool],
    human: HumanPolicy = stand_first,
    limit: int = 3000,
) -> int:
    """The first seed whose match has what ``wanted`` looks for."""
    for seed in range(limit):
        if wanted(play_offline(rules, seats, seed, human)):
            return seed
    raise AssertionError(f"no seed below {limit} gives the wanted match")


def human_decisions(game: Game, seats: list[str | None]) -> list[tuple[Action, ...]]:
    """The legal actions at every decision a person had to make (more than one choice)."""
    out = []
    for state, _action in game.history:
        from shipcaptaincrew.engine import current_player, legal_actions

        p = current_player(state)
        if p >= 0 and seats[p] is None and len(legal_actions(state)) > 1:
            out.append(legal_actions(state))
    return out


def answer_menus(
    child: pexpect.spawn, choose: Callable[[str, int], str], end: str, limit: int = 200
) -> str:
    """Answer every menu with ``choose(screen_before_prompt, options)`` until ``end`` shows.

    Returns everything the program printed.
    """
    seen = []
    for _ in range(limit):
        i = child.expect([MENU, end])
        seen.append(child.before + child.after)
        if i == 1:
            return "".join(seen)
        child.sendline(choose(child.before, int(child.match.group(1))))
    raise AssertionError("the match did not end")


def menu_number(screen: str, text: str, *, whole: bool = False) -> str:
    """The number of the menu line showing ``text`` (the whole line's text with ``whole``)."""
    end = r"\s*$" if whole else ""
    m = re.search(rf"^\s+(\d+)\s+{re.escape(text)}{end}", screen, re.M)
    assert m, (text, screen)
    return m.group(1)


def set_option(
    child: pexpect.spawn, option: Option, value: Any, then: Sequence[tuple[Option, Any]] = ()
) -> None:
    """From the options menu, set ``option`` to ``value`` by its own questions (English).

    Finds the option's line by its label, then answers as a player would: yes or no, the
    choice's label, the number (``none`` for no limit), or the format kind and its N.  ``then``
    answers the options the dialogue asks at once because the answer brings them into play
    (a wild captain under bow to stern asks its wild face).
    """
    child.expect(OPTIONS_MENU)
    child.sendline(menu_number(child.before, f"{option.label}:"))
    answer(child, option, value)
    for other, other_value in then:
        answer(child, other, other_value)


def answer(child: pexpect.spawn, option: Option, value: Any) -> None:
    """Answer ``option``'s own question with ``value``."""
    question = re.escape(option.label) + r" \[[^\]]+\] "
    if option.kind is OptionType.FLAG:
        child.expect(question)
        child.sendline(menu_number(child.before, "yes" if value else "no", whole=True))
    elif option.kind is OptionType.CHOICE:
        child.expect(question)
        choice = option.choice(value)
        child.sendline(menu_number(child.before, f"{choice.label} ({choice.value})", whole=True))
    elif option.kind is OptionType.NUMBER:
        child.expect(question)
        child.sendline("none" if value is None else str(value))
    else:
        spec = FORMAT_KINDS[value.kind]
        child.expect(question)
        child.sendline(menu_number(child.before, f"{spec.label} ("))
        if spec.bounds is not None:
            child.expect(re.escape(spec.label) + r": N \[[^\]]+\] ")
            child.sendline(str(value.n))


__all__ = [
    "MENU",
    "OPTIONS_MENU",
    "SCC",
    "RerollCargo",
    "Stand",
    "Take",
    "answer",
    "answer_menus",
    "find_seed",
    "human_decisions",
    "menu_number",
    "play_offline",
    "set_option",
    "spawn",
    "stand_first",
]
