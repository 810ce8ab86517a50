"""CITATION.cff names the version being released: the one pyproject.toml builds."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_citation_version_is_the_package_version() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    cff = (ROOT / "CITATION.cff").read_text("utf-8")
    assert re.search(r"^cff-version: 1\.2\.0$", cff, re.M)
    assert re.findall(r"^version: (\S+)$", cff, re.M) == [version]
