"""Ratings over a season, by OpenSkill (the maintained library, its Plackett-Luce model).

Each match is rated as a whole podium: every seat is a team of one, ranked by its place on
the podium, and equal places are ties (OpenSkill's ``ranks``: lower is better, equal is a
draw).  A rating is ``mu`` (the skill believed) with ``sigma`` (how unsure that belief is);
the ``ordinal`` is OpenSkill's own ``mu - 3 sigma``, the rating one can be fairly sure a
player is above, which is what the table sorts by.  Everyone starts at the library's
defaults (mu 25, sigma 25/3) when the season starts.

Bots are rated too, each level apart (``bot:easy``, ``bot:hard``): where several bots of one
level sit at one table, each plays from the level's rating and the best-placed one's result
is kept as the level's.  Guests are rated under their name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from .season import Evening


@dataclass
class Rated:
    """Someone's rating as the season stands, and after each evening they played."""

    mu: float
    sigma: float
    ordinal: float
    matches: int = 0
    wins: int = 0
    #: ``(evening index, mu, sigma)`` after each evening this one played in.
    history: list[tuple[int, float, float]] = field(default_factory=list)


def model() -> PlackettLuce:
    """The model every crew is rated with (the library's defaults)."""
    return PlackettLuce()


def rate(evenings: list[Evening]) -> dict[str, Rated]:
    """Everyone's rating after the season's evenings (keys: :func:`.season.who_of`)."""
    m = model()
    now: dict[str, PlackettLuceRating] = {}
    out: dict[str, Rated] = {}
    for evening in evenings:
        seen: set[str] = set()
        for match in evening.matches:
            whos = [s.who for s in match.seats]
            for w in whos:
                if w not in now:
                    now[w] = m.rating(name=w)
            teams = [[now[w]] for w in whos]
            ranks = [float(s.place) for s in match.seats]
            rated = m.rate(teams, ranks=ranks)
            kept: set[str] = set()
            # The best-placed seat of each key speaks for it (see the module docstring).
            for i in sorted(range(len(whos)), key=lambda i: match.seats[i].place):
                if whos[i] not in kept:
                    kept.add(whos[i])
                    now[whos[i]] = rated[i][0]
            for w, s in zip(whos, match.seats, strict=True):
                r = out.setdefault(w, Rated(0.0, 0.0, 0.0))
                r.matches += 1
                r.wins += s.won
            seen |= set(whos)
        for w in seen:
            rating = now[w]
            out[w].history.append((evening.index, rating.mu, rating.sigma))
    for w, r in out.items():
        rating = now[w]
        r.mu, r.sigma, r.ordinal = rating.mu, rating.sigma, rating.ordinal()
    return out


def fresh() -> Rated:
    """The rating of someone who has not played this season."""
    rating = model().rating()
    return Rated(rating.mu, rating.sigma, rating.ordinal())
