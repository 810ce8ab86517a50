"""A host's first hour, as a new user tries it: each friction they met has a check here (or
in the test named beside it) that failed on the code they tried.

- the README's bare ``scc`` after ``run.sh`` was "command not found";
- "without the scripts: pip install shipcaptaincrew[web]" found no such package;
- the README and the docs home opened with lock files and CI, not with playing tonight;
- ``scripts/test.sh`` stopped at once for a user who is not root ("missing: util-linux");
- the pages and the deployment guide never said "HTTPS".

Elsewhere: the join link and QR code at 127.0.0.1 (``tests/web/test_browser_lan.py``), the
docs site's broken pictures (``tests/test_docs_site.py``), a busy or privileged port
(``tests/web/test_front_door.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def sections(text: str) -> list[str]:
    return re.findall(r"^## (.+)$", text, flags=re.M)


def test_the_readme_and_the_docs_home_open_with_playing_tonight() -> None:
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    for text in (README, home):
        assert sections(text)[0] == "Play at the pub tonight"
        first = text.split("## Play at the pub tonight", 1)[1].split("\n## ", 1)[0]
        # The three ways phones get in, and what each costs.
        for words in ("Wi-Fi", "hotspot", "mobile data", "https"):
            assert words.lower() in first.lower(), words
        assert "lock" not in first and "CI" not in first


def test_the_deployment_guide_opens_with_putting_it_on_the_internet() -> None:
    guide = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    assert sections(guide)[0] == "Put it on the internet"
    assert "sudo bash scripts/deploy.sh --domain pub.example.org" in guide
    # The README points to it in one line.
    assert "[Put it on the internet](docs/deployment.md#put-it-on-the-internet)" in README


def test_scc_is_on_the_path_before_the_first_example_runs_it() -> None:
    """A reader copies the README's examples into the shell the set-up left them in."""
    blocks = re.findall(r"```(?:sh|text|console)\n(.*?)```", README, flags=re.S)
    commands = [line.removeprefix("$ ").strip() for block in blocks for line in block.splitlines()]
    first_scc = next(i for i, c in enumerate(commands) if c.startswith("scc "))
    assert "source .venv/bin/activate" in commands[:first_scc]
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    assert "source .venv/bin/activate" in setup.splitlines()[-1]


def test_no_install_from_a_registry_that_does_not_have_the_package() -> None:
    assert not re.search(r"pip install [^`\n]*\bshipcaptaincrew\[", README)
    assert "pip install '.[web]'" in README


def test_system_deps_finds_runuser_for_a_user_without_sbin_on_the_path() -> None:
    """A user's PATH (Debian's default for a login that is not root) has no /usr/sbin, where
    runuser lives: the check must find it all the same."""
    user_path = "/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games"
    checked = subprocess.run(
        ["bash", str(ROOT / "scripts" / "system-deps.sh"), "--check"],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": user_path},
    )
    assert "util-linux" not in checked.stderr, checked.stderr
