"""``scc advise``: every choice after a roll, rated by the solver (a shell like :mod:`.solver`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from ...i18n import _, active_lang, translator
from ...messages import N_, NP_
from ..app import app
from ..common import LangOpt, RulesOpt, SetOpt, fail, load_rules, plural, rules_name
from .simulate import FormatOpt
from .solver import JsonOpt

if TYPE_CHECKING:
    from ...rules import Rules
    from ...solver.match.view import MatchView


def _parse_held(text: str) -> int:
    from ...state import ROLE_NAMES

    t = text.strip().lower()
    if t in ("", "none", "-"):
        return 0
    names = [x.strip() for x in t.split(",") if x.strip()]
    for n in names:
        if n not in ROLE_NAMES:
            fail(
                _(
                    "--held: unknown role '{role}'; use ship, captain, crew (comma separated) "
                    "or none"
                ).format(role=n)
            )
    if tuple(names) != ROLE_NAMES[: len(names)]:
        fail(
            plural(
                NP_(
                    "--held '{text}': roles are held in order ship, captain, crew, so one held "
                    "means {roles} (--held {spelling})",
                    "--held '{text}': roles are held in order ship, captain, crew, so {n} held "
                    "means {roles} (--held {spelling})",
                ),
                len(names),
                text=text,
                roles=ROLE_NAMES[: len(names)],  # the roles in words of the language
                spelling=",".join(ROLE_NAMES[: len(names)]),
            )
        )
    return len(names)


def _parse_posted(text: str | None, flag: str = "--posted") -> list[int]:
    if text is None or not text.strip() or text.strip().lower() == "none":
        return []
    out = []
    for part in text.split(","):
        p = part.strip()
        try:
            out.append(int(p))
        except ValueError:
            if flag == "--posted":
                fail(_("--posted: '{text}' is not a score (use numbers like 9,0,7)").format(text=p))
            fail(_("--totals: '{text}' is not a total (use numbers like 12,20)").format(text=p))
    return out


def _match_view(
    r: Rules, scores: list[int], players_after: int, totals: str | None, round_no: int
) -> MatchView | None:
    """The match around the turn (``--format``/``--round``/``--totals``), or None for a round."""
    from ...formats import FormatKind
    from ...solver.match.advice import has_match
    from ...solver.match.view import MatchView

    points = _parse_posted(totals, "--totals")
    if not has_match(r):
        if totals is not None or round_no != 1:
            fail(_("--totals and --round need a format of more than one round (--format)"))
        return None
    n = len(points) if points else len(scores) + 1 + players_after
    if points and players_after and len(scores) + 1 + players_after != n:
        fail(
            _("--totals names {n} players, but --posted and --players-after make {m}").format(
                n=n, m=len(scores) + 1 + players_after
            )
        )
    if len(scores) >= n:
        posted = NP_(
            "--totals names too few players: one score is posted before you, and you play after it",
            "--totals names too few players: {n} scores are posted before you, and you play "
            "after them",
        )
        fail(plural(posted, len(scores)))
    if round_no < 1:
        fail(_("--round counts from 1, got {n}").format(n=round_no))
    last = r.format.last_round
    if last is not None and round_no > last:
        fail(
            _(
                "--round {n}: the format {format} ends after round {last} (a tie for the match "
                "is then a tie-break, not a round); use --round 1 to {last}"
            ).format(n=round_no, format=str(r.format), last=last)
        )
    points = points or [0] * n
    wins = points if r.format.kind is FormatKind.WINS else None
    return MatchView.of_round(r.format, points, scores, played=round_no - 1, wins=wins)


@app.command(
    help=N_(
        "Every legal choice after this roll: its chance to win the match and the round, and "
        "its expected score."
        "\n\n"
        "With --format (or the rules' own format of more than one round) the match around the "
        "turn is --round and --totals, and the best choice is the best for the match. When the "
        "roll leaves nothing to decide (the crew is not complete yet, or the turn is over) "
        "there is no choice: in JSON best is null and choices is empty."
    )
)
def advise(
    held: Annotated[
        str,
        typer.Option(
            "--held",
            metavar=N_("ROLES"),
            help=N_("The roles held before the roll: ship,captain,crew, a part of it, or none."),
        ),
    ],
    roll: Annotated[
        str,
        typer.Option(
            "--roll",
            metavar=N_("FACES"),
            help=N_("The faces rolled now, for example 6531 or 6,5,3."),
        ),
    ],
    rolls_used: Annotated[
        int,
        typer.Option(
            "--rolls-used",
            metavar=N_("N"),
            help=N_("The rolls used so far, this one included (1 up to the rule set's rolls)."),
        ),
    ],
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    posted: Annotated[
        str | None,
        typer.Option(
            "--posted",
            metavar=N_("SCORES"),
            help=N_("The scores posted before you this round, for example 9,0,7."),
        ),
    ] = None,
    players_after: Annotated[
        int,
        typer.Option(
            "--players-after", metavar=N_("N"), help=N_("The players still to play after you.")
        ),
    ] = 0,
    fmt: FormatOpt = None,
    round_no: Annotated[
        int,
        typer.Option(
            "--round",
            metavar=N_("N"),
            help=N_("The round of the match being played, 1 being the first."),
        ),
    ] = 1,
    totals: Annotated[
        str | None,
        typer.Option(
            "--totals",
            metavar=N_("TOTALS"),
            help=N_(
                "Every player's match total before this round, in this round's play order "
                "(yours at your place), for example 12,20; under wins:N their round wins."
            ),
        ),
    ] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """The position after the roll, rated by the solver for the round or the match."""
    from ...dice import parse_faces
    from ...sim.options import apply_options
    from ...solver import advise as solver_advise
    from ...solver import position_after_roll

    n_held = _parse_held(held)
    scores = _parse_posted(posted)
    try:
        r = apply_options(load_rules(rules, settings), fmt, None)
        view = _match_view(r, scores, players_after, totals, round_no)
        faces = parse_faces(roll)
        turn = position_after_roll(r, n_held, faces, rolls_used)
        if view is not None:
            choices = solver_advise(turn, match=view)
        else:
            choices = solver_advise(turn, posted=scores, players_after=players_after)
    except ValueError as e:
        fail(e)
    if view is not None:
        players_after = view.players - len(scores) - 1
    position = {
        "held": list(turn.held_roles),
        "cargo": list(turn.cargo) if turn.complete else None,
        "rolls_used": turn.rolls_used,
        "rolls_left": turn.rolls_left,
        "phase": turn.phase.value,
        "posted": scores,
        "players_after": players_after,
    }
    if view is not None:
        position.update(round=round_no, totals=list(view.totals))
    data = {
        "rules": str(r),
        "format": str(r.format),
        "position": position,
        "best": str(choices[0].action) if choices else None,
        "choices": [c.to_json() for c in choices],
    }
    if as_json:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console
    from rich.table import Table

    from ...narrate import cargo_sum
    from ...state import TurnPhase
    from ..terminal.view import describe_action

    tr = translator(active_lang())
    con = Console(highlight=False)
    held_txt = ", ".join(tr(role) for role in turn.held_roles) or _("nothing")
    if turn.complete:
        held_txt += ", " + _("cargo {cargo}").format(cargo=cargo_sum(turn.cargo))
    posted_txt = ", ".join(map(str, scores)) or _("nothing")
    after = (
        plural(NP_("one to play after", "{n} to play after"), players_after)
        if players_after
        else _("nobody to play after")
    )
    con.print(
        _("After roll {n}: held {held}; posted {posted}; {after}.").format(
            n=turn.rolls_used, held=held_txt, posted=posted_txt, after=after
        ),
        markup=False,
    )
    if view is not None:
        con.print(
            _("Match {format}, round {round}; totals before this round: {totals}.").format(
                format=str(r.format), round=round_no, totals=", ".join(map(str, view.totals))
            ),
            markup=False,
        )
    if not choices:
        if turn.phase is TurnPhase.DONE:
            con.print(_("No choice: the turn is over with score {score}.").format(score=turn.score))
        else:
            con.print(_("No choice: the next roll is forced (the crew is not complete yet)."))
        return
    t = Table(title=_("Choices under {rules}, best first").format(rules=rules_name(r)))
    t.add_column(_("choice"))
    if view is not None:
        t.add_column(_("chance to win the match"), justify="right")
        t.add_column(_("chance to win the round"), justify="right")
    else:
        t.add_column(_("win probability"), justify="right")
    t.add_column(_("expected score"), justify="right")
    for c in choices:
        what = f"{describe_action(c.action, turn, [])} ({c.action})"
        chance, score = c.numbers
        if view is not None:
            cells = [
                tr.number(c.match_win_probability, 4)
                if c.match_win_probability is not None
                else "-",
                tr.number(c.round_win_probability or 0.0, 4),
            ]
        else:
            cells = [tr.number(chance, 4)]
        t.add_row(what, *cells, tr.number(score, 3))
    con.print(t)
    if view is not None and all(c.match_win_probability is None for c in choices):
        # The match solver refuses these rules or never reaches this position (chips,
        # tie_break=round, a session past its cap): say so rather than leave a bare dash.
        con.print(
            _(
                "No chance to win the match here: the match solver does not model these rules "
                "or this position, so the choices are ranked for the round."
            ),
            markup=False,
        )
