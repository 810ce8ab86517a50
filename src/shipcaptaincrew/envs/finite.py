"""The finite variant of the OpenSpiel game: a cap on repeats, and a real bound on its length.

The rules repeat without end in three ways, so the game tree of a match is infinite and an
exact tree solver never finishes:

* a round that every player fails is played again (``all_fail=replay``, 002.20), counted by
  :attr:`~shipcaptaincrew.state.MatchState.replays`;
* a contest whose top is tied is contested again -- a round's tie-break, the starter's
  roll-off, a tie for the match or for a place in the final -- counted by the contest's
  :attr:`~shipcaptaincrew.state.Contest.depth`;
* a round without a winner is followed by another that the format does not count towards its
  end: under ``single``, ``first_to:N``, ``wins:N`` and in the tournament's final every round
  without a winner, and in any format a round among tied players (``tie_break=round``) without
  one.  Their trailing run is :func:`winnerless_run`.

The rules themselves have no cap, and the engine is not changed to get one.  The adapter
ends the game instead: with ``replay_cap=K``, once any of the three counts exceeds ``K``
(:func:`at_cap`) the game is over as a *draw*, every player's return being ``1/players``
(:func:`draw_returns`), so the game stays constant-sum.  Everything before the cap is the
rules' game exactly.  Under the cap every repeat is bounded and so is every match;
:func:`max_moves` is a true bound on the number of moves (chance outcomes and decisions).

>>> from shipcaptaincrew.rules import find_rules
>>> max_moves(find_rules("classic"), players=2, cap=0, session_rounds=5)
128
"""

from __future__ import annotations

from ..facts import FACES
from ..formats import FormatKind
from ..positions import turn_scores
from ..rules import Rules
from ..state import MatchState, RoundResult, Stage

__all__ = [
    "AFTER_ROUND_MOVES",
    "at_cap",
    "draw_returns",
    "is_repeat",
    "max_moves",
    "repeats",
    "turn_moves",
    "winnerless_run",
]

#: After a round's turns: the captain's die, a sip per pip and the hand-out's stop, and a
#: session's call for another round.
AFTER_ROUND_MOVES = 1 + max(FACES) + 1 + 1
#: The formats where every round counts towards the end, so a round without a winner is no repeat.
_COUNTED = (FormatKind.ROUNDS, FormatKind.SESSION)


def turn_moves(rules: Rules, roll_action: bool = False) -> int:
    """The moves of one turn at most: per roll the dice, a wild assignment and a stand-or-reroll
    call; and the player's opening roll where the game has one (``roll_action``).

    >>> from shipcaptaincrew.rules import find_rules
    >>> turn_moves(find_rules("classic")), turn_moves(find_rules("classic"), roll_action=True)
    (9, 10)
    """
    return rules.rolls * 3 + int(roll_action)


def is_repeat(rules: Rules, result: RoundResult) -> bool:
    """A round without a winner that brings the match no nearer to its end."""
    if result.winner is not None:
        return False
    if result.tie_round:
        return True
    kind = rules.format.kind
    if kind is FormatKind.TOURNAMENT:
        return result.stage is Stage.FINAL
    return kind not in _COUNTED


def winnerless_run(state: MatchState) -> int:
    """How many of the last rounds in a row were repeats (:func:`is_repeat`)."""
    run = 0
    for result in reversed(state.results):
        if not is_repeat(state.rules, result):
            break
        run += 1
    return run


def repeats(state: MatchState) -> int:
    """The largest of the three repeat counts: replays, the contest's depth, the winnerless run."""
    depth = state.contest.depth if state.contest is not None else 0
    return max(state.replays, depth, winnerless_run(state))


def at_cap(state: MatchState, cap: int | None) -> bool:
    """The game ends here as a draw under ``replay_cap=cap`` (never when ``cap`` is None)."""
    return cap is not None and not state.is_over and repeats(state) > cap


def draw_returns(players: int) -> list[float]:
    """Every player's return when the game ends at the cap: an equal share of the one win."""
    return [1.0 / players] * players


def _rounds(rules: Rules, players: int, cap: int, session_rounds: int) -> int:
    """The most rounds a match can have under the cap."""
    fmt = rules.format
    tie_chain = cap + 1  # rounds among tied players after a counted round, at most
    if fmt.kind is FormatKind.ROUNDS:
        return fmt.n * (1 + tie_chain)
    if fmt.kind is FormatKind.SESSION:
        return session_rounds + tie_chain
    if fmt.kind is FormatKind.TOURNAMENT:
        return 2 * (1 + tie_chain) + cap + 1
    if fmt.kind is FormatKind.SINGLE:
        winning = 1
    elif fmt.kind is FormatKind.WINS:
        winning = players * (fmt.n - 1) + 1
    else:
        # first_to:N: a round's winner scores at least the lowest cargo.
        low = min(s for s in turn_scores(rules) if s > 0)
        winning = players * ((fmt.n - 1) // low) + 1
    # At most ``cap`` repeats before each round with a winner, and the one that reaches the cap.
    return winning * (cap + 1) + cap + 1


def max_moves(
    rules: Rules, players: int, cap: int, session_rounds: int, roll_action: bool = False
) -> int:
    """A true bound on a match's moves under ``replay_cap=cap``.

    The starter's roll-off and its repeats; per round every play of it (the first and the
    replays), every tie-break contest, the hand-out and a session's call; then a tie for a
    place in the final and one for the match, with their repeats.  Each contest has at most
    ``players`` seats, each playing a turn of :func:`turn_moves` at most.
    """
    contests = cap + 1  # a contest, then its repeats up to the cap
    turns = contests * players * turn_moves(rules, roll_action)
    per_round = 2 * turns + AFTER_ROUND_MOVES
    return contests * players + _rounds(rules, players, cap, session_rounds) * per_round + 2 * turns
