"""OpenSpiel's own regression format: a playthrough per preset, made by OpenSpiel's
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
from shipcaptaincrew.rules import PRESETS  # noqa: E402

DIRECTORY = Path(__file__).parent / "playthroughs"
#: The random choices of the playthroughs (OpenSpiel's tool draws them from this seed).
SEED = 1


def game_string(preset: str) -> str:
    """The game a preset's playthrough plays: three players, the preset's whole match."""
    return f"{openspiel_game.GAME_NAME}(players=3,rules={preset})"


def path(preset: str) -> Path:
    return DIRECTORY / f"{preset}.txt"


def parse_flags() -> None:
    """OpenSpiel's replay reads an absl flag; outside absl's app the flags are unparsed."""
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()


def test_every_preset_has_a_playthrough_and_nothing_else_is_there() -> None:
    assert sorted(p.name for p in DIRECTORY.glob("*.txt")) == sorted(
        path(preset).name for preset in PRESETS
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_playthrough_regenerates_identically(preset: str) -> None:
    parse_flags()
    original, regenerated = generate_playthrough.replay(str(path(preset)))
    assert original.splitlines() == regenerated.splitlines()
    assert original.startswith(f"game: {game_string(preset)}\n")


def main() -> None:
    """Write every preset's playthrough again (run from the repository's root)."""
    DIRECTORY.mkdir(exist_ok=True)
    for preset in PRESETS:
        text = generate_playthrough.playthrough(game_string(preset), None, seed=SEED)
        path(preset).write_text(text, encoding="utf-8")
        print(f"{path(preset)}: {text.count('# State')} states")


if __name__ == "__main__":
    main()
