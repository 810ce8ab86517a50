"""Golden transcripts of whole matches: one per preset and per match format.

Each golden file is the event log of a seeded match between simple bots, with a summary of
the table after every round.  A change in any rule shows up as a diff here; when a change is
intended, regenerate with ``UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and review the diff.
Like OpenSpiel's playthroughs, the files are written from the engine's own values, never by hand.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from shipcaptaincrew.actions import parse_action
from shipcaptaincrew.bots import RandomBot, TimidBot, TipBot
from shipcaptaincrew.fair import SeededDice
from shipcaptaincrew.formats import FormatKind
from shipcaptaincrew.game import Game
from shipcaptaincrew.notation import MatchLog, event_for, replay
from shipcaptaincrew.rules import PRESETS, find_rules
from shipcaptaincrew.state import Phase

GOLDEN = Path(__file__).parent / "golden"

CASES: list[tuple[str, str, int, int]] = [
    # (name, rules text, players, seed)
    *[(name, name, 4, 11) for name in PRESETS],
    ("format-single-pot", "classic(stakes=pot,ante=2,starting_chips=5)", 3, 5),
    ("format-rounds-3", "classic(format=rounds:3,tie_break=cargo_rolloff)", 3, 7),
    # The chips version of 001 (stakes=pot), one option away from the preset (001.2).
    (
        "format-first-to-20",
        "skip-kaptein-mannskap(stakes=pot,format=first_to:20,starting_chips=3)",
        3,
        3,
    ),
    (
        "format-tournament",
        "ship-captain-crew(format=tournament,drinking=last_drinks,failed_double=true)",
        6,
        2,
    ),
    (
        "variants-wild-half-bonus",
        "classic(wild_captain=true,half_cargo=true,same_roll_bonus=3,format=rounds:2)",
        3,
        4,
    ),
    (
        "variant-bow-to-stern-captain",
        "schiff-kapitaen-crew(bow_to_stern=true,drinking=captain_hands_out,format=rounds:2)",
        3,
        8,
    ),
    ("solo-practice", "classic(format=rounds:3)", 1, 9),
    ("format-session", "classic(format=session,stakes=pot,rotation=loser)", 3, 3),
    ("format-wins-2", "classic(format=wins:2,drinking=last_drinks)", 3, 8),
    ("tie-break-round", "skip-kaptein-mannskap(stakes=pot,tie_break=round,format=rounds:3)", 4, 1),
    ("pot-to-match", "ship-captain-crew(pot_to=match,format=rounds:4)", 3, 5),
    ("rotation-loser", "classic(rotation=loser,format=rounds:4)", 4, 5),
]

#: A session's calls between rounds (next_round or stop), in order; the bots play the turns,
#: the script plays the table's decision to go on.  A case missing here stops at once.
SESSION_CALLS: dict[str, tuple[str, ...]] = {
    "schiff-kapitaen-crew": ("next_round", "next_round", "stop"),
    "format-session": ("next_round", "next_round", "next_round", "stop"),
}


def _summary(state) -> str:  # type: ignore[no-untyped-def]
    r = state.results[-1]
    return (
        f"# round {r.round_no} ({r.stage}) starter={r.starter} scores={list(r.scores)} "
        f"winner={r.winner} tie_breaks={r.tie_breaks} all_failed={r.all_failed} "
        f"totals={list(state.totals)} chips={list(state.chips)} pot={state.pot} "
        f"sips={list(state.sips)}" + (" tie_round=True" if r.tie_round else "")
    )


def play(rules_text: str, players: int, seed: int, calls: tuple[str, ...] = ()) -> tuple[str, Game]:
    """Play a seeded bot match and return its golden transcript (``calls``: a session's)."""
    rules = find_rules(rules_text)
    names = [f"P{i + 1}" for i in range(players)]
    target = 8 if players == 1 else None
    game = Game(rules, names, dice=SeededDice(seed), target=target)
    bots = [TipBot(), TimidBot(), RandomBot()]
    rng = random.Random(seed)
    lines = [f"# {rules} players={players} seed={seed}"]
    rounds = 0
    script = list(calls)
    while not game.is_over:
        before = game.state
        if game.is_chance:
            action = game.roll()
        elif before.phase is Phase.ANOTHER_ROUND:
            action = parse_action(script.pop(0) if script else "stop")
            game.push(action)
        else:
            action = bots[game.current_player() % 3].choose(before, rng)
            game.push(action)
        ev = event_for(before, action)
        lines.append(f"{ev.get('seat')} {action}")
        if len(game.state.results) > rounds:
            rounds = len(game.state.results)
            lines.append(_summary(game.state))
    s = game.state
    lines.append(
        f"# over winner={s.winner} totals={list(s.totals)} chips={list(s.chips)} "
        f"pot={s.pot} sips={list(s.sips)} wins={list(s.wins)}"
    )
    return "\n".join(lines) + "\n", game


@pytest.mark.parametrize(
    ("name", "rules_text", "players", "seed"), CASES, ids=[c[0] for c in CASES]
)
def test_golden_transcript(name: str, rules_text: str, players: int, seed: int) -> None:
    text, game = play(rules_text, players, seed, SESSION_CALLS.get(name, ()))
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")
    # The event log replays to the identical state.
    assert replay(MatchLog.from_jsonl(game.log.to_jsonl())) == game.state


def test_golden_cases_cover_every_preset_and_format() -> None:
    rules = [find_rules(c[1]) for c in CASES]
    assert {r.name for r in rules} == set(PRESETS)
    assert {r.format.kind for r in rules} == set(FormatKind)
