"""What clients see: a match state as JSON, straight from the engine's own fields.

The view only copies what the engine computed (legal actions, scores, roles held); the front end
draws it and never decides a rule.
"""

from __future__ import annotations

from typing import Any

from ...engine import dice_to_roll, is_chance, legal_actions, seat_to_act, split_choice
from ...state import MatchState, RoundResult


def legal(state: MatchState) -> list[str]:
    """The actor's choices as action texts; ``["roll"]`` when the dice are due."""
    if state.is_over:
        return []
    if is_chance(state):
        return ["roll"]
    return [str(a) for a in legal_actions(state)]


def _result(r: RoundResult) -> dict[str, Any]:
    return {
        "round_no": r.round_no,
        "seats": list(r.seats),
        "scores": list(r.scores),
        "winner": r.winner,
        "sips": list(r.sips),
        "pot_won": r.pot_won,
        "all_failed": r.all_failed,
        "tie_breaks": r.tie_breaks,
        "stage": r.stage,
    }


def _split(state: MatchState) -> dict[str, Any] | None:
    split = split_choice(state)
    return None if split is None else {"seats": list(split.seats), "most": split.most}


def state_view(state: MatchState, *, results: bool = True) -> dict[str, Any]:
    """The public picture of a match (identical for every player and spectator).

    ``results=False`` leaves out the finished rounds' details (only their count stays), which
    keeps every live broadcast small however long the match runs.
    """
    t = state.turn
    c = state.contest
    return {
        "phase": state.phase.value,
        "round_no": state.round_no,
        "stage": state.stage,
        "actor": seat_to_act(state),  # who chooses, rolls or hands out (None when over)
        "chance": is_chance(state),
        # How many dice the roll due takes (0 at a choice): what a table with real dice types.
        "dice_due": dice_to_roll(state),
        # The turn's shape (the rule set's, never a number in the page): the dice in the cup
        # and the cargo's dice, the slots the felt draws.
        "dice": state.rules.dice,
        "cargo_dice": state.rules.cargo_dice,
        "legal": legal(state),
        "contest": None
        if c is None
        else {
            "purpose": c.purpose.value,
            "method": c.method.value,
            "seats": list(c.seats),
            "posted": {str(k): v for k, v in c.posted.items()},
        },
        "turn": None
        if t is None
        else {
            "held": list(t.held),
            "roles": list(t.held_roles),
            "cargo": list(t.cargo),
            "rolls_left": t.rolls_left,
            "rolls_used": t.rolls_used,
            "cargo_rerolls": t.cargo_rerolls,
            "phase": t.phase.value,
            "pending": list(t.pending),
            "keep": t.keep,
            "last_roll": list(t.last_roll),
            "score": t.score,
            "complete": t.complete,
            "free_dice": t.free_dice,
        },
        "round_seats": list(state.round_seats),
        "round_scores": list(state.round_scores),
        "totals": list(state.totals),
        "chips": list(state.chips),
        "pot": state.pot,
        "sips": list(state.sips),
        "wins": list(state.wins),
        "round_sips": list(state.round_sips),
        "round_winner": state.round_winner,
        "hand_out_left": state.hand_out_left,
        # The captain's hand-out in one move (the engine's own bounds: who may get sips, and
        # at most how many in all), or None; its choice is written ``sip:SEATxN,SEATxN``.
        "split": _split(state),
        "finalists": list(state.finalists),
        "winner": state.winner,
        "over": state.is_over,
        "rounds_played": len(state.results),
        "results": [_result(r) for r in state.results] if results else [],
    }
