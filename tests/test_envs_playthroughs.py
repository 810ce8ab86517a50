"""OpenSpiel's own regression format: a playthrough per preset and per format kind, made by OpenSpiel's
``generate_playthrough`` and committed under ``tests/playthroughs/``; the test replays each
file's actions through the game as it is now and compares every line.

A change to the game that shows in a playthrough (a string, a tensor, a legal action, a chance
outcome) makes this test fail until the files are made again, on purpose::

    .venv/bin/python -m tests.test_envs_playthroughs      # rewrites tests/playthroughs/*.txt
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .need import need_module

need_module("pyspiel")
flags = need_module("absl.flags")
generate_playthrough = need_module("open_spiel.python.algorithms.generate_playthrough")

from shipcaptaincrew.envs import openspiel_game  # noqa: E402  (registers the game)
from shipcaptaincrew.formats import FormatKind, MatchFormat  # noqa: E402
from shipcaptaincrew.rules import PRESETS, find_rules  # noqa: E402

DIRECTORY = Path(__file__).parent / "playthroughs"
#: The random choices of the playthroughs (OpenSpiel's tool draws them from this seed).
SEED = 1


#: The formats the presets do not play, each under the classic rules (so every kind has one).
FORMATS = ("rounds:2", "wins:2", "tournament")
#: Every playthrough: the presets' own matches, then one of each other format kind.
NAMES = (*sorted(PRESETS), *(f"classic-{fmt.replace(':', '-')}" for fmt in FORMATS))


def game_string(name: str) -> str:
    """The game a playthrough plays: three players, a preset's whole match or a format's."""
    for fmt in FORMATS:
        if name == f"classic-{fmt.replace(':', '-')}":
            return f"{openspiel_game.GAME_NAME}(format={fmt},players=3,rules=classic)"
    return f"{openspiel_game.GAME_NAME}(players=3,rules={name})"


def path(name: str) -> Path:
    return DIRECTORY / f"{name}.txt"


def parse_flags() -> None:
    """OpenSpiel's replay reads an absl flag; outside absl's app the flags are unparsed."""
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()


def test_every_playthrough_is_there_and_nothing_else() -> None:
    assert sorted(p.name for p in DIRECTORY.glob("*.txt")) == sorted(path(n).name for n in NAMES)
    kinds = {find_rules(preset).format.kind for preset in PRESETS}
    kinds |= {MatchFormat.parse(fmt).kind for fmt in FORMATS}
    assert kinds == set(FormatKind)  # at least one playthrough of every format kind


@pytest.mark.parametrize("name", NAMES)
def test_the_playthrough_regenerates_identically(name: str) -> None:
    parse_flags()
    original, regenerated = generate_playthrough.replay(str(path(name)))
    assert original.splitlines() == regenerated.splitlines()
    assert original.startswith(f"game: {game_string(name)}\n")


def main() -> None:
    """Write every preset's playthrough again (run from the repository's root)."""
    DIRECTORY.mkdir(exist_ok=True)
    for name in NAMES:
        text = generate_playthrough.playthrough(game_string(name), None, seed=SEED)
        path(name).write_text(text, encoding="utf-8")
        print(f"{path(name)}: {text.count('# State')} states")


if __name__ == "__main__":
    main()
