"""What the terminal shows: dice as faces, the table's scoreboard, advice and the summary.

Everything here *reads* states made by the engine; nothing decides a rule.  Dice are drawn as
``[6]`` in the colour of their role (ship, captain, crew, cargo, free), so the held dice stand
apart from the free ones even on a terminal without colour (``TERM=dumb`` or ``NO_COLOR``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...actions import (
    Action,
    HandOut,
    HandOutSplit,
    NextRound,
    RerollCargo,
    Stand,
    StopHandOut,
    StopMatch,
    Take,
)
from ...dice import remove_faces
from ...engine import seat_to_act
from ...formats import FormatKind
from ...i18n import _, active_lang, translator
from ...messages import N_, NP_
from ...rules import Drinking, Stakes
from ...solver import Choice
from ...state import ROLE_NAMES, MatchState, Purpose, TurnPhase, TurnState
from ..common import plural

__all__ = [
    "POT",
    "ROLE_STYLES",
    "advice_table",
    "board_key",
    "describe_action",
    "dice_text",
    "scoreboard",
    "summary_table",
    "turn_line",
]

#: The pot on the table, counted in chips.
POT = NP_("pot: one chip", "pot: {n} chips")
#: Markers of the scoreboard's first column, explained in its legend.
PLAYS, STARTED = "▶", "★"
#: The bot levels (``bots.DIFFICULTIES``) as a name tag says them; a bot's own name (``tip``,
#: ``threshold:7``) is shown as it was typed.
LEVEL_WORDS = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "perfect": N_("perfect"),
}


def name_tag(name: str, kind: str) -> str:
    """A seat's name with its bot's level or name after it ("Cy (mittel)"); a person's name."""
    if kind == "human":
        return name
    return f"{name} ({_(LEVEL_WORDS[kind]) if kind in LEVEL_WORDS else kind})"


ROLE_STYLES = {
    "ship": "bold white on blue",
    "captain": "bold white on green",
    "crew": "bold black on yellow",
    "cargo": "bold white on magenta",
    "free": "bold black on white",
    "empty": "dim",
}


def dice_text(faces: Sequence[int], style: str) -> Text:
    """Dice as ``[6] [5]`` in one style."""
    t = Text()
    for i, f in enumerate(faces):
        if i:
            t.append(" ")
        t.append(f"[{f}]", style=style)
    return t


def _role_word(role: str) -> str:
    return {"ship": _("ship"), "captain": _("captain"), "crew": _("crew")}[role]


def turn_line(turn: TurnState, before: TurnState | None = None) -> Text:
    """The held roles, the free dice or cargo, and the rolls left, on one line.

    ``before`` is the turn before the last event: the free dice are what the last roll left
    after the dice it set aside.
    """
    t = Text()
    for i, role in enumerate(ROLE_NAMES):
        if i:
            t.append("  ")
        t.append(_role_word(role) + " ")
        if i < len(turn.held):
            t.append(f"[{turn.held[i]}]", style=ROLE_STYLES[role])
        else:
            t.append("[ ]", style=ROLE_STYLES["empty"])
    t.append("  |  ")
    if turn.phase is TurnPhase.ASSIGN:
        t.append(_("rolled") + " ")
        t.append_text(dice_text(turn.pending, ROLE_STYLES["free"]))
    elif turn.complete:
        t.append(_("cargo") + " ")
        t.append_text(dice_text(turn.cargo, ROLE_STYLES["cargo"]))
        bonus = f" + {turn.bonus}" if turn.bonus else ""
        t.append(f"{bonus} = {turn.score}", style="bold")
    elif turn.last_roll:
        held_before = len(before.held) if before is not None else 0
        taken = turn.held[held_before:] if len(turn.held) >= held_before else ()
        free = remove_faces(tuple(sorted(turn.last_roll)), taken)
        t.append(_("free") + " ")
        t.append_text(dice_text(free, ROLE_STYLES["free"]))
    else:
        t.append(
            _("free") + " " + plural(NP_("one die to roll", "{n} dice to roll"), turn.free_dice)
        )
    t.append("  |  ")
    # A finished turn has nothing left to roll, whatever the three-roll count says (a cargo
    # reroll limit can end it early).
    if turn.phase is TurnPhase.DONE:
        t.append(_("turn over"))
    else:
        t.append(_("rolls left: {n}").format(n=turn.rolls_left))
    return t


def reroll_words(cargo: int, keep: int | None) -> str:
    """A cargo reroll in words that count the cargo's dice (``cargo`` of them): the cargo die,
    both, or all three; under half cargo, the one die kept and the others rerolled."""
    if keep is not None:
        others = NP_(
            "keep the {face}, reroll the other cargo die",
            "keep the {face}, reroll the other {n} cargo dice",
        )
        return plural(others, cargo - 1, face=keep)
    if cargo == 1:
        return _("reroll the cargo die")
    if cargo == 2:
        return _("reroll both cargo dice")
    return plural(NP_("reroll the {n} cargo die", "reroll all {n} cargo dice"), cargo)


def describe_action(action: Action, state: MatchState | TurnState, names: Sequence[str]) -> str:
    """A choice in words, for menus and bot announcements."""
    turn = state if isinstance(state, TurnState) else state.turn
    if isinstance(action, Stand):
        score = turn.score if turn is not None else 0
        return _("stand (score {score})").format(score=score)
    if isinstance(action, RerollCargo):
        return reroll_words(state.rules.cargo_dice, action.keep)
    if isinstance(action, Take):
        held = len(turn.held) if turn is not None else 0
        parts = [
            _("{face} as {role}").format(face=f, role=_role_word(ROLE_NAMES[held + i]))
            for i, f in enumerate(action.faces)
        ]
        return _("set aside {what}").format(what=", ".join(parts))
    if isinstance(action, HandOut):
        return _("give a sip to {name}").format(name=names[action.to])
    if isinstance(action, HandOutSplit):
        shares = NP_("{name} one sip", "{name} {n} sips")
        parts = [plural(shares, n, name=names[seat]) for seat, n in action.shares]
        return _("give {shares}").format(shares=", ".join(parts))
    if isinstance(action, StopHandOut):
        return _("hand out no more sips")
    if isinstance(action, NextRound):
        return _("another round")
    if isinstance(action, StopMatch):
        return _("stop: the totals decide the match")
    return str(action)


def board_key(state: MatchState) -> tuple[object, ...]:
    """What the scoreboard shows apart from the round's posted scores and whose turn it is.

    The terminal draws the board again only when this changes (a new round, a tie-break,
    new totals, chips, sips or wins), so a round is one board and its turns' own lines.
    """
    purpose = state.contest.purpose if state.contest is not None else None
    return (
        state.round_no,
        state.stage,
        purpose is Purpose.ROUND,
        state.totals,
        state.chips,
        state.sips,
        state.wins,
        state.pot,
        state.round_seats,
    )


def scoreboard(state: MatchState, names: Sequence[str], kinds: Sequence[str]) -> Table:
    """The table: who is at it, this round's posted scores, totals, chips, sips, wins.

    Seats are numbered from 1 in play order (the numbers a captain's split may use); a
    legend under the table says what the markers mean.
    """
    rules = state.rules
    title = _("Round {n}").format(n=state.round_no) if state.round_no else _("Who starts?")
    if state.stage == "final":
        title += " · " + _("final")
    elif state.stage == "prelim":
        title += " · " + _("preliminary round")
    if rules.stakes is Stakes.POT:
        title += " · " + plural(POT, state.pot)
    legend = [_("{mark} plays now").format(mark=PLAYS)]
    if state.round_no:
        legend.append(_("{mark} started the round").format(mark=STARTED))
    table = Table(
        title=title,
        title_justify="left",
        expand=False,
        caption=" · ".join(legend),
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("")
    table.add_column(_("player"))
    table.add_column(_("this round"), justify="right")
    table.add_column(_("total"), justify="right")
    if rules.stakes is Stakes.POT:
        table.add_column(_("chips"), justify="right")
    if rules.drinking is not Drinking.NONE:
        table.add_column(_("sips"), justify="right")
    table.add_column(_("wins"), justify="right")
    acting = seat_to_act(state)
    posted = state.posted_scores
    opener = state.round_seats[0] if state.round_seats else None
    for seat, name in enumerate(names):
        mark = PLAYS if seat == acting else ""
        if seat == opener and state.round_no:
            mark += STARTED
        score = state.round_scores[seat] if state.round_scores else None
        if state.contest is not None and state.contest.purpose.value != "round" and seat in posted:
            tie = _("tie-break: {score}").format(score=posted[seat])
            cell = f"{score if score is not None else '-'} ({tie})"
        elif score is not None:
            cell = str(score)
        elif state.round_seats and seat not in state.round_seats:
            cell = _("sits out")
        else:
            cell = "…"
        who = name_tag(name, kinds[seat])
        row = [str(seat + 1), mark, who, cell, str(state.totals[seat])]
        if rules.stakes is Stakes.POT:
            row.append(str(state.chips[seat]))
        if rules.drinking is not Drinking.NONE:
            row.append(str(state.sips[seat]))
        row.append(str(state.wins[seat]))
        table.add_row(*row)
    return table


#: Chips left in the pot at the end.
_LEFT_IN_POT = NP_("Still in the pot: one chip.", "Still in the pot: {n} chips.")


def advice_table(
    choices: Sequence[Choice], state: MatchState | TurnState, names: Sequence[str]
) -> Table:
    """The solver's rating of each choice, best first, in the language's numbers.

    The chance to win the match and the chance to win the round each get a labelled column
    (one "chance to win" when the format plays a single round or the match has no model);
    a pot game adds the expected chips; a sip hand-out says it changes nobody's chance.
    """
    tr = translator(active_lang())
    note = next((c.note for c in choices if c.note is not None), None)
    table = Table(
        title=_("Advice"),
        title_justify="left",
        caption=note.render(tr) if note is not None else None,
        caption_justify="left",
    )
    table.add_column(_("choice"))
    if note is not None:
        for c in choices:
            table.add_row(describe_action(c.action, state, names))
        return table
    match = any(c.match_win_probability is not None for c in choices)
    chips = any(c.expected_chips is not None for c in choices)
    if match:
        table.add_column(_("chance to win the match"), justify="right")
        table.add_column(_("chance to win the round"), justify="right")
    else:
        table.add_column(_("chance to win"), justify="right")
    table.add_column(_("expected score"), justify="right")
    if chips:
        table.add_column(_("expected chips from the pot"), justify="right")
    for c in choices:
        chance, score = c.numbers
        row = [describe_action(c.action, state, names)]
        if match:
            row += [
                tr.percent(c.match_win_probability or 0.0),
                tr.percent(c.round_win_probability or 0.0),
            ]
        else:
            row.append(tr.percent(chance))
        row.append(tr.number(score, 2))
        if chips:
            row.append(tr.number(c.expected_chips or 0.0, 2))
        table.add_row(*row)
    return table


def _won_on_tie_break(state: MatchState) -> bool:
    """Whether the winner shares what the format counts (totals; round wins under wins:N)
    with another player, so that a tie-break, not the table above, decided the match."""
    kind = state.rules.format.kind
    if state.winner is None or kind is FormatKind.TOURNAMENT:
        return False
    counts = state.wins if kind is FormatKind.WINS else state.totals
    return sum(1 for c in counts if c == counts[state.winner]) > 1


def summary_table(state: MatchState, names: Sequence[str], kinds: Sequence[str]) -> Group:
    """The end of the match: winner, totals, round wins, chips and sips.

    Chips still in the pot (a match ended early, or a pot nobody took) are said under the
    table, so the chips add up, and so is a win on a tie-break, where the table shows the
    winner level with another.
    """
    rules = state.rules
    notes = []
    if state.winner is not None and _won_on_tie_break(state):
        notes.append(_("{name} won the match on a tie-break.").format(name=names[state.winner]))
    if rules.stakes is Stakes.POT and state.pot:
        notes.append(plural(_LEFT_IN_POT, state.pot))
    table = Table(title=_("Final standings"), title_justify="left")
    table.add_column("")
    table.add_column(_("player"))
    table.add_column(_("total"), justify="right")
    table.add_column(_("wins"), justify="right")
    if rules.stakes is Stakes.POT:
        table.add_column(_("chips"), justify="right")
    if rules.drinking is not Drinking.NONE:
        table.add_column(_("sips"), justify="right")
    order = sorted(
        range(len(names)), key=lambda s: (s != state.winner, -state.totals[s], -state.chips[s], s)
    )
    for seat in order:
        who = name_tag(names[seat], kinds[seat])
        row = [
            "🏆" if seat == state.winner else "",
            who,
            str(state.totals[seat]),
            str(state.wins[seat]),
        ]
        if rules.stakes is Stakes.POT:
            row.append(str(state.chips[seat]))
        if rules.drinking is not Drinking.NONE:
            row.append(str(state.sips[seat]))
        table.add_row(*row)
    # The notes under the table, as wide as the terminal (a caption would fold to the table).
    return Group(table, *(Text(note) for note in notes))
