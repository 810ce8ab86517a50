"""``scc turn``: one scripted turn, as a JSON contract or in words."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from ...actions import RerollCargo, Roll, Stand
from ...bots.base import best_take
from ...dice import InvalidDiceError, parse_faces
from ...engine import apply, dice_to_roll, initial_turn, legal_actions
from ...messages import N_, NP_
from ...narrate import cargo_sum
from ...rules import Rules
from ...state import TurnPhase, TurnState
from ...turn import IllegalActionError
from ..app import app
from ..common import LangOpt, RulesOpt, SetOpt, fail, load_rules, plural


def play_scripted_turn(rules: Rules, rolls: list[tuple[int, ...]]) -> TurnState:
    """Play one turn from the given rolls and stand after the last (the ``scc turn`` contract).

    Raises ``ValueError`` subclasses naming the problem for an impossible script.
    """
    t = initial_turn(rules)
    for i, faces in enumerate(rolls, 1):
        if t.phase is TurnPhase.DONE:
            if t.rolls_used >= rules.rolls:
                raise IllegalActionError(
                    N_("roll {i}: a turn has at most {n} rolls"), i=i, n=rules.rolls
                )
            if t.complete:
                raise IllegalActionError(
                    N_("roll {i}: cargo_rerolls={n} forbids another cargo reroll"),
                    i=i,
                    n=rules.cargo_rerolls,
                )
            raise IllegalActionError(N_("roll {i}: the turn is over"), i=i)
        if t.phase is TurnPhase.DECIDE:
            cargo, half = rules.cargo_dice, rules.cargo_dice - 1  # half cargo keeps one die
            if len(faces) == cargo:
                t = apply(t, RerollCargo())
            elif len(faces) == half and rules.half_cargo:
                t = apply(t, RerollCargo(keep=max(t.cargo)))
            elif len(faces) == half:
                raise InvalidDiceError(
                    NP_(
                        "roll {i}: keeping a cargo die needs half_cargo; give {cargo} face",
                        "roll {i}: keeping a cargo die needs half_cargo; give {cargo} faces",
                    ),
                    count="cargo",
                    i=i,
                    cargo=cargo,
                )
            elif rules.half_cargo:
                raise InvalidDiceError(
                    N_(
                        "roll {i}: a cargo reroll takes {cargo} dice (or {half} under "
                        "half_cargo), got {n}"
                    ),
                    i=i,
                    cargo=cargo,
                    half=half,
                    n=len(faces),
                )
            else:
                raise InvalidDiceError(
                    NP_(
                        "roll {i}: a cargo reroll takes {cargo} die, got {n}",
                        "roll {i}: a cargo reroll takes {cargo} dice, got {n}",
                    ),
                    count="cargo",
                    i=i,
                    cargo=cargo,
                    n=len(faces),
                )

        n = dice_to_roll(t)
        if len(faces) != n:
            raise InvalidDiceError(
                N_("roll {i} needs {n} dice (the free dice), got {got}"), i=i, n=n, got=len(faces)
            )
        t = apply(t, Roll(faces))
        if t.phase is TurnPhase.ASSIGN:
            # The contract's choice: the most roles (every offered way fills the most), then the
            # highest dice left free, which is the bots' default assignment.
            t = apply(t, best_take(legal_actions(t)))
    if t.phase is TurnPhase.DECIDE:
        t = apply(t, Stand())
    return t


def turn_json(rules: Rules, rolls: list[tuple[int, ...]], t: TurnState) -> dict[str, Any]:
    """The JSON object of the ``scc turn`` contract."""
    return {
        "rules": str(rules),
        "rolls": [list(r) for r in rolls],
        "held": list(t.held_roles),
        "cargo": list(t.cargo) if t.complete else None,
        "bonus": t.bonus,
        "score": t.score,
        "complete": t.complete,
        "rolls_used": t.rolls_used,
    }


@app.command(
    help=N_(
        "Play one turn from given faces and stand after the last roll."
        "\n\n"
        "Each ROLL is the faces of one roll, exactly as many as there are free dice. A roll "
        "after the crew is complete rerolls the cargo: one digit per cargo die (two of the "
        "sheets' five dice), or under half_cargo one digit fewer (the highest cargo die is "
        "kept, the others rerolled)."
    )
)
def turn(
    rolls: Annotated[
        list[str],
        typer.Argument(
            metavar=N_("ROLL"),
            help=N_("The faces of each roll as digits, for example 65331 423."),
        ),
    ],
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help=N_("Print one JSON object (the same in every language).")),
    ] = False,
    lang: LangOpt = None,
) -> None:
    """A turn from typed faces, played by the engine."""
    r = load_rules(rules, settings)
    try:
        parsed = [parse_faces(x) for x in rolls]
        t = play_scripted_turn(r, parsed)
    except ValueError as e:
        fail(e)
    data = turn_json(r, parsed, t)
    if as_json:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console

    from ...i18n import _, active_lang, translator
    from ...i18n.rules_text import rules_title

    con = Console(highlight=False)
    title = rules_title(r, translator(active_lang()))
    con.print(_("Rules: {rules}").format(rules=title), markup=False)
    for i, faces in enumerate(parsed, 1):
        con.print("  " + _("roll {i}: {faces}").format(i=i, faces=" ".join(map(str, faces))))
    held = ", ".join(_(role) for role in data["held"]) or _("nothing")
    if t.complete:
        # One die of cargo (dice=4) is its own score; several, or one with a bonus, are said
        # as the sum they are.
        if t.bonus:
            line = _("Held: {held}; cargo {cargo} + bonus {bonus} = {score}")
        elif t.rules.cargo_dice == 1:
            line = _("Held: {held}; cargo {score}")
        else:
            line = _("Held: {held}; cargo {cargo} = {score}")
        con.print(line.format(held=held, cargo=cargo_sum(t.cargo), bonus=t.bonus, score=t.score))
    else:
        no_crew = NP_(
            "Held: {held}; no full crew after one roll: score 0",
            "Held: {held}; no full crew after {n} rolls: score 0",
        )
        con.print(plural(no_crew, t.rolls_used, held=held))
