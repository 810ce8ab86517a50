"""Rule sets travel to worker processes: a pickled rule set must hash like a fresh one there."""

from __future__ import annotations

import subprocess
import sys

from shipcaptaincrew.rules import find_rules


def test_pickled_rules_hash_like_fresh_rules_in_another_process() -> None:
    code = (
        "import pickle, sys\n"
        "from shipcaptaincrew.rules import find_rules\n"
        "r = pickle.loads(sys.stdin.buffer.read())\n"
        "fresh = find_rules('ship-captain-crew').replace(half_cargo=True)\n"
        "print(r == fresh and hash(r) == hash(fresh) and {fresh: 1}.get(r) == 1)\n"
    )
    import pickle

    data = pickle.dumps(find_rules("ship-captain-crew").replace(half_cargo=True))
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            input=data,
            capture_output=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
            check=True,
        )
        assert out.stdout.strip() == b"True"
