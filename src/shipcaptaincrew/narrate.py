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

from .actions import Action, HandOut, RerollCargo, Roll, Stand, Take
from .engine import seat_to_act
from .messages import N_, Message
from .state import ROLE_NAMES, MatchState, Method, Phase, Purpose, TurnPhase, TurnState
from .turn import apply as turn_apply

__all__ = ["GAME_WORDS", "Message", "narrate", "narrate_parts", "transcript"]


#: Game words used as parameters; catalogues translate them like any message.
GAME_WORDS = (N_("ship"), N_("captain"), N_("crew"), N_("turn"), N_("cargo dice"), N_("one die"))


def _faces(faces: Sequence[int]) -> str:
    return " ".join(map(str, faces))


def _names(names: Sequence[str], seats: Sequence[int]) -> str:
    return ", ".join(names[s] for s in seats)


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

    A front end can show the dice between the two (the turn's dice, then the round's result).
    """
    out: list[Message] = []
    seat = seat_to_act(before)
    who = names[seat] if seat is not None else ""
    if before.phase is Phase.TURN and before.turn is not None:
        out += _turn_messages(before.turn, action, who)
    elif isinstance(action, Roll) and before.phase is Phase.ROLL_OFF:
        out.append(
            Message(
                N_("{name} rolls {face} to decide who starts."),
                {"name": who, "face": action.faces[0]},
            )
        )
    elif isinstance(action, Roll) and before.phase is Phase.CARGO_ROLL_OFF:
        out.append(
            Message(
                N_("{name} rolls the cargo dice for the tie-break: {faces} = {total}."),
                {"name": who, "faces": _faces(action.faces), "total": sum(action.faces)},
            )
        )
    elif isinstance(action, Roll) and before.phase is Phase.HAND_OUT_ROLL:
        # How many sips the die means is the engine's answer (after.hand_out_left).
        sips = after.hand_out_left
        msgid = (
            N_("Captain {name} rolls {face} and hands out one sip.")
            if sips == 1
            else N_("Captain {name} rolls {face} and hands out {sips} sips.")
        )
        out.append(Message(msgid, {"name": who, "face": action.faces[0], "sips": sips}))
    elif isinstance(action, HandOut):
        out.append(
            Message(N_("{name} gives a sip to {other}."), {"name": who, "other": names[action.to]})
        )
    return out, _table_messages(before, after, names)


def _turn_messages(t: TurnState, action: Action, who: str) -> list[Message]:
    nt = turn_apply(t, action)  # the turn's own step, straight from the engine
    out: list[Message] = []
    if isinstance(action, Roll):
        faces = _faces(action.faces)
        roles = ROLE_NAMES[len(t.held) : len(nt.held)]
        if t.complete:
            out.append(
                Message(
                    N_("{name} rerolls the cargo: {faces}; cargo {a} + {b} = {score}."),
                    {
                        "name": who,
                        "faces": faces,
                        "a": nt.cargo[0],
                        "b": nt.cargo[1],
                        "score": nt.score,
                    },
                )
            )
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
        if action.keep is None:
            out.append(Message(N_("{name} rerolls both cargo dice."), {"name": who}))
        else:
            out.append(
                Message(
                    N_("{name} keeps a {face} and rerolls the other cargo die."),
                    {"name": who, "face": action.keep},
                )
            )
    if nt.complete and not t.complete:
        out.append(
            Message(
                N_("Full crew! Cargo {a} + {b} = {score}.")
                if not nt.bonus
                else N_("Full crew in one roll! Cargo {a} + {b} + bonus {bonus} = {score}."),
                {"a": nt.cargo[0], "b": nt.cargo[1], "score": nt.score, "bonus": nt.bonus},
            )
        )
    if nt.phase is TurnPhase.DONE:
        if nt.complete:
            out.append(Message(N_("{name} scores {score}."), {"name": who, "score": nt.score}))
        else:
            out.append(Message(N_("{name} has no full crew: 0 points."), {"name": who}))
    return out


def _table_messages(before: MatchState, after: MatchState, names: Sequence[str]) -> list[Message]:
    out: list[Message] = []
    if before.phase is Phase.ROLL_OFF and after.phase is not Phase.ROLL_OFF:
        out.append(Message(N_("{name} starts."), {"name": names[after.starter]}))
    if after.replays > before.replays:
        out.append(Message(N_("Nobody completed a crew: the round is played again.")))
    if len(after.results) > len(before.results):
        r = after.results[-1]
        if r.winner is None:
            if r.all_failed:
                out.append(
                    Message(
                        N_("Round {n}: nobody completed a crew; the pot stays."), {"n": r.round_no}
                    )
                )
            else:
                out.append(Message(N_("Round {n}: no winner."), {"n": r.round_no}))
        else:
            out.append(
                Message(
                    N_("Round {n}: {name} wins with {score}."),
                    {"n": r.round_no, "name": names[r.winner], "score": r.scores[r.winner]},
                )
            )
            if r.pot_won:
                out.append(
                    Message(
                        N_("{name} takes the pot of {chips} chips."),
                        {"name": names[r.winner], "chips": r.pot_won},
                    )
                )
        for s, sips in enumerate(r.sips):
            if sips:
                msgid = (
                    N_("{name} drinks a sip.") if sips == 1 else N_("{name} drinks {sips} sips.")
                )
                out.append(Message(msgid, {"name": names[s], "sips": sips}))
    bc, ac = before.contest, after.contest
    if ac is not None and ac is not bc and ac.purpose is not Purpose.ROUND and not ac.scores:
        method = {
            Method.TURN: N_("turn"),
            Method.CARGO: N_("cargo dice"),
            Method.DIE: N_("one die"),
        }[ac.method]
        if ac.purpose is Purpose.STARTER:
            out.append(
                Message(
                    N_("Tie for the start between {names}: they roll again."),
                    {"names": _names(names, ac.seats)},
                )
            )
        elif ac.purpose is Purpose.FINAL_PLACES:
            out.append(
                Message(
                    N_("Tie for a place in the final between {names}: tie-break by {method}."),
                    {"names": _names(names, ac.seats), "method": (method,)},
                )
            )
        elif ac.purpose is Purpose.MATCH_TIE:
            out.append(
                Message(
                    N_("Tie for the match between {names}: tie-break by {method}."),
                    {"names": _names(names, ac.seats), "method": (method,)},
                )
            )
        else:
            out.append(
                Message(
                    N_("Tie between {names}: tie-break by {method}."),
                    {"names": _names(names, ac.seats), "method": (method,)},
                )
            )
    if after.finalists and not before.finalists:
        out.append(Message(N_("Final: {names}."), {"names": _names(names, after.finalists)}))
    if after.is_over and not before.is_over:
        if after.winner is None:
            out.append(Message(N_("The match is over without a winner.")))
        else:
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
