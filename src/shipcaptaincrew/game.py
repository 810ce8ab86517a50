"""A small mutable shell around the pure engine, for callers that want one object.

:class:`Game` holds the current state, rolls from its dice source, checks every action with
the engine before accepting it (a refused action leaves everything as it was), keeps the
history, and writes the event log as it goes, so a match interrupted at any moment still
leaves a log that replays.

>>> from shipcaptaincrew.rules import find_rules
>>> from shipcaptaincrew.fair import SeededDice
>>> g = Game(find_rules("classic"), ["Anna", "Bo"], dice=SeededDice(7))
>>> while not g.is_over:
...     _ = g.roll() if g.is_chance else g.push(g.legal_actions()[0])
>>> g.state.winner in (0, 1)
True
>>> from shipcaptaincrew.notation import MatchLog, replay
>>> replay(MatchLog.from_jsonl(g.log.to_jsonl())) == g.state
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from .actions import Action, Roll
from .engine import (
    DiceSource,
    apply,
    current_player,
    initial_state,
    is_chance,
    is_terminal,
    legal_actions,
    sample_chance,
)
from .fair import FairDice, SeededDice
from .notation import MatchLog, event_for
from .rules import Rules
from .state import MatchState

__all__ = ["Game"]


class Game:
    """A match in progress: state, dice source, history and event log."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        *,
        dice: DiceSource | None = None,
        starter: int | None = None,
        target: int | None = None,
        kinds: Sequence[str] | None = None,
        log_path: str | Path | None = None,
        lang: str = "en",
    ) -> None:
        self.names = list(players)
        self.dice: DiceSource = dice if dice is not None else SeededDice()
        self.state: MatchState = initial_state(
            rules, len(self.names), starter=starter, target=target
        )
        describe = getattr(self.dice, "describe", None)
        self.log = MatchLog(
            rules=str(rules),
            players=self.names,
            kinds=list(kinds) if kinds else [],
            starter=starter,
            target=target,
            dice=describe() if describe else {"source": type(self.dice).__name__},
            lang=lang,
        )
        self.history: list[tuple[MatchState, Action]] = []
        self.log_path = Path(log_path) if log_path is not None else None
        self._file: IO[str] | None = None
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.log_path.open("w", encoding="utf-8")
            self._write(self.log.lines()[0])

    def _write(self, line: str) -> None:
        if self._file is not None:
            self._file.write(line + "\n")
            self._file.flush()

    @property
    def is_over(self) -> bool:
        """The match has ended."""
        return is_terminal(self.state)

    @property
    def is_chance(self) -> bool:
        """Dice are due."""
        return is_chance(self.state)

    def current_player(self) -> int:
        """The seat to choose (or CHANCE / TERMINAL)."""
        return current_player(self.state)

    def legal_actions(self) -> tuple[Action, ...]:
        """The choices available now."""
        return legal_actions(self.state)

    def push(self, action: Action) -> MatchState:
        """Apply a roll or a choice; refused ones raise and change nothing."""
        before = self.state
        after = apply(before, action)  # raises on anything illegal, before any bookkeeping
        event = event_for(before, action)
        self.state = after
        self.history.append((before, action))
        self.log.append_event(event)
        self._write(json.dumps(event, ensure_ascii=False))
        if self.is_over:
            self.finish()
        return after

    def roll(self) -> Roll:
        """Roll the dice that are due from this game's dice source."""
        roll = sample_chance(self.state, self.dice)
        self.push(roll)
        return roll

    def finish(self) -> None:
        """Reveal a provably fair seed (once the match is over) and close the log file."""
        if isinstance(self.dice, FairDice) and self.is_over and not self.dice.revealed:
            self.log.server_seed = self.dice.reveal()
            self._write(self.log.lines()[-1])
        if self._file is not None:
            self._file.close()
            self._file = None
