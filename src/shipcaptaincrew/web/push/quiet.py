"""Quiet hours: the part of a person's day (in their own time zone) when no notification wakes
them.  A turn that comes due then waits for the hours to end, and goes only if it is still
theirs (see :mod:`.sender`).

Hours are minutes after local midnight, ``[start, end)``; a start after the end spans
midnight (22:00 to 07:00).  Reading them in the person's IANA zone, not the server's, keeps a
player in Oslo asleep when a friend in New York plays at midnight there.  A quiet end that a
daylight-saving change skips (02:30 on the spring night in Oslo) is read with the offset
before the change (it ends at 03:30).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

#: "HH:MM", 24-hour clock.
_CLOCK = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


def minutes(text: str) -> int:
    """Minutes after midnight of ``"HH:MM"`` (ValueError if it is not a time of day)."""
    m = _CLOCK.match(text)
    if m is None:
        raise ValueError(text)
    return int(m.group(1)) * 60 + int(m.group(2))


def clock(minute: int) -> str:
    """``"HH:MM"`` of minutes after midnight."""
    return f"{minute // 60:02d}:{minute % 60:02d}"


def zone(name: str) -> ZoneInfo:
    """The time zone of an IANA name (ValueError if there is none of that name)."""
    if name not in _zones():
        raise ValueError(name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(name) from None


_ZONES: frozenset[str] = frozenset()


def _zones() -> frozenset[str]:
    """Every zone name this machine knows (read once: the set is large)."""
    global _ZONES
    if not _ZONES:
        _ZONES = frozenset(available_timezones() | {"UTC"})
    return _ZONES


@dataclass(frozen=True)
class QuietHours:
    """A person's quiet hours in their time zone."""

    start: int
    end: int
    time_zone: str

    def quiet_at(self, now: datetime) -> bool:
        """Whether ``now`` (aware) falls in the quiet hours."""
        local = now.astimezone(zone(self.time_zone))
        m = local.hour * 60 + local.minute
        if self.start == self.end:
            return False
        if self.start < self.end:
            return self.start <= m < self.end
        return m >= self.start or m < self.end

    def ends_after(self, now: datetime) -> datetime:
        """When the quiet hours that ``now`` falls in end (UTC); ``now`` itself outside them."""
        if not self.quiet_at(now):
            return now
        tz = zone(self.time_zone)
        local = now.astimezone(tz)
        day = local.date()
        for offset in (0, 1):
            end = datetime.combine(
                day + timedelta(days=offset), time(self.end // 60, self.end % 60), tzinfo=tz
            )
            # A wall time in a daylight-saving gap does not exist: UTC and back lands after it.
            end = end.astimezone(UTC)
            if end > now:
                return end
        raise AssertionError("quiet hours end within a day")  # pragma: no cover
