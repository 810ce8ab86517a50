"""The options ``scc play``, ``scc companion`` and ``scc rules`` share (kept light to import)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["DrinkingOpt", "FormatOpt", "LangOpt", "LogOpt", "RulesOrAsk", "StakesOpt",
           "StarterOpt", "TieBreakOpt"]

#: ``--rules`` without a default: when no rule flag is given the set-up dialogue asks.
RulesOrAsk = Annotated[str | None, typer.Option(
    "--rules", "-r", help="Preset name or alias, or a canonical rules text (default: ask).")]
FormatOpt = Annotated[str | None, typer.Option(
    "--format", help="Match format: single, rounds:N, first_to:N or tournament.")]
StakesOpt = Annotated[str | None, typer.Option("--stakes", help="points or pot.")]
DrinkingOpt = Annotated[str | None, typer.Option(
    "--drinking", help="none, all_but_winner, last_drinks or captain_hands_out.")]
TieBreakOpt = Annotated[str | None, typer.Option(
    "--tie-break", help="replay (tied players play again) or cargo_rolloff (002).")]
StarterOpt = Annotated[str | None, typer.Option(
    "--starter", help="Who starts (seat number from 1, or name); sets starter=chosen.")]
LangOpt = Annotated[str | None, typer.Option(
    "--lang", help="Language: en, de or nb (default: from LANG / LC_ALL / LANGUAGE).")]
LogOpt = Annotated[Path | None, typer.Option("--log", help="Where to write the event log.")]
