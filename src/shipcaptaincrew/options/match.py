"""The option of the match: its format (the kinds and their bounds live in :mod:`..formats`)."""

from __future__ import annotations

from ..formats import FormatKind, MatchFormat
from ..messages import N_
from .spec import Group, Option, OptionType

__all__ = ["MATCH_OPTIONS"]

MATCH_OPTIONS: tuple[Option, ...] = (
    Option(
        "format",
        OptionType.FORMAT,
        Group.MATCH,
        MatchFormat(FormatKind.SINGLE),
        N_("Match format"),
        N_("how many rounds make a match and who wins it"),
        ("000.7", "001.18", "002.25", "002.29"),
    ),
)
