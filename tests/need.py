"""Skip a test whose component (a Python package, a server binary) is missing, or fail it.

Locally a partial install may skip what it cannot run, with the reason.  With
``SCC_REQUIRE_ALL=1`` (``scripts/test.sh`` sets it, so CI does) every such skip is a failure
instead: a broken install must fail the run, not turn it green with whole suites skipped.
Every "missing component" skip in the suite goes through :func:`missing`.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

REQUIRE_ALL = os.environ.get("SCC_REQUIRE_ALL", "") not in ("", "0")


def missing(reason: str) -> NoReturn:
    """Skip (the whole module, when called at import time) or, under SCC_REQUIRE_ALL, fail."""
    if REQUIRE_ALL:
        pytest.fail(f"{reason} [SCC_REQUIRE_ALL is set: a missing component fails]", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def need_module(name: str) -> ModuleType:
    """``pytest.importorskip`` through :func:`missing`."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        missing(f"the Python module {name} cannot be imported ({error})")


def beyond_the_lock(name: str, why: str) -> ModuleType:
    """Import a module the project never installs (it is in no lock file of ``requirements/``),
    or skip -- under ``SCC_REQUIRE_ALL`` too: no install of the project brings it, so its
    absence is no broken install.  ``why`` says why it stays out and how to get it."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        pytest.skip(f"{name} is not installed ({error}); it is in no lock: {why}")
