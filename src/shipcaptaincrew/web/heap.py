"""The server's garbage-collection policy: a full collection scans only what is new.

CPython's cyclic collector stops the whole process, and a full (generation 2) collection walks
every container object alive.  A server holding a few hundred WebSocket connections has a few
hundred thousand of them (the libraries, the connections' protocol objects, the tables), and on
a small machine such a walk takes 50-300 ms: every table waits that long, which was the whole
99th percentile of ``benchmarks/bench_web.py`` at 500 players.  Almost none of those objects
is ever garbage, so:

* at start-up, once the application is built, everything alive is moved to the permanent
  generation (:func:`gc.freeze`), which collections skip;
* after each full collection the survivors go there too, so the next one walks only what was
  allocated since (objects in the permanent generation are still freed by reference counting
  when the last reference goes; only garbage *cycles* among them wait);
* every ``sweep_every`` seconds (an hour by default) one ordinary full collection of everything
  (:func:`gc.unfreeze`, :func:`gc.collect`, :func:`gc.freeze`) frees such cycles, so memory
  stays bounded: one pause an hour instead of one every few seconds under load.

Installed by ``scc serve`` for the server process only, never on import (tests build many
applications in one process and rely on ordinary collection).
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Any

_installed = False
_lock = threading.Lock()


def _after_full_collection(phase: str, info: dict[str, Any]) -> None:
    # Called by the collector itself; freezing here is safe (the collection has finished) and
    # cheap (it moves the survivors' list, it does not walk it).
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()


def sweep() -> int:
    """One full collection of everything, frozen objects included; returns what it freed."""
    with _lock:
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        return freed


def _sweeper(every: float) -> None:
    while True:
        time.sleep(every)
        sweep()


def install(sweep_every: float = 3600.0) -> None:
    """Freeze what is alive now and keep full collections incremental (see the module doc).

    Idempotent; ``sweep_every <= 0`` leaves out the periodic sweep.
    """
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
        gc.collect()
        gc.freeze()
        gc.callbacks.append(_after_full_collection)
    if sweep_every > 0:
        threading.Thread(
            target=_sweeper, args=(sweep_every,), name="scc-gc-sweep", daemon=True
        ).start()


def installed() -> bool:
    """Whether :func:`install` has run in this process."""
    return _installed
