"""Every string of the crews' pages (the crew page, and the crews on the home page, the
podium and the lobby), as message ids of the ``web`` catalogue: part of what
``/api/i18n/{lang}`` sends (:data:`.page_strings.UI_STRINGS` takes them in).
"""

from __future__ import annotations

from .catalogue import N_

CREW_STRINGS: tuple[str, ...] = (
    N_("Season"),
    N_("Open a table for the crew"),
    N_("Ratings"),
    N_("Rating over the season"),
    N_(
        "The line is the rating; the band around it is how unsure it still is (one sigma either side)."
    ),
    N_("Records"),
    N_("Head-to-head"),
    N_("Times the row's player finished ahead of the column's, then behind."),
    N_("Luck and skill"),
    N_("Turns per score over the season (0: no crew)."),
    N_("Evenings"),
    N_("Members"),
    N_("This phone"),
    N_("This page is for the crew's members. A member's invite link lets you in."),
    N_("Join the crew"),
    N_("This phone is now in the crew."),
    N_("All matches"),
    N_("This phone is no longer in this crew: ask a member for a new invite."),
    N_("Still working out: {n}"),
    N_(
        "The rating is the strength less three times its uncertainty: a player is almost surely at least this good."
    ),
    N_("Most 12s in an evening"),
    N_("Most crews completed in an evening"),
    N_("Longest winning run"),
    N_("Best comeback (won from the lowest chance)"),
    N_("Best comeback (won from the most points behind)"),
    N_("Most sips drunk in an evening"),
    N_("Most sips handed out in an evening"),
    N_("Biggest pot"),
    N_("Last matches: {list}"),
    N_("guest"),
    N_("former member"),
    N_("Rating"),
    N_("Strength ± uncertainty"),
    N_("Form"),
    N_("not set yet"),
    N_(
        "Skill: the chance to win given away by your choices (0 is the solver's best). Luck: what your dice gave or took. In percentage points."
    ),
    N_("Skill"),
    N_("Luck"),
    N_("Choices judged"),
    N_("No matches this season yet."),
    N_(
        "Choices not judged: {n}. The solver has no exact chance for those tables (too many players for a match of several rounds), so they count for neither skill nor luck."
    ),
    N_("The costliest choices"),
    N_("{taken} ({chance}) where {best} gave {best_chance}"),
    N_("Matches: {n}"),
    N_("{name} won"),
    N_("Replay {code}"),
    N_("{name}: skill {skill}, luck {luck}"),
    N_("Rating of {name} over the season: from {start} to {end}, give or take {sigma}."),
    N_("start"),
    N_("{score}: {n}"),
    N_("Scores of {name}, turns per score: {list}"),
    N_("Turns: {n}"),
    N_("Nobody has met yet this season."),
    N_("Head-to-head: how often the row's player finished ahead of the column's, and behind"),
    N_("the same player"),
    N_("never met"),
    N_("{a} ahead {x} times, {b} ahead {y} times, of {n}"),
    N_("admin"),
    N_("More"),
    N_("No longer an admin"),
    N_("Make an admin"),
    N_("New invite for {name}: it works once, and ends their old phone's access."),
    N_("New invite (lost phone)"),
    N_("Invite"),
    N_("Whoever opens this link can join the crew: show it only to friends."),
    N_("QR code to join the crew"),
    N_("Renew the invite (the old link stops working)"),
    N_("QR code of the one-time link"),
    N_("Who was the guest?"),
    N_("Guest"),
    N_("was"),
    N_("Count their matches for this member"),
    N_("The crew's own seasons"),
    N_("Without any, every month is a season."),
    N_("First day"),
    N_("Last day"),
    N_("Add the season"),
    N_("Choices"),
    N_("Export the season"),
    N_(
        "Each file says inside where it comes from: the crew, the season, its rules and bots, the version (in a CSV file: the # lines above the header)."
    ),
    N_(
        "Open this on the new phone (it works once, for 30 minutes); this phone then leaves the crew."
    ),
    N_("Open this on the other screen (it works once, for 30 minutes)."),
    N_("Save"),
    N_("Move to a new phone"),
    N_("Open on another screen"),
    N_("This phone has left the crew."),
    N_("Take the crew off this phone"),
    N_("Start a crew"),
    N_(
        "The same friends every week: a season of your own, with ratings, records and who beats whom. Only members see it."
    ),
    N_("The crew's name"),
    N_("Please fill in both names."),
    N_("Your crews"),
    N_("Join as {name}"),
    N_("A table of your crew {name}"),
    N_("Open the crew {name}"),
    N_("This table is the crew {name} now."),
    N_("Join the crew {name}"),
    N_("Keep this crew"),
    N_(
        "The same friends next week? Keep this table as a crew: a season of your own, and everyone here can join from their podium."
    ),
    N_("Show the result in this server's lists (History, Leaderboard)"),
    N_("Only tables that chose to show their result are listed here."),
)
