"""``scc crew show`` as tables: the numbers of the crew's answer, in the terminal's language.

Only drawing: every number comes from the body ``web.crews.view`` builds (the JSON the
server answers), so the terminal and the page say the same.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from ..i18n import _, active_lang, translator
from ..messages import N_

#: A record's name, by its kind (``web.crews.records.RECORDS``).
RECORD_NAMES = {
    "twelves": N_("Most 12s in an evening"),
    "crews": N_("Most crews completed in an evening"),
    "streak": N_("Longest winning run"),
    "comeback": N_("Best comeback (a win from the lowest chance)"),
    "comeback_points": N_("Best comeback (a win from the most points behind)"),
    "sips_drunk": N_("Most sips drunk in an evening"),
    "sips_out": N_("Most sips handed out in an evening"),
    "pot": N_("Biggest pot"),
}
#: Who else is rated, by kind (``web.crews.view``'s ``others``).
KIND_NAMES = {"bot": N_("bot"), "guest": N_("guest"), "former": N_("former member")}


def print_crew(body: dict[str, Any]) -> None:
    """The crew's season as tables: ratings, others rated, records, head-to-head, quality."""
    tr = translator(active_lang())
    console = Console()
    season = body["season"]
    title = season["name"] or (_("all matches") if season["id"] == "all" else season["id"])
    console.print(
        _("{crew} · season {season} · matches: {n}").format(
            crew=body["crew"]["name"], season=title, n=body["matches"]
        )
    )
    names = {m["id"]: m["name"] for m in body["members"]}
    ratings = Table(_("name"), "mu", "sigma", _("rating"), _("matches"), _("wins"))
    for r in body["ratings"]:
        ratings.add_row(
            r["name"],
            tr.number(r["mu"], 2),
            tr.number(r["sigma"], 2),
            tr.number(r["ordinal"], 2),
            str(r["matches"]),
            str(r["wins"]),
        )
    for o in body["others"]:
        ratings.add_row(
            f"{o['name']} ({_(KIND_NAMES[o['kind']])})",
            tr.number(o["mu"], 2),
            tr.number(o["sigma"], 2),
            tr.number(o["ordinal"], 2),
            str(o["matches"]),
            str(o["wins"]),
        )
    console.print(ratings)
    records = Table(_("record"), _("value"), _("held by"), _("when"))
    for rec in body["records"]:
        if rec["value"] is None:
            continue
        value = rec["value"]
        shown = tr.percent(value) if rec["record"] == "comeback" else str(value)
        records.add_row(_(RECORD_NAMES[rec["record"]]), shown, rec["name"], rec["date"][:10])
    console.print(records)
    h2h = Table(_("member"), _("member"), _("matches"), _("ahead"), _("behind"), _("even"))
    for pair in body["head_to_head"]:
        h2h.add_row(
            names.get(pair["a"], "?"),
            names.get(pair["b"], "?"),
            str(pair["matches"]),
            str(pair["a_ahead"]),
            str(pair["b_ahead"]),
            str(pair["even"]),
        )
    console.print(h2h)
    quality = Table(_("member"), _("skill"), _("luck"), _("judged"), _("not judged"))
    for q in body["quality"]["members"]:
        quality.add_row(
            names.get(q["member"], "?"),
            tr.number(100 * q["skill"], 1),
            tr.number(100 * q["luck"], 1),
            str(q["judged"]),
            str(q["unjudged"]),
        )
    console.print(quality)
    console.print(_("skill and luck in percentage points of the chance to win (see docs/crews.md)"))
