"""The pages and what the server sends for them: the release made once at start-up from the
files under ``web/static/`` (``release``: each page's bundled script, ``bundle``, and the
critical part of its style sheet, ``critical``), ``HEAD`` wherever ``GET`` works (``head``), and
the routes that serve the pages, their start-up data and the installable app's files
(``routes``).  Everything here but ``routes`` is at the bottom of the web package and imports
nothing else of ``web``; ``routes`` sits with the other routes under the app, and only the app
imports it."""
