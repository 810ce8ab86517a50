"""/api/options, /api/rules-text, /api/presets, /api/bots, /api/i18n/{lang}: what the pages
need to draw themselves, every label in the page's language."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from babel import Locale
from fastapi import APIRouter, Query

from ...bots import DIFFICULTIES
from ...errors import InvalidRulesError
from ...facts import LANGUAGES
from ...i18n import translator
from ...rules import PRESET_DESCRIPTIONS, PRESETS, find_rules
from ..deps import LangDep
from ..words import refusals as E
from ..words.page_strings import UI_PLURALS, UI_STRINGS
from ..words.refusals import ErrorCode, RoomError
from .forms import option_table, rules_view

router = APIRouter(prefix="/api", tags=["meta"])


@router.get("/options")
async def options(lang: LangDep) -> dict[str, Any]:
    """The create form's option table (options, formats, presets, bot levels, dice sources),
    labels translated; built from the core's tables, never typed in a page."""
    return option_table(lang)


@router.get("/rules-text")
async def rules_text(
    lang: LangDep, rules: str = Query("classic", min_length=1, max_length=400)
) -> dict[str, str]:
    """A rule set's human name and complete rules (Markdown) in a language ("how to play")."""
    try:
        parsed = find_rules(rules)
    except InvalidRulesError as e:
        raise RoomError(ErrorCode.BAD_RULES, E.BAD_RULES, 400, reason=e) from None
    return rules_view(parsed, lang)


@router.get("/presets")
async def presets() -> list[dict[str, Any]]:
    """Rule presets with their options."""
    return [
        {"name": n, "description": PRESET_DESCRIPTIONS.get(n, ""), "options": r.options()}
        for n, r in PRESETS.items()
    ]


@router.get("/bots")
async def bots() -> list[str]:
    """Bot difficulties the host can seat."""
    return list(DIFFICULTIES)


def ui_strings(lang: str) -> dict[str, str | dict[str, str]]:
    """The pages' strings in a language (English id -> translation): the answer of
    ``/api/i18n/{lang}``, which a page also gets inline (see ``pages/routes.py``).  A
    message with plural forms maps its singular id to its form for each plural category of
    the language (CLDR's ``one``, ``other``, ...), which the page picks with the browser's
    ``Intl.PluralRules`` (``tn`` in ``common.js``)."""
    tr = translator(lang, "web")
    out: dict[str, str | dict[str, str]] = {s: tr(s) for s in UI_STRINGS}
    for pair in UI_PLURALS:
        out[pair.singular] = {cat: tr.ngettext(*pair, n) for cat, n in plural_samples(lang)}
    return out


@lru_cache(maxsize=8)
def plural_samples(lang: str) -> tuple[tuple[str, int], ...]:
    """A count for each plural category of ``lang`` (CLDR's rules, as Babel has them)."""
    rule = Locale.parse(lang).plural_form
    samples: dict[str, int] = {}
    for n in range(0, 200):
        samples.setdefault(rule(n), n)
    return tuple(sorted(samples.items()))


@router.get("/i18n/{lang}")
async def strings(lang: str) -> dict[str, str | dict[str, str]]:
    """The pages' strings in a language (English id -> translation)."""
    if lang not in LANGUAGES:
        raise RoomError(
            ErrorCode.BAD_LANG, E.BAD_LANG, 404, lang=lang[:8], langs=", ".join(LANGUAGES)
        )
    return ui_strings(lang)
