"""What the create-table form is built from: the core's option table, translated.

The pages type no option, value, label or bot level: ``/api/options`` sends the option table
of :mod:`shipcaptaincrew.options`, the match formats, the presets and the bot difficulties,
each label in the page's language (the ``scc`` catalogue for the core's words, ``web`` for
the few the server adds).  One table a language, built once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...bots import DIFFICULTIES
from ...facts import LANGUAGE_NAMES, LANGUAGES
from ...formats import FORMAT_KINDS
from ...i18n import translator
from ...i18n.rules_text import rules_text, rules_title
from ...options import OPTIONS, Group, Option, OptionType
from ...rules import PRESET_DESCRIPTIONS, PRESET_TITLES, PRESETS, Rules
from ..display.party import AVATARS, COLORS, REACTIONS
from ..storage.models import DiceSource
from ..words.server_texts import DICE_LABELS, GROUP_LABELS, LEVEL_LABELS


def _option(o: Option, defaults: dict[str, Any], tr: Any) -> dict[str, Any]:
    return {
        "name": o.name,
        "kind": o.kind.value,
        "group": o.group.value,
        "label": tr(o.label),
        "help": tr(o.help),
        "default": defaults[o.name],
        "choices": [{"value": c.value, "label": tr(c.label)} for c in o.choices]
        if o.kind is OptionType.CHOICE
        else None,
        "bounds": list(o.bounds) if o.kind is OptionType.NUMBER else None,
        "unlimited": o.unlimited,
        "sources": list(o.sources),
    }


@lru_cache(maxsize=len(LANGUAGES))
def option_table(lang: str) -> dict[str, Any]:
    """The answer of ``/api/options`` in one language (see the module docstring)."""
    tr, web = translator(lang, "scc"), translator(lang, "web")
    # The default rule set as the presets hold it: a rule set of a house rule's class (one
    # that adds a field) answers for every option of the table, where ``Rules()`` might not.
    defaults = PRESETS[Rules.name].options()
    return {
        "groups": [{"group": g.value, "label": web(GROUP_LABELS[g])} for g in Group],
        "options": [_option(o, defaults, tr) for o in OPTIONS.values()],
        "formats": [
            {
                "kind": k.value,
                "label": tr(spec.label),
                "help": tr(spec.help),
                "bounds": list(spec.bounds) if spec.bounds else None,
                "default_n": spec.default_n,
            }
            for k, spec in FORMAT_KINDS.items()
        ],
        "presets": [
            {
                "name": name,
                "title": tr(PRESET_TITLES[name]),
                "description": tr(PRESET_DESCRIPTIONS[name]),
                "options": rules.options(),
            }
            for name, rules in PRESETS.items()
        ],
        "bots": [
            {"level": level, "label": web(LEVEL_LABELS[level]), "bot": bot}
            for level, bot in DIFFICULTIES.items()
        ],
        "dice": [{"value": d.value, "label": web(DICE_LABELS[d])} for d in DiceSource],
        "languages": [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES],
        "avatars": list(AVATARS),
        "colors": COLORS,
        "reactions": list(REACTIONS),
    }


def rules_view(rules: Rules, lang: str) -> dict[str, str]:
    """The answer of ``/api/rules-text``: the rule set's human name and its rules as Markdown."""
    tr = translator(lang, "scc")
    return {"rules": str(rules), "title": rules_title(rules, tr), "markdown": rules_text(rules, tr)}
