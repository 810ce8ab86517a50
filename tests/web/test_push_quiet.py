"""Quiet hours are read in the person's own time zone, across midnight and across the nights
the clocks change; a turn that comes in them waits exactly until they end."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shipcaptaincrew.web.push.quiet import QuietHours, minutes, zone

NIGHT = QuietHours(minutes("22:00"), minutes("07:00"), "Europe/Oslo")


def utc(*when: int) -> datetime:
    return datetime(*when, tzinfo=UTC)


@pytest.mark.parametrize(
    ("now", "quiet", "ends"),
    [
        (utc(2026, 1, 10, 20, 59), False, None),  # 21:59 in Oslo (UTC+1)
        (utc(2026, 1, 10, 21, 0), True, utc(2026, 1, 11, 6, 0)),  # 22:00: till 07:00
        (utc(2026, 1, 11, 3, 0), True, utc(2026, 1, 11, 6, 0)),  # 04:00, after midnight
        (utc(2026, 1, 11, 6, 0), False, None),  # 07:00: over
        (utc(2026, 7, 10, 20, 30), True, utc(2026, 7, 11, 5, 0)),  # summer: UTC+2
        # The night the clocks go forward (29 March 2026, 02:00 -> 03:00): 07:00 is 05:00 UTC.
        (utc(2026, 3, 28, 23, 0), True, utc(2026, 3, 29, 5, 0)),
        # And back (25 October 2026): 07:00 is 06:00 UTC again.
        (utc(2026, 10, 25, 1, 30), True, utc(2026, 10, 25, 6, 0)),
    ],
)
def test_quiet_hours_in_oslo(now: datetime, quiet: bool, ends: datetime | None) -> None:
    assert NIGHT.quiet_at(now) is quiet
    assert NIGHT.ends_after(now) == (ends or now)


def test_the_same_hours_elsewhere_and_within_a_day() -> None:
    # 23:00 UTC is 18:00 in New York: not quiet there, quiet in Oslo.
    new_york = QuietHours(minutes("22:00"), minutes("07:00"), "America/New_York")
    assert not new_york.quiet_at(utc(2026, 1, 10, 23, 0))
    assert NIGHT.quiet_at(utc(2026, 1, 10, 23, 0))
    lunch = QuietHours(minutes("12:00"), minutes("13:00"), "UTC")
    assert lunch.quiet_at(utc(2026, 1, 10, 12, 30))
    assert lunch.ends_after(utc(2026, 1, 10, 12, 30)) == utc(2026, 1, 10, 13, 0)
    assert not QuietHours(600, 600, "UTC").quiet_at(utc(2026, 1, 10, 10, 0))  # no hours


@pytest.mark.parametrize("text", ["24:00", "7:00", "07:60", "0700", "", "07:00 "])
def test_what_is_not_a_time_of_day(text: str) -> None:
    with pytest.raises(ValueError):
        minutes(text)


@pytest.mark.parametrize("name", ["Mars/Base", "../../etc/passwd", "", "europe/oslo"])
def test_what_is_not_a_time_zone(name: str) -> None:
    with pytest.raises(ValueError):
        zone(name)
