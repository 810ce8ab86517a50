"""``scc companion --script FILE --json``: whole games from a file of answers, one per new reading.

Each test writes the lines a table would type -- the faces rolled and the choices made -- into
a file, runs the real ``scc`` program on it and reads the one JSON object it prints at the end.
The dice are chosen so that the reading under test decides the outcome: the scores of the
rounds in the JSON show who played when, and the totals, wins, chips and sips show what the
reading did with them.  Sentences of the rule sheets are cited by number (``docs/rules.md``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from shipcaptaincrew.notation import MatchLog, replay

KEYS = {"rules", "players", "rounds", "totals", "wins", "chips", "sips", "winner"}


def score(cargo: int) -> list[str]:
    """A turn that completes the crew at once with ``cargo`` (3..12) and stands on it."""
    a = min(6, cargo - 1)
    return [f"654{a}{cargo - a}", "stand"]


#: A turn without a full crew: three rolls without a 6.
FAIL = ["22222", "22222", "22222"]


def run(
    tmp_path: Path, args: list[str], lines: list[str], *, lang: str = "en"
) -> tuple[dict[str, Any], str, MatchLog]:
    """``scc companion ARGS --script FILE --json``: the JSON result, what was told, the log."""
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = tmp_path / "game.jsonl"
    r = subprocess.run(
        [sys.executable, "-m", "shipcaptaincrew", "companion", *args, "--lang", lang]
        + ["--script", str(script), "--json", "--log", str(log)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "120"},
    )
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    result = json.loads(r.stdout)  # stdout holds the one JSON object and nothing else
    assert set(result) == KEYS
    return result, r.stderr, MatchLog.load(log)


def players(*names: str) -> list[str]:
    return [arg for name in names for arg in ("-p", name)]


def test_a_tie_round_is_a_real_round_among_the_tied_001_17(tmp_path: Path) -> None:
    # 001.17 read as a fresh round between the tied: Anna and Bo tie on 8, nobody wins round 1,
    # and round 2 is theirs alone (Cy sits it out); its scores count toward the totals.
    lines = score(8) + score(8) + score(3) + score(5) + score(9)
    args = players("Anna", "Bo", "Cy") + ["--rules", "classic", "--tie-break", "round"]
    result, told, log = run(tmp_path, [*args, "--starter", "Anna"], lines)
    assert result["rounds"] == [
        {"scores": [8, 8, 3], "winner": None},
        {"scores": [5, 9, None], "winner": 1},
    ]
    assert result["totals"] == [13, 17, 3] and result["wins"] == [0, 1, 0]
    assert result["winner"] == 1
    assert "Round 2 is played among Anna, Bo to break the tie." in told
    assert replay(log).winner == 1


def test_one_tie_all_tie_lets_the_pot_ride_on(tmp_path: Path) -> None:
    # Not in the sheets (the pub custom in place of 000.15/001.17/002.21's tie-breaks): a tie
    # at the top means nobody wins the round, and its pot waits for the next one (002.22).
    lines = score(8) + score(8) + score(9) + score(3)
    args = players("Anna", "Bo") + ["--rules", "classic", "--tie-break", "no_winner"]
    args += ["--stakes", "pot", "--format", "rounds:2", "--starter", "1"]
    result, told, _log = run(tmp_path, args, lines)
    assert result["rounds"] == [
        {"scores": [8, 8], "winner": None},
        {"scores": [3, 9], "winner": 1},  # round 2: Bo starts (rotation next) and scores 9
    ]
    assert result["chips"] == [8, 12]  # both anted twice; Bo took both rounds' antes
    assert result["winner"] == 1
    assert "Round 1: Anna, Bo tie at the top, so nobody wins the round." in told
    assert "Bo takes the pot of 4 chips." in told


#: Round 1 of the rotation tests: Anna 8, Bo 6, Cy 3 (the lowest), Dan 7; round 2's four
#: turns, in the order played, score 9, 5, 2 and 4.
ROTATION_LINES = score(8) + score(6) + score(3) + score(7) + score(9) + score(5) + score(2)
ROTATION_LINES += score(4)


def _rotation(tmp_path: Path, rotation: str) -> tuple[dict[str, Any], str]:
    args = players("Anna", "Bo", "Cy", "Dan") + ["--rules", "classic", "--starter", "Anna"]
    args += ["--format", "rounds:2", "--set", f"rotation={rotation}"]
    result, told, _log = run(tmp_path, args, ROTATION_LINES)
    assert result["rounds"][0] == {"scores": [8, 6, 3, 7], "winner": 0}
    return result, told


def test_rotation_next_passes_the_start_on_with_the_cup_000_17(tmp_path: Path) -> None:
    # 000.17's right-hand neighbour when the cup passes to the right: the next player.
    result, told = _rotation(tmp_path, "next")
    assert result["rounds"][1] == {"scores": [4, 9, 5, 2], "winner": 1}  # Bo, Cy, Dan, Anna
    assert "Bo starts round 2." in told


def test_rotation_previous_passes_the_start_back_000_17(tmp_path: Path) -> None:
    # 000.17/003.17: the right-hand neighbour when the cup passes to the left.
    result, told = _rotation(tmp_path, "previous")
    assert result["rounds"][1] == {"scores": [5, 2, 4, 9], "winner": 3}  # Dan, Anna, Bo, Cy
    assert "Dan starts round 2." in told


def test_rotation_loser_lets_the_lowest_score_start(tmp_path: Path) -> None:
    # Not in the sheets (a pub custom beside 000.17's rotation): Cy scored lowest in round 1.
    result, told = _rotation(tmp_path, "loser")
    assert result["rounds"][1] == {"scores": [2, 4, 9, 5], "winner": 2}  # Cy, Dan, Anna, Bo
    assert "Cy starts round 2." in told


def test_pot_to_match_the_antes_build_up_and_the_match_winner_takes_them_002_28(
    tmp_path: Path,
) -> None:
    # 002.28 read as one growing pot: Anna wins round 1 but takes nothing; Bo wins the match
    # on totals (14 to 11) and takes both rounds' antes.
    lines = score(8) + score(5) + score(9) + score(3)
    args = players("Anna", "Bo") + ["--rules", "classic", "--stakes", "pot"]
    args += ["--set", "pot_to=match", "--format", "rounds:2", "--starter", "Anna"]
    result, told, _log = run(tmp_path, args, lines)
    assert result["rounds"] == [{"scores": [8, 5], "winner": 0}, {"scores": [3, 9], "winner": 1}]
    assert result["totals"] == [11, 14] and result["winner"] == 1
    assert result["chips"] == [8, 12]
    assert "Anna takes the pot" not in told and "Bo takes the pot of 4 chips." in told


def test_the_captain_hands_out_up_to_the_die_in_one_split_000_24(tmp_path: Path) -> None:
    # 000.24's "may": the die (5) is the most the captain hands out; Anna gives Bo 2 and Cy 1
    # in one answer and stops.  A name not at the table and a split of more than is left are
    # refused, and the next line is read.
    lines = score(8) + score(5) + FAIL + ["5", "Dan 2", "Bo 2, Cy 1", "Cy 2, Bo 1", "sip:stop"]
    args = players("Anna", "Bo", "Cy") + ["--rules", "classic", "--starter", "Anna"]
    args += ["--drinking", "captain_hands_out", "--set", "hand_out=up_to"]
    result, told, log = run(tmp_path, args, lines)
    assert result["sips"] == [0, 2, 1] and result["winner"] == 0
    assert "'Dan' is not at this table" in told
    assert "Only 2 sips are left to hand out." in told
    assert "Anna gives 2 sips to Bo." in told and "Anna hands out no more sips." in told
    assert [e["action"] for e in log.events[-2:]] == ["sip:1x2,2x1", "sip:stop"]  # one step


def test_the_captain_hands_out_exactly_the_die_one_split_or_one_sip_at_a_time_000_24(
    tmp_path: Path,
) -> None:
    # 000.24 read as "exactly": the die (3) is handed out in full; a split by seat numbers
    # gives two of them at once, the menu the last one; stopping early is refused.
    lines = score(8) + score(5) + FAIL + ["3", "3 2", "sip:stop", "1"]
    args = players("Anna", "Bo", "Cy") + ["--rules", "classic", "--starter", "Anna"]
    args += ["--drinking", "captain_hands_out"]
    result, told, _log = run(tmp_path, args, lines)
    assert result["sips"] == [0, 1, 2]
    assert "Anna, who drinks sip 3 of 3?" in told
    assert "hands out every sip the die shows" in told  # sip:stop refused under exact


def test_first_to_two_round_wins_beats_equal_totals(tmp_path: Path) -> None:
    # Not in the sheets (a match format beside 001.18's points): Anna wins rounds 1 and 3 and
    # with them the match, though the totals are level at 18.
    lines = score(8) + score(5) + score(9) + score(3) + score(7) + score(4)
    args = players("Anna", "Bo") + ["--rules", "classic", "--format", "wins:2", "--starter", "1"]
    result, _told, _log = run(tmp_path, args, lines)
    assert [r["winner"] for r in result["rounds"]] == [0, 1, 0]
    assert result["wins"] == [2, 1] and result["totals"] == [18, 18]
    assert result["winner"] == 0


def test_a_session_goes_on_until_the_table_stops_000_17(tmp_path: Path) -> None:
    # 000.17/003.17 read as a run of rounds (the 000 preset): after each round the next
    # round's first player calls another round or stops; then the totals decide.  A line that
    # is no answer is refused and the next one read.
    lines = score(8) + score(5) + ["next_round"] + score(9) + score(3) + ["maybe", "stop"]
    args = players("Anna", "Bo") + ["--rules", "schiff-kapitaen-crew", "--starter", "Anna"]
    result, told, log = run(tmp_path, args, lines)
    assert result["rules"] == "schiff-kapitaen-crew(starter=chosen)"
    assert result["rounds"] == [{"scores": [8, 5], "winner": 0}, {"scores": [3, 9], "winner": 1}]
    assert result["totals"] == [11, 14] and result["winner"] == 1
    assert result["sips"] == [1, 1]  # every loser sips (000.16)
    assert "Bo, another round?" in told and "Anna, another round?" in told
    assert "'maybe' is not an answer here: type a number from 1 to 2" in told
    assert "Anna calls a stop: the totals decide the match." in told
    assert replay(log).winner == 1


def test_a_session_answers_yes_and_no_in_the_players_language(tmp_path: Path) -> None:
    lines = score(8) + score(5) + ["ja"] + score(9) + score(3) + ["nei"]
    args = players("Kari", "Ola") + ["--rules", "schiff-kapitaen-crew", "--starter", "Kari"]
    result, told, _log = run(tmp_path, args, lines, lang="nb")
    assert len(result["rounds"]) == 2 and result["winner"] == 1
    assert "Ola, en runde til?" in told and "Kari stopper: summene avgjør partiet." in told


def test_the_set_up_dialogue_reads_the_script_too_and_its_end_ends_the_match(
    tmp_path: Path,
) -> None:
    # Two players named in the dialogue, the classic preset, Enter to start, then the
    # roll-off; the script ends in the middle of the first turn.
    lines = ["2", "Anna", "Bo", "1", "", "6", "2", "65462"]
    result, told, log = run(tmp_path, [], lines)
    assert result["players"] == ["Anna", "Bo"] and result["rules"] == "classic"
    assert result["rounds"] == [] and result["winner"] is None
    assert "Match ended early" in told
    assert not replay(log).is_over
