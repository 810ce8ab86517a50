"""The command-line contract of the engine: ``scc turn``, ``scc presets``, logs, help."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shipcaptaincrew import __version__


def scc(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shipcaptaincrew", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def turn_json(*args: str) -> dict:  # type: ignore[type-arg]
    r = scc("turn", *args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_seed_000_003_worked_example() -> None:
    """000/003: 6 5 3 3 1 keeps ship and captain; 4 2 6 completes the crew, cargo 2 + 6 = 8."""
    d = turn_json("65331", "426")
    assert d == {
        "rules": "classic",
        "rolls": [[6, 5, 3, 3, 1], [4, 2, 6]],
        "held": ["ship", "captain", "crew"],
        "cargo": [2, 6],
        "bonus": 0,
        "score": 8,
        "complete": True,
        "rolls_used": 2,
    }


def test_seed_001_example_keeps_six_and_five() -> None:
    """001: 6-5-3-2-2 keeps the six and the five; three dice roll on."""
    d = turn_json("65322", "111")
    assert d["held"] == ["ship", "captain"] and d["score"] == 0 and not d["complete"]


def test_seed_002_example_all_three_at_once() -> None:
    """002: 6-5-4-3-2 sets aside 6, 5 and 4 at once; the cargo is 3 + 2."""
    d = turn_json("65432")
    assert (
        d["held"] == ["ship", "captain", "crew"] and d["cargo"] == [2, 3] and d["rolls_used"] == 1
    )


def test_cargo_reroll_and_half_cargo_and_bonus() -> None:
    assert turn_json("65411", "66")["score"] == 12
    d = turn_json("--set", "half_cargo=true", "65451", "6")  # keeps the 5, rerolls the 1
    assert d["cargo"] == [5, 6] and d["rolls_used"] == 2
    d = turn_json("--rules", "skip", "--set", "same_roll_bonus=3", "45623", "11")
    assert d["bonus"] == 3 and d["score"] == 5


@pytest.mark.parametrize(
    ("settings", "rolls", "line"),
    [
        (["dice=6"], ["654123"], "Held: ship, captain, crew; cargo 1 + 2 + 3 = 6"),
        (["dice=6", "half_cargo=true"], ["654123", "55"], "cargo 3 + 5 + 5 = 13"),
        (["dice=4"], ["6543"], "Held: ship, captain, crew; cargo 3"),
        (["dice=4", "same_roll_bonus=100"], ["6546"], "cargo 6 + bonus 100 = 106"),
        ([], ["65432"], "Held: ship, captain, crew; cargo 2 + 3 = 5"),
    ],
)
def test_the_turn_in_words_shows_the_cups_cargo(
    settings: list[str], rolls: list[str], line: str
) -> None:
    """The words name every cargo die and the sum they make (once 'cargo 106' of a 6 and a
    bonus of 100, and two of three dice)."""
    r = scc("turn", *rolls, *[a for s in settings for a in ("--set", s)], "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip().endswith(line), r.stdout


def test_wild_captain_takes_most_roles_then_highest_cargo() -> None:
    # Only the crew is missing after 6 5; the roll 4 1 6 lets the 1 be the crew, cargo 4 + 6.
    d = turn_json("--set", "wild_captain=true", "65223", "416")
    assert d["cargo"] == [4, 6] and d["score"] == 10


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["6533"], "needs 5 dice"),
        (["65337"], "not a die face"),
        (["65411", "11", "22", "33"], "at most 3 rolls"),
        (["--set", "cargo_rerolls=1", "65411", "11", "22"], "forbids another cargo reroll"),
        (["--set", "colour=red", "65411"], "unknown option 'colour'"),
        (["--rules", "yahtzee", "65411"], "unknown preset"),
        (["65411", "1"], "needs half_cargo"),
        (
            ["--set", "wild_captain=true", "--set", "bow_to_stern=true", "12345"],
            "also a required face",
        ),
        (["--set", "dice=6", "65411"], "needs 6 dice"),
    ],
)
def test_impossible_scripts_exit_2_with_one_line(args: list[str], needle: str) -> None:
    r = scc("turn", *args, "--json")
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], r.stderr


def test_presets_json_lists_presets_aliases_options() -> None:
    r = scc("presets", "--json")
    data = json.loads(r.stdout)
    names = [p["name"] for p in data["presets"]]
    assert names == [
        "classic",
        "schiff-kapitaen-crew",
        "skip-kaptein-mannskap",
        "ship-captain-crew",
    ]
    aliases = {a for p in data["presets"] for a in p["aliases"]}
    assert {"6-5-4", "destroyer", "clickety-clack", "ship-of-fools", "captain-cook"} <= aliases
    opts = {o["name"]: o for o in data["options"]}
    assert opts["cargo_rerolls"]["default"] is None and "001" in opts["cargo_rerolls"]["doc"]
    assert all(o["doc"] for o in data["options"])


def test_presets_json_is_the_option_table() -> None:
    from shipcaptaincrew.options import OPTIONS, OptionType
    from shipcaptaincrew.rules import PRESET_TITLES, PRESETS

    data = json.loads(scc("presets", "--json").stdout)
    for p in data["presets"]:
        assert {"name", "title", "description", "aliases", "options", "rules"} <= set(p)
        assert p["title"] == PRESET_TITLES[p["name"]]
        # What each preset changes from classic (classic itself changes nothing).
        assert p["options"] == PRESETS[p["name"]].changed_from(PRESETS["classic"])
    by_name = {p["name"]: p["options"] for p in data["presets"]}
    assert by_name["classic"] == {}
    assert by_name["skip-kaptein-mannskap"] == {"format": "first_to:50"}  # R3: for points
    assert [o["name"] for o in data["options"]] == list(OPTIONS)
    for o in data["options"]:
        option = OPTIONS[o["name"]]
        keys = {"name", "kind", "group", "default", "choices", "bounds", "sources", "label", "help"}
        assert keys <= set(o), o
        assert (o["kind"], o["group"], o["label"], o["help"]) == (
            option.kind.value,
            option.group.value,
            option.label,
            option.help,
        )
        assert o["sources"] == list(option.sources)
        if option.kind is OptionType.CHOICE:
            assert o["choices"] == [c.value for c in option.choices] and o["bounds"] is None
        elif option.kind is OptionType.NUMBER:
            assert o["bounds"] == list(option.bounds) and o["choices"] is None
        elif option.kind is OptionType.FORMAT:
            assert o["choices"] == [
                "single",
                "rounds:N",
                "first_to:N",
                "tournament",
                "wins:N",
                "session",
            ]
            assert {k["kind"]: k["bounds"] for k in o["kinds"]}["rounds"] == [1, 1000]
        else:
            assert o["choices"] is None and o["bounds"] is None


def test_presets_in_words_name_each_preset_and_its_differences() -> None:
    out = scc("presets", "--lang", "de", env={"COLUMNS": "400"}).stdout
    assert "Skip, kaptein og mannskap" in out and "Klassisches 6-5-4" in out
    assert "Partieform: wer zuerst 50 hat" in out  # skip differs from classic in its format
    assert "Halbe Ladung (half_cargo)" in out and "000.25" in out


def test_errors_speak_the_chosen_language() -> None:
    for args in (
        ["turn", "--lang", "de", "--set", "colour=red", "65411"],
        ["--lang", "de", "turn", "--set", "colour=red", "65411"],
        ["play", "--lang", "de", "--set", "colour=red", "-p", "Anna", "-p", "Bo"],
    ):
        r = scc(*args)
        assert r.returncode == 2, args
        assert r.stderr.startswith("Fehler: unbekannte Option „colour“"), (args, r.stderr)
    r = scc("turn", "--lang", "nb", "6541")
    assert r.stderr.strip() == "feil: kast 1 trenger 5 terninger (de frie), fikk 4"


def test_version_and_help_on_every_command() -> None:
    r = scc("--version")
    assert __version__ in r.stdout
    import typer.main

    from shipcaptaincrew.cli.app import app

    commands = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert {"turn", "presets", "replay", "verify", "demo"} <= set(commands)
    assert scc("--help").returncode == 0
    for c in commands:
        h = scc(c, "--help")
        assert h.returncode == 0 and "Usage" in h.stdout, c
    # Every command takes --lang (and scc --lang works for all); report is a group of them.
    for c in commands:
        args = ["report", "strategy"] if c == "report" else [c]
        assert "--lang" in scc(*args, "--help").stdout, c
    assert "--lang" in scc("--help").stdout


def test_demo_log_replays_and_fair_dice_verify(tmp_path: Path) -> None:
    # The demo's preset (000) plays a session of rounds (000.17): bots never stop one, so the
    # demo calls a stop after --rounds rounds.
    log = tmp_path / "m.jsonl"
    r = scc("demo", "--players", "3", "--fair", "--rounds", "2", "--log", str(log))
    assert r.returncode == 0 and "wins the match" in r.stdout
    assert "Round 2:" in r.stdout and "Round 3:" not in r.stdout
    assert "calls a stop: the totals decide the match." in r.stdout
    rep = scc("replay", str(log))
    assert rep.returncode == 0 and "wins the match" in rep.stdout
    ok = scc("verify", str(log))
    assert ok.returncode == 0 and ok.stdout.startswith("OK")
    lines = log.read_text().splitlines()
    first = json.loads(lines[1])
    first["faces"] = (
        [7 - f for f in first["faces"]]
        if first["faces"] != [7 - f for f in first["faces"]]
        else first["faces"]
    )
    lines[1] = json.dumps(first)
    log.write_text("\n".join(lines) + "\n")
    bad = scc("verify", str(log))
    assert bad.returncode == 1 and "MISMATCH roll 1" in bad.stdout


def test_verify_reads_a_log_from_before_the_length_prefix(tmp_path: Path) -> None:
    """A log written before client seeds were length-prefixed (by that version's ``scc demo
    --fair``) names no seed format: its seeds were joined with "|", and it verifies as it
    did; told it is length-prefixed, the same dice do not."""
    old = Path(__file__).parent / "logs" / "fair-before-length-prefix.jsonl"
    assert "client_seed_format" not in old.read_text()
    ok = scc("verify", str(old))
    assert ok.returncode == 0 and ok.stdout.startswith("OK"), ok.stdout + ok.stderr
    lines = old.read_text().splitlines()
    header = json.loads(lines[0])
    header["dice"]["client_seed_format"] = "length-prefixed"
    relabelled = tmp_path / "relabelled.jsonl"
    relabelled.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    bad = scc("verify", str(relabelled))
    assert bad.returncode == 1 and "MISMATCH roll" in bad.stdout


def test_replay_refuses_a_corrupt_log(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"type": "match"}\n')
    r = scc("replay", str(log))
    assert r.returncode == 2 and "header" in r.stderr


def test_demo_refuses_a_table_that_cannot_be() -> None:
    r = scc("demo", "--players", "20")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == "error: a table seats 2..8 players (001.1), got 20"


def test_turn_words_count_in_every_language() -> None:
    assert "no full crew after one roll: score 0" in scc("turn", "22222").stdout
    assert "keine volle Crew nach einem Wurf" in scc("turn", "22222", "--lang", "de").stdout
    assert "etter 3 kast" in scc("turn", "22222", "11111", "33333", "--lang", "nb").stdout


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "a cargo reroll takes 1 die, got 2", "a cargo reroll takes 3 dice, got 4"),
        ("de", "braucht 1 Würfel, angegeben: 2", "braucht 3 Würfel, angegeben: 4"),
        ("nb", "tar 1 terning, fikk 2", "tar 3 terninger, fikk 4"),
    ],
)
def test_a_count_of_dice_in_a_refusal_is_singular_for_one(lang: str, one: str, two: str) -> None:
    """A cargo of one die (dice=4) is refused as "1 die", not "1 dice", in every language."""
    r = scc("turn", "6543", "44", "--set", "dice=4", "--lang", lang)
    assert r.returncode == 2 and one in r.stderr, r.stderr
    r = scc("turn", "654111", "4444", "--set", "dice=6", "--lang", lang)
    assert r.returncode == 2 and two in r.stderr, r.stderr
