"""Every command and Python snippet of README.md and docs/, run as a reader runs them.

``scripts/doc_commands.py`` finds what the documents show; here:

* every ``scc`` command runs in English, German and Norwegian, in the order the documents
  show them (in a directory laid out like a clone: a later command reads what an earlier one
  wrote), with its sizes cut where it shows no output (``--matches`` at most 200): it ends
  with the status its output shows (0, or 2 for a refusal shown), prints no traceback, and
  in German and Norwegian holds no English (``--json`` output is English by contract);
* every output shown is exactly what the command prints now (``scripts/doc_commands.py``
  writes them; the excerpts and typed answers are named in the document);
* every Python snippet runs to its end, and prints what its comments say it prints;
* every usage synopsis and every command named inline names options the command has;
* every other command (set-up scripts, the test runner, benchmarks, the deployment
  walkthrough) is one of the kinds listed in :data:`ENVIRONMENT`, with the script, test
  path or option it names existing; ``scc serve`` commands are started and asked for their
  health in ``tests/scale/test_docs_serve.py``.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.main import get_command

from shipcaptaincrew.cli.app import app

from .english import english_left

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "de", "nb")


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


DC = _load("doc_commands")
ITEMS = DC.shown()
SNIPPETS = DC.snippets()
#: Most matches a command that shows no output plays here (its figures are not shown).
MATCHES = 200

#: Commands of the documents that set up a machine, run the checks or measure, each with
#: how it is checked here: the scripts, paths and options they name exist.  (They are run
#: by CI -- scripts/test.sh is what it runs -- and by the fresh-clone check.)
ENVIRONMENT = {
    r"^bash scripts/(?P<script>[\w-]+\.sh)( (?P<arg>\S+))?( \S+)*$": "script",
    r"^sudo bash scripts/(?P<script>[\w-]+\.sh)( \S+)*$": "script",
    r"^(\.venv/bin/)?pytest (?P<paths>.+)$": "pytest",
    r"^(\.venv/bin/)?python (?P<bench>benchmarks/\w+\.py)( .*)?$": "benchmark",
    r"^\.venv/bin/python -m (?P<module>tests\.\w+)$": "module",
    r"^pip install .*shipcaptaincrew\[(?P<extra>\w+)\]['\"]?$": "extra",
    # the deployment walkthrough: root on a Debian machine (docs/deployment.md says so)
    r"^(git clone|cd|PG=\S*|mkdir|chown|runuser|createdb|redis-server|curl|kill) ": "walkthrough",
    # the public server that scripts/deploy.sh installs (docs/deployment.md), and the shell
    r"^sudo (systemctl \w+ shipcaptaincrew|-u scc /opt/shipcaptaincrew/\.venv/bin/scc "
    r"(backup|restore) )": "walkthrough",
    r"^source \.venv/bin/activate$": "walkthrough",
}


#: Commands the prose shows with an output of their own, and the status they end with; the
#: output is the prose's (:func:`quoted_output`).
INLINE = {"scc odds --exact --json": 0, "scc play --lang de --set colour=red": 2}


def kind(item: Any) -> str:
    """How a shown command is checked: run, serve, python, synopsis or an ENVIRONMENT kind."""
    words = item.words
    if item.context == "synopsis":
        return "synopsis"
    if words[0] in ("scc", ".venv/bin/scc"):
        if words[1] == "serve" or "serve" in words[:2]:
            return "serve"
        if item.context == "inline" and not _complete(words):
            return "synopsis"
        if item.command in INLINE:
            return "inline output"
        if words[1:3] == ["report", "strategy"]:
            return "report"  # tests/test_cli_solver.py runs it and compares docs/strategy.md
        return "run"
    if words[0] == "python" and words[1].startswith("examples/"):
        return "python"
    if item.command in INLINE:
        return "inline output"
    line = " ".join(words)
    for pattern, name in ENVIRONMENT.items():
        if re.match(pattern, line):
            return name
    return "unknown"


def environment_match(item: Any) -> re.Match[str]:
    line = " ".join(item.words)
    return next(m for p in ENVIRONMENT if (m := re.match(p, line)))


def _command(words: list[str]) -> Any:
    group = get_command(app)
    cmd: Any = group
    for w in words[1:]:
        sub = getattr(cmd, "commands", {}).get(w)
        if sub is None:
            break
        cmd = sub
    return cmd


def _options(cmd: Any) -> dict[str, bool]:
    """Every option name of a command: whether it takes a value."""
    out = {}
    for p in cmd.params:
        for name in [*p.opts, *getattr(p, "secondary_opts", [])]:
            if name.startswith("-"):
                out[name] = not getattr(p, "is_flag", False)
    out["--help"] = out["-h"] = False
    out["--lang"] = True
    return out


def _complete(words: list[str]) -> bool:
    """Whether an inline command gives every option and argument a value (else it names one)."""
    options = _options(_command(words))
    for i, w in enumerate(words):
        name = w.split("=", 1)[0]
        if name in options and options[name] and "=" not in w:
            if i + 1 >= len(words) or words[i + 1].startswith("-"):
                return False
    if any(re.fullmatch(r"[A-Z]+", w) for w in words):
        return False
    return _given_arguments(words) >= sum(
        1 for p in _command(words).params if p.param_type_name == "argument" and p.required
    )


def _given_arguments(words: list[str]) -> int:
    """How many positional words follow the command's path (a mention names none)."""
    cmd: Any = get_command(app)
    rest = words[1:]
    while rest and rest[0] in getattr(cmd, "commands", {}):
        cmd, rest = cmd.commands[rest[0]], rest[1:]
    options, given, skip = _options(cmd), 0, False
    for w in rest:
        if skip:
            skip = False
        elif w.startswith("-"):
            skip = options.get(w.split("=", 1)[0], False) and "=" not in w
        else:
            given += 1
    return given


def cut(words: list[str]) -> list[str]:
    """A command's words with its sizes cut to what the check needs."""
    out = list(words)
    for i, w in enumerate(out[:-1]):
        if w in ("--matches", "-n") and out[i + 1].isdigit():
            out[i + 1] = str(min(int(out[i + 1]), MATCHES))
    return out


def expected_status(item: Any) -> int:
    shown = "\n".join(item.output or [])
    return 2 if re.search(r"^(error|Fehler|feil): ", shown, re.M) else 0


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, str], Any]:
    """Every command to run, in every language, in document order: its process result.

    English first, as shown (its outputs are compared), filling the solver's cache; then
    German and Norwegian side by side, sizes cut (only their words are checked).
    """
    cache = tmp_path_factory.mktemp("scc-cache")

    def language(lang: str) -> dict[tuple[int, str], Any]:
        cwd = DC.sandbox(tmp_path_factory.mktemp(f"clone-{lang}"))
        out = {}
        for n, item in enumerate(ITEMS):
            if kind(item) != "run":
                continue
            words = DC.command_words(item)
            if item.output is None or lang != "en":
                words = cut(words)
            if lang != "en" and "--lang" in words:
                continue  # the same run as in English
            out[n, lang] = (DC.run(words, cwd, lang=lang, cache=cache), cwd)
        return out

    results = language("en")
    with ThreadPoolExecutor(max_workers=2) as pool:
        for part in pool.map(language, LANGS[1:]):
            results |= part
    return results


def test_every_command_shown_is_checked_somehow() -> None:
    kinds = {str(item): kind(item) for item in ITEMS}
    unknown = [name for name, k in kinds.items() if k == "unknown"]
    assert not unknown, f"shown but checked nowhere (see ENVIRONMENT): {unknown}"
    counts: dict[str, int] = {}
    for k in kinds.values():
        counts[k] = counts.get(k, 0) + 1
    assert counts["run"] >= 35 and counts["serve"] >= 8 and len(SNIPPETS) >= 8, counts


@pytest.mark.parametrize("lang", LANGS)
def test_every_scc_command_runs_in_every_language(
    runs: dict[tuple[int, str], Any], lang: str
) -> None:
    problems = []
    for (n, run_lang), (r, _cwd) in runs.items():
        if run_lang != lang:
            continue
        item = ITEMS[n]
        told = r.stdout + r.stderr
        if r.returncode != expected_status(item) or "Traceback" in told:
            problems.append(f"{item}: status {r.returncode}: {told[-800:]}")
        elif lang != "en" and "--json" not in item.words:
            if left := english_left(told, lang):
                problems.append(f"{item}: English left: {left}")
    assert not problems, "\n\n".join(problems)


def test_every_output_shown_is_what_the_command_prints(runs: dict[tuple[int, str], Any]) -> None:
    stale = []
    for n, item in enumerate(ITEMS):
        if item.output is None or kind(item) != "run":
            continue
        r, cwd = runs[n, "en"]
        now = DC.excerpt(
            DC.clean(r.stdout + r.stderr, cwd), item.directive.keep if item.directive else ()
        )
        if now != item.output:
            stale.append(
                f"{item}\n--- shown\n" + "\n".join(item.output) + "\n--- printed\n" + "\n".join(now)
            )
    assert not stale, "run scripts/doc_commands.py to write them anew:\n\n" + "\n\n".join(stale)


def quoted_output(item: Any) -> str:
    """What the prose quotes as an inline command's output: the next `...` after the command
    (on its line or the next two)."""
    lines = (ROOT / item.doc).read_text(encoding="utf-8").splitlines()
    after = " ".join(lines[item.line - 1 : item.line + 2]).split(f"`{item.command}`", 1)[1]
    quote = re.search(r"`([^`]+)`", after)
    assert quote, f"{item}: no output quoted after the command"
    return quote.group(1)


def test_the_inline_outputs_are_what_the_commands_print(tmp_path: Path) -> None:
    """Outputs the prose quotes (the exact completion chance, a German refusal), as the
    documents quote them: the start of the output where the quote ends in "...", else a part
    of it."""
    for command, status in INLINE.items():
        item = next((item for item in ITEMS if item.command == command), None)
        assert item is not None, f"{command} is no longer shown"
        quote = quoted_output(item)
        r = DC.run(shlex.split(command), tmp_path)
        out = r.stdout + r.stderr
        assert r.returncode == status, (command, out)
        if quote.endswith("..."):
            assert out.startswith(quote[: -len("...")]), (command, quote, out)
        else:
            assert quote in out, (command, quote, out)


def _examples_outputs(tmp_path: Path) -> Iterator[tuple[Any, list[str], list[str]]]:
    cwd = DC.sandbox(tmp_path)
    for item in ITEMS:
        if kind(item) == "python":
            r = DC.run(item.words, cwd, timeout=300)
            yield item, DC.clean(r.stdout + r.stderr, cwd), item.output or []


def test_the_examples_bad_input_is_what_they_print(tmp_path: Path) -> None:
    pytest.importorskip("gymnasium")
    checked = 0
    for item, now, shown in _examples_outputs(tmp_path):
        assert now == shown, (str(item), now)
        assert len(now) == 1 and ": error: " in now[0], now  # one line naming the problem
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("snippet", SNIPPETS, ids=str)
def test_every_python_snippet_runs_to_its_end(snippet: Any, tmp_path: Path) -> None:
    if "envs" in snippet.code or "pyspiel" in snippet.code:
        pytest.importorskip("gymnasium")
    script = tmp_path / "snippet.py"
    script.write_text(snippet.code, encoding="utf-8")
    r = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env=DC.environment("en"),
    )
    assert r.returncode == 0, r.stderr[-2000:]
    printed = [line.strip() for line in r.stdout.splitlines()]
    for i, promised in enumerate(snippet.expected):
        assert printed[i] == promised or promised.startswith(printed[i] + " "), (
            f"print {i + 1}: printed {printed[i]!r}, the comment says {promised!r}"
        )


def test_every_synopsis_names_real_options() -> None:
    problems = []
    for item in ITEMS:
        if kind(item) != "synopsis" or not item.command.startswith("scc"):
            continue
        words = re.findall(r"--[a-z][\w-]*", item.command)
        options = _options(_command(item.command.split()))
        problems += [f"{item}: {w}" for w in words if w not in options]
        if item.command.split()[1] not in getattr(get_command(app), "commands", {}) and (
            not item.command.split()[1].startswith("-")
        ):
            problems.append(f"{item}: no such command")
    assert not problems, problems


def test_every_environment_command_names_what_exists() -> None:
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    profiles = {
        p
        for line in re.findall(r"^\s+([\w |]+)\)", setup, re.M)
        for p in line.replace(" ", "").split("|")
    }
    problems = []
    for item in ITEMS:
        k = kind(item)
        m = environment_match(item) if k in ENVIRONMENT.values() else None
        if k == "script":
            assert m is not None
            if not (ROOT / "scripts" / m["script"]).is_file():
                problems.append(f"{item}: no scripts/{m['script']}")
            if m["script"] == "setup.sh" and m["arg"] and m["arg"] not in profiles:
                problems.append(f"{item}: setup.sh has no profile {m['arg']}")
        elif k == "pytest":
            assert m is not None
            for word in shlex.split(m["paths"]):
                if not word.startswith("-") and "/" in word and not list(ROOT.glob(word)):
                    problems.append(f"{item}: no {word}")
        elif k == "benchmark":
            assert m is not None
            help_text = subprocess.run(
                [sys.executable, str(ROOT / m["bench"]), "--help"],
                capture_output=True, text=True, timeout=120,
            ).stdout  # fmt: skip
            for option in re.findall(r"\s(-{1,2}[a-z][\w-]*)", item.command):
                if option not in help_text:
                    problems.append(f"{item}: {m['bench']} has no {option}")
        elif k == "module":
            assert m is not None
            path = ROOT / (m["module"].replace(".", "/") + ".py")
            if "__main__" not in path.read_text(encoding="utf-8"):
                problems.append(f"{item}: {path} does not run as a module")
        elif k == "extra":
            assert m is not None
            if not (ROOT / "requirements" / f"{m['extra']}.txt").is_file():
                problems.append(f"{item}: no extra {m['extra']}")
    assert not problems, problems
