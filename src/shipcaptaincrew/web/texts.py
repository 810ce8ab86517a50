"""Words the server itself writes for the table (``web`` catalogue): labels, moments, podium.

Everything else a page shows comes from the core in the ``scc`` catalogue (rule names, option
labels, narration, the engine's refusals) or from the pages' own strings
(:mod:`.strings`); refusals are in :mod:`.errors`.  :data:`TEXTS` lists every id here for the
catalogue check.
"""

from __future__ import annotations

from ..options import Group
from .errors import N_

#: Bot difficulty -> its name for people (the difficulties themselves are ``bots.DIFFICULTIES``;
#: a test checks that every one has a label).
LEVEL_LABELS: dict[str, str] = {
    "easy": N_("Easy"),
    "medium": N_("Medium"),
    "hard": N_("Hard"),
    "perfect": N_("Perfect"),
}

#: Option group -> its heading on the create form.
GROUP_LABELS: dict[Group, str] = {
    Group.MATCH: N_("The match"),
    Group.STAKES: N_("Stakes"),
    Group.TURN: N_("The turn"),
    Group.ROUND: N_("The round"),
}

#: Every message id of this module.
TEXTS: tuple[str, ...] = (
    *LEVEL_LABELS.values(),
    *GROUP_LABELS.values(),
)
