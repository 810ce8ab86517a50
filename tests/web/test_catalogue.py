"""The web pages' catalogue (domain ``web``): every string translated in de and nb, no
placeholder lost, the compiled .mo files current, and web.pot listing exactly the ids in use."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from shipcaptaincrew.i18n import LOCALE_DIR, translator
from shipcaptaincrew.web.pages.routes import STATIC
from shipcaptaincrew.web.words import refusals as errors
from shipcaptaincrew.web.words import server_texts as texts
from shipcaptaincrew.web.words.catalogue import Plural, message_ids
from shipcaptaincrew.web.words.page_strings import UI_PLURALS, UI_STRINGS

#: Every id: a text, or a plural pair (as the catalogue has it: a tuple of the two).
IDS = {
    tuple(i) if isinstance(i, Plural) else i
    for i in (*UI_STRINGS, *UI_PLURALS, *message_ids(vars(errors)), *message_ids(vars(texts)))
}


def placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"\{(\w+)\}", text))


def test_pot_lists_exactly_the_ids_in_use() -> None:
    with open(LOCALE_DIR / "web.pot", "rb") as f:
        pot = {m.id for m in read_po(f) if m.id}
    assert pot == IDS


@pytest.mark.parametrize("lang", ["de", "nb"])
def test_every_id_translated_with_its_placeholders(lang: str) -> None:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "web.po", "rb") as f:
        catalog = read_po(f)
    entries = {m.id: m.string for m in catalog if m.id}
    assert set(entries) == IDS
    tr = translator(lang, "web")
    for msgid, text in entries.items():
        assert text, f"{lang}: {msgid!r} is not translated"
        if isinstance(msgid, tuple):  # a plural: every form translated, placeholders kept
            assert all(text) and len(text) == 2, f"{lang}: {msgid!r} -> {text!r}"
            for n, form in ((1, text[0]), (2, text[1])):
                assert placeholders(form) == placeholders(msgid[1]), f"{lang}: {msgid!r}"
                assert tr.ngettext(*msgid, n) == form, f"{lang}: web.mo is older for {msgid!r}"
            continue
        assert placeholders(text) == placeholders(msgid), f"{lang}: {msgid!r} -> {text!r}"
        assert tr(msgid) == text, f"{lang}: web.mo is older than web.po for {msgid!r}"
    assert not any(m.fuzzy for m in catalog if m.id)


def test_every_page_string_is_in_the_catalogue() -> None:
    """Texts the pages look up with t("...") or data-t="..." are all message ids."""
    used: set[str] = set()
    counted: set[str] = set()
    for path in STATIC.rglob("*"):
        if path.suffix in (".js", ".html"):
            text = path.read_text(encoding="utf-8")
            used |= set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', text))
            used |= set(re.findall(r'data-t="([^"]*)"', text))
            counted |= set(re.findall(r'\btn\("((?:[^"\\]|\\.)*)"', text))
    # A count is said with its plural forms: tn("singular", n, ...), a pair of UI_PLURALS.
    assert counted, "no plural page strings found"
    assert not sorted(counted - {p.singular for p in UI_PLURALS})
    # Difficulty names are built from the level ("easy" -> "Easy"), the stats columns by list.
    assert used, "no page strings found"
    missing = sorted(used - IDS)
    assert not missing, missing
