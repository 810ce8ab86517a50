"""Running ``scc`` as a user does, in a subprocess, with its own solver cache.

A helper module, not a test file: the command-line tests import it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def scc(cache: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``scc ARGS`` with ``SCC_CACHE_DIR=cache`` and a wide terminal (tables unwrapped)."""
    env = {**os.environ, "SCC_CACHE_DIR": str(cache), "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "shipcaptaincrew", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def ok_json(cache: Path, *args: str) -> dict[str, Any]:
    """``scc ARGS --json``, which must succeed: its one JSON object."""
    r = scc(cache, *args, "--json")
    assert r.returncode == 0, r.stderr
    out: dict[str, Any] = json.loads(r.stdout)
    return out
