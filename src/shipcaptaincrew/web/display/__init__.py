"""What the table shows: the room picture everyone at (or watching) a table sees
(``picture``), a match state as JSON from the engine's own fields (``state_view``), the moment
a page holds on screen and the last round's card (``moments``), the podium at a match's end
(``podium``), the solver's and the bots' advice (``advice``), who plays for an absent person and
who may ask it to (``absence``), and the table's fixed sets of reactions, avatars and colours
(``party``).  It imports ``words`` and ``storage`` (and nothing above them); ``table`` and the
feature folders import it."""
