"""A season's records, head-to-head, form and decision quality, counted from its lines.

Records are the members' (guests and bots play, but a crew's records are its own): for each
record the first member to reach the best value holds it.  Every count is read from the
recorded lines (:mod:`.record`), never from the rules again.

* ``twelves``: most turns ending on the best cargo (12 with two cargo dice) in one evening;
* ``crews``: most crews completed (ship, captain and crew held at a turn's end) in one evening;
* ``streak``: the longest run of matches won one after another (matches the member played);
* ``comeback``: a match won from the lowest chance the member had at any point of their own
  turns (the solver's exact chance: only where it reaches the table);
* ``comeback_points``: a match won after trailing the leader by the most points at the end of
  a round;
* ``sips_drunk`` and ``sips_out``: most sips drunk, and most sips the others drank in rounds
  the member won, in one evening;
* ``pot``: the biggest pot won in one round.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Any

from .season import Evening, Match, Seat

#: The records, in the order the page lists them.
RECORDS = (
    "twelves",
    "crews",
    "streak",
    "comeback",
    "comeback_points",
    "sips_drunk",
    "sips_out",
    "pot",
)
#: Form: the last matches shown per member.
FORM = 10
#: The costliest choices listed.
WORST = 5


def _members(match: Match) -> Iterable[Seat]:
    return (s for s in match.seats if s.member is not None)


def _held(
    kind: str, value: float | None, seat: Seat | None, when: str | None, code: str | None
) -> dict[str, Any]:
    """A record: its value, who holds it, and when (a match's code, or an evening's day)."""
    return {
        "record": kind,
        "value": value,
        "member": seat.member if seat is not None else None,
        "name": seat.name if seat is not None else None,
        "date": when,
        "code": code,
    }


def match_day(what: Match | Evening) -> str:
    """When a match ended, or an evening's first match did (ISO 8601)."""
    return (what.played_at if isinstance(what, Match) else what.date).isoformat()


def records(evenings: list[Evening]) -> list[dict[str, Any]]:
    """Every record of the season (``value`` None: nobody has set it yet)."""
    out = {kind: _held(kind, None, None, None, None) for kind in RECORDS}

    def better(
        kind: str, value: float, seat: Seat, match: Match | Evening, lower: bool = False
    ) -> None:
        held = out[kind]["value"]
        if held is None or (value < held if lower else value > held):
            code = match.code if isinstance(match, Match) else None
            out[kind] = _held(kind, value, seat, match_day(match), code)

    per_evening: dict[str, Callable[[Seat], int]] = {
        "twelves": lambda s: s.twelves,
        "crews": lambda s: s.crews,
        "sips_drunk": lambda s: s.sips,
        "sips_out": lambda s: s.sips_out,
    }
    streaks: Counter[str] = Counter()
    for evening in evenings:
        sums: dict[str, Counter[str]] = {k: Counter() for k in per_evening}
        last: dict[str, Seat] = {}
        for match in evening.matches:
            for seat in _members(match):
                assert seat.member is not None
                last[seat.member] = seat
                for kind, count in per_evening.items():
                    sums[kind][seat.member] += count(seat)
                streaks[seat.member] = streaks[seat.member] + 1 if seat.won else 0
                if seat.won:
                    better("streak", streaks[seat.member], seat, match)
                    if seat.lowest is not None:
                        better("comeback", seat.lowest, seat, match, lower=True)
                    if seat.behind > 0:
                        better("comeback_points", seat.behind, seat, match)
                if seat.pot > 0:
                    better("pot", seat.pot, seat, match)
        for kind, counts in sums.items():
            for member, value in counts.items():
                if value > 0:
                    better(kind, value, last[member], evening)
    return [out[kind] for kind in RECORDS]


def head_to_head(matches: list[Match]) -> list[dict[str, Any]]:
    """Every two members who met: matches together, and how often each placed ahead."""
    table: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for match in matches:
        seats = sorted(_members(match), key=lambda s: s.member or "")
        for a, b in combinations(seats, 2):
            assert a.member is not None and b.member is not None
            pair = table[(a.member, b.member)]
            pair["matches"] += 1
            pair[
                "a_ahead" if a.place < b.place else "b_ahead" if b.place < a.place else "even"
            ] += 1
    return [
        {
            "a": a,
            "b": b,
            "matches": c["matches"],
            "a_ahead": c["a_ahead"],
            "b_ahead": c["b_ahead"],
            "even": c["even"],
        }
        for (a, b), c in sorted(table.items())
    ]


def form(matches: list[Match]) -> dict[str, list[dict[str, Any]]]:
    """Each member's last :data:`FORM` matches, oldest first: place, of how many, won."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for match in matches:
        for seat in _members(match):
            assert seat.member is not None
            out[seat.member].append(
                {
                    "code": match.code,
                    "date": match.played_at.isoformat(),
                    "place": seat.place,
                    "of": len(match.seats),
                    "won": seat.won,
                }
            )
    return {member: rows[-FORM:] for member, rows in out.items()}


def quality(seats: Iterable[Seat]) -> dict[str, dict[str, float]]:
    """Each member's skill and luck summed, and their choices judged and not."""
    out: dict[str, dict[str, float]] = {}
    for seat in seats:
        if seat.member is None:
            continue
        q = out.setdefault(seat.member, {"skill": 0.0, "luck": 0.0, "judged": 0, "unjudged": 0})
        q["skill"] += seat.skill
        q["luck"] += seat.luck
        q["judged"] += seat.judged
        q["unjudged"] += seat.unjudged
    return out


def scores(matches: list[Match]) -> dict[str, dict[str, int]]:
    """Each member's turn scores over the season: ``{"score": turns}``."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for match in matches:
        for seat in _members(match):
            assert seat.member is not None
            out[seat.member].update(seat.scores)
    return {m: dict(sorted(c.items(), key=lambda kv: int(kv[0]))) for m, c in out.items()}
