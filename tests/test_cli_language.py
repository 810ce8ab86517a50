"""Every ``--help`` and every refusal of the command line, in German and Norwegian.

The walk takes every command Typer knows (so a new command is walked without being listed
here) and a refusal for every way the command line turns input down -- the parser's (an
unknown command or option, a missing or malformed value, a bound crossed, extra words) and
each command's own (a bad rule set, seat, policy, position, log, file).  Each answer must be
one line on stderr naming the problem with the language's "error" word, exit with status 2
(or 1 for the two answers that say so), and hold no English: no message of the catalogue in
its English form, none of Typer's own words and no English running text
(:mod:`tests.english`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer import _click
from typer.main import get_command
from typer.testing import CliRunner

from shipcaptaincrew.cli.app import app
from shipcaptaincrew.fair import FairDice, SeededDice
from shipcaptaincrew.game import Game
from shipcaptaincrew.i18n import translator, use
from shipcaptaincrew.rules import find_rules

from .english import english_left

LANGS = ("de", "nb")
#: The language's word that starts every refusal (``error: {message}``).
ERROR = {lang: translator(lang)("error: {message}").split("{")[0] for lang in LANGS}
LOCALES = {"de": "de_DE.UTF-8", "nb": "nb_NO.UTF-8"}
NO_LOCALE = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}


def command_paths() -> list[list[str]]:
    """Every command and group of ``scc``, as the words that name it."""
    paths: list[list[str]] = [[]]

    def walk(command: _click.Command, path: list[str]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            paths.append([*path, name])
            walk(sub, [*path, name])

    walk(get_command(app), [])
    return paths


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Event logs a person may hand to replay and verify: good ones and broken ones."""
    d = tmp_path_factory.mktemp("logs")
    seeded = d / "seeded.jsonl"
    g = Game(find_rules("classic"), ["Anna", "Bo"], dice=SeededDice(3), log_path=seeded)
    while not g.is_over:
        _ = g.roll() if g.is_chance else g.push(g.legal_actions()[0])
    unrevealed = d / "unrevealed.jsonl"
    g = Game(find_rules("classic"), ["Anna", "Bo"], dice=FairDice(), log_path=unrevealed)
    g.roll()
    lines = seeded.read_text(encoding="utf-8").splitlines()
    header, events = lines[0], lines[1:]
    broken = {
        "not_json": "{\n",
        "no_header": '{"type": "roll", "seat": 0, "faces": [1]}\n',
        "bad_kind": header + '\n{"type": "dance"}\n',
        "wrong_seat": header + "\n" + events[0].replace('"seat": 0', '"seat": 1') + "\n",
        "lacks_rules": json.dumps({k: v for k, v in json.loads(header).items() if k != "rules"})
        + "\n",
    }
    out = {"seeded": seeded, "unrevealed": unrevealed}
    for name, text in broken.items():
        out[name] = d / f"{name}.jsonl"
        out[name].write_text(text, encoding="utf-8")
    (d / "binary.jsonl").write_bytes(b"\xff\xfe\x00garbage")
    out["binary"] = d / "binary.jsonl"
    return out


def refusals(logs: dict[str, Path], tmp: Path) -> Iterator[tuple[str, list[str], int]]:
    """(name, arguments, exit status) for every kind of refusal, command by command."""
    two = ["-p", "Anna", "-p", "Bo"]
    adv = ["advise", "--held", "none", "--roll", "65425", "--rolls-used", "1"]
    sim = ["simulate", "--players", "tip,tip", "--matches", "5"]
    sweep = ["sweep", "--bots", "tip", "--players", "2", "--matches", "3"]
    missing = tmp / "missing" / "x"
    cases: list[tuple[str, list[str]] | tuple[str, list[str], int]] = [
        # the parser, through every kind of error it raises
        ("unknown command", ["pley"]),
        ("unknown command, nothing close", ["zzzzzz"]),
        ("unknown option", ["odds", "--exakt"]),
        ("unknown option, nothing close", ["odds", "--zzzzzz"]),
        ("unknown root option", ["--verbose", "odds"]),
        ("unknown language", ["--lang", "xx", "odds"]),
        ("missing option", ["equilibrium"]),
        ("missing argument", ["turn"]),
        ("option without its value", ["odds", "--policy"]),
        ("not a whole number", ["serve", "--port", "x"]),
        ("below a bound", ["serve", "--port", "0"]),
        ("above a bound", ["serve", "--workers", "65"]),
        ("extra words", ["odds", "extra", "words"]),
        ("report without its report", ["report", "nosuch"]),
        # the game at the terminal
        ("solo without a target", ["play", "-p", "Anna"]),
        ("two people of one name", ["play", "-p", "Anna", "-p", "anna"]),
        ("unknown preset", ["play", *two, "--rules", "yahtzee"]),
        ("unknown option of the rules", ["play", *two, "--set", "colour=red"]),
        ("option out of bounds", ["play", *two, "--set", "cargo_rerolls=5"]),
        ("bad format", ["play", *two, "--format", "rounds:0"]),
        ("bad tie-break", ["play", *two, "--tie-break", "coin"]),
        ("starter not at the table", ["play", *two, "--starter", "9"]),
        ("target at a table of two", ["play", *two, "--target", "8"]),
        ("target out of bounds", ["play", "-p", "Anna", "--target", "99", "--rules", "classic"]),
        ("unknown bot", ["play", "-p", "Anna", "-p", "bot:nosuch"]),
        ("script that is not there", ["play", *two, "--script", str(missing)]),
        ("rule combination", ["play", *two, "--set", "failed_double=true"]),
        ("a bot at the companion", ["companion", "-p", "Anna", "-p", "bot:easy"]),
        ("tournament for two", ["companion", *two, "--format", "tournament"]),
        # rules, presets, turn
        ("rules of an unknown preset", ["rules", "yahtzee"]),
        ("a turn with the wrong count of dice", ["turn", "65331", "42"]),
        ("a face no die has", ["turn", "76543"]),
        ("a roll after the turn", ["turn", "65431", "11", "11", "11"]),
        # the solver's commands
        ("unknown policy", ["odds", "--policy", "foo"]),
        ("threshold out of range", ["odds", "--policy", "threshold:999"]),
        ("a policy that needs a round", ["odds", "--policy", "optimal"]),
        ("players out of bounds", ["strategy", "--players", "9"]),
        ("unknown objective", ["strategy", "--objective", "fame"]),
        ("match tables for three", ["strategy", "--format", "rounds:2", "--players", "3"]),
        ("match tables of one round", ["strategy", "--format", "single"]),
        ("plot that is no picture", ["strategy", "--plot", str(tmp / "x.txt")]),
        ("rolls used past the turn", [*adv[:-1], "4"]),
        (
            "roles out of order",
            ["advise", "--held", "ship,crew", "--roll", "65", "--rolls-used", "2"],
        ),
        ("unknown role", ["advise", "--held", "boat", "--roll", "65", "--rolls-used", "2"]),
        (
            "nothing held before the first roll",
            ["advise", "--held", "ship", "--roll", "5432", "--rolls-used", "1"],
        ),
        ("posted score that is no number", [*adv, "--posted", "x"]),
        ("impossible posted score", [*adv, "--posted", "13"]),
        ("totals without a match", [*adv, "--totals", "1,2"]),
        ("round zero", [*adv, "--format", "rounds:3", "--round", "0"]),
        (
            "wrong faces for the roll",
            ["advise", "--held", "none", "--roll", "6542", "--rolls-used", "1"],
        ),
        ("policies for the wrong count", ["equilibrium", "--players", "2", "--policy", "ev,ev,ev"]),
        ("unknown policy in a line-up", ["equilibrium", "--players", "2", "--policy", "foo"]),
        ("beyond the exact solver", ["equilibrium", "--players", "4", "--format", "rounds:3"]),
        (
            "a rule the match model does not follow",
            ["equilibrium", "--players", "3", "--format", "rounds:2", "--set", "tie_break=round"],
        ),
        (
            "best response at no seat",
            ["evaluate", "--players", "2", "--policy", "ev", "--best-response", "3"],
        ),
        ("unknown file format", ["export", "--out", str(tmp / "x"), "--to", "xml"]),
        ("unknown table", ["export", "--out", str(tmp / "x"), "--table", "all"]),
        (
            "a table the solver cannot make",
            [
                "export",
                "--out",
                str(tmp / "y"),
                "--rules",
                "ship-captain-crew",
                "--table",
                "best_response",
            ],
        ),
        (
            "a directory that cannot be made",
            ["export", "--out", "/proc/scc-test/", "--table", "turn_odds"],
        ),
        # the simulator
        ("one bot", ["simulate", "--players", "tip", "--matches", "5"]),
        ("unknown bot to simulate", ["simulate", "--players", "tip,foo", "--matches", "5"]),
        ("no matches", [*sim[:-1], "0"]),
        ("negative seed", [*sim, "--seed", "-1"]),
        ("workers and Dask", [*sim, "--workers", "2", "--dask", "local"]),
        ("output of another type", [*sim, "--out", str(tmp / "x.txt")]),
        ("output in no directory", [*sim, "--out", str(missing) + ".csv"]),
        ("unknown stakes word", [*sim, "--stakes", "beer"]),
        ("two stakes", [*sim, "--stakes", "pot+points"]),
        ("a tournament for two bots", [*sim, "--format", "tournament"]),
        ("player count that is no number", [*sweep[:4], "2,x", *sweep[5:]]),
        ("empty bot name", ["sweep", "--bots", "tip,", "--players", "2", "--matches", "3"]),
        ("sweep plot that is no picture", [*sweep, "--plot", str(tmp / "x.jpg")]),
        ("a resolution too low to print", [*sim, "--plot", str(tmp / "x.pdf"), "--dpi", "10"]),
        # the demo, logs and the server
        ("demo for nine", ["demo", "--players", "9"]),
        ("demo of no rounds", ["demo", "--rounds", "0"]),
        ("a log that is not there", ["replay", str(missing)]),
        ("a log that is not JSON", ["replay", str(logs["not_json"])]),
        ("a log that is no text", ["replay", str(logs["binary"])]),
        ("a log without its header", ["replay", str(logs["no_header"])]),
        ("a log with an unknown event", ["replay", str(logs["bad_kind"])]),
        ("an event out of turn", ["replay", str(logs["wrong_seat"])]),
        ("a header without its rules", ["replay", str(logs["lacks_rules"])]),
        ("verify seeded dice", ["verify", str(logs["seeded"])]),
        ("verify before the seed is revealed", ["verify", str(logs["unrevealed"])]),
        # a crew's season from a database
        ("a crew database of another kind", ["crew", "list", "--db", "mysql://x/y"]),
        (
            "a crew that is not there",
            ["crew", "show", "nobody", "--db", f"sqlite:///{tmp / 'c.db'}"],
        ),
        (
            "a crew table that is not there",
            [
                "crew",
                "export",
                "x",
                "--db",
                f"sqlite:///{tmp / 'c.db'}",
                "--out",
                str(tmp),
                "--table",
                "all",
            ],
        ),
        ("several workers on SQLite", ["serve", "--workers", "2"]),
        ("database of another kind", ["serve", "--db", "mysql://x/y"]),
        ("Redis with SQLite", ["serve", "--redis", "redis://127.0.0.1:1/0"]),
        (
            "Redis URL of another kind",
            ["serve", "--db", "postgresql://u@h/d", "--redis", "http://x"],
        ),
        ("a key without its certificate", ["serve", "--tls-key", str(missing)]),
        ("no backups kept", ["backup", str(tmp / "b"), "--keep", "0"]),
        ("a backup of no database", ["backup", str(tmp / "b"), "--db", f"sqlite:///{missing}"], 1),
        ("a restore of no backup", ["restore", str(missing), "--db", "sqlite:///x.sqlite3"], 1),
        ("a restore of a log", ["restore", str(logs["seeded"]), "--db", "sqlite:///x.sqlite3"], 1),
    ]
    for case in cases:
        name, args = case[0], case[1]
        yield name, args, case[2] if len(case) == 3 else 2  # type: ignore[misc]


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CliRunner]:
    cache = tmp_path_factory.mktemp("scc-cache")
    yield CliRunner(env={**NO_LOCALE, "SCC_CACHE_DIR": str(cache), "COLUMNS": "100"})
    use("en")


@pytest.mark.parametrize("lang", LANGS)
def test_every_help_page_is_in_the_language(runner: CliRunner, lang: str) -> None:
    pages = 0
    for path in command_paths():
        for args in ([*path, "--help", "--lang", lang], ["--lang", lang, *path, "-h"]):
            r = runner.invoke(app, args)
            assert r.exit_code == 0, (args, r.output)
            assert r.stdout.startswith(translator(lang)("Usage: {usage}").split("{")[0]), args
            assert english_left(r.stdout, lang) == [], (args, r.stdout)
            pages += 1
    assert pages == 2 * len(command_paths()) >= 2 * 20


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_is_one_line_in_the_language(
    runner: CliRunner, logs: dict[str, Path], tmp_path: Path, lang: str
) -> None:
    problems = []
    cases = list(refusals(logs, tmp_path))
    for name, args, status in cases:
        if args[0] == "--lang":  # an unknown --lang is refused in the locale's language
            r = runner.invoke(app, args, env={"LANG": LOCALES[lang]})
        else:
            r = runner.invoke(app, [*args, "--lang", lang])
        lines = r.stderr.strip().splitlines()
        if r.exit_code != status or len(lines) != 1 or not lines[0].startswith(ERROR[lang]):
            problems.append(f"{name}: status {r.exit_code}, stderr {r.stderr!r}")
        elif left := english_left(lines[0], lang):
            problems.append(f"{name}: {left} in {lines[0]!r}")
    assert not problems, "\n".join(problems)
    assert len(cases) >= 80


def test_the_language_is_read_wherever_lang_stands(runner: CliRunner) -> None:
    """``--lang`` after ``--help`` or after a bad option still decides the language."""
    r = runner.invoke(app, ["play", "--help", "--lang", "nb"])
    assert r.stdout.startswith("Bruk: scc play [VALG]")
    r = runner.invoke(app, ["odds", "--exakt", "--lang", "de"])
    assert (
        r.stderr
        == "Fehler: unbekannte Option: --exakt; meintest du --exact, --set? (siehe scc odds --help)\n"
    )
    r = runner.invoke(app, ["odds", "--lang", "de"], env={"LANG": "nb_NO.UTF-8"})
    assert r.exit_code == 0 and "Ein Zug nach den Regeln Klassisches 6-5-4" in r.stdout
    r = runner.invoke(app, ["--lang", "xx", "odds"], env={"LANG": "nb_NO.UTF-8"})
    assert r.stderr == "feil: ukjent språk «xx»; velg et av: en, de, nb\n"


def test_english_is_found_where_it_is_left(runner: CliRunner) -> None:
    """The check itself: English help and an English refusal are caught, German is not."""
    en = runner.invoke(app, ["odds", "--help", "--lang", "en"]).stdout
    assert english_left(en, "de")
    de = runner.invoke(app, ["odds", "--help", "--lang", "de"]).stdout
    assert english_left(de, "de") == []
    assert english_left("Fehler: rolls used must be 1..3, got 4", "de")
    assert english_left("Fehler: the database is down", "de") == ["word: 'is'", "word: 'the'"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_dialogues_complaints_are_in_the_language(
    runner: CliRunner, tmp_path: Path, lang: str
) -> None:
    """Wrong answers in the set-up dialogue and at the table, each answered in the language."""
    tr = translator(lang)
    answers = [
        "9", "zwei", "2", "Anna", "anna", "bot:nosuch", "Bo",  # seats: out of range, a word,
        "7", "1",  # a preset that is not listed, then classic
        "x", "11", "maybe", "7", "",  # an option: a word, then a value out of bounds
        "", "", "stand:9", tr("no"), "stand", "", "", "q",  # the match: notation that is not
    ]  # fmt: skip
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(answers) + "\n", encoding="utf-8")
    r = runner.invoke(
        app,
        [
            "play",
            "--seed",
            "3",
            "--lang",
            lang,
            "--script",
            str(script),
            "--log",
            str(tmp_path / "l.jsonl"),
        ],
    )
    assert r.exit_code == 0, r.output
    told = r.stdout
    assert told.count(tr("Please type a whole number from {lo} to {hi}.").format(lo=2, hi=8)) == 1
    assert english_left(told, lang) == [], told
