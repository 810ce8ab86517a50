"""The match loop shared by ``scc play`` and ``scc companion``.

The loop only *drives* a :class:`~shipcaptaincrew.game.Game`: dice come from the game's dice
source (seeded, provably fair, or faces typed at a real table), choices come from a person at
the keyboard or a bot, and every step is told in words by :func:`~shipcaptaincrew.narrate.narrate`.
Whether a decision exists, which choices are legal and what happens next is always the
engine's answer, never this module's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from ..actions import Action, Roll, Take
from ..bots import make_bot, render_reason
from ..engine import DiceSource, seat_to_act
from ..fair import FairDice, TypedDice
from ..game import Game
from ..i18n import _, active_lang, translator
from ..i18n.rules_text import rules_title
from ..narrate import narrate_parts
from ..rules import Rules
from ..solver import advise
from ..state import MatchState, Phase, Purpose, TurnPhase
from ..turn import apply as turn_apply
from .common import error_text
from .tui_prompt import ADVICE, Prompter, QuitMatch
from .tui_view import advice_table, describe_action, scoreboard, summary_table, turn_line

__all__ = ["MatchRunner", "SeatSpec", "parse_seat"]


@dataclass(frozen=True)
class SeatSpec:
    """A seat at the table: a person (``bot`` None) or a bot by its spec (``tip``, ``hard``)."""

    name: str
    bot: str | None = None

    @property
    def kind(self) -> str:
        """``human`` or ``bot:SPEC`` (the event log's ``kinds`` entry)."""
        return "human" if self.bot is None else f"bot:{self.bot}"

    @property
    def label(self) -> str:
        """What the scoreboard shows after the name."""
        return "human" if self.bot is None else self.bot


def parse_seat(text: str, index: int) -> SeatSpec:
    """``NAME`` (a person), ``bot:SPEC`` or ``NAME=bot:SPEC`` (a bot), as ``--player`` takes.

    >>> parse_seat("Anna", 0), parse_seat("bot:tip", 2), parse_seat("Robo=bot:hard", 3)
    (SeatSpec(name='Anna', bot=None), SeatSpec(name='Bot 3', bot='tip'), SeatSpec(name='Robo', bot='hard'))
    """
    t = text.strip()
    if not t:
        raise ValueError(_("a player needs a name"))
    name, _sep, rest = t.partition("=")
    if rest.lower().startswith("bot:") or (not rest and t.lower().startswith("bot:")):
        spec = (rest or t)[4:].strip().lower()
        if not spec:
            raise ValueError(_("'{text}': say which bot, e.g. bot:medium").format(text=t))
        make_bot(spec)  # refuse an unknown bot now, not in the middle of the match
        label = name.strip() if rest else _("Bot {n}").format(n=index + 1)
        return SeatSpec(label, spec)
    if len(t) > 24:
        raise ValueError(
            _("'{text}' is too long for a name (24 characters at most)").format(text=t)
        )
    return SeatSpec(t)


class MatchRunner:
    """One match at the terminal: the table, the dice, the people and the bots."""

    def __init__(
        self,
        console: Console,
        rules: Rules,
        seats: Sequence[SeatSpec],
        *,
        dice: DiceSource | None,
        log_path: Path,
        starter: int | None = None,
        target: int | None = None,
        delay: float = 0.8,
        seed: int = 0,
        companion: bool = False,
    ) -> None:
        self.console = console
        self.prompt = Prompter(console)
        self.seats = list(seats)
        self.names = [s.name for s in seats]
        self.kinds = [s.label for s in seats]
        self.bots = [make_bot(s.bot) if s.bot is not None else None for s in seats]
        self.delay = delay
        self.companion = companion
        self.rng = random.Random(seed)
        self.tr = translator(active_lang())
        source = TypedDice(self._ask_faces) if companion else dice
        self.game = Game(
            rules,
            self.names,
            dice=source,
            starter=starter,
            target=target,
            kinds=[s.kind for s in seats],
            log_path=log_path,
            lang=active_lang(),
        )
        self.log_path = log_path
        self._hand_out_total = 0
        self._round_seen = 0

    # -- the loop ---------------------------------------------------------------------------
    def run(self) -> int:
        """Play the match to its end (or until the players quit); the exit status."""
        self._intro()
        try:
            while not self.game.is_over:
                self._step()
        except (QuitMatch, KeyboardInterrupt) as e:
            self.game.finish()
            self.console.print()
            self.console.print(Rule(_("Match ended early")))
            self._summary()
            return 130 if isinstance(e, KeyboardInterrupt) else 0
        self.game.finish()
        self.console.print(Rule(_("Match over")))
        self._summary()
        if isinstance(self.game.dice, FairDice):
            self.console.print(
                _(
                    "The seed is revealed in the log; check every die with: scc verify {path}"
                ).format(path=self.log_path),
                soft_wrap=True,
                markup=False,
            )
        return 0

    def _summary(self) -> None:
        """The standings, the rules they were played under, and where the log is."""
        self.console.print(summary_table(self.game.state, self.names, self.kinds))
        self._rules_line()
        self._log_lines()

    def _rules_line(self) -> None:
        title = rules_title(self.game.state.rules, self.tr)
        self.console.print(_("Rules: {rules}").format(rules=title), markup=False, soft_wrap=True)

    def _log_lines(self) -> None:
        self.console.print(
            _("Event log: {path}").format(path=self.log_path), soft_wrap=True, markup=False
        )
        self.console.print(
            _("Replay it with: scc replay {path}").format(path=self.log_path),
            soft_wrap=True,
            markup=False,
        )

    def _intro(self) -> None:
        g = self.game
        self.console.print(Rule(_("Ship, Captain and Crew")))
        self._rules_line()
        if isinstance(g.dice, FairDice):
            self.console.print(
                _(
                    "Provably fair dice: commitment {hash} (the seed is revealed at the end)."
                ).format(hash=g.dice.commitment),
                markup=False,
                soft_wrap=True,
            )
        seed = g.log.dice.get("seed")
        if seed is not None:
            self.console.print(_("Dice seed: {seed}").format(seed=seed), markup=False)
        self.console.print(_("Type q or press Ctrl-D at any question to end the match."))

    def _step(self) -> None:
        g = self.game
        state = g.state
        self._announce(state)
        if g.is_chance:
            if not self.companion and self.delay and self._bot_at(seat_to_act(state)):
                time.sleep(self.delay / 2)
            before = state
            roll = g.roll()
            self._report(before, roll)
            return
        seat = g.current_player()
        acts = g.legal_actions()
        bot = self.bots[seat]
        if len(acts) == 1:
            action = acts[0]
        elif bot is not None:
            if self.delay:
                time.sleep(self.delay)
            action = bot.choose(state, self.rng)
            what = describe_action(action, state, self.names)
            why = render_reason(bot.explain(state), self.tr)
            self.console.print(
                f"[italic]{escape(self.names[seat])}: {escape(what)} - {escape(why)}[/]"
            )
        else:
            action = self._ask_human(state, acts)
        self.game.push(action)
        self._report(state, action)

    def _bot_at(self, seat: int | None) -> bool:
        return seat is not None and self.bots[seat] is not None

    # -- showing what happens ---------------------------------------------------------------
    def _announce(self, state: MatchState) -> None:
        """Headers: a new turn (with the scoreboard), the roll-off, the captain's hand-out."""
        if state.phase is Phase.TURN and state.turn is not None and state.contest is not None:
            t = state.turn
            if t.rolls_used == 0 and t.phase is TurnPhase.ROLL and not t.held:
                seat = state.contest.seat
                assert seat is not None
                self.console.print()
                if state.round_no != self._round_seen:
                    self._round_seen = state.round_no
                    self.console.print(Rule(_("Round {n}").format(n=state.round_no)))
                    self.console.print(
                        _("{name} starts round {n}.").format(
                            name=self.names[state.starter], n=state.round_no
                        ),
                        markup=False,
                    )
                self.console.print(scoreboard(state, self.names, self.kinds))
                purpose = state.contest.purpose
                if purpose is Purpose.ROUND:
                    head = _("{name}'s turn").format(name=self.names[seat])
                else:
                    head = _("{name}'s tie-break turn").format(name=self.names[seat])
                self.console.print(Rule(head))
                posted = state.posted_scores
                if posted:
                    best = max(posted.values())
                    self.console.print(_("To beat: {score}").format(score=best), markup=False)
                elif state.target is not None:  # solo practice: the score to reach
                    self.console.print(
                        _("To reach: {score}").format(score=state.target), markup=False
                    )
        elif state.phase is Phase.ROLL_OFF and state.contest is not None:
            if not state.contest.scores and state.contest.purpose is Purpose.STARTER:
                self.console.print(Rule(_("Roll-off: the highest die starts")))
        elif state.phase is Phase.HAND_OUT_ROLL:
            self.console.print(scoreboard(state, self.names, self.kinds))

    def _report(self, before: MatchState, action: Action) -> None:
        """Tell what the action (already pushed) did, and show the dice."""
        after = self.game.state
        own, table = narrate_parts(before, action, after, self.names)
        for m in own:
            self.console.print(m.render(self.tr), markup=False)
        if (
            before.phase is Phase.TURN
            and before.turn is not None
            and isinstance(action, (Roll, Take))
        ):
            nt = turn_apply(before.turn, action)
            self.console.print(turn_line(nt, before.turn))
        for m in table:
            self.console.print(m.render(self.tr), markup=False)
        if after.phase is Phase.HAND_OUT and before.phase is Phase.HAND_OUT_ROLL:
            self._hand_out_total = after.hand_out_left

    # -- asking people ----------------------------------------------------------------------
    def _ask_human(self, state: MatchState, acts: Sequence[Action]) -> Action:
        seat = self.game.current_player()
        name = self.names[seat]
        if state.phase is Phase.HAND_OUT:
            k = self._hand_out_total - state.hand_out_left + 1
            prompt = _("{name}, who drinks sip {k} of {n}?").format(
                name=name, k=k, n=self._hand_out_total
            )
        elif state.turn is not None and state.turn.phase is TurnPhase.ASSIGN:
            prompt = _("{name}, which dice do you set aside?").format(name=name)
        else:
            prompt = _("{name}, stand or reroll the cargo?").format(name=name)
        options = [describe_action(a, state, self.names) for a in acts]
        while True:
            k = self.prompt.choose(prompt, options, advice=state.phase is Phase.TURN)
            if k != ADVICE:
                return acts[k]
            self._show_advice(state)

    def _show_advice(self, state: MatchState) -> None:
        try:
            choices = advise(state)
        except ValueError as e:
            reason = error_text(e)
            self.console.print(
                _("No advice for this position: {reason}").format(reason=reason), markup=False
            )
            return
        if not choices:
            self.console.print(_("There is nothing to advise here."))
            return
        self.console.print(advice_table(choices, state, self.names))

    def _ask_faces(self, n: int) -> tuple[int, ...]:
        """Companion: the faces a player rolled with real dice (asked until they make sense)."""
        state = self.game.state
        seat = seat_to_act(state)
        name = self.names[seat] if seat is not None else "?"
        if state.phase is Phase.ROLL_OFF:
            prompt = _("{name}: roll one die to decide who starts, and type its face:")
        elif state.phase is Phase.CARGO_ROLL_OFF:
            prompt = _("{name}: roll two dice for the cargo tie-break, and type both faces:")
        elif state.phase is Phase.HAND_OUT_ROLL:
            prompt = _("Captain {name}: roll one die for the sips you hand out, and type its face:")
        elif state.turn is not None and state.turn.complete:
            prompt = (
                _("{name}: roll the {n} cargo dice again, and type the faces:")
                if n == 2
                else _("{name}: roll the one cargo die again, and type its face:")
            )
        elif n == 5:
            prompt = _("{name}: roll all 5 dice and type the faces:")
        else:
            prompt = _("{name}: roll the {n} free dice and type the faces:")
        return self.prompt.faces(prompt.format(name=name, n=n), n)
