"""Who sits at the terminal table: a person or a bot, as ``--player`` and the set-up dialogue
name them (``Anna``, ``bot:tip``, ``Robo=bot:hard``), checked before the match starts."""

from __future__ import annotations

from dataclasses import dataclass

from ...bots import make_bot
from ...i18n import _

__all__ = ["SeatSpec", "parse_seat"]


@dataclass(frozen=True)
class SeatSpec:
    """A seat at the table: a person (``bot`` None) or a bot by its spec (``tip``, ``hard``)."""

    name: str
    bot: str | None = None

    @property
    def kind(self) -> str:
        """``human`` or ``bot:SPEC`` (the event log's ``kinds`` entry)."""
        return "human" if self.bot is None else f"bot:{self.bot}"

    @property
    def label(self) -> str:
        """What the scoreboard shows after the name."""
        return "human" if self.bot is None else self.bot


def parse_seat(text: str, index: int) -> SeatSpec:
    """``NAME`` (a person), ``bot:SPEC`` or ``NAME=bot:SPEC`` (a bot), as ``--player`` takes.

    >>> parse_seat("Anna", 0), parse_seat("bot:tip", 2), parse_seat("Robo=bot:hard", 3)
    (SeatSpec(name='Anna', bot=None), SeatSpec(name='Bot 3', bot='tip'), SeatSpec(name='Robo', bot='hard'))
    """
    t = text.strip()
    if not t:
        raise ValueError(_("a player needs a name"))
    name, _sep, rest = t.partition("=")
    if rest.lower().startswith("bot:") or (not rest and t.lower().startswith("bot:")):
        spec = (rest or t)[4:].strip().lower()
        if not spec:
            raise ValueError(_("'{text}': say which bot, e.g. bot:medium").format(text=t))
        make_bot(spec)  # refuse an unknown bot now, not in the middle of the match
        label = name.strip() if rest else _("Bot {n}").format(n=index + 1)
        return SeatSpec(label, spec)
    if len(t) > 24:
        raise ValueError(
            _("'{text}' is too long for a name (24 characters at most)").format(text=t)
        )
    return SeatSpec(t)
