"""What the extremes matrix (``scripts/extremes.py``) reads in a shell's answer, beyond "it ran".

A shell that runs is not yet right: the first shells taught a cup of six dice printed "Cargo 1 +
2 = 6" and drew two cargo slots for three dice, and exited 0.  So each shell's answer is read:

* **numbers**, each against a figure the shell did not make: a turn's completion chance against
  a brute force written here from the rules alone (:func:`completion`: the roles in order, the
  free dice rolled, as many rolls as the rule set gives), a standing choice's expected score
  against the cargo it stands on, a simulated crew rate against the exact chance within its
  interval, the round solver's chance that everyone fails against the turn's chance;
* **words**, each against the rule set: the cargo a line shows has as many dice as the cup
  leaves (``Cargo 2 + 6 + 1 = 9`` under ``dice=6``) and adds up to the score it names; a reroll
  counts the right dice ("both" only of two); the rules text names the cup's dice and the
  cargo's range in each language.

A refusal passes only where it is the intended answer: :data:`REFUSALS` lists each, with the
reason (a fast path that does not model an option and says so, a format a command is not for);
any other refusal fails.  A check that finds a wrong number or word raises :class:`Wrong`.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb
from pathlib import Path
from typing import Any


class Wrong(Exception):
    """A number or a word in a shell's answer that does not match the rule set."""


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise Wrong(what)


# -- the numbers, from the rules alone --------------------------------------------------------


@cache
def _advance(dice: int, held: int) -> dict[int, Fraction]:
    """Rolling the free dice with ``held`` roles held: the roles held after -> its chance."""
    out: dict[int, Fraction] = {}
    free = dice - held
    for faces in product(range(6), repeat=free):  # role i's face is i (which face is which
        rest, now = list(faces), held  # does not change a chance); the rest are other faces
        while now < 3 and now in rest:
            rest.remove(now)
            now += 1
        out[now] = out.get(now, Fraction()) + Fraction(1, 6**free)
    return out


@cache
def _complete(dice: int, held: int, rolls: int) -> Fraction:
    if held == 3:
        return Fraction(1)
    if rolls == 0:
        return Fraction()
    steps = _advance(dice, held).items()
    return sum((p * _complete(dice, now, rolls - 1) for now, p in steps), Fraction())


def completion(rules: Any) -> Fraction | None:
    """The chance of a full crew in a turn, from the rules alone: three roles collected in
    order from ``dice`` dice in ``rolls`` rolls.  None under a wild captain, whose choices
    change it."""
    if rules.wild_captain:
        return None
    return _complete(rules.dice, 0, rules.rolls)


def multisets(dice: int) -> int:
    """The distinct rolls of ``dice`` dice (their chance outcomes): 126, 252 or 462."""
    return comb(dice + 5, 5)


def _within(sampled: float, n: int, exact: Fraction, what: str) -> None:
    """A sampled rate within five standard errors (and a little) of the exact chance."""
    p = float(exact)
    se = (p * (1 - p) / max(n, 1)) ** 0.5
    expect(
        abs(sampled - p) <= 5 * se + 1e-9 + 1 / max(n, 1), f"{what}: {sampled} of {n}, exact {p}"
    )


# -- the words ----------------------------------------------------------------------------------


def _terms(text: str) -> list[int]:
    return [int(t) for t in text.split(" + ")]


#: Story lines (English) that show a cargo, and what each captures.
_FULL = re.compile(r"Full crew(?: in one roll)?! Cargo (.+?)(?: \+ bonus (\d+))?(?: = (\d+))?\.")
_REROLLED = re.compile(
    r"rerolls the cargo: ([\d ]+); cargo (.+?)(?: \+ bonus (\d+))?(?: = (\d+))?\."
)
_TIE_ROLL = re.compile(r"rolls the cargo dic?e? for the tie-break: (?:([\d ]+) = )?(\d+)\.")
_COUNTED = re.compile(r"rerolls (both cargo dice|the cargo die|all (\d+) cargo dice)\.")
_KEEPS = re.compile(r"keeps a \d and rerolls the other (?:(\d+) cargo dice|cargo die)\.")


def cargo_said(cargo: str, bonus: str | None, score: str | None, rules: Any, line: str) -> None:
    """A cargo shown as a sum: one term per cargo die, adding up to the score named."""
    terms = _terms(cargo)
    expect(len(terms) == rules.cargo_dice, f"{len(terms)} cargo dice in {line!r}")
    if score is not None:
        expect(sum(terms) + int(bonus or 0) == int(score), f"the sum in {line!r}")
    else:  # one die: the cargo is the score
        expect(len(terms) == 1 and not bonus, f"no sum in {line!r}")


def story(lines: Iterable[str], rules: Any) -> int:
    """Every story line that counts dice or shows a cargo, read against the rule set; returns
    how many lines were read."""
    read = 0
    for line in lines:
        for m in _FULL.finditer(line):
            cargo_said(m.group(1), m.group(2), m.group(3), rules, line)
            read += 1
        for m in _REROLLED.finditer(line):
            faces = m.group(1).split()
            expect(
                len(faces) in (rules.cargo_dice, rules.cargo_dice - 1), f"reroll faces in {line!r}"
            )
            cargo_said(m.group(2), m.group(3), m.group(4), rules, line)
            read += 1
        for m in _TIE_ROLL.finditer(line):
            faces = m.group(1).split() if m.group(1) else [m.group(2)]
            expect(len(faces) == rules.cargo_dice, f"tie-break dice in {line!r}")
            read += 1
        for m in _COUNTED.finditer(line):
            said = {"both cargo dice": 2, "the cargo die": 1}.get(m.group(1)) or int(m.group(2))
            expect(said == rules.cargo_dice, f"{said} cargo dice said in {line!r}")
            read += 1
        for m in _KEEPS.finditer(line):
            expect(int(m.group(1) or 1) == rules.cargo_dice - 1, f"the others in {line!r}")
            read += 1
        expect("Cargo  " not in line and "+ +" not in line, f"a gap in {line!r}")
    return read


#: The rules text's words for the cup and the cargo's range, per language (whole phrases of
#: each catalogue, written here, not taken from it).
_RULES_WORDS: dict[str, tuple[str, str]] = {
    "en": ("{dice} ordinary dice", "from {low} to {high}"),
    "de": ("{dice} gewöhnliche Würfel", "von {low} bis {high}"),
    "nb": ("{dice} vanlige terninger", "fra {low} til {high}"),
}


def rules_words(lang: str) -> Callable[[Any, str, str], None]:
    """The rules text in ``lang`` names the cup's dice, the cargo's range and the rolls."""

    def check(rules: Any, out: str, _dir: str) -> None:
        dice, span = _RULES_WORDS[lang]
        low, high = rules.cargo_dice, rules.cargo_dice * 6
        for words in (dice.format(dice=rules.dice), span.format(low=low, high=high)):
            expect(words in out, f"{words!r} not in the {lang} rules")
        expect(str(rules.rolls) in out and "{" not in out, f"the rolls in the {lang} rules")

    return check


# -- the commands -------------------------------------------------------------------------------


def odds(rules: Any, out: str, _dir: str) -> None:
    data = json.loads(out)
    exact = completion(rules)
    if exact is not None:
        expect(Fraction(data["p_complete"]) == exact, f"p_complete {data['p_complete']} != {exact}")
    top = max(int(s) for s in data["distribution"])
    expect(top <= rules.max_score, f"a score of {top} above {rules.max_score}")


def turn_json(rules: Any, out: str, _dir: str) -> None:
    data = json.loads(out)
    expect(len(data["cargo"]) == rules.cargo_dice, f"cargo {data['cargo']}")
    expect(data["score"] == sum(data["cargo"]) + data["bonus"], f"score {data['score']}")


def turn_words(rules: Any, out: str, _dir: str) -> None:
    m = re.search(r"cargo ([\d +]+?)(?: \+ bonus (\d+))?(?: = (\d+))?$", out, re.M)
    expect(m is not None, f"no cargo line in {out!r}")
    assert m is not None
    cargo_said(m.group(1), m.group(2), m.group(3), rules, out)


def advise_json(rules: Any, out: str, _dir: str) -> None:
    data = json.loads(out)
    cargo = data["position"]["cargo"]
    expect(len(cargo) == rules.cargo_dice, f"cargo {cargo}")
    # The roll completed the crew at once (extremes.full_roll), so it earned the bonus too.
    score = sum(cargo) + rules.same_roll_bonus
    for c in data["choices"]:
        if c["action"] == "stand":  # standing scores the cargo, for certain
            expect(c["expected_score"] == score, f"stand expects {c['expected_score']}")


#: How a reroll of the whole cargo is said in the choices (English).
_REROLL_WORDS = {1: "reroll the cargo die", 2: "reroll both cargo dice"}


def advise_words(rules: Any, out: str, _dir: str) -> None:
    m = re.search(r"cargo ([\d +]+);", out)
    expect(m is not None, f"no cargo in {out!r}")
    assert m is not None
    total = None if rules.cargo_dice == 1 else str(sum(_terms(m.group(1))))
    cargo_said(m.group(1), None, total, rules, out)
    if "(reroll)" in out:
        words = _REROLL_WORDS.get(rules.cargo_dice, f"reroll all {rules.cargo_dice} cargo dice")
        expect(words in " ".join(out.split()), f"{words!r} not in the choices")


def simulate(rules: Any, out: str, _dir: str) -> None:
    exact = completion(rules)
    for seat in json.loads(out)["seats"]:
        if exact is not None and seat["turns"]:
            _within(seat["crew_rate"], seat["turns"], exact, f"seat {seat['seat']} crew rate")
        expect(seat["mean_score"] <= rules.max_score, f"mean score {seat['mean_score']}")


def solved(rules: Any, out: str, _dir: str) -> None:
    """``equilibrium`` and ``evaluate``: chances that add up, and everyone failing a round as
    often as the turn's own chance says (every seat's turn is independent of the others')."""
    data = json.loads(out)
    wins = data["seat_win_probability"]
    expect(all(-1e-9 <= w <= 1 + 1e-9 for w in wins) and sum(wins) <= 1 + 1e-9, f"wins {wins}")
    exact = completion(rules)
    if exact is not None and "p_all_fail_per_round" in data:
        fail = float((1 - exact) ** data["players"])
        got = data["p_all_fail_per_round"]
        expect(abs(got - fail) < 1e-9, f"everyone fails {got}, the turn says {fail}")


def strategy(rules: Any, out: str, _dir: str) -> None:
    low, high = rules.cargo_dice, rules.cargo_dice * 6 + rules.same_roll_bonus
    for row in json.loads(out)["rows"]:
        for cargo in row["decisions"]:
            expect(low <= int(cargo) <= high, f"a cargo of {cargo}")


def strategy_format(rules: Any, out: str, _dir: str) -> None:
    from shipcaptaincrew.solver.match.table import posted_scores

    posted = {None, *posted_scores(rules)}
    high = rules.cargo_dice * 6 + rules.same_roll_bonus
    for row in json.loads(out)["rows"]:
        expect(row["posted"] in posted, f"posted {row['posted']}")
        if row["posted"] is not None:
            expect(row["posted"] <= high, f"posted {row['posted']} above {high}")


def _data_lines(lines: Iterable[str]) -> Iterator[str]:
    """A CSV file's lines without its provenance record (the ``# key: value`` lines above the
    header that ``shipcaptaincrew.provenance`` writes), so the header is the first line read."""
    return (line for line in lines if not line.startswith("#"))


def export(rules: Any, _out: str, out_dir: str) -> None:
    with open(Path(out_dir) / "decisions.csv", newline="") as f:
        rows = list(csv.DictReader(_data_lines(f)))
    for row in rows:
        # A wild assignment is decided before any cargo; a stand or a reroll has the cup's.
        expect(len(row["cargo"]) in (0, rules.cargo_dice), f"cargo {row['cargo']!r}")
        expect(bool(row["cargo"]) or row["action_kind"] == "take", f"no cargo in {row}")
        if row["action"] == "stand" and row["expected_score"]:
            want = int(row["cargo_sum"]) + int(row["bonus"])
            expect(abs(float(row["expected_score"]) - want) < 1e-9, f"stand {row}")
    exact = completion(rules)
    with open(Path(out_dir) / "turn_odds.csv", newline="") as f:
        odds_rows = [r for r in csv.DictReader(_data_lines(f)) if r["policy"] == "never"]
    zero = next((Fraction(r["probability_exact"]) for r in odds_rows if r["score"] == "0"), None)
    if exact is not None:
        expect(zero == 1 - exact, f"P(score 0) {zero} != {1 - exact}")


# -- the web and the environments ---------------------------------------------------------------


def picture(room: dict[str, Any], rules: Any) -> None:
    """A room picture: the turn's shape the page draws, and every turn-ending moment's dice."""
    match = room["match"]
    expect((match["dice"], match["cargo_dice"]) == (rules.dice, rules.cargo_dice), "the shape")
    turn = match.get("turn")
    if turn and turn["complete"]:
        expect(len(turn["cargo"]) == rules.cargo_dice, f"cargo {turn['cargo']}")
    moment = room.get("moment") or {}
    for part in (moment, moment.get("turn") or {}):
        if part.get("kind") == "turn_end" and part.get("complete"):
            cargo = part["cargo"]
            expect(len(cargo) == rules.cargo_dice, f"moment cargo {cargo}")
            expect(part["score"] == sum(cargo) + part["bonus"], f"moment score {part}")


def observation(obs: dict[str, Any], rules: Any) -> None:
    """A Gymnasium observation: a cargo of the cup's size or none, no more dice than the cup."""
    cargo = [int(f) for f in obs["cargo"] if f]
    expect(len(cargo) in (0, rules.cargo_dice), f"observed cargo {cargo}")
    expect(sum(1 for f in obs["pending"] if f) <= rules.dice, "pending dice")


def spiel_first_roll(game: Any, rules: Any) -> None:
    """The first roll of a turn has one chance outcome per distinct roll of the cup's dice."""
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal():
        step += 1
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if len(outcomes) > 21:  # more than a roll-off's or two dice's: a turn's roll
                expect(len(outcomes) == multisets(rules.dice), f"{len(outcomes)} outcomes")
                return
            state.apply_action(outcomes[step % len(outcomes)][0])  # a roll-off must end
        else:
            state.apply_action(state.legal_actions()[0])
    raise Wrong("no turn's roll met")


def batched_tables(states: Iterable[Any], rules: Any) -> None:
    for s in states:
        expect(not s.complete or len(s.cargo) == rules.cargo_dice, f"a table's cargo {s.cargo}")


# -- the refusals that are the intended answer ----------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """A refusal the matrix expects: which shells, what the message says, and why."""

    shells: tuple[str, ...]
    says: str
    reason: str


#: The shells that solve a round.
_SOLVERS = ("strategy", "strategy --json", "advise", "advise --json")
#: The shells that solve a match exactly.
_MATCH_SOLVERS = ("strategy --format", "equilibrium", "evaluate", "export")
#: The learning environments.
_ENVS = ("gymnasium check_env", "pettingzoo api_test", "batched turn env", "batched match env")

REFUSALS: tuple[Refusal, ...] = (
    Refusal(
        (*_SOLVERS, *_MATCH_SOLVERS, *_ENVS, "openspiel random_sim_test", "simulate"),
        r"does not model",
        "a fast path that models rules itself refuses an option it was not written for, "
        "naming it (its MODELLED declaration), and so does a bot that thinks with it (the "
        "simulator plays the other bots on the engine)",
    ),
    Refusal(
        _MATCH_SOLVERS,
        r"is beyond the exact match solver",
        "a match too long for the exact match solver's memory bound: it names the positions "
        "it would need",
    ),
    Refusal(
        ("export",),
        r"which the match model does not follow",
        "the match equilibrium's model does not follow chips deciding who antes, nor tie "
        "rounds counting to the totals, and says which",
    ),
    Refusal(
        ("batched match env",),
        r"the step tables cannot play this set-up",
        "the step tables play a match by looking steps up; a chip stack, a bot's hand-out, a "
        "session's call or a loser's start is not a step, and they name it",
    ),
    Refusal(
        _ENVS,
        r"nothing to decide",
        "without cargo rerolls (cargo_rerolls=0) a turn has no decision: an agent has nothing "
        "to learn, and the environment says so",
    ),
)


def listed(shell: str, detail: str) -> Refusal | None:
    """The listed refusal a shell's refusal is, or None (then it is a failure)."""
    for refusal in REFUSALS:
        if shell in refusal.shells and re.search(refusal.says, detail):
            return refusal
    return None
