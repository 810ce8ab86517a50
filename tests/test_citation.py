"""CITATION.cff names the release being prepared: the one the package's version builds towards."""

from __future__ import annotations

import re
from pathlib import Path

from shipcaptaincrew.version import RELEASE

ROOT = Path(__file__).resolve().parents[1]


def test_citation_version_is_the_release_being_prepared() -> None:
    cff = (ROOT / "CITATION.cff").read_text("utf-8")
    assert re.search(r"^cff-version: 1\.2\.0$", cff, re.M)
    assert re.findall(r"^version: (\S+)$", cff, re.M) == [RELEASE]
