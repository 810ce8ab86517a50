"""What happened, in words: messages describing each step of a match.

:func:`narrate` compares the state before and after one event and returns :class:`Message`
values: an English message id with named parameters.  ``str(message)`` is the English text;
front ends translate the id through the message catalogues (gettext) and format the same
parameters, so every front end and the ``scc replay`` transcript tell the same story.
Parameters that are themselves game words (role names) are message ids too, listed in
:data:`GAME_WORDS`, so a translation can translate them.

>>> from shipcaptaincrew.rules import find_rules
>>> from shipcaptaincrew.engine import initial_state, apply
>>> from shipcaptaincrew.actions import Roll
>>> s = initial_state(find_rules("classic").replace(starter="chosen"), 2)
>>> t = apply(s, Roll((6, 5, 3, 3, 1)))
>>> [str(m) for m in narrate(s, Roll((6, 5, 3, 3, 1)), t, ["Anna", "Bo"])]
['Anna rolls 6 5 3 3 1 and sets aside ship, captain.']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .actions import (
    Action,
    HandOut,
    HandOutSplit,
    Leave,
    NextRound,
    RerollCargo,
    Roll,
    Stand,
    Stay,
    StopHandOut,
    StopMatch,
    Take,
)
from .engine import seat_to_act
from .messages import N_, NP_, Message
from .narrate_round import POT, contest_messages, counted, names_of, round_result
from .rules import HandOutAmount
from .state import ROLE_NAMES, MatchState, Phase, Purpose, TurnPhase, TurnState
from .turn import apply as turn_apply

__all__ = ["GAME_WORDS", "Message", "cargo_sum", "narrate", "narrate_parts", "transcript"]


#: Game words used as parameters; catalogues translate them like any message.
GAME_WORDS = (
    N_("ship"),
    N_("captain"),
    N_("crew"),
    N_("turn"),
    N_("cargo dice"),
    N_("cargo die"),
    N_("one die"),
)


def _faces(faces: Sequence[int]) -> str:
    return " ".join(map(str, faces))


def cargo_sum(faces: Sequence[int]) -> str:
    """The cargo's dice as a sum to read (``2 + 6``, ``2 + 6 + 1``, ``4``): as many as the cup
    left, so no shell writes the sheets' two.

    >>> cargo_sum((2, 6)), cargo_sum((1, 2, 6)), cargo_sum((4,))
    ('2 + 6', '1 + 2 + 6', '4')
    """
    return " + ".join(map(str, faces))


def _cargo_scored(t: TurnState) -> Message:
    """A completed cargo and its score, one whole sentence per case.

    A cargo of one die (``dice=4``) is its own score, so it is said once; a cargo of several is
    said as the sum it is (``Cargo 2 + 6 = 8``).  The sentences after a cargo reroll are
    :func:`_cargo_rerolled`'s.
    """
    params = {"cargo": cargo_sum(t.cargo), "score": t.score, "bonus": t.bonus}
    if t.bonus:
        return Message(
            N_("Full crew in one roll! Cargo {cargo} + bonus {bonus} = {score}."), params
        )
    if t.rules.cargo_dice == 1:
        return Message(N_("Full crew! Cargo {score}."), params)
    return Message(N_("Full crew! Cargo {cargo} = {score}."), params)


def _cargo_rerolled(who: str, faces: str, t: TurnState) -> Message:
    """A cargo reroll's dice and the cargo it leaves (whole sentences, as :func:`_cargo_scored`)."""
    params = {"name": who, "faces": faces, "cargo": cargo_sum(t.cargo), "bonus": t.bonus}
    params["score"] = t.score
    if t.bonus:
        msgid = N_("{name} rerolls the cargo: {faces}; cargo {cargo} + bonus {bonus} = {score}.")
    elif t.rules.cargo_dice == 1:
        msgid = N_("{name} rerolls the cargo: {faces}; cargo {score}.")
    else:
        msgid = N_("{name} rerolls the cargo: {faces}; cargo {cargo} = {score}.")
    return Message(msgid, params)


def _reroll_choice(who: str, t: TurnState, keep: int | None) -> Message:
    """Rerolling the whole cargo, or (half cargo) all of it but one die, in words that count
    the dice: "both" of the sheets' two, "the cargo die" of one, "all three" of three."""
    cargo = t.rules.cargo_dice
    if keep is not None:
        ids = NP_(
            "{name} keeps a {face} and rerolls the other cargo die.",
            "{name} keeps a {face} and rerolls the other {n} cargo dice.",
        )
        return counted(ids, "n", name=who, face=keep, n=cargo - 1)
    if cargo == 1:
        return Message(N_("{name} rerolls the cargo die."), {"name": who})
    if cargo == 2:
        return Message(N_("{name} rerolls both cargo dice."), {"name": who})
    ids = NP_("{name} rerolls the {n} cargo die.", "{name} rerolls all {n} cargo dice.")
    return counted(ids, "n", name=who, n=cargo)


def narrate(
    before: MatchState, action: Action, after: MatchState, names: Sequence[str]
) -> list[Message]:
    """Messages for one event (``after = apply(before, action)``)."""
    own, table = narrate_parts(before, action, after, names)
    return own + table


def narrate_parts(
    before: MatchState, action: Action, after: MatchState, names: Sequence[str]
) -> tuple[list[Message], list[Message]]:
    """:func:`narrate` in two parts: the acting player's own step, then what it did to the table.

    A front end can show the dice between the two: the step ("Anna rolls 6 5 4 3 3 ..."),
    then the board, then the outcome ("Anna scores 6.", the round's result, the next round).
    A round's result comes before the captain hands out its sips.
    """
    out: list[Message] = []
    outcome: list[Message] = []
    seat = seat_to_act(before)
    who = names[seat] if seat is not None else ""
    if isinstance(action, Leave):  # the table's step, whoever is to act
        out.append(
            Message(
                N_("{name} leaves the match once this round is over."),
                {"name": names[action.seat]},
            )
        )
    elif isinstance(action, Stay):  # the table's step too: the leave is undone
        out.append(
            Message(N_("{name} is back and stays in the match."), {"name": names[action.seat]})
        )
    elif before.phase is Phase.TURN and before.turn is not None:
        tie_break = before.contest is not None and before.contest.purpose is not Purpose.ROUND
        out, outcome = _turn_messages(before.turn, action, who, tie_break)
    elif isinstance(action, Roll) and before.phase is Phase.ROLL_OFF:
        out.append(
            Message(
                N_("{name} rolls {face} to decide who starts."),
                {"name": who, "face": action.faces[0]},
            )
        )
    elif isinstance(action, Roll) and before.phase is Phase.CARGO_ROLL_OFF:
        params = {"name": who, "faces": _faces(action.faces), "total": sum(action.faces)}
        if before.rules.cargo_dice == 1:
            msgid = N_("{name} rolls the cargo die for the tie-break: {total}.")
        else:
            msgid = N_("{name} rolls the cargo dice for the tie-break: {faces} = {total}.")
        out.append(Message(msgid, params))
    elif isinstance(action, Roll) and before.phase is Phase.HAND_OUT_ROLL:
        # How many sips the die means is the engine's answer (after.hand_out_left).
        ids = (
            NP_(
                "Captain {name} rolls {face} and may hand out up to one sip.",
                "Captain {name} rolls {face} and may hand out up to {sips} sips.",
            )
            if before.rules.hand_out is HandOutAmount.UP_TO
            else NP_(
                "Captain {name} rolls {face} and hands out one sip.",
                "Captain {name} rolls {face} and hands out {sips} sips.",
            )
        )
        out.append(counted(ids, "sips", name=who, face=action.faces[0], sips=after.hand_out_left))
    elif isinstance(action, (HandOut, HandOutSplit)):
        shares = action.shares if isinstance(action, HandOutSplit) else ((action.to, 1),)
        for to, n in shares:
            ids = NP_("{name} gives a sip to {other}.", "{name} gives {sips} sips to {other}.")
            out.append(counted(ids, "sips", name=who, other=names[to], sips=n))
    elif isinstance(action, StopHandOut):
        out.append(Message(N_("{name} hands out no more sips."), {"name": who}))
    elif isinstance(action, NextRound):
        out.append(Message(N_("{name} calls another round."), {"name": who}))
    elif isinstance(action, StopMatch):
        out.append(Message(N_("{name} calls a stop: the totals decide the match."), {"name": who}))
    return out, outcome + _table_messages(before, after, names)


def _turn_messages(
    t: TurnState, action: Action, who: str, tie_break: bool = False
) -> tuple[list[Message], list[Message]]:
    """The turn's step (the roll or choice) and its outcome once the turn is over (a
    tie-break turn's score said as the tie-break's)."""
    nt = turn_apply(t, action)  # the turn's own step, straight from the engine
    out: list[Message] = []
    if isinstance(action, Roll):
        faces = _faces(action.faces)
        roles = ROLE_NAMES[len(t.held) : len(nt.held)]
        if t.complete:
            out.append(_cargo_rerolled(who, faces, nt))
        elif nt.phase is TurnPhase.ASSIGN:
            out.append(
                Message(
                    N_("{name} rolls {faces}: choose which dice to set aside."),
                    {"name": who, "faces": faces},
                )
            )
        elif roles:
            out.append(
                Message(
                    N_("{name} rolls {faces} and sets aside {roles}."),
                    {"name": who, "faces": faces, "roles": roles},
                )
            )
        else:
            out.append(Message(N_("{name} rolls {faces}."), {"name": who, "faces": faces}))
    elif isinstance(action, Take):
        roles = ROLE_NAMES[len(t.held) : len(nt.held)]
        out.append(
            Message(
                N_("{name} sets aside {faces} as {roles}."),
                {"name": who, "faces": _faces(action.faces), "roles": roles},
            )
        )
    elif isinstance(action, Stand):
        out.append(Message(N_("{name} stands."), {"name": who}))
    elif isinstance(action, RerollCargo):
        out.append(_reroll_choice(who, t, action.keep))
    if nt.complete and not t.complete:
        out.append(_cargo_scored(nt))
    outcome: list[Message] = []
    if nt.phase is TurnPhase.DONE:
        params = {"name": who, "score": nt.score}
        if tie_break and nt.complete:
            outcome.append(Message(N_("{name} scores {score} in the tie-break."), params))
        elif tie_break:
            outcome.append(Message(N_("{name} has no full crew in the tie-break: 0."), params))
        elif nt.complete:
            outcome.append(Message(N_("{name} scores {score}."), params))
        else:
            outcome.append(Message(N_("{name} has no full crew: 0 points."), params))
    return out, outcome


def _table_messages(before: MatchState, after: MatchState, names: Sequence[str]) -> list[Message]:
    out: list[Message] = []
    if after.replays > before.replays:
        out.append(Message(N_("Nobody completed a crew: the round is played again.")))
    if after.phase is Phase.HAND_OUT_ROLL and before.phase is not Phase.HAND_OUT_ROLL:
        # The round is decided; its result comes before the captain hands out the sips.
        out += round_result(
            after.round_no,
            after.round_winner,
            after.round_scores,
            after.round_pot_won,
            False,
            names,
            after.round_tie_breaks,
        )
    if len(after.results) > len(before.results):
        r = after.results[-1]
        if before.phase is not Phase.HAND_OUT:  # else told when the hand-out began
            out += round_result(
                r.round_no, r.winner, r.scores, r.pot_won, r.all_failed, names, r.tie_breaks
            )
        for s, sips in enumerate(r.sips):
            if sips:
                ids = NP_("{name} drinks a sip.", "{name} drinks {sips} sips.")
                out.append(counted(ids, "sips", name=names[s], sips=sips))
    for s in after.departed[len(before.departed) :]:
        out.append(Message(N_("{name} has left the match."), {"name": names[s]}))
    out += contest_messages(before, after, names)
    if after.finalists and not before.finalists:
        out.append(Message(N_("Final: {names}."), {"names": names_of(names, after.finalists)}))
    if after.round_no > before.round_no:
        if after.tie_round:
            out.append(
                Message(
                    N_("Round {n} is played among {names} to break the tie."),
                    {"n": after.round_no, "names": names_of(names, after.round_seats)},
                )
            )
        # The seat that plays first, which need not be the rotation's seat (a seat that sits
        # out without chips, or is no finalist, passes the start on).
        out.append(
            Message(
                N_("{name} starts round {n}."),
                {"name": names[after.round_seats[0]], "n": after.round_no},
            )
        )
    if after.is_over and not before.is_over:
        if after.winner is None:
            out.append(Message(N_("The match is over without a winner.")))
        else:
            if after.match_pot_won:
                out.append(
                    counted(POT, "chips", name=names[after.winner], chips=after.match_pot_won)
                )
            out.append(Message(N_("{name} wins the match!"), {"name": names[after.winner]}))
    return out


def transcript(
    states: Sequence[tuple[MatchState, Action | None]],
    names: Sequence[str],
    translate: Callable[[str], str] | None = None,
) -> list[str]:
    """A readable transcript from :func:`~.notation.replay_states` output."""
    lines: list[str] = []
    for (before, _), (after, action) in zip(states, states[1:]):
        assert action is not None
        lines += [m.render(translate) for m in narrate(before, action, after, names)]
    return lines
