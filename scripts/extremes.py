"""Every rule option at its extremes through every shell: played right, or refused as listed.

The cases come from the option table: each bound of a number (and ``none`` where it allows
no limit), each choice, each value of a flag, and each match format kind at each bound of its
N -- alone, and, where an option only means something with another (``Option.requires``) or
the rule set refuses it alone, with what it needs (the first value of another option that
makes it valid).  Every case runs through every shell: ``scc odds``, ``strategy`` (with and
without ``--format``), ``advise``, ``turn`` (each in words and as JSON, with a roll the rule
set's turn allows: a full crew from the cup's dice), ``simulate``, ``equilibrium``,
``evaluate``, ``export``, ``rules`` in every language, the web's create form and a match
against a bot through the match service, and each environment's official checker
(Gymnasium's ``check_env``, PettingZoo's ``api_test``, OpenSpiel's ``random_sim_test``, a step
of both batched environments).

A shell that answers has its answer read (``scripts/extremes_checks.py``): its numbers
against figures it did not make (a brute force of the turn from the rules alone, the cargo a
stand scores, the exact chance a simulated rate estimates) and its words against the rule set
(the cargo shown has the cup's cargo dice and adds up to the score; a reroll counts the right
dice; the rules text names the cup in each language).  A wrong number or word fails the run.
A refusal (exit status 2 with one line; a project's own ``ValueError`` in one line from an
API) passes only where it is listed in ``extremes_checks.REFUSALS`` with its reason, or where
the rule set itself refuses the combination (then every command must refuse it).  A traceback,
any other status, an unlisted refusal or a run past its time limit fails.  Prints one line per
failure and a summary line; exits 1 when anything failed.

    .venv/bin/python scripts/extremes.py            # the whole matrix (CI)
    .venv/bin/python scripts/extremes.py --quick    # a few cases (tests/test_extremes.py)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The checks live beside this script (scripts/extremes_checks.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: The options whose first and last values make the quick cases.
QUICK = ("dice", "rolls", "cargo_rerolls", "drinking", "format")
#: Options whose extremes are crossed with every value of the options that read what they
#: change: the dice in the cup decide the cargo's dice, which half cargo, the cargo roll-off,
#: the cargo rerolls, the same-roll bonus and a wild captain's example all count.
CROSSED = {"dice": ("half_cargo", "tie_break", "cargo_rerolls", "same_roll_bonus", "wild_captain")}
#: A match format's N beyond which the simulation seats no match-optimal bot.
LONG = 100
#: Seconds one shell may take on one case before it counts as a hang.
LIMIT = 300
#: Matches a simulation plays, and moves a web match is driven before it counts as playing.
MATCHES = 12
WEB_MOVES = 150


@dataclass(frozen=True)
class Case:
    """A rule set to run: ``--set`` texts, and what it is for the summary."""

    label: str
    settings: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """One shell on one case: ``ok`` (played, its answer read), ``refused`` (one clean line,
    as listed: ``detail`` is the reason) or ``failed``."""

    case: str
    shell: str
    kind: str
    detail: str = ""
    seconds: float = 0.0


def _values(option: Any) -> list[Any]:
    """The extremes of one option, as typed values."""
    from shipcaptaincrew.formats import FORMAT_KINDS, MatchFormat
    from shipcaptaincrew.options import OptionType

    if option.kind is OptionType.FLAG:
        return [False, True]
    if option.kind is OptionType.NUMBER:
        lo, hi = option.bounds
        return [lo, hi, *([None] if option.unlimited else [])]
    if option.kind is OptionType.CHOICE:
        return [c.value for c in option.choices]
    out = []
    for kind, spec in FORMAT_KINDS.items():
        bounds = spec.bounds
        out += [MatchFormat(kind)] if bounds is None else [MatchFormat(kind, n) for n in bounds]
    return out


def _valid(settings: list[str]) -> bool:
    from shipcaptaincrew.errors import GameError
    from shipcaptaincrew.rules import find_rules

    try:
        find_rules("classic").with_settings(settings)
    except GameError:
        return False
    return True


def _helpers() -> Iterator[str]:
    """Every other setting a case may need, in the table's order."""
    from shipcaptaincrew.options import OPTIONS

    for name, option in OPTIONS.items():
        for value in _values(option):
            if value != option.default:
                yield f"{name}={option.text(value)}"


def cases(quick: bool = False) -> list[Case]:
    """Every case of the matrix (or, ``quick``, the first and last value of a few options)."""
    from shipcaptaincrew.options import OPTIONS

    out: dict[tuple[str, ...], Case] = {}

    def add(wanted: list[str]) -> None:
        if not _valid(wanted):
            helper = next((h for h in _helpers() if _valid([h, *wanted])), None)
            if helper is not None:
                wanted = [helper, *wanted]
        key = tuple(wanted)
        out.setdefault(key, Case(" ".join(key), key))

    for name, option in OPTIONS.items():
        values = _values(option)
        if quick:
            if name not in QUICK:
                continue
            values = [values[0], values[-1]]
        for value in values:
            alone = f"{name}={option.text(value)}"
            out.setdefault((alone,), Case(alone, (alone,)))
            add(_with_needs(option, value))
    # The cup's extremes with every option that reads the cargo: half cargo and the cargo
    # roll-off with a cargo of one die and of three, and the rest of the turn around them.
    for name, others in CROSSED.items():
        option = OPTIONS[name]
        for value in _values(option)[: None if not quick else 2]:
            if value == option.default:
                continue
            for other in others if not quick else others[:2]:
                o = OPTIONS[other]
                changed = [v for v in _values(o) if v != o.default]
                for v in changed if not quick else changed[:1]:
                    add([f"{name}={option.text(value)}", *_with_needs(o, v)])
    # A value at its default is the game without it: one such case stands for all of them.
    seen: set[str] = set()
    unique = []
    for case in out.values():
        text = _canonical(list(case.settings)) or case.label
        if text not in seen:
            seen.add(text)
            unique.append(case)
    return unique


def _with_needs(option: Any, value: Any) -> list[str]:
    """``option=value``, after what it needs (``Option.requires``) when not at its default."""
    alone = f"{option.name}={option.text(value)}"
    if option.requires is not None and value != option.default:
        other, needed = option.requires
        return [f"{other}={needed}", alone]
    return [alone]


def _canonical(settings: list[str]) -> str | None:
    from shipcaptaincrew.errors import GameError
    from shipcaptaincrew.rules import find_rules

    try:
        return str(find_rules("classic").with_settings(settings))
    except GameError:
        return None


# -- the shells -------------------------------------------------------------------------------


def _players(rules: Any) -> int:
    """The smallest table the rule set seats (two, or three for a tournament)."""
    from shipcaptaincrew.engine import check_players
    from shipcaptaincrew.errors import GameError
    from shipcaptaincrew.facts import MAX_PLAYERS, MIN_PLAYERS

    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        try:
            return check_players(rules, n)
        except GameError:
            continue
    return MIN_PLAYERS


#: A check of a command's answer: (rules, standard output, the run's directory).
Check = Callable[[Any, str, str], None]


def full_roll(rules: Any) -> str:
    """A first roll the rule set's turn allows that completes the crew: the roles' faces and,
    for the cargo, the highest face that is not wild (so the roll has one way to be set aside)."""
    wild = rules.wild_face if rules.wild_captain else None
    filler = next(f for f in (6, 5, 4, 3, 2, 1) if f != wild)
    return "".join(map(str, (*rules.required_faces, *[filler] * rules.cargo_dice)))


def _commands(case: Case, rules: Any, out_dir: str) -> dict[str, tuple[list[str], Check | None]]:
    import extremes_checks as check

    from shipcaptaincrew.facts import LANGUAGES
    from shipcaptaincrew.solver.match.advice import has_match

    n = str(_players(rules))
    # The match-optimal bot thinks about every position of a match: at hundreds of rounds
    # that takes minutes, so the longest formats seat the best-expected-score bot instead.
    first = "optimal" if (rules.format.n or 0) <= LONG else "ev"
    bots = ",".join([first, *["tip"] * (int(n) - 1)])
    fmt = str(rules.format) if has_match(rules) else "rounds:2"
    roll = full_roll(rules)
    advise = ["advise", "--held", "none", "--roll", roll, "--rolls-used", "1"]
    advise += ["--players-after", "1"]
    export = ["export", "--out", f"{out_dir}/", "--players", n, "--table", "turn_odds"]
    export += ["--table", "decisions", "--table", "round_equilibrium"]
    export += ["--table", "match_equilibrium"]
    cmds: dict[str, tuple[list[str], Check | None]] = {
        "odds": (["odds"], None),
        "odds --json": (["odds", "--exact", "--json"], check.odds),
        "strategy": (["strategy", "--players", n], None),
        "strategy --json": (["strategy", "--players", n, "--json"], check.strategy),
        "strategy --format": (["strategy", "--format", fmt, "--json"], check.strategy_format),
        "advise": (advise, check.advise_words),
        "advise --json": ([*advise, "--json"], check.advise_json),
        "turn": (["turn", roll], check.turn_words),
        "turn --json": (["turn", roll, "--json"], check.turn_json),
        "simulate": (
            ["simulate", "--players", bots, "--matches", str(MATCHES), "--seed", "1", "--json"],
            check.simulate,
        ),
        "equilibrium": (["equilibrium", "--players", n, "--json"], check.solved),
        "evaluate": (["evaluate", "--players", n, "--policy", "optimal", "--json"], check.solved),
        "export": (export, check.export),
    }
    for lang in LANGUAGES:
        cmds[f"rules --lang {lang}"] = (
            ["rules", "--plain", "--lang", lang],
            check.rules_words(lang),
        )
    sets = [a for s in case.settings for a in ("--set", s)]
    return {name: ([*args, *sets], ok) for name, (args, ok) in cmds.items()}


class Hang(Exception):
    """A shell ran past :data:`LIMIT`."""


def _alarm(_signum: int, _frame: Any) -> None:
    raise Hang(f"no answer in {LIMIT} s")


def _timed(case: Case, shell: str, run: Callable[[], tuple[str, str]]) -> Outcome:
    import extremes_checks as check

    start = time.monotonic()
    signal.alarm(LIMIT)
    try:
        kind, detail = run()
    except Hang as e:
        kind, detail = "failed", str(e)
    except check.Wrong as e:
        kind, detail = "failed", f"wrong: {e}"
    except Exception as e:  # an API's refusal is the project's own, in one line
        clean = _refusal(e)
        kind = "refused" if clean else "failed"
        detail = str(e) if clean else traceback.format_exc(limit=-3)
    finally:
        signal.alarm(0)
    if kind == "refused":
        listed = check.listed(shell, detail)
        if listed is None:
            kind, detail = "failed", f"a refusal nobody listed: {detail}"
        else:
            detail = listed.reason
    return Outcome(case.label, shell, kind, detail.strip(), time.monotonic() - start)


def _refusal(e: BaseException) -> bool:
    """A refusal the project raised on purpose: a ``ValueError`` (every ``GameError`` is one)
    or a ``RuntimeError`` raised in the project's own code, with a one-line message."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    ours = tb is not None and "shipcaptaincrew" in tb.tb_frame.f_code.co_filename
    text = str(e)
    return ours and isinstance(e, ValueError | RuntimeError) and bool(text) and "\n" not in text


def _cli(
    args: list[str], rules: Any = None, ok: Check | None = None, out_dir: str = ""
) -> Callable[[], tuple[str, str]]:
    def run() -> tuple[str, str]:
        from typer.testing import CliRunner

        from shipcaptaincrew.cli.app import app

        # Wide enough that no table cell wraps its words (the checks read whole phrases).
        result = CliRunner().invoke(app, ["--lang", "en", *args], env={"COLUMNS": "250"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            if isinstance(result.exception, Hang):
                raise result.exception
            tb = "".join(traceback.format_exception(result.exception, limit=-3))
            return "failed", tb
        err = result.stderr.strip()
        if result.exit_code == 0:
            if ok is not None:
                ok(rules, result.stdout, out_dir)
            return "ok", ""
        if result.exit_code == 2 and err and "\n" not in err and "Traceback" not in err:
            return "refused", err
        return "failed", f"exit {result.exit_code}: {err or result.stdout[-300:]}"

    return run


def _web(rules: Any, settings: tuple[str, ...]) -> Callable[[], tuple[str, str]]:
    """Create a room with the form's settings, seat a bot, and play the host's first choices."""

    def run() -> tuple[str, str]:
        from fastapi.testclient import TestClient

        from shipcaptaincrew.web import Settings, create_app

        with tempfile.TemporaryDirectory() as tmp:
            web = Settings(
                db_url=f"sqlite:///{tmp}/db.sqlite3",
                bot_delay=0.0,
                rate_per_second=1000.0,
                rate_burst=1000,
                rooms_per_hour=0,
            )
            with TestClient(create_app(web)) as client:
                made = client.post("/api/rooms", json={"name": "Anna", "settings": list(settings)})
                if made.status_code != 201:
                    detail = made.json().get("message", made.text)
                    clean = made.status_code in (400, 422) and "\n" not in str(detail)
                    return ("refused" if clean else "failed"), f"{made.status_code}: {detail}"
                code, token = made.json()["code"], made.json()["token"]
                for _ in range(_players(rules) - 1):
                    bot = client.post(
                        f"/api/rooms/{code}/bots",
                        json={"level": "medium"},
                        headers={"X-Seat-Token": token},
                    )
                    if bot.status_code != 201:
                        return "failed", f"a bot: {bot.status_code} {bot.text}"
                started = client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": token})
                if started.status_code != 200:
                    return "failed", f"start: {started.status_code} {started.text}"
                return _drive(client, code, token, rules)

    return run


def _drive(client: Any, code: str, token: str, rules: Any) -> tuple[str, str]:
    """Play the host's first legal choice until the match ends (or for a while), reading
    every picture (the turn's shape, each turn's cargo) and every line of the story."""
    import extremes_checks as check

    moves = 0
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        while moves < WEB_MOVES:
            msg = ws.receive_json()
            if msg["type"] == "room" and msg["room"]["match"] is not None:
                check.picture(msg["room"], rules)
                lines = msg.get("lines") or []
                check.story([x if isinstance(x, str) else x.get("text", "") for x in lines], rules)
            # A move sent on a picture the bots have since moved on from is refused as stale
            # or out of turn; any other refusal of a legal move is a failure.
            if msg["type"] == "error" and msg.get("code") not in ("stale", "not_your_turn"):
                return "failed", f"the service refused a legal move: {msg}"
            if msg["type"] != "room":
                continue
            room = msg["room"]
            match = room["match"]

            if match is None:
                continue
            if match["over"]:
                return "ok", ""
            if match["actor"] == 0 and match["legal"]:
                # Standing ends a turn soonest and stopping ends a session.
                legal = match["legal"]
                choice = next((a for a in ("stop", "stand") if a in legal), legal[0])
                move = {"type": "roll"} if choice == "roll" else {"type": "act", "action": choice}
                ws.send_text(json.dumps({**move, "version": room["version"]}))
                moves += 1
    return "ok", f"still playing after {moves} moves"


def _envs(rules: Any) -> dict[str, Callable[[], tuple[str, str]]]:
    import extremes_checks as check

    def gym() -> tuple[str, str]:
        from gymnasium.utils.env_checker import check_env

        from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv

        bots = ["tip"] * (_players(rules) - 1)
        check_env(ShipCaptainCrewEnv(rules=rules, bots=bots, match=True), skip_render_check=True)
        e = ShipCaptainCrewEnv(rules=rules, bots=bots, match=True)
        obs, _ = e.reset(seed=1)
        rng = random.Random(1)
        for _ in range(200):
            check.observation(obs, rules)
            legal = [i for i, m in enumerate(obs["action_mask"]) if m]
            obs, _, done, cut, _ = e.step(rng.choice(legal))
            if done or cut:
                obs, _ = e.reset(seed=rng.randrange(1000))
        return "ok", ""

    def zoo() -> tuple[str, str]:
        from pettingzoo.test import api_test

        from shipcaptaincrew.envs.pettingzoo_env import env

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(env(players=_players(rules), rules=rules, match=True), num_cycles=30)
        return "ok", ""

    def spiel() -> tuple[str, str]:
        import pyspiel

        from shipcaptaincrew.envs import openspiel_game

        game = openspiel_game.load(_players(rules), str(rules), replay_cap=2)
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
        check.spiel_first_roll(game, rules)
        return "ok", ""

    def batched() -> tuple[str, str]:
        from shipcaptaincrew.envs.batched import BatchedTurnEnv

        e = BatchedTurnEnv(8, rules=rules)
        e.reset(seed=1)
        for _ in range(4):
            e.step(e.sample_actions())
            check.batched_tables(e.states(), rules)
        return "ok", ""

    def batched_match() -> tuple[str, str]:
        from shipcaptaincrew.envs.batched_match import BatchedMatchEnv

        e = BatchedMatchEnv(8, rules=rules, opponents=["tip"] * (_players(rules) - 1))
        e.reset(seed=1)
        for _ in range(4):
            e.step(e.sample_actions())
        return "ok", ""

    return {
        "gymnasium check_env": gym,
        "pettingzoo api_test": zoo,
        "openspiel random_sim_test": spiel,
        "batched turn env": batched,
        "batched match env": batched_match,
    }


def run_case(case: Case) -> list[Outcome]:
    """Every shell on one case."""
    from shipcaptaincrew.rules import find_rules

    signal.signal(signal.SIGALRM, _alarm)
    rules = find_rules("classic").with_settings(list(case.settings))
    with tempfile.TemporaryDirectory() as out_dir:
        runs: dict[str, Callable[[], tuple[str, str]]] = {
            name: _cli(args, rules, ok, out_dir)
            for name, (args, ok) in _commands(case, rules, out_dir).items()
        }
        runs["web: create and a match"] = _web(rules, case.settings)
        runs.update(_envs(rules))
        return [_timed(case, shell, run) for shell, run in runs.items()]


#: Why a case is refused by every command: the rule set itself refuses it.
REFUSED_RULES = "the rule set refuses the combination (Option.requires or Rules._validate)"


def run_refused(case: Case) -> list[Outcome]:
    """A case the rule set refuses: every command says so in one line with status 2."""
    signal.signal(signal.SIGALRM, _alarm)
    out = []
    with tempfile.TemporaryDirectory() as out_dir:
        args = {"odds": ["odds"], "rules": ["rules", "--plain"]}
        args["simulate"] = ["simulate", "--players", "tip,tip", "--matches", "1"]
        args["export"] = ["export", "--out", f"{out_dir}/"]
        sets = [a for s in case.settings for a in ("--set", s)]
        for name, a in args.items():
            start = time.monotonic()
            kind, detail = _cli([*a, *sets])()
            kind, detail = {
                "ok": ("failed", "accepted"),
                "refused": ("refused", REFUSED_RULES),
            }.get(kind, (kind, detail))
            out.append(Outcome(case.label, name, kind, detail, time.monotonic() - start))
    return out


def _run(case: Case) -> list[Outcome]:
    return run_case(case) if _valid(list(case.settings)) else run_refused(case)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few cases only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", help="run the cases whose label contains this text")
    parser.add_argument("--times", action="store_true", help="print every run's seconds")
    parser.add_argument("--refusals", action="store_true", help="print every refusal's reason")
    args = parser.parse_args(argv)
    os.environ.setdefault("SCC_CACHE_DIR", tempfile.mkdtemp(prefix="scc-extremes-"))
    todo = [c for c in cases(args.quick) if args.only is None or args.only in c.label]
    start = time.monotonic()
    with multiprocessing.get_context("fork").Pool(max(1, args.jobs)) as pool:
        results = [o for part in pool.imap_unordered(_run, todo) for o in part]
    if args.times:
        for o in sorted(results, key=lambda o: -o.seconds):
            print(f"{o.seconds:6.1f} s  {o.kind:8} {o.case} | {o.shell}")
    failed = [o for o in results if o.kind == "failed"]
    if args.refusals:
        for o in sorted(results, key=lambda o: (o.shell, o.case)):
            if o.kind == "refused":
                print(f"refused {o.case} | {o.shell} | {o.detail}")

    for o in sorted(failed, key=lambda o: (o.case, o.shell)):
        print(f"FAILED {o.case} | {o.shell} | {o.detail}".replace("\n", " / "))
    slow = max(results, key=lambda o: o.seconds)
    counts = {k: sum(o.kind == k for o in results) for k in ("ok", "refused", "failed")}
    reasons: dict[str, int] = {}
    for o in results:
        if o.kind == "refused":
            reasons[o.detail] = reasons.get(o.detail, 0) + 1
    print(
        f"extremes: {len(todo)} rule sets x shells = {len(results)} runs: {counts['ok']} played "
        f"with numbers and words checked, {counts['refused']} refused as listed, "
        f"{counts['failed']} failed ({time.monotonic() - start:.0f} s; slowest "
        f"{slow.seconds:.1f} s: {slow.shell} on {slow.case})"
    )
    for reason, n in sorted(reasons.items(), key=lambda r: -r[1]):
        print(f"  refused {n} x: {reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    sys.exit(main())
