"""/api/presets, /api/bots, /api/i18n/{lang}: what the pages need to draw themselves."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from ...rules import PRESET_DESCRIPTIONS, PRESETS
from ..deps import ServiceDep
from ..schemas import BOT_LEVELS, LANGS
from ..strings import UI_STRINGS

router = APIRouter(prefix="/api", tags=["meta"])


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
    return list(BOT_LEVELS)


@router.get("/i18n/{lang}")
async def strings(lang: str, service: ServiceDep) -> dict[str, str]:
    """The pages' strings in a language (English id -> translation)."""
    if lang not in LANGS:
        raise HTTPException(404, f"unknown language {lang[:8]!r}; known: {', '.join(LANGS)}")
    tr = service.translate(lang, "web")
    return {s: tr(s) for s in UI_STRINGS}
