"""The web app: a table for friends, each on their own phone (``scc serve``).

One folder per thing the table does, each with its routes beside its service (``rooms/``,
``play/``, ``history/``, ``setup/``), the match service they make up (``service.py``), and the
shared folders under them: a table in memory (``table/``), what it shows (``display/``), the
words the server speaks (``words/``), the database (``storage/``), connections and their
limits (``connections/``) and the pages' release (``pages/``; their files in ``static/``).
docs/architecture.md draws the layers; only the command line (``scc serve``) and the tests
import this package.

>>> from shipcaptaincrew.web import create_app  # doctest: +SKIP
"""

from __future__ import annotations

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
