"""The terminal table that ``scc play`` and ``scc companion`` run: the match loop (``match``),
asking a person for a decision (``decide``), prompts that survive anything typed (``prompt``),
what the terminal shows (``view``), setting up a table by flags and a short dialogue
(``setup``, ``rules``, ``options``), who sits at it (``seats``), and rule options in words
(``option_words``).  It imports only the shared helpers at the root of ``cli`` (``common``,
``helptext``); the commands import it."""
