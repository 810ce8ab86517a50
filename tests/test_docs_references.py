"""docs/rules.md names the code behind each sheet sentence: every such name must exist.

The map is only worth reading while it is true, so a rename or a move in the core that leaves
a stale name behind fails here (`engine._finish_round` after the match flow moved to
``match.py``, say).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
#: Core modules the map may name as `module.attribute` (attribute chains are followed).
MODULES = ("rules", "turn", "match", "between", "engine", "state", "dice", "actions",
           "options", "formats", "facts", "narrate", "notation")  # fmt: skip
REFERENCE = re.compile(r"`(" + "|".join(MODULES) + r")\.([A-Za-z_][A-Za-z0-9_.]*)")


def references() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    found = sorted({(m, p) for m, p in REFERENCE.findall(text) if p != "py"})  # not `match.py`
    assert len(found) > 30, "the map names the code it points at"
    return found


@pytest.mark.parametrize(("module", "path"), references(), ids=lambda x: str(x))
def test_every_name_in_the_rules_map_exists(module: str, path: str) -> None:
    obj: object = importlib.import_module(f"shipcaptaincrew.{module}")
    for part in path.rstrip(".").split("."):
        if not part:
            continue
        assert hasattr(obj, part), f"docs/rules.md names {module}.{path}, which does not exist"
        obj = getattr(obj, part)
