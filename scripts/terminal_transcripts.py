"""Capture the transcripts of docs/terminal.md from real runs of scc play, companion and rules.

    .venv/bin/python scripts/terminal_transcripts.py          # rewrite the section in place

For every language the set-up dialogue (``scc play --script``), and for every preset and every
language: ``scc play`` (Anna at the keyboard, two bots, a fixed
seed, Anna answering as a player would: Enter to roll, the notation or a number at a choice,
advice once, another round once), ``scc companion --script`` (the faces and choices below,
typed in from a file) and ``scc rules``.  The captures replace what stands between the
``transcripts`` markers of docs/terminal.md; the terminal is ``dumb`` (no colour), 100
columns wide.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import pexpect

from shipcaptaincrew.i18n import translator
from shipcaptaincrew.rules import PRESET_NAMES

ROOT = Path(__file__).resolve().parents[1]
SCC = str(Path(sys.executable).parent / "scc")
DOC = ROOT / "docs" / "terminal.md"
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


#: What the table types at ``scc companion`` for each preset: faces and choices.
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


def _env(lang: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    locale = {"en": "en_GB.UTF-8", "de": "de_DE.UTF-8", "nb": "nb_NO.UTF-8"}[lang]
    return env | {"TERM": "dumb", "LANG": locale, "COLUMNS": "100", "LINES": "50"}


def _pattern(lang: str, singular: str, plural: str | None = None) -> str:
    """A regular expression for a message in a language, its {fields} matching anything."""
    tr = translator(lang)
    forms = [tr.ngettext(singular, plural, n) for n in (1, 5)] if plural else [tr(singular)]
    return "|".join(re.sub(r"\\\{\w+\\\}", ".+?", re.escape(f)) for f in forms)


def _clean(text: str, tmp: str) -> str:
    text = text.replace("\r\n", "\n").replace(tmp, "logs")
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")


def play(preset: str, lang: str, tmp: str) -> tuple[str, str]:
    """``scc play`` with Anna and two bots; Anna's answers are a player's."""
    args = ["play", "-p", "Anna", "-p", "Bo=bot:tip", "-p", "Cy=bot:medium", "--rules", preset]
    args += ["--seed", str(SEEDS[preset]), "--lang", lang, "--log", f"{tmp}/play.jsonl"]
    child = pexpect.spawn(SCC, args, env=_env(lang), encoding="utf-8", timeout=60,
                          dimensions=(50, 100))  # fmt: skip
    enter = _pattern(
        lang, "{name}: press Enter to roll the die.", "{name}: press Enter to roll {n} dice."
    )
    decide = _pattern(lang, "{name}, stand or reroll the cargo?")
    another = _pattern(lang, "{name}, another round?")
    third = re.escape(translator(lang)("Round {n}").format(n=3))
    tr = translator(lang)
    seen, asked, rounds = [], False, 0
    while True:
        i = child.expect([MENU, enter, pexpect.EOF])
        seen.append(child.before + (child.after if i < 2 else ""))
        if i == 2:
            break
        screen = "".join(seen)
        if re.search(rf"─ {third} ─", screen):
            child.sendline("q")
            continue
        prompt = child.before.splitlines()[-1] if child.before.splitlines() else ""
        if i == 1:
            child.sendline("")
        elif re.search(decide, prompt + child.after):
            cargo = [int(c) for c in re.findall(r"= (\d+)  \|", screen)]
            if not asked:
                asked = True
                child.sendline("?")
            else:
                child.sendline("reroll" if cargo and cargo[-1] < 7 else "stand")
        elif re.search(another, prompt):
            rounds += 1
            child.sendline(tr("yes") if rounds == 1 else "stop")
        else:
            child.sendline("1")
    child.close()
    command = f"scc play -p Anna -p Bo=bot:tip -p Cy=bot:medium --rules {preset} --seed {SEEDS[preset]} --lang {lang}"
    return command, _clean("".join(seen), tmp)


def companion(preset: str, lang: str, tmp: str) -> tuple[str, str]:
    """``scc companion --script`` with the answers of :data:`COMPANION`."""
    tr = translator(lang)
    seats, answers = COMPANION[preset]
    lines = [a.format(yes=tr("yes"), no=tr("no")) for a in answers]
    script = Path(tmp) / f"companion-{preset}.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["companion", *seats, "--rules", preset, "--lang", lang]
    args += ["--script", str(script), "--log", f"{tmp}/companion.jsonl"]
    child = pexpect.spawn(SCC, args, env=_env(lang), encoding="utf-8", timeout=60,
                          dimensions=(50, 100))  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    shown = str(script).replace(tmp, "logs")
    command = f"scc companion {' '.join(seats)} --rules {preset} --lang {lang} --script {shown}"
    return command, _clean(child.before, tmp)


#: The set-up dialogue: three seats, the German sheet's preset, three rounds, half cargo on
#: (answered with the language's "yes"), then start; the script ends at the first choice.
DIALOGUE = ["3", "Anna", "Bo", "bot:medium", "2", "1", "2", "3", "7", "{yes}", ""]


def dialogue(lang: str, tmp: str) -> tuple[str, str]:
    script = Path(tmp) / "dialogue.txt"
    script.write_text(
        "\n".join(DIALOGUE).format(yes=translator(lang)("yes")) + "\n", encoding="utf-8"
    )
    args = ["play", "--seed", "5", "--fast", "--lang", lang, "--script", str(script)]
    child = pexpect.spawn(SCC, [*args, "--log", f"{tmp}/dialogue.jsonl"], env=_env(lang),
                          encoding="utf-8", timeout=60, dimensions=(50, 100))  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    return f"scc play --seed 5 --fast --lang {lang} --script logs/dialogue.txt", _clean(
        child.before, tmp
    )


def rules(preset: str, lang: str, tmp: str) -> tuple[str, str]:
    child = pexpect.spawn(SCC, ["rules", preset, "--lang", lang], env=_env(lang),
                          encoding="utf-8", timeout=120, dimensions=(50, 100))  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    return f"scc rules {preset} --lang {lang}", _clean(child.before, tmp)


def section() -> str:
    out = [BEGIN, ""]
    with tempfile.TemporaryDirectory() as tmp:
        out += ["### The set-up dialogue", ""]
        for lang in LANGS:
            command, text = dialogue(lang, tmp)
            out += [f"<details><summary><code>{command}</code> ({LANG_NAMES[lang]})</summary>", ""]
            out += ["```text", f"$ {command}", text, "```", "", "</details>", ""]
        for title, capture in (
            ("scc play", play),
            ("scc companion", companion),
            ("scc rules", rules),
        ):
            out += [f"### `{title}`", ""]
            for preset in PRESET_NAMES:
                for lang in LANGS:
                    command, text = capture(preset, lang, tmp)
                    out += [
                        f"<details><summary><code>{command}</code> ({LANG_NAMES[lang]})</summary>",
                        "",
                    ]
                    out += ["```text", f"$ {command}", text, "```", "", "</details>", ""]
    return "\n".join([*out, END])


def main() -> None:
    doc = DOC.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN), doc.index(END) + len(END)
    DOC.write_text(doc[:start] + section() + doc[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
