"""The schema of the exported tables: every column's name, type and meaning, in one place.

``scc export`` writes these tables (:mod:`.export_tables` fills them, :mod:`.export_write`
writes them); ``docs/export.md`` documents the same columns, and a test holds the two to
each other.  Probabilities are floats; where the solver's source is exact (a
:class:`~fractions.Fraction`: single turns) an ``*_exact`` text column holds the rational
``p/q`` as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["SCHEMAS", "Column", "ColumnType", "TableKind"]


class ColumnType(str, Enum):
    """A column's type (the same in every file format; ``null`` where a value does not apply)."""

    INT = "int"
    FLOAT = "float"
    TEXT = "text"
    BOOL = "bool"


class TableKind(str, Enum):
    """The exported tables, by their file name."""

    TURN_ODDS = "turn_odds"
    DECISIONS = "decisions"
    ROUND_EQUILIBRIUM = "round_equilibrium"
    MATCH_EQUILIBRIUM = "match_equilibrium"
    BEST_RESPONSE = "best_response"


@dataclass(frozen=True)
class Column:
    """One column: its name, type and what it holds."""

    name: str
    type: ColumnType
    meaning: str


_I, _F, _T, _B = ColumnType.INT, ColumnType.FLOAT, ColumnType.TEXT, ColumnType.BOOL

_STATE = (
    Column("state_key", _T, "the turn state, one text per distinct state"),
    Column("rolls_used", _I, "rolls made so far this turn (0 up to the rule set's rolls)"),
    Column("rolls_left", _I, "rolls still available this turn"),
    Column("held", _T, "faces set aside as ship, captain, crew, in that order"),
    Column("cargo", _T, "the cargo faces (empty before the crew is complete)"),
    Column("cargo_sum", _I, "the cargo total (0 before the crew is complete)"),
    Column("cargo_rerolls", _I, "cargo rerolls used so far this turn"),
    Column("pending", _T, "wild captain: the roll awaiting an assignment (else empty)"),
    Column("bonus", _I, "same-roll bonus earned this turn"),
)

SCHEMAS: dict[TableKind, tuple[Column, ...]] = {
    TableKind.TURN_ODDS: (
        Column("policy", _T, "the turn policy: never, ev or threshold:T"),
        Column("score", _I, "a final score of the turn (0: no full crew)"),
        Column("probability", _F, "the chance of ending the turn with this score"),
        Column("probability_exact", _T, "the same chance as an exact rational p/q"),
    ),
    TableKind.DECISIONS: (
        Column("objective", _T, "win: the round-winning plan at this table; ev: the best score"),
        Column("players", _I, "seats in the round (null for ev)"),
        Column("position", _I, "the player's place in the round's play order, 1 first"),
        Column("players_after", _I, "players still to play after this turn (null for ev)"),
        Column("posted_best", _I, "the highest score posted before this turn (0: none)"),
        Column(
            "tied_at_top",
            _I,
            "players who posted posted_best (with posted_best 0: players who failed)",
        ),
        *_STATE,
        Column("action", _T, "a legal action, as the engine writes it"),
        Column("action_kind", _T, "stand, reroll (both or half cargo) or take (wild captain)"),
        Column("keep", _I, "half cargo: the face kept while the other die is rerolled"),
        Column("take", _T, "wild captain: the faces assigned to the next roles"),
        Column("planned", _B, "whether the plan takes this action here"),
        Column("win_probability", _F, "the chance to win the round after this action (win)"),
        Column("expected_score", _F, "the expected final score after this action"),
        Column("expected_score_exact", _T, "the expected score as an exact rational (ev)"),
    ),
    TableKind.ROUND_EQUILIBRIUM: (
        Column("lineup", _T, "every seat's policy, comma-separated, in play order"),
        Column("seat", _I, "the seat's place in the round's play order, 1 first"),
        Column("seat_policy", _T, "this seat's policy"),
        Column("win_probability", _F, "this seat's chance to win the round"),
        Column("p_all_fail_per_round", _F, "the chance that everyone fails in one playing"),
    ),
    TableKind.MATCH_EQUILIBRIUM: (
        Column("lineup", _T, "every seat's policy, comma-separated, in the first play order"),
        Column("position", _I, "the match position's code in the solver's model"),
        Column("rounds_played", _I, "rounds played before this one (rounds:N; else 0)"),
        Column("opener", _I, "which seat of the line-up opens this round, 1 first"),
        Column("place", _I, "a player's place in this round's play order, 1 first"),
        Column("seat_policy", _T, "the policy of the player at this place"),
        Column(
            "standing",
            _I,
            "what the format counts for this player: total less the lowest (rounds:N), "
            "total (first_to:N), round wins (wins:N), 0 (single)",
        ),
        Column("match_win_probability", _F, "this player's chance to win the match from here"),
        Column("round_win_probability", _F, "this player's chance to win this round"),
    ),
    TableKind.BEST_RESPONSE: (
        Column("against", _T, "the policy every other seat plays"),
        Column("seat", _I, "the best-responding seat's place in the first play order, 1 first"),
        Column("match_win_probability", _F, "the best response's chance to win the match"),
        Column("round_win_probability", _F, "the best response's chance to win the first round"),
        Column(
            "baseline_match_win_probability",
            _F,
            "the seat's chance when it plays the against policy too",
        ),
        Column("gain", _F, "match_win_probability less the baseline"),
    ),
}
