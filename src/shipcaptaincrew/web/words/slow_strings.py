"""Every string of a slow table's and a notification's parts of the pages (the create forms'
pace, the time left, "Tell me when it is my turn", the home page's list of my tables), as
message ids of the ``web`` catalogue: part of what ``/api/i18n/{lang}`` sends
(:data:`.page_strings.UI_STRINGS` takes them in).
"""

from __future__ import annotations

from .catalogue import N_

SLOW_STRINGS: tuple[str, ...] = (
    # the create forms (home page, a crew's page)
    N_("Pace"),
    N_("Live: everyone plays now"),
    N_("Across the day: a turn whenever you have a moment"),
    N_("Hours to play a turn"),
    N_("When the time runs out"),
    N_("A bot plays the turn"),
    N_("The turn is passed (dice rolled, first score kept)"),
    # how long is left
    N_("{h} h {m} min"),
    N_("{m} min"),
    N_("Time left: {time}"),
    N_("{time} left"),
    N_("time ran out: turn passed"),
    # a phone opened again plays the moments it missed (staging.js: replay)
    N_("While you were away, {i} of {n}"),
    # your turn, on your lock screen
    N_("Tell me when it is my turn"),
    N_("Your phone will tell you when it is your turn."),
    N_("Stop telling me"),
    N_("Notifications are blocked in this browser: allow them in its settings to be told."),
    N_("No notifications at night: leave both empty to be told at any hour."),
    N_("Quiet from"),
    N_("Quiet until"),
    N_("Save quiet hours"),
    N_("Saved."),
    # the home page's list
    N_("Your tables"),
    N_("Waiting to start"),
)
