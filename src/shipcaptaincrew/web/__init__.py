"""The web app: a table for friends, each on their own phone (``scc serve``).

>>> from shipcaptaincrew.web import create_app  # doctest: +SKIP
"""

from __future__ import annotations

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
