"""The ``scc`` command line (Typer)."""

from __future__ import annotations


def main() -> None:
    """Entry point of the ``scc`` command."""
    from .app import app

    app()
