"""The transcripts of docs/terminal.md: the answers behind them, and the runs that make them.

    .venv/bin/python scripts/terminal_transcripts.py          # answers and transcripts anew
    .venv/bin/python scripts/terminal_transcripts.py --keep   # transcripts from the answers kept

Every transcript is a run of ``scc`` with ``--script docs/transcripts/NAME.txt``: the answers
a person gives, one a line, kept in the repository so that anyone can run the command shown
and get the transcript shown.  For every language the set-up dialogue (``scc play --script``),
and for every preset and every language ``scc play`` (Anna at the keyboard, two bots, a fixed
seed), ``scc companion`` (the faces and choices of a table with real dice, typos included)
and ``scc rules``.

The answers of the dialogue and of the companion are written from the tables below.  Anna's
answers at ``scc play`` are found by playing with her at a real terminal (pexpect): Enter to
roll, advice once, the notation at a decision (``stand`` on a cargo of 7 or more, else
``reroll``), yes to one more round of a session and then ``stop``, and ``q`` once a match is
still going at round 3; what she typed is then her script.  The transcripts replace what
stands between the ``transcripts`` markers of docs/terminal.md; the terminal is ``dumb`` (no
colour), 100 columns wide.  ``tests/test_docs_transcripts.py`` runs every command shown and
compares.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from doc_commands import ROOT, clean, environment, run, sandbox

from shipcaptaincrew.i18n import translator
from shipcaptaincrew.rules import PRESET_NAMES

DOC = ROOT / "docs" / "terminal.md"
ANSWERS = ROOT / "docs" / "transcripts"
BEGIN, END = "<!-- transcripts: begin -->", "<!-- transcripts: end -->"
LANGS = ("en", "de", "nb")
LANG_NAMES = {"en": "English", "de": "German", "nb": "Norwegian"}
#: The seed of each preset's ``scc play`` capture.
SEEDS = {
    "classic": 91,
    "schiff-kapitaen-crew": 2,
    "skip-kaptein-mannskap": 25,
    "ship-captain-crew": 69,
}
MENU = re.compile(r"\[1-\d+(?:, \?)?(?:, Enter = [^\]]+)?\] ")


def _t(*cargo: int) -> list[str]:
    """A turn that completes the crew at once with that cargo and stands."""
    return [f"654{cargo[0]}{cargo[1]}", "stand"]


#: What the table types at ``scc companion`` for each preset: seats, then faces and choices.
COMPANION: dict[str, tuple[list[str], list[str]]] = {
    "classic": (
        ["-p", "Anna", "-p", "Bo"],
        ["4", "4", "2", "5", "65331", "426", "?", "1", "61111", "5111", "6x4", "643"],
    ),
    "schiff-kapitaen-crew": (
        ["-p", "Anna", "-p", "Bo", "-p", "Cy"],
        ["3", "6", "2", "65432", "reroll", "66", "stand", *_t(6, 1), "12345", "64411", "5432"]
        + ["{yes}", *_t(6, 6), "65411", "2", "55", "reroll", "11", "22222", "22222", "22222"]
        + ["{no}"],
    ),
    "skip-kaptein-mannskap": (
        ["-p", "Anna", "-p", "Bo", "-p", "Cy", "--starter", "2"],
        [*_t(6, 6), *_t(5, 5), "65412", "reroll", "66", "stand", "65433", "reroll", "25"]
        + ["stand", "65444", "stand", *_t(6, 6), "q"],
    ),
    "ship-captain-crew": (
        ["-p", "Anna", "-p", "Bo", "--starter", "Anna"],
        ["22222", "22222", "22222", "21111", "22222", "33333", "65433", "stand", "65451", "1"]
        + ["34", "16", "12", "56"],
    ),
}

#: The set-up dialogue: three seats, the German sheet's preset, three rounds, half cargo on
#: (answered with the language's "yes"), then start; the script ends at the first choice.
DIALOGUE = ["3", "Anna", "Bo", "bot:medium", "2", "1", "2", "3", "5", "{yes}", ""]


@dataclass(frozen=True)
class Capture:
    """One transcript: its section, language, the command shown and its answer file."""

    section: str
    lang: str
    words: tuple[str, ...]
    answers: str | None  #: the file under docs/transcripts/ (None: nothing is asked)

    @property
    def command(self) -> str:
        return " ".join(self.words)


def _answer_path(name: str) -> str:
    return f"docs/transcripts/{name}.txt"


def captures() -> list[Capture]:
    """Every transcript of docs/terminal.md, in the order it shows them."""
    out = []
    for lang in LANGS:
        name = f"dialogue-{lang}"
        words = ("scc", "play", "--seed", "5", "--fast", "--lang", lang)
        out.append(
            Capture(
                "The set-up dialogue",
                lang,
                (*words, "--script", _answer_path(name), "--log", f"logs/{name}.jsonl"),
                name,
            )
        )
    for preset in PRESET_NAMES:
        for lang in LANGS:
            name = f"play-{preset}-{lang}"
            words = ("scc", "play", "-p", "Anna", "-p", "Bo=bot:tip", "-p", "Cy=bot:medium")
            words += ("--rules", preset, "--seed", str(SEEDS[preset]), "--lang", lang)
            words += ("--script", _answer_path(name), "--log", f"logs/{name}.jsonl")
            out.append(Capture("`scc play`", lang, words, name))
    for preset in PRESET_NAMES:
        for lang in LANGS:
            name = f"companion-{preset}-{lang}"
            words = ("scc", "companion", *COMPANION[preset][0], "--rules", preset)
            words += ("--lang", lang, "--script", _answer_path(name))
            words += ("--log", f"logs/{name}.jsonl")
            out.append(Capture("`scc companion`", lang, words, name))
    for preset in PRESET_NAMES:
        for lang in LANGS:
            out.append(Capture("`scc rules`", lang, ("scc", "rules", preset, "--lang", lang), None))
    return out


def transcript(capture: Capture, cwd: Path) -> list[str]:
    """What the capture's command prints now, as the document shows it."""
    r = run(capture.words, cwd, lang=capture.lang)
    return clean(r.stdout + r.stderr, cwd)


# -- the answers ---------------------------------------------------------------------------


def _pattern(lang: str, singular: str, plural: str | None = None) -> str:
    """A regular expression for a message in a language, its {fields} matching anything."""
    tr = translator(lang)
    forms = [tr.ngettext(singular, plural, n) for n in (1, 5)] if plural else [tr(singular)]
    return "|".join(re.sub(r"\\\{\w+\\\}", ".+?", re.escape(f)) for f in forms)


def play_answers(capture: Capture, cwd: Path) -> list[str]:
    """Anna's answers, found by playing with her at a terminal (see the module docstring)."""
    import pexpect

    words = [w for w in capture.words if w != "--script" and not w.startswith("docs/")]
    lang = capture.lang
    child = pexpect.spawn(str(Path(sys.executable).parent / "scc"), words[1:], cwd=str(cwd),
                          env=environment(lang), encoding="utf-8", timeout=60,
                          dimensions=(50, 100))  # fmt: skip
    tr = translator(lang)
    enter = _pattern(
        lang, "{name}: press Enter to roll the die.", "{name}: press Enter to roll {n} dice."
    )
    decide = _pattern(lang, "{name}, stand or reroll the cargo?")
    another = _pattern(lang, "{name}, another round?")
    third = re.escape(tr("Round {n}").format(n=3))
    seen: list[str] = []
    answers: list[str] = []
    asked, rounds = False, 0

    def send(text: str) -> None:
        answers.append(text)
        child.sendline(text)

    while True:
        i = child.expect([MENU, enter, pexpect.EOF])
        seen.append(child.before + (child.after if i < 2 else ""))
        if i == 2:
            break
        screen = "".join(seen)
        prompt = child.before.splitlines()[-1] if child.before.splitlines() else ""
        if re.search(rf"─ {third} ─", screen):
            send("q")
        elif i == 1:
            send("")
        elif re.search(decide, prompt + child.after):
            cargo = [int(c) for c in re.findall(r"= (\d+)  \|", screen)]
            if not asked:
                asked = True
                send("?")
            else:
                send("reroll" if cargo and cargo[-1] < 7 else "stand")
        elif re.search(another, prompt):
            rounds += 1
            send(tr("yes") if rounds == 1 else "stop")
        else:
            send("1")
    child.close()
    return answers


def write_answers(cwd: Path) -> None:
    """The answer files of every capture: from the tables, and Anna's by playing."""
    ANSWERS.mkdir(exist_ok=True)
    for c in captures():
        if c.answers is None:
            continue
        tr = translator(c.lang)
        if c.answers.startswith("dialogue-"):
            lines = [a.format(yes=tr("yes")) for a in DIALOGUE]
        elif c.answers.startswith("companion-"):
            preset = c.answers.removeprefix("companion-").rsplit("-", 1)[0]
            lines = [a.format(yes=tr("yes"), no=tr("no")) for a in COMPANION[preset][1]]
        else:
            lines = play_answers(c, cwd)
        (ANSWERS / f"{c.answers}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


# -- the section ---------------------------------------------------------------------------


def block(capture: Capture, lines: list[str]) -> list[str]:
    """A capture as the section shows it: a summary naming the command, the transcript."""
    summary = f"<details><summary><code>{capture.command}</code> ({LANG_NAMES[capture.lang]})"
    return [f"{summary}</summary>", "", "```text", f"$ {capture.command}", *lines, "```", "",
            "</details>", ""]  # fmt: skip


def section(cwd: Path) -> str:
    out, heading = [BEGIN, ""], None
    for c in captures():
        if c.section != heading:
            heading = c.section
            out += [f"### {heading}", ""]
        out += block(c, transcript(c, cwd))
    return "\n".join([*out, END])


def shown() -> dict[str, list[str]]:
    """The transcript docs/terminal.md shows for each command (by the command)."""
    doc = DOC.read_text(encoding="utf-8").splitlines()
    out: dict[str, list[str]] = {}
    for i, line in enumerate(doc):
        if line == "```text" and doc[i + 1].startswith("$ "):
            end = doc.index("```", i + 1)
            out[doc[i + 1][2:]] = doc[i + 2 : end]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--keep", action="store_true", help="keep the answer files; only run the transcripts"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cwd = sandbox(Path(tmp))
        if not args.keep:
            write_answers(cwd)
            cwd = sandbox(Path(tmp) / "fresh")  # the answers as they are now
        doc = DOC.read_text(encoding="utf-8")
        start, end = doc.index(BEGIN), doc.index(END) + len(END)
        DOC.write_text(doc[:start] + section(cwd) + doc[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
