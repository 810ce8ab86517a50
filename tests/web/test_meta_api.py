"""What the pages are built from: the option table, the rules text, bot levels, languages --
each drawn from the core's one table, each label in the page's language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from shipcaptaincrew.bots import DIFFICULTIES
from shipcaptaincrew.facts import LANGUAGES
from shipcaptaincrew.formats import FORMAT_KINDS
from shipcaptaincrew.i18n import translator
from shipcaptaincrew.i18n.rules_text import rules_text, rules_title
from shipcaptaincrew.options import OPTIONS, Group
from shipcaptaincrew.rules import PRESETS, Rules
from shipcaptaincrew.web.words.server_texts import LEVEL_LABELS

WEB = Path(__file__).resolve().parents[2] / "src" / "shipcaptaincrew" / "web"


def test_option_table_is_the_core_s_in_every_language(client: Any) -> None:
    tables = {lang: client.get(f"/api/options?lang={lang}").json() for lang in LANGUAGES}
    en, de = tables["en"], tables["de"]
    assert [o["name"] for o in en["options"]] == list(OPTIONS)
    assert [g["group"] for g in en["groups"]] == [g.value for g in Group]
    assert [f["kind"] for f in en["formats"]] == [k.value for k in FORMAT_KINDS]
    assert [p["name"] for p in en["presets"]] == list(PRESETS)
    assert [b["level"] for b in en["bots"]] == list(DIFFICULTIES)
    assert [b["bot"] for b in en["bots"]] == list(DIFFICULTIES.values())
    assert [lang["code"] for lang in en["languages"]] == list(LANGUAGES)
    assert [d["value"] for d in en["dice"]] == ["fair", "physical"]
    for o in en["options"]:
        spec = OPTIONS[o["name"]]
        assert o["kind"] == spec.kind.value and o["group"] == spec.group.value
        assert o["label"] == spec.label and o["sources"] == list(spec.sources)
        assert o["default"] == Rules().options()[o["name"]]
        if spec.choices:
            assert [c["value"] for c in o["choices"]] == [c.value for c in spec.choices]
    tie = next(o for o in de["options"] if o["name"] == "tie_break")
    assert (
        tie["label"] == translator("de")(OPTIONS["tie_break"].label) != OPTIONS["tie_break"].label
    )
    schiff = next(p for p in de["presets"] if p["name"] == "schiff-kapitaen-crew")
    assert schiff["options"] == PRESETS["schiff-kapitaen-crew"].options()
    assert [b["label"] for b in de["bots"]] == ["Leicht", "Mittel", "Schwer", "Perfekt"]
    # The language comes from ?lang= or X-Lang, never from Accept-Language alone.
    assert client.get("/api/options", headers={"X-Lang": "nb"}).json() == tables["nb"]
    assert client.get("/api/options", headers={"Accept-Language": "de"}).json() == en


def test_rules_text_and_title(client: Any) -> None:
    canonical = "schiff-kapitaen-crew(drinking=captain_hands_out,format=rounds:3)"
    body = client.get("/api/rules-text", params={"rules": canonical, "lang": "de"}).json()
    rules = Rules.from_str(canonical)
    assert (
        body["title"]
        == rules_title(rules, translator("de"))
        == ("Schiff, Kapitän & Crew · 3 Runden · der Kapitän verteilt")
    )
    assert body["markdown"] == rules_text(rules, translator("de")) and body["rules"] == canonical
    r = client.get("/api/rules-text", params={"rules": "chess", "lang": "de"})
    assert r.status_code == 400 and r.json()["code"] == "bad_rules"
    assert "chess" in r.json()["detail"] and r.json()["detail"].startswith("Diese Regeln")


def test_every_bot_level_has_a_label() -> None:
    assert list(LEVEL_LABELS) == list(DIFFICULTIES)


def test_languages_and_bot_levels_are_not_typed_again_in_the_server() -> None:
    """One fact, one place: the web server reads facts.LANGUAGES and bots.DIFFICULTIES."""
    typed = re.compile(r"""["']en["']\s*,\s*["']de["']|["']easy["']\s*,\s*["']medium["']""")
    offenders = [
        str(p.relative_to(WEB))
        for p in WEB.rglob("*.py")
        if typed.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


@pytest.mark.parametrize("path", ["/api/nowhere", "/api/i18n/xx"])
def test_unknown_paths_and_languages_are_said_in_the_language(client: Any, path: str) -> None:
    en = client.get(path)
    de = client.get(path, params={"lang": "de"})
    assert en.status_code == de.status_code == 404
    assert en.json()["detail"] != de.json()["detail"]
    assert {"code", "detail"} <= set(de.json())


def test_room_refusals_follow_the_room_s_language(client: Any) -> None:
    r = client.post("/api/rooms", json={"name": "Anna", "lang": "nb"})
    code = r.json()["code"]
    r = client.post(f"/api/rooms/{code}/join", json={"name": "anna"})
    assert r.json()["code"] == "name_taken"
    assert r.json()["detail"] == "Navnet anna er allerede tatt ved dette bordet."
    r = client.post(f"/api/rooms/{code}/join?lang=de", json={"name": "anna"})
    assert r.json()["detail"].startswith("Der Name anna")
