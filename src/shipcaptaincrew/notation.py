"""The event log: a match as JSON lines that replays to the identical state.

Line 1 is the header (rules in canonical text, players, starter, target, dice source);
every other line is one event: a roll (``{"type": "roll", "seat": 0, "faces": [6, 5, 3, 3, 1]}``)
or a choice (``{"type": "action", "seat": 0, "action": "stand"}``), or a player leaving the
match after the round (``{"type": "leave", "seat": 2}``, the table's step, made whoever is to
act) or staying after all (``{"type": "stay", "seat": 2}``, the leave undone before the round
ended); a provably fair match ends with ``{"type": "reveal", "server_seed": "..."}``.  Replaying applies every event with the
engine, checking that each was made by the seat the engine expected.

>>> from shipcaptaincrew.rules import find_rules
>>> log = MatchLog(rules=str(find_rules("classic")), players=["Anna", "Bo"])
>>> log.append_event({"type": "roll", "seat": 0, "faces": [2]})
>>> MatchLog.from_jsonl(log.to_jsonl()).events == log.events
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import Action, Leave, Roll, Stay, parse_action
from .engine import apply, current_player, initial_state, seat_to_act
from .errors import GameError, os_reason
from .messages import N_
from .rules import Rules
from .state import CHANCE, MatchState

__all__ = [
    "LOG_FORMAT",
    "LogError",
    "MatchLog",
    "event_for",
    "replay",
    "replay_events",
    "replay_states",
]

LOG_FORMAT = "shipcaptaincrew-log"


class LogError(GameError):
    """A log that cannot be read or does not replay (names the line and the problem)."""


@dataclass
class MatchLog:
    """A match's header and events, in memory; :meth:`to_jsonl` / :meth:`from_jsonl` for files."""

    rules: str
    players: list[str]
    kinds: list[str] = field(default_factory=list)
    starter: int | None = None
    target: int | None = None
    dice: dict[str, Any] = field(default_factory=dict)
    lang: str = "en"
    events: list[dict[str, Any]] = field(default_factory=list)
    server_seed: str | None = None

    def header(self) -> dict[str, Any]:
        """The first line of the log."""
        return {
            "type": "match",
            "format": LOG_FORMAT,
            "version": 1,
            "rules": self.rules,
            "players": self.players,
            "kinds": self.kinds or ["human"] * len(self.players),
            "starter": self.starter,
            "target": self.target,
            "dice": self.dice,
            "lang": self.lang,
        }

    def append_event(self, event: dict[str, Any]) -> None:
        """Add one event (a roll or an action)."""
        self.events.append(event)

    def lines(self) -> list[str]:
        """Every line of the log, as JSON texts."""
        out = [json.dumps(self.header(), ensure_ascii=False)]
        out += [json.dumps(e, ensure_ascii=False) for e in self.events]
        if self.server_seed is not None:
            out.append(json.dumps({"type": "reveal", "server_seed": self.server_seed}))
        return out

    def to_jsonl(self) -> str:
        """The whole log as JSON lines."""
        return "\n".join(self.lines()) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the log to a file."""
        Path(path).write_text(self.to_jsonl(), encoding="utf-8")

    @classmethod
    def from_jsonl(cls, text: str) -> MatchLog:
        """Read a log; a malformed line raises :class:`LogError` naming it."""
        rows: list[dict[str, Any]] = []
        for no, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise LogError(
                    N_("line {no} is not JSON (column {column})"), no=no, column=e.colno
                ) from None
            if not isinstance(row, dict) or "type" not in row:
                raise LogError(N_("line {no} is not an event object with a 'type'"), no=no)
            rows.append(row)
        if not rows or rows[0].get("type") != "match" or rows[0].get("format") != LOG_FORMAT:
            raise LogError(N_("line 1 is not a shipcaptaincrew match header"))
        h = rows[0]
        try:
            log = cls(
                rules=str(h["rules"]),
                players=[str(p) for p in h["players"]],
                kinds=[str(k) for k in h.get("kinds", [])],
                starter=h.get("starter"),
                target=h.get("target"),
                dice=dict(h.get("dice", {})),
                lang=str(h.get("lang", "en")),
            )
        except (KeyError, TypeError) as e:
            raise LogError(N_("line 1: the header lacks {field}"), field=str(e)) from None
        for no, row in enumerate(rows[1:], 2):
            if row["type"] == "reveal":
                log.server_seed = str(row.get("server_seed", ""))
            elif row["type"] in ("roll", "action", "leave", "stay"):
                log.events.append(row)
            else:
                raise LogError(
                    N_("line {no}: unknown event type {kind}"), no=no, kind=repr(row["type"])
                )
        return log

    @classmethod
    def load(cls, path: str | Path) -> MatchLog:
        """Read a log file."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise LogError(N_("cannot read it: {reason}"), reason=os_reason(e)) from None
        except UnicodeDecodeError as e:
            raise LogError(N_("cannot read it: {reason}"), reason=os_reason(e)) from None
        return cls.from_jsonl(text)

    def initial_state(self) -> MatchState:
        """The match's state before its first event."""
        return initial_state(
            Rules.from_str(self.rules),
            len(self.players),
            starter=self.starter,
            target=self.target,
        )

    def rolls(self) -> list[list[int]]:
        """Every roll's faces, in order (for verifying fair dice)."""
        return [list(e["faces"]) for e in self.events if e["type"] == "roll"]


def event_for(state: MatchState, action: Action) -> dict[str, Any]:
    """The log event for applying ``action`` to ``state``."""
    if isinstance(action, Roll):
        return {"type": "roll", "seat": seat_to_act(state), "faces": list(action.faces)}
    if isinstance(action, Leave):
        return {"type": "leave", "seat": action.seat}
    if isinstance(action, Stay):
        return {"type": "stay", "seat": action.seat}
    return {"type": "action", "seat": current_player(state), "action": str(action)}


def _action_of(no: int, event: dict[str, Any]) -> Action:
    try:
        if event["type"] == "roll":
            faces = event["faces"]
            if not isinstance(faces, list) or not all(isinstance(f, int) for f in faces):
                raise LogError(N_("event {no}: faces must be a list of integers"), no=no)
            return Roll(tuple(faces))
        if event["type"] in ("leave", "stay"):
            seat = event["seat"]
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise LogError(N_("event {no}: the seat that leaves must be a number"), no=no)
            return Leave(seat) if event["type"] == "leave" else Stay(seat)
        action = parse_action(str(event["action"]))
        if isinstance(action, Leave | Stay):
            raise LogError(N_("event {no}: a leave is an event of its own, not a choice"), no=no)
        return action
    except KeyError as e:
        raise LogError(N_("event {no} lacks {field}"), no=no, field=str(e)) from None
    except ValueError as e:
        if isinstance(e, LogError):
            raise
        raise LogError(N_("event {no}: {reason}"), no=no, reason=e) from None


def replay_events(
    state: MatchState, events: Iterable[dict[str, Any]], start: int = 0
) -> list[tuple[MatchState, Action]]:
    """Apply logged events to ``state`` with the engine: (the state after, the action) per event.

    Every event is checked as the engine expects it: made by the seat whose turn it is, a roll
    exactly where dice are due.  One function for every replay, so a log read from a file, a
    server restarting from its database and a server catching up with the moves another server
    committed all accept exactly the same events.  ``start``: how many events came before these
    (a refusal names the event's number in the whole log).

    >>> from shipcaptaincrew.engine import initial_state
    >>> from shipcaptaincrew.rules import find_rules
    >>> first = initial_state(find_rules("classic"), 2)
    >>> [str(a) for _, a in replay_events(first, [{"type": "roll", "seat": 0, "faces": [2]}])]
    ['roll:2']
    >>> replay_events(first, [{"type": "roll", "seat": 1, "faces": [2]}], start=4)
    Traceback (most recent call last):
    ...
    shipcaptaincrew.notation.LogError: event 5: made by seat 1, expected seat 0
    """
    out: list[tuple[MatchState, Action]] = []
    for no, event in enumerate(events, start + 1):
        action = _action_of(no, event)
        who = seat_to_act(state) if current_player(state) == CHANCE else current_player(state)
        if isinstance(action, Leave | Stay):
            pass  # the table's step, made whoever is to act (the engine checks the seat)
        elif event.get("seat") != who:
            raise LogError(
                N_("event {no}: made by seat {seat}, expected seat {expected}"),
                no=no,
                seat=event.get("seat"),
                expected=who,
            )
        elif (event["type"] == "roll") != (current_player(state) == CHANCE):
            expected = N_("an action") if event["type"] == "roll" else N_("a roll")
            raise LogError(
                N_("event {no}: the match expected {expected} here"),
                no=no,
                expected=(expected,),
            )
        try:
            state = apply(state, action)
        except ValueError as e:
            raise LogError(N_("event {no}: {reason}"), no=no, reason=e) from None
        out.append((state, action))
    return out


def replay_states(log: MatchLog) -> list[tuple[MatchState, Action | None]]:
    """Every state of the match with the event that led to it (None for the first)."""
    try:
        state = log.initial_state()
    except ValueError as e:
        raise LogError(N_("line 1: {reason}"), reason=e) from None
    return [(state, None), *replay_events(state, log.events)]


def replay(log: MatchLog) -> MatchState:
    """The state a log replays to."""
    return replay_states(log)[-1][0]
