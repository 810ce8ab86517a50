"""The match loop shared by ``scc play`` and ``scc companion``.

The loop only *drives* a :class:`~shipcaptaincrew.game.Game`: dice come from the game's dice
source (seeded, provably fair, or faces typed at a real table), choices come from a person at
the keyboard or a bot, and every step is told in words by :func:`~shipcaptaincrew.narrate.narrate`.
Whether a decision exists, which choices are legal and what happens next is always the
engine's answer, never this module's.

A person rolls with Enter (``scc play`` without ``--fast``), so nothing -- a failed turn
least of all -- scrolls past unseen; bots pause briefly instead.  The scoreboard is drawn
when what it shows changes (a new round, a tie-break, new totals), not before every turn.
Under ``format=session`` bots are always up for another round, so when a bot opens the next
round a person at the table answers "another round?" for it; a table of bots only stops
after :data:`~shipcaptaincrew.bots.SESSION_ROUNDS` rounds, as a simulated one does.
"""

from __future__ import annotations

import random
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

from rich.rule import Rule

from ...actions import Action, Roll, Take
from ...bots import make_bot, render_reason
from ...engine import DiceSource, dice_to_roll, seat_to_act
from ...fair import FairDice, TypedDice
from ...game import Game
from ...i18n import _, active_lang, translator
from ...i18n.rules_text import rules_title
from ...messages import NP_
from ...narrate import narrate_parts
from ...rules import Rules
from ...solver import advise
from ...state import MatchState, Phase, Purpose, TurnPhase
from ...turn import apply as turn_apply
from ..common import error_text, plural
from .decide import ask_another_round, ask_hand_out, ask_turn
from .prompt import ADVICE, Prompter, QuitMatch
from .seats import SeatSpec
from .view import advice_table, board_key, describe_action, scoreboard, summary_table, turn_line

__all__ = ["MatchRunner", "wrap_reason"]


def wrap_reason(text: str, width: int) -> list[str]:
    """A bot's reason in lines of ``width``, broken at ASCII spaces only.

    Rich breaks at any whitespace, the no-break space of "15,7 %" included, which can leave
    "%" alone at the start of a line; the standard library's wrapper keeps it.

    >>> wrap_reason("Opti: stands - wins in 15.7\u00a0% of cases", 28)
    ['Opti: stands - wins in', '15.7\xa0% of cases']
    """
    return textwrap.wrap(text, max(width, 20), break_on_hyphens=False) or [text]


class MatchRunner:
    """One match at the terminal: the table, the dice, the people and the bots."""

    def __init__(
        self,
        prompt: Prompter,
        rules: Rules,
        seats: Sequence[SeatSpec],
        *,
        dice: DiceSource | None,
        log_path: Path,
        starter: int | None = None,
        target: int | None = None,
        delay: float = 0.8,
        roll_key: bool = False,
        seed: int = 0,
        companion: bool = False,
    ) -> None:
        self.console = prompt.console
        self.prompt = prompt
        self.seats = list(seats)
        self.names = [s.name for s in seats]
        self.kinds = [s.label for s in seats]
        self.bots = [make_bot(s.bot) if s.bot is not None else None for s in seats]
        self.delay = delay
        self.roll_key = roll_key and not companion
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
        self._board: tuple[object, ...] | None = None

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
            seat = seat_to_act(state)
            if seat is not None and self.bots[seat] is None and self.roll_key:
                n = dice_to_roll(state)
                self.prompt.press_enter(plural(_PRESS_ENTER, n, name=self.names[seat]))
            elif not self.companion and self.delay and self._bot_at(seat):
                time.sleep(self.delay / 2)
            before = state
            roll = g.roll()
            self._report(before, roll)
            return
        seat = g.current_player()
        acts = g.legal_actions()
        bot = self.bots[seat]
        speaker = seat
        if len(acts) == 1:
            action = acts[0]
        elif state.phase is Phase.ANOTHER_ROUND:
            speaker, action = self._another_round(state, seat, acts)
        elif bot is not None:
            if self.delay:
                time.sleep(self.delay)
            action = bot.choose(state, self.rng)
            self._say_why(seat, action, state)
        else:
            action = self._ask_human(state, acts)
        self.game.push(action)
        self._report(state, action, speaker)

    def _say_why(self, seat: int, action: Action, state: MatchState) -> None:
        bot = self.bots[seat]
        assert bot is not None
        what = describe_action(action, state, self.names)
        why = render_reason(bot.explain(state), self.tr)
        for part in wrap_reason(f"{self.names[seat]}: {what} - {why}", self.console.width):
            self.console.print(part, style="italic", markup=False, soft_wrap=True)

    def _another_round(
        self, state: MatchState, seat: int, acts: Sequence[Action]
    ) -> tuple[int, Action]:
        """Another round or stop: who answers and the answer (the opener if a person, else
        the first person after it, for the table)."""
        n = len(self.names)
        people = sorted((s for s in range(n) if self.bots[s] is None), key=lambda s: (s - seat) % n)
        if not people:  # a table of bots: play on for as long as a simulated session
            from ...bots import session_call

            bot = self.bots[seat]
            assert bot is not None
            action = session_call(state) or bot.choose(state, self.rng)
            self._say_why(seat, action, state)
            return seat, action
        if people[0] != seat:
            self.console.print(
                _("{bot} opens the next round; {name} answers for the table.").format(
                    bot=self.names[seat], name=self.names[people[0]]
                ),
                markup=False,
            )
        name = self.names[people[0]]
        return people[0], ask_another_round(self.prompt, state, acts, name, self.names)

    def _bot_at(self, seat: int | None) -> bool:
        return seat is not None and self.bots[seat] is not None

    # -- showing what happens ---------------------------------------------------------------
    def _board_if_changed(self, state: MatchState) -> None:
        key = board_key(state)
        if key != self._board:
            self._board = key
            self.console.print(scoreboard(state, self.names, self.kinds))

    def _announce(self, state: MatchState) -> None:
        """Headers: a new round, a new turn, the roll-off; the scoreboard when it changed."""
        if state.phase is Phase.TURN and state.turn is not None and state.contest is not None:
            t = state.turn
            if t.rolls_used == 0 and t.phase is TurnPhase.ROLL and not t.held:
                seat = state.contest.seat
                assert seat is not None
                self.console.print()
                if state.round_no != self._round_seen:
                    self._round_seen = state.round_no
                    self.console.print(Rule(_("Round {n}").format(n=state.round_no)))
                    if not self.game.history:  # a chosen starter: no event has said it yet
                        self.console.print(
                            _("{name} starts round {n}.").format(
                                name=self.names[state.round_seats[0]], n=state.round_no
                            ),
                            markup=False,
                        )
                self._board_if_changed(state)
                purpose = state.contest.purpose
                if purpose is Purpose.ROUND:
                    head = _("{name}'s turn").format(name=self.names[seat])
                else:
                    head = _("{name}'s tie-break turn").format(name=self.names[seat])
                self.console.print(Rule(head))
                posted = state.posted_scores
                if posted:
                    best = max(posted.values())
                    # Nobody has a crew yet: there is no score "to beat", any crew leads.
                    said = (
                        _("To beat: {score}").format(score=best)
                        if best
                        else _("Nobody has a crew yet: anyone with a crew leads.")
                    )
                    self.console.print(said, markup=False)
                elif state.target is not None:  # solo practice: the score to reach
                    self.console.print(
                        _("To reach: {score}").format(score=state.target), markup=False
                    )
        elif state.phase is Phase.ROLL_OFF and state.contest is not None:
            if not state.contest.scores and state.contest.purpose is Purpose.STARTER:
                self.console.print(Rule(_("Roll-off: the highest die starts")))
        elif state.phase in (Phase.HAND_OUT_ROLL, Phase.ANOTHER_ROUND):
            self._board_if_changed(state)

    def _report(self, before: MatchState, action: Action, speaker: int | None = None) -> None:
        """Tell what the action (already pushed) did, and show the dice.

        ``speaker``: who made the choice when it was not the seat's own (a person calling
        another round for a bot): the step is told in that person's name.
        """
        after = self.game.state
        own, table = narrate_parts(before, action, after, self.names)
        acting = seat_to_act(before)
        if speaker is not None and acting is not None and speaker != acting:
            names = list(self.names)
            names[acting] = self.names[speaker]
            own = narrate_parts(before, action, after, names)[0]
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
        if state.phase is Phase.HAND_OUT:
            return ask_hand_out(self.prompt, state, acts, self.names, self._hand_out_total)
        while True:
            k = ask_turn(self.prompt, state, acts, self.names)
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
            return self.prompt.faces(plural(_CARGO_TIE_BREAK, n, name=name), n)
        elif state.phase is Phase.HAND_OUT_ROLL:
            prompt = _("Captain {name}: roll one die for the sips you hand out, and type its face:")
        elif state.turn is not None and state.turn.complete:
            return self.prompt.faces(plural(_CARGO_AGAIN, n, name=name), n)
        elif n == state.rules.dice:
            return self.prompt.faces(plural(_ALL_DICE, n, name=name), n)
        else:
            return self.prompt.faces(plural(_FREE_DICE, n, name=name), n)
        return self.prompt.faces(prompt.format(name=name, n=n), n)


#: The key press before a person's roll (``scc play`` without ``--fast``).
_PRESS_ENTER = NP_("{name}: press Enter to roll the die.", "{name}: press Enter to roll {n} dice.")
#: The companion's questions for a number of dice.
_CARGO_AGAIN = NP_(
    "{name}: roll the one cargo die again, and type its face:",
    "{name}: roll the {n} cargo dice again, and type the faces:",
)
_ALL_DICE = NP_(
    "{name}: roll the die and type its face:", "{name}: roll all {n} dice and type the faces:"
)
_CARGO_TIE_BREAK = NP_(
    "{name}: roll the cargo die for the tie-break, and type its face:",
    "{name}: roll {n} dice for the cargo tie-break, and type the faces:",
)
_FREE_DICE = NP_(
    "{name}: roll the free die and type its face:",
    "{name}: roll the {n} free dice and type the faces:",
)
