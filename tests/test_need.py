"""The switch between skipping and failing on a missing component (tests/need.py), at module
level (as the files that need an optional package use it) and inside a test (as fixtures do)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

AT_IMPORT = """
from tests.need import need_module

need_module("no_such_module_scc")


def test_never_runs() -> None:
    raise AssertionError("collected although its module is missing")
"""
IN_A_TEST = """
from tests.need import missing


def test_needs_a_server() -> None:
    missing("no_such_module_scc server binary not found")


def test_needs_nothing() -> None:
    pass
"""


def _run(tmp_path: Path, source: str, require_all: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_missing.py").write_text(source, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "SCC_REQUIRE_ALL"}
    env |= {"SCC_REQUIRE_ALL": require_all, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:playwright", "-p", "no:cacheprovider"]
        + ["-q", "-rs", "test_missing.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("source", "local", "strict"),
    [
        (AT_IMPORT, pytest.ExitCode.NO_TESTS_COLLECTED, pytest.ExitCode.INTERRUPTED),
        (IN_A_TEST, pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED),
    ],
    ids=["at-import", "in-a-test"],
)
def test_missing_skips_locally_and_fails_under_require_all(
    tmp_path: Path, source: str, local: int, strict: int
) -> None:
    run = _run(tmp_path, source, "")
    assert run.returncode == local, run.stdout + run.stderr
    assert "SKIPPED" in run.stdout and "no_such_module_scc" in run.stdout
    run = _run(tmp_path, source, "1")
    assert run.returncode == strict, run.stdout + run.stderr
    assert "SCC_REQUIRE_ALL" in run.stdout and "SKIPPED" not in run.stdout
