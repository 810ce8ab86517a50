"""The ``scc`` command line (Typer): the app and its commands (``app``, ``commands/``), the
terminal table that ``scc play`` and ``scc companion`` run (``terminal/``), and the helpers
they share at this folder's root (``common``, ``helptext``, ``parser_errors``, ``extras``,
``strategy_match``).  Nothing else of the package imports it; ``python -m shipcaptaincrew``
and the ``scc`` script call :func:`main`."""

from __future__ import annotations


def main() -> None:
    """Entry point of the ``scc`` command."""
    from .app import app

    app()
