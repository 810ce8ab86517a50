"""Bots: names and difficulties, legal choices in every decision the engine asks for, explanations."""

from __future__ import annotations

import random
import re

import pytest

from shipcaptaincrew import (
    PRESETS,
    Roll,
    apply,
    current_player,
    initial_state,
    initial_turn,
    legal_actions,
    sample_chance,
)
from shipcaptaincrew.actions import HandOut, RerollCargo, Take
from shipcaptaincrew.bots import (
    BOT_NAMES,
    DIFFICULTIES,
    Bot,
    EVBot,
    OptimalBot,
    RandomBot,
    ThresholdBot,
    TimidBot,
    TipBot,
    UnknownBotError,
    make_bot,
    render_reason,
)
from shipcaptaincrew.engine import post_score
from shipcaptaincrew.i18n import translator
from shipcaptaincrew.messages import Message
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.state import Phase, TurnPhase

CLASSIC = find_rules("classic")
SPECS = ["random", "timid", "tip", "threshold:9", "ev", "optimal", "optimal:round", *DIFFICULTIES]


def test_names_and_difficulties() -> None:
    assert set(BOT_NAMES) == {
        "random",
        "timid",
        "tip",
        "threshold:T",
        "ev",
        "optimal",
        "optimal:round",
    }
    assert DIFFICULTIES == {"easy": "timid", "medium": "tip", "hard": "ev", "perfect": "optimal"}
    assert isinstance(make_bot("easy"), TimidBot)
    assert isinstance(make_bot("medium"), TipBot)
    assert isinstance(make_bot("hard"), EVBot)
    assert isinstance(make_bot("perfect"), OptimalBot)
    assert isinstance(make_bot("random"), RandomBot)
    t = make_bot("threshold:9")
    assert isinstance(t, ThresholdBot) and t.threshold == 9 and t.name == "threshold:9"
    for spec in SPECS:
        assert isinstance(make_bot(spec), Bot)


@pytest.mark.parametrize("spec", ["grandmaster", "threshold:", "threshold:-1", "threshold:abc"])
def test_unknown_bots_are_refused(spec: str) -> None:
    with pytest.raises(UnknownBotError, match="bot"):
        make_bot(spec)


def test_heuristic_decisions() -> None:
    rng = random.Random(0)
    t = apply(initial_turn(CLASSIC), Roll((6, 5, 4, 3, 3)))  # cargo 6, two rolls left
    assert str(make_bot("timid").choose(t, rng)) == "stand"
    assert str(make_bot("tip").choose(t, rng)) == "reroll"
    assert str(make_bot("ev").choose(t, rng)) == "reroll"
    t = apply(initial_turn(CLASSIC), Roll((6, 5, 4, 4, 4)))  # cargo 8
    assert str(make_bot("threshold:9").choose(t, rng)) == "reroll"
    assert str(make_bot("ev").choose(t, rng)) == "stand"


def _states(rules_name: str, players: int, seed: int, **opts: object):  # type: ignore[no-untyped-def]
    rules = PRESETS[rules_name].replace(starter="chosen", **opts)
    rng = random.Random(seed)
    s = initial_state(rules, players, starter=0)
    bots = [make_bot(SPECS[(seed + i) % len(SPECS)]) for i in range(players)]
    while not s.is_over:
        p = current_player(s)
        if p == -1:
            s = apply(s, sample_chance(s, rng))
            continue
        yield s, bots[p]
        s = apply(s, bots[p].choose(s, rng))


@pytest.mark.parametrize(
    "name", ["random", "timid", "tip", "threshold:9", "ev", "optimal:round", "optimal"]
)
def test_every_bot_is_up_for_another_round_of_a_session(name: str) -> None:
    """000.17 (a run of rounds): between the rounds of a session a bot calls another round
    (``optimal`` too while it does not lead alone: tests/test_solver_estimate.py)."""
    rules = find_rules("schiff-kapitaen-crew").replace(starter="chosen")
    rng = random.Random(3)
    for scores in ((9, 4), (4, 9)):  # the caller behind, whichever seat calls
        s = initial_state(rules, 2, starter=0)
        for x in scores:
            s = post_score(s, x)
        while s.phase is not Phase.ANOTHER_ROUND:  # the captain's sips, if any
            s = apply(s, sample_chance(s, rng) if current_player(s) == -1 else legal_actions(s)[0])
        if s.totals[current_player(s)] == 4:
            break
    bot = make_bot(name)
    assert str(bot.choose(s, rng)) == "next_round"
    assert render_reason(bot.explain(s)) == "is up for another round: on to round 2."


@pytest.mark.parametrize(
    "rules_name,opts",
    [
        ("classic", {}),
        (
            "schiff-kapitaen-crew",
            {"drinking": "captain_hands_out", "half_cargo": True, "format": "rounds:3"},
        ),
        ("ship-captain-crew", {"wild_captain": True}),
        ("skip-kaptein-mannskap", {"format": "rounds:2", "cargo_rerolls": 1}),
    ],
)
def test_every_bot_makes_legal_choices_and_explains_them(rules_name: str, opts: dict) -> None:
    seen_take = seen_hand_out = False
    for seed in range(6):
        for s, bot in _states(rules_name, 3, seed, **opts):
            acts = legal_actions(s)
            choice = bot.choose(s, random.Random(seed))
            assert choice in acts
            seen_take |= isinstance(choice, Take)
            seen_hand_out |= isinstance(choice, HandOut)
            reason = bot.explain(s)
            assert isinstance(reason, Message)
            text = render_reason(reason)
            assert text.endswith(".") and re.search(r"\d", text), text
            if bot.name == "optimal" and s.phase is Phase.TURN:
                assert "%" in text
            for lang in ("de", "nb"):  # translated, every placeholder filled
                tr = translator(lang)
                assert tr(reason.msgid) != reason.msgid, (lang, reason.msgid)
                assert "{" not in render_reason(reason, tr)
    if opts.get("drinking") == "captain_hands_out":
        assert seen_hand_out
    if opts.get("wild_captain"):
        assert seen_take


def test_optimal_explanation_cites_win_probabilities() -> None:
    s = initial_state(CLASSIC.replace(starter="chosen"), 3, starter=0)
    s = apply(s, Roll((6, 5, 4, 4, 4)))
    reason = OptimalBot().explain(s)
    text = render_reason(reason)
    assert re.search(r"^wins \d+\.\d\xa0% of the time; \w+.* would win \d+\.\d\xa0%\.$", text), text
    # The numbers are the solver's own, kept exact until they are written in a language.
    best, alt = OptimalBot().advice(s)[:2]
    assert reason.params["mine"] == best.win_probability
    assert reason.params["theirs"] == alt.win_probability
    assert re.search(r"\d+,\d\xa0%", render_reason(reason, translator("de")))


def test_tip_bot_explains_the_cargo_it_compares_not_the_score() -> None:
    # A same-roll bonus lifts the score to 9 while the cargo is 4: the tip bot rerolls, and
    # its reason must name the cargo it compares (a reason built from the score said
    # "good enough" while the bot rerolled).
    t = apply(initial_turn(CLASSIC.replace(same_roll_bonus=5)), Roll((6, 5, 4, 1, 3)))
    assert (t.score, sum(t.cargo)) == (9, 4)
    bot = TipBot()
    assert bot.choose(t, random.Random(0)) == RerollCargo()
    assert render_reason(bot.explain(t)) == "cargo 4 is below 7: worth another try."
    assert render_reason(bot.explain(t), translator("de")) == (
        "Ladung 4 liegt unter 7: noch ein Versuch lohnt sich."
    )


def test_hand_out_goes_to_the_leader() -> None:
    rules = CLASSIC.replace(starter="chosen", drinking="captain_hands_out")
    s = initial_state(rules, 3, starter=0)
    s = apply(s, Roll((6, 5, 4, 6, 6)))
    s = apply(s, make_bot("timid").choose(s, random.Random(0)))
    s = apply(s, Roll((6, 5, 4, 2, 3)))
    s = apply(s, make_bot("timid").choose(s, random.Random(0)))
    s = apply(s, Roll((1, 1, 1, 1, 1)))
    s = apply(s, Roll((1, 1, 1, 1, 1)))
    s = apply(s, Roll((1, 1, 1, 1, 1)))
    assert s.phase is Phase.HAND_OUT_ROLL
    s = apply(s, Roll((3,)))
    for spec in ("ev", "optimal"):
        choice = make_bot(spec).choose(s, random.Random(0))
        assert choice == HandOut(1)  # seat 1 scored 5, seat 2 nothing
    # The heuristic bots hand sips to a random other player (seeded transcripts rely on it).
    got = {make_bot("timid").choose(s, random.Random(k)) for k in range(20)}
    assert got == {HandOut(1), HandOut(2)}


def test_threshold_bots_take_what_the_solver_policy_takes() -> None:
    from shipcaptaincrew.solver import policy_action, turn_graph

    rules = CLASSIC.replace(wild_captain=True)
    graph = turn_graph(rules)
    assigns = [s for s in graph.states if s.phase is TurnPhase.ASSIGN]
    assert assigns
    for spec, policy in (
        ("timid", "never"),
        ("tip", "threshold:7"),
        ("threshold:9", "threshold:9"),
    ):
        bot = make_bot(spec)
        for t in assigns[::7]:
            assert bot.choose(t, random.Random(0)) == policy_action(rules, policy, t)
