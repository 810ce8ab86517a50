"""Setting up a table: what the pages need to draw themselves, every label in the page's
language (``routes``: ``/api/options``, ``/api/rules-text``, ``/api/presets``, ``/api/bots``,
``/api/i18n/{lang}``), and the create-table form built from the core's option table
(``forms``).  A feature folder: it imports the shared folders below it and the other
features; the pages' routes and the app import it."""
