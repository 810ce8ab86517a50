"""Every command and Python snippet shown in README.md and docs/, and the outputs they show.

    .venv/bin/python scripts/doc_commands.py            # rewrite every shown output in place
    .venv/bin/python scripts/doc_commands.py --list     # list what is shown, and how it is checked

The documents show commands in fenced blocks (``sh``, ``console`` and plain blocks: one
command a line, ``$ `` before it in a console, ``\\`` continuing it) and inline
(```scc ...```), outputs after a ``$ command`` line of a ``text`` block, and Python in
``python`` blocks.  This module finds them all (:func:`shown`, :func:`snippets`); the test
suite (``tests/test_docs_commands.py``) runs every ``scc`` command in English, German and
Norwegian and every snippet, and compares each shown output with what the command prints now,
as :func:`output` makes it.  Run as a script it writes those outputs into the documents, so
after a change that alters what a command prints the documents are made true again by running
it (and the diff says what changed).

An output may be an excerpt, and a command may need the answers a person types: an HTML
comment on the line before the block says so, for example

    <!-- output: script=docs/transcripts/play-classic-en.txt keep="─ Anna's turn ─".."Tie between" -->

``script=FILE`` runs the command with ``--script FILE`` (the answers, as typed at the
keyboard); each ``keep="A".."B"`` keeps the lines from the first one containing A through the
first one after it containing B (an empty end: to the last line), and ``...`` stands for what
is left out.  docs/terminal.md's transcripts are made by ``scripts/terminal_transcripts.py``,
and docs/strategy.md by ``scc report strategy``; their sections are not read here.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The documents read: the README and every page of docs/ (the generated report aside).
DOCS = ("README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")))
SKIPPED_DOCS = ("docs/strategy.md", "docs/match-winrates.md")
#: A section written by another script: begin and end markers.
GENERATED = (("<!-- transcripts: begin -->", "<!-- transcripts: end -->"),)
#: The terminal the outputs are made in: no colour, 100 columns.
WIDTH = 100
_FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
_DIRECTIVE = re.compile(r"^<!--\s*output:(.*?)-->\s*$")
_INLINE = re.compile(r"`(scc [^`]+)`")
#: What a line of a plain (untagged) block must start with to be a command.
_PROGRAMS = ("scc", "python", "python3", "bash", "sudo", "pip", ".venv/bin/python", ".venv/bin/scc")
#: Words of a synopsis: a usage line with placeholders, not a command to run.
_PLACEHOLDER = re.compile(r"\[|\]|\.\.\.|\b[A-Z][A-Z_]{1,}\b|\|")


@dataclass(frozen=True)
class Directive:
    """How a shown output is made: the answers typed, the lines kept."""

    script: str | None = None
    keep: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> Directive:
        script = re.search(r"script=(\S+)", text)
        keep = tuple(re.findall(r'keep="([^"]*)"\.\."([^"]*)"', text))
        return cls(script.group(1) if script else None, keep)


@dataclass
class Shown:
    """A command as a document shows it (and the output shown under it, if any)."""

    doc: str
    line: int  #: 1-based line of the command in the document
    command: str  #: as shown, continuations joined, without the "$ " and any comment
    context: str  #: console, sh, inline or synopsis
    output: list[str] | None = None  #: the lines shown under it (None: none shown)
    directive: Directive | None = None
    span: tuple[int, int] | None = None  #: 0-based [first, last) lines of its output

    @property
    def words(self) -> list[str]:
        return shlex.split(self.command, comments=True)

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}: {self.command}"


@dataclass
class Snippet:
    """A Python block of a document."""

    doc: str
    line: int
    code: str
    expected: list[str] = field(default_factory=list)  #: ``print(x)  # shown`` comments

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}"


def _lines(doc: str) -> list[str]:
    lines = (ROOT / doc).read_text(encoding="utf-8").splitlines()
    for begin, end in GENERATED:
        if begin in lines:
            a, b = lines.index(begin), lines.index(end)
            lines = lines[:a] + [""] * (b - a + 1) + lines[b + 1 :]
    return lines


def _blocks(lines: list[str]) -> Iterator[tuple[int, str, list[str], Directive | None]]:
    """Fenced blocks: (index of the first line inside, language, lines, directive)."""
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while not lines[j].strip().startswith("```"):
            j += 1
        before = lines[i - 1].strip() if i else ""
        d = _DIRECTIVE.match(before)
        yield i + 1, m.group(2), lines[i + 1 : j], Directive.parse(d.group(1)) if d else None
        i = j + 1


def _strip_comment(command: str) -> str:
    """The command without its trailing ``# ...`` comment (quotes respected)."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError as e:
        raise ValueError(f"{e}: {command!r}") from None
    # Re-quote only what needs it, so the command reads as written.
    return " ".join(shlex.quote(w) if re.search(r"[\s'\"$&;|<>()*]", w) else w for w in words)


def _joined(lines: list[str], start: int) -> Iterator[tuple[int, str]]:
    """Lines with ``\\`` continuations joined: (index of the first, text)."""
    i = 0
    while i < len(lines):
        text, first = lines[i], i
        while text.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text.rstrip()[:-1] + " " + lines[i].strip()
        yield start + first, text
        i += 1


def shown(docs: Sequence[str] = DOCS) -> list[Shown]:
    """Every command the documents show, in document order."""
    out: list[Shown] = []
    for doc in docs:
        if doc in SKIPPED_DOCS:
            continue
        lines = _lines(doc)
        inside: set[int] = set()
        for start, lang, body, directive in _blocks(lines):
            inside.update(range(start - 1, start + len(body) + 1))
            if lang == "python":
                continue
            console = lang in ("console", "text") or any(b.startswith("$ ") for b in body)
            if lang == "text" and not any(b.startswith("$ ") for b in body):
                continue
            entries = list(_joined(body, start))
            for k, (i, text) in enumerate(entries):
                if console:
                    if not text.startswith("$ "):
                        continue
                    text = text[2:]
                elif not text.strip() or text.lstrip().startswith("#"):
                    continue
                elif not lang and text.split()[0] not in _PROGRAMS:
                    continue  # a plain block of something else (a diagram, a layout)
                parts = [_strip_comment(p) for p in re.split(r"\s&&\s", text)]
                if not parts[0]:
                    continue
                for command in parts[:-1]:  # a && b: a runs first, with no output of its own
                    out.append(Shown(doc, i + 1, command, "console" if console else "sh"))
                command = parts[-1]
                context = "console" if console else "sh"
                if not console and _PLACEHOLDER.search(command) and command.startswith("scc "):
                    context = "synopsis"
                item = Shown(doc, i + 1, command, context, directive=directive)
                if lang == "text":
                    nxt = next((e[0] for e in entries[k + 1 :] if e[1].startswith("$ ")), None)
                    end = nxt if nxt is not None else start + len(body)
                    shown_lines = lines[i + 1 : end]
                    if shown_lines or directive is not None:
                        item.output, item.span = shown_lines, (i + 1, end)
                out.append(item)
        for i, text in enumerate(lines):
            if i in inside:
                continue
            for m in _INLINE.finditer(text):
                words = m.group(1).split()
                if len(words) > 2 or (len(words) == 2 and words[1].startswith("-")):
                    ctx = "synopsis" if _PLACEHOLDER.search(m.group(1)) else "inline"
                    for part in m.group(1).split("&&"):
                        out.append(Shown(doc, i + 1, part.strip(), ctx))
    return out


def snippets(docs: Sequence[str] = DOCS) -> list[Snippet]:
    """Every Python block of the documents, with the outputs its comments promise."""
    out = []
    for doc in docs:
        if doc in SKIPPED_DOCS:
            continue
        for start, lang, body, _ in _blocks(_lines(doc)):
            if lang != "python":
                continue
            expected = [
                m.group(1).strip() for b in body if (m := re.match(r"^print\(.*\)\s+#\s*(.*)$", b))
            ]
            out.append(Snippet(doc, start, "\n".join(body) + "\n", expected))
    return out


# -- running -------------------------------------------------------------------------------


def sandbox(path: Path) -> Path:
    """A directory to run the documents' commands in, as a reader's clone would look to them:
    the answer files of docs/transcripts/, the examples, and an empty docs/img/ (the pictures
    a command draws land here, not in the repository)."""
    path.mkdir(parents=True, exist_ok=True)
    if not (path / "docs" / "transcripts").exists():
        shutil.copytree(ROOT / "docs" / "transcripts", path / "docs" / "transcripts")
    (path / "docs" / "img").mkdir(parents=True, exist_ok=True)
    if not (path / "examples").exists():  # the examples a document runs, as in a clone
        (path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    return path


def environment(lang: str | None, cache: Path | None = None) -> dict[str, str]:
    """A reader's terminal: no colour, 100 columns, the language of ``lang`` (None: English)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    locale = {"en": "en_GB.UTF-8", "de": "de_DE.UTF-8", "nb": "nb_NO.UTF-8"}[lang or "en"]
    env |= {"LANG": locale, "TERM": "dumb", "COLUMNS": str(WIDTH), "LINES": "50"}
    env.pop("FORCE_COLOR", None)
    env["NO_COLOR"] = "1"
    if cache is not None:
        env["SCC_CACHE_DIR"] = str(cache)
    return env


def argv(words: Sequence[str]) -> list[str]:
    """The process to start for a command's words (``scc`` and ``python`` of this venv)."""
    bindir = Path(sys.executable).parent
    if words[0] == "scc":
        return [str(bindir / "scc"), *words[1:]]
    if words[0] in ("python", "python3"):
        return [sys.executable, *words[1:]]
    return list(words)


def run(
    words: Sequence[str],
    cwd: Path,
    *,
    lang: str | None = None,
    cache: Path | None = None,
    stdin: str = "",
    timeout: float = 600,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv(words),
        cwd=cwd,
        env=environment(lang, cache),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def clean(text: str, cwd: Path) -> list[str]:
    """Lines as a reader sees them: no trailing spaces, no sandbox path, no blank end."""
    text = text.replace(str(cwd) + os.sep, "").replace(str(cwd), ".")
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def excerpt(lines: list[str], keep: Sequence[tuple[str, str]]) -> list[str]:
    """The kept stretches of ``lines``, ``...`` where lines are left out.

    >>> excerpt(["a", "b", "c", "d", "e"], [("b", "c")])
    ['...', 'b', 'c', '...']
    >>> excerpt(["a", "b", "c"], [("", "a"), ("c", "")])
    ['a', '...', 'c']
    """
    if not keep:
        return lines
    out: list[str] = []
    pos = 0
    for start, end in keep:
        a = next((i for i in range(pos, len(lines)) if start in lines[i]), None)
        if a is None:
            raise ValueError(f"no line after line {pos} contains {start!r}")
        b = (
            len(lines) - 1
            if not end
            else next((i for i in range(a, len(lines)) if end in lines[i]), None)
        )
        if b is None:
            raise ValueError(f"no line after {start!r} contains {end!r}")
        if a > pos or (out and a == pos):
            out.append("...")
        out += lines[a : b + 1]
        pos = b + 1
    if pos < len(lines):
        out.append("...")
    return out


def command_words(item: Shown) -> list[str]:
    """What runs for a shown command: its words, with the answers of its directive."""
    words = item.words
    if item.directive and item.directive.script:
        words += ["--script", item.directive.script]
    return words


def output(item: Shown, cwd: Path, cache: Path | None = None) -> list[str]:
    """The output a shown command has now (stdout and stderr as a terminal shows them)."""
    r = run(command_words(item), cwd, cache=cache)
    lines = clean(r.stdout + r.stderr, cwd)
    return excerpt(lines, item.directive.keep if item.directive else ())


def rewrite(items: Sequence[Shown], outputs: dict[int, list[str]]) -> list[str]:
    """Write new outputs into the documents; returns the documents changed."""
    changed = []
    by_doc: dict[str, list[Shown]] = {}
    for item in items:
        if item.span is not None and id(item) in outputs:
            by_doc.setdefault(item.doc, []).append(item)
    for doc, shown_items in by_doc.items():
        path = ROOT / doc
        lines = path.read_text(encoding="utf-8").splitlines()
        for item in sorted(shown_items, key=lambda s: -s.line):
            assert item.span is not None
            a, b = item.span
            lines[a:b] = outputs[id(item)]
        text = "\n".join(lines) + "\n"
        if text != path.read_text(encoding="utf-8"):
            path.write_text(text, encoding="utf-8")
            changed.append(doc)
    return changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", action="store_true", help="list the shown commands and snippets")
    args = parser.parse_args()
    items = shown()
    if args.list:
        for item in items:
            print(f"{item.context:9} {'output' if item.output is not None else '      '} {item}")
        for s in snippets():
            print(f"python             {s}")
        return
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        cwd = sandbox(Path(tmp) / "run")
        cache = Path(tmp) / "cache"
        outputs: dict[int, list[str]] = {}
        for item in items:
            if item.context in ("console", "sh") and item.output is not None:
                outputs[id(item)] = output(item, cwd, cache)
            elif item.context in ("console", "sh") and item.words[0] == "scc":
                # Commands without a shown output still run in order: a later one may read
                # what an earlier one wrote (scc replay after scc demo), and a picture a
                # document shows is drawn by the command it shows.
                if item.words[1] not in ("serve", "play", "companion"):
                    run(command_words(item), cwd, cache=cache)
        for doc in rewrite(items, outputs):
            print(f"rewrote {doc}")
        # The pictures the documents show are drawn by the commands they show.
        for picture in sorted((cwd / "docs" / "img").glob("*.png")):
            shutil.copyfile(picture, ROOT / "docs" / "img" / picture.name)
            print(f"drew docs/img/{picture.name}")


if __name__ == "__main__":
    main()
