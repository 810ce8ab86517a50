"""The server's clock: the system's, or for tests and demonstrations a time read from a file.

A crew's season is made of evenings, and a test of a season must play three Fridays in a few
minutes: it writes the day it wants into ``Settings.clock_file`` before each evening, and
everything the server stamps through :func:`now` (a match's end, a crew's records) says that
day.  Nothing waits on this clock: it is only read.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path


def now(clock_file: str | None) -> datetime:
    """The time: the file's (naive times are UTC), or the system clock's without a file."""
    if not clock_file:
        return datetime.now(UTC)
    stamp = datetime.fromisoformat(Path(clock_file).read_text(encoding="utf-8").strip())
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)
