"""The built documentation site has no broken picture or link.

``mkdocs build --strict`` checks the Markdown links it converts, not a raw ``<img>`` or ``<a>``
in a page's HTML: six screenshots of the browser guide were broken on the site (a page is
served as a directory, ``web/``, so ``img/x.png`` pointed into it) while the build passed.
So this test builds the site and follows every ``src`` and ``href`` of every page to a file.
"""

from __future__ import annotations

import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from tests.need import need_module

ROOT = Path(__file__).resolve().parents[1]


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (tag, name) in (("img", "src"), ("a", "href"), ("link", "href")):
                self.refs.append((tag, value))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_module("mkdocs")
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    return out


def target(site: Path, page: Path, ref: str) -> Path | None:
    """The file a reference on ``page`` reaches in the site, or None if it leaves the site."""
    parts = urlsplit(ref)
    if parts.scheme or parts.netloc or ref.startswith(("#", "mailto:")):
        return None
    url = "/" + str(page.relative_to(site))
    path = unquote(urlsplit(urljoin(url, ref)).path)
    found = site / path.lstrip("/")
    return found / "index.html" if path.endswith("/") or found.is_dir() else found


def test_every_picture_and_link_of_the_built_site_is_there(site: Path) -> None:
    broken, pictures = [], 0
    for page in sorted(site.rglob("*.html")):
        if page.name == "404.html":
            continue
        refs = _Refs()
        refs.feed(page.read_text(encoding="utf-8"))
        for tag, ref in refs.refs:
            found = target(site, page, ref)
            if found is None:
                continue
            pictures += tag == "img"
            if not found.is_file():
                broken.append(f"{page.relative_to(site)}: <{tag}> {ref}")
    assert not broken, "\n".join(broken)
    # The browser guide's screenshots are among them (the pictures this test was made for).
    assert pictures >= 6
