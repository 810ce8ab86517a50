"""The translation check: every message of every domain translated in de and nb, nothing lost.

Covers every catalogue domain present (``scc`` for the command line and the rules text; ``web``
once the web pages have theirs): no empty or fuzzy translation, the same ``{placeholders}`` as
the message id, a compiled ``.mo`` that matches its ``.po``, and -- for a domain extracted from
the code -- no message in the code that the catalogues lack.
"""

from __future__ import annotations

import ast
import gettext
import io
import os
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from shipcaptaincrew.actions import HandOut, Roll, Stand
from shipcaptaincrew.engine import apply, initial_state
from shipcaptaincrew.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    UnknownLanguageError,
    catalogues,
    detect_lang,
    domains,
    normalize_lang,
    translator,
)
from shipcaptaincrew.narrate import narrate
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.state import Phase, TurnPhase

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PO_FILES = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))


def _catalog(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=path.parts[-3])


_PLACEHOLDER = re.compile(r"(?<!\{)\{(\w*)(?:[!:][^{}]*)?\}(?!\})|%\((\w+)\)[sdifr]")


def _fields(text: str) -> list[str]:
    """The placeholders of a message: ``{name}`` (str.format) or ``%(name)s`` (templates).

    A sorted list, so a placeholder used twice must be used twice in the translation too.
    """
    return sorted(a or b for a, b in _PLACEHOLDER.findall(text))


def _strings(m: Message) -> list[str]:
    return list(m.string) if isinstance(m.string, (tuple, list)) else [m.string]


def _ids(m: Message) -> list[str]:
    return list(m.id) if isinstance(m.id, (tuple, list)) else [m.id]


def test_every_domain_has_every_language() -> None:
    assert "scc" in domains()
    for domain in domains():
        for lang in TRANSLATED:
            po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
            assert po.exists(), f"{domain}: no {lang} catalogue"
            assert po.with_suffix(".mo").exists(), f"{po} is not compiled (scripts/i18n.sh)"


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_every_message_translated_without_losing_a_placeholder(po: Path) -> None:
    problems = []
    for m in _catalog(po):
        if not m.id:
            continue
        key = _ids(m)[0]
        if m.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        for text in _strings(m):
            if not text:
                problems.append(f"untranslated: {key!r}")
            elif _fields(text) != _fields(_ids(m)[-1]) and _fields(text) != _fields(key):
                problems.append(
                    f"placeholders {_fields(text)} differ from {_fields(key)} in {key!r}"
                )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_compiled_catalogue_matches_its_source(po: Path) -> None:
    with po.with_suffix(".mo").open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    stale = [
        m.id
        for m in _catalog(po)
        if m.id and isinstance(m.id, str) and compiled.gettext(m.id) != m.string
    ]
    assert not stale, f"{po}: run scripts/i18n.sh compile; stale: {stale[:3]}"


#: The package's sources, and the keywords scripts/i18n.sh extracts (_, N_, NP_ and tr).
PACKAGE = LOCALE_DIR.parent.parent
KEYWORDS: dict[str, Any] = {"_": None, "N_": None, "NP_": (1, 2), "tr": None}


def _extracted_by_file(domain: str, root: Path = PACKAGE) -> dict[str, set[str]]:
    """What Babel extracts for ``domain`` with its map (:mod:`shipcaptaincrew.i18n.catalogues`):
    each file's message ids, by its path relative to ``root``."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    method_map, options_map = parse_mapping_cfg(io.StringIO(catalogues.babel_map(domain)))
    out: dict[str, set[str]] = {}
    for file, _line, msg, _comments, _ctx in extract_from_dir(
        str(root), method_map, options_map, keywords=KEYWORDS
    ):
        out.setdefault(file.replace(os.sep, "/"), set()).add(
            msg if isinstance(msg, str) else msg[0]
        )
    return out


def _extracted(domain: str) -> set[str]:
    return set().union(*_extracted_by_file(domain).values())


def _with_messages(root: Path) -> set[str]:
    """Every module under ``root`` with a message in it, whatever map there is."""
    from babel.messages.extract import extract_from_file

    return {
        str(p.relative_to(root)).replace(os.sep, "/")
        for p in root.rglob("*.py")
        if next(iter(extract_from_file("python", str(p), keywords=KEYWORDS)), None) is not None
    }


def _landings(root: Path) -> dict[str, set[str]]:
    """Per module with a message: the catalogues Babel puts its messages in."""
    found = {d: set(_extracted_by_file(d, root)) for d in catalogues.DOMAINS}
    return {f: {d for d in catalogues.DOMAINS if f in found[d]} for f in _with_messages(root)}


def test_every_message_lands_in_its_own_catalogue_alone() -> None:
    """Each module's messages in the one catalogue its front end speaks from: none left out
    (Babel once skipped a whole folder), none in the other catalogue too."""
    landings = _landings(PACKAGE)
    wrong = {f: sorted(got) for f, got in landings.items() if got != {catalogues.domain_of(f)}}
    assert not wrong, f"modules whose messages are not in their catalogue alone: {wrong}"
    assert {catalogues.domain_of(f) for f in landings} == set(catalogues.DOMAINS)


def _imported_by_the_terminal() -> set[str]:
    """Every module the command line's modules import (dotted, relative imports resolved)."""
    out: set[str] = set()
    for path in (PACKAGE / "cli").rglob("*.py"):
        package = ["shipcaptaincrew", *path.relative_to(PACKAGE).parent.parts]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                full = ".".join([*base, *(node.module or "").split(".")]).strip(".")
                out |= {full} | {f"{full}.{a.name}" for a in node.names}
    return out


def test_the_terminal_shows_the_web_files_it_takes_messages_from() -> None:
    """Each web module in the ``scc`` catalogue is one a command of the terminal imports
    (else its messages belong to the web)."""
    imported = _imported_by_the_terminal()
    assert "shipcaptaincrew.i18n" in imported  # (the reading of the imports works)
    for path in catalogues.TERMINAL_WEB:
        assert path.startswith(catalogues.WEB_APP) and (PACKAGE / path).is_file(), path
        module = "shipcaptaincrew." + path.removesuffix(".py").replace("/", ".")
        assert module in imported, f"{path}: no command of the terminal imports it"


def test_a_new_web_folder_needs_no_entry(tmp_path: Path) -> None:
    """A folder added under web/ (web/push/, say) lands in ``web``; beside it, the terminal's
    web file still lands in ``scc``, and a module outside web/ too."""
    message = 'from shipcaptaincrew.i18n import N_\nTEXT = N_("a message")\n'
    for path in ("web/push/deep/routes.py", "web/history/backup.py", "cli/commands/x.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(message, encoding="utf-8")
    assert _landings(tmp_path) == {
        "web/push/deep/routes.py": {"web"},
        "web/history/backup.py": {"scc"},
        "cli/commands/x.py": {"scc"},
    }


@pytest.mark.parametrize("domain", [d for d in domains() if d in catalogues.DOMAINS])
def test_catalogues_hold_every_message_in_the_code(domain: str) -> None:
    in_code = _extracted(domain)
    assert len(in_code) > 100
    for lang in TRANSLATED:
        po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
        ids = {_ids(m)[0] for m in _catalog(po) if m.id}  # (a plural message by its singular)
        missing = sorted(in_code - ids)
        assert not missing, f"{lang}/{domain}.po lacks (run scripts/i18n.sh): {missing[:5]}"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", {"ship": "Schiff", "captain": "Kapitän", "crew": "Crew", "cargo": "Ladung"}),
        ("nb", {"ship": "skip", "captain": "kaptein", "crew": "mannskap", "cargo": "last"}),
    ],
)
def test_game_terms_follow_the_sheets(lang: str, words: dict[str, str]) -> None:
    tr = translator(lang)
    for en, word in words.items():
        assert tr(en) == word


def test_narration_in_every_language() -> None:
    s = initial_state(find_rules("classic").replace(starter="chosen"), 2)
    roll = Roll((6, 5, 3, 3, 1))
    t = apply(s, roll)
    (m,) = narrate(s, roll, t, ["Anna", "Bo"])
    assert m.render(translator("en")) == "Anna rolls 6 5 3 3 1 and sets aside ship, captain."
    assert (
        m.render(translator("de")) == "Anna würfelt 6 5 3 3 1 und legt beiseite: Schiff, Kapitän."
    )
    assert m.render(translator("nb")) == "Anna kaster 6 5 3 3 1 og setter til side: skip, kaptein."


@pytest.mark.parametrize("face", [1, 4])
def test_the_captains_sips_and_the_drinkers_are_counted_in_words(face: int) -> None:
    # The number of sips comes from the engine's state, and one sip is not "1 sip(s)".
    s = initial_state(
        find_rules("classic").replace(starter="chosen", drinking="captain_hands_out"), 2
    )
    for roll in (Roll((6, 5, 4, 6, 6)), Roll((6, 5, 4, 1, 1))):
        s = apply(s, roll)
        if s.turn is not None and s.turn.phase is TurnPhase.DECIDE:
            s = apply(s, Stand())
    assert s.phase is Phase.HAND_OUT_ROLL
    after = apply(s, Roll((face,)))
    (m,) = narrate(s, Roll((face,)), after, ["Anna", "Bo"])
    en = m.render(translator("en"))
    assert en == (
        "Captain Anna rolls 1 and hands out one sip."
        if face == 1
        else f"Captain Anna rolls {face} and hands out {after.hand_out_left} sips."
    )
    assert "{" not in m.render(translator("de")) + m.render(translator("nb"))
    last = after
    for _sip in range(face):
        before, last = last, apply(last, HandOut(1))
    lines = [x.render(translator("en")) for x in narrate(before, HandOut(1), last, ["Anna", "Bo"])]
    assert ("Bo drinks a sip." if face == 1 else f"Bo drinks {face} sips.") in lines, lines


def test_placeholders_are_found_in_both_styles() -> None:
    assert _fields("{name} rolls {face} and hands out {face} sips.") == ["face", "face", "name"]
    assert _fields("%(n)s rounds, {{literal}} braces") == ["n"]
    assert _fields("{score:>3}") == ["score"]


def test_unknown_text_and_languages_stay_english() -> None:
    assert translator("de")("a message nobody wrote") == "a message nobody wrote"
    assert translator("fr")("ship") == "ship"
    assert translator(None)("ship") == "ship"


@pytest.mark.parametrize(
    ("explicit", "env", "expected"),
    [
        (None, {}, "en"),
        (None, {"LANG": "de_DE.UTF-8"}, "de"),
        (None, {"LANG": "nb_NO.UTF-8", "LC_ALL": "de_AT.UTF-8"}, "de"),  # LC_ALL wins
        (None, {"LANGUAGE": "fr:nb", "LANG": "de_DE.UTF-8"}, "nb"),  # first known of the list
        (None, {"LANG": "fr_FR.UTF-8"}, "en"),
        (None, {"LANG": "C"}, "en"),
        (None, {"LANG": "nn_NO.UTF-8"}, "nb"),
        ("DE", {"LANG": "nb_NO"}, "de"),  # --lang wins
        ("norsk", {}, "nb"),
    ],
)
def test_detect_lang(explicit: str | None, env: dict[str, str], expected: str) -> None:
    assert detect_lang(explicit, env) == expected


def test_a_mistyped_lang_is_refused() -> None:
    with pytest.raises(UnknownLanguageError, match="unknown language 'klingon'"):
        detect_lang("klingon", {})
    assert normalize_lang("") is None


_NO_LOCALE = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None}


def test_engine_and_log_commands_speak_the_locale(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from shipcaptaincrew.cli.app import app
    from shipcaptaincrew.fair import SeededDice
    from shipcaptaincrew.game import Game
    from shipcaptaincrew.i18n import use

    runner = CliRunner()
    try:
        out = runner.invoke(
            app, ["turn", "65331", "426"], env={**_NO_LOCALE, "LANG": "de_DE.UTF-8"}
        ).output
        assert "Beiseite: Schiff, Kapitän, Crew; Ladung 2 + 6 = 8" in out
        out = runner.invoke(
            app, ["turn", "65331", "426", "--json"], env={**_NO_LOCALE, "LANG": "de_DE.UTF-8"}
        ).output
        assert '"held": ["ship", "captain", "crew"]' in out  # the JSON contract stays English
        log = tmp_path / "m.jsonl"
        g = Game(find_rules("classic"), ["Anna", "Bo"], dice=SeededDice(3), log_path=log)
        while not g.is_over:
            _ = g.roll() if g.is_chance else g.push(g.legal_actions()[0])
        nb = runner.invoke(app, ["replay", str(log), "--lang", "nb"]).output
        assert "vinner partiet!" in nb and "kaster" in nb
        en = runner.invoke(app, ["replay", str(log)], env={**_NO_LOCALE, "LANG": "nb_NO"})
        assert "wins the match!" in en.output  # the match was played in English
        bad = runner.invoke(app, ["replay", str(log), "--lang", "xx"])
        assert bad.exit_code == 2 and "unknown language 'xx'" in bad.output
    finally:
        use("en")
