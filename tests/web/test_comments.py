"""The pages' scripts go out without their comment lines, and with nothing else changed.

The table page's first load was 67.8 KiB after gzip against the 60 KiB a phone on a pub's
network is promised (``test_browser_pages``); a quarter of it was comments.
"""

from __future__ import annotations

import gzip

import pytest

from shipcaptaincrew.web.pages.comments import without_comment_lines
from shipcaptaincrew.web.pages.routes import STATIC

COMMENT_LINE = ("//", "/*", "*")


@pytest.mark.parametrize("path", sorted((STATIC / "js").glob("*.js")), ids=lambda p: p.name)
def test_only_comment_lines_are_emptied(path: object) -> None:
    text = path.read_text(encoding="utf-8")  # type: ignore[attr-defined]
    sent = without_comment_lines(text)
    before, after = text.split("\n"), sent.split("\n")
    assert len(after) == len(before)  # the source map stays line for line
    for old, new in zip(before, after, strict=True):
        if new != old:
            assert new == ""
            bare = old.strip()
            assert bare.startswith(COMMENT_LINE) or bare.endswith("*/"), old


def test_the_scripts_are_smaller() -> None:
    """After gzip, as a phone receives them: at least a seventh less."""
    texts = [p.read_text(encoding="utf-8") for p in (STATIC / "js").glob("*.js")]
    sent = sum(len(gzip.compress(without_comment_lines(t).encode(), 9)) for t in texts)
    assert sent < 0.85 * sum(len(gzip.compress(t.encode(), 9)) for t in texts)


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        ("// a note\nconst a = 1; // kept\n", "\nconst a = 1; // kept\n"),
        ("/* a\n * block\n */\nf();\n", "\n\n\nf();\n"),
        ("x(); /* starts\n ends */ y();\n", "x(); /* starts\n ends */ y();\n"),
        # lines inside a template literal are text, whatever they look like
        ("const t = `\n// not a comment\n* nor this\n`;\n", None),
        ("const t = `${ { a: 1 }.a }\n// text\n`;\n", None),
        ('const u = "http://x";\n// gone\n', 'const u = "http://x";\n\n'),
        ("const q = 'it\\'s // here';\n", None),
        # a quote the scanner cannot place (in a regular expression): sent as it is
        ('s.replace(/"$/, "");\n// kept, as is the rest\n', None),
        ("const r = /[`]/;\n// kept\n", None),
    ],
)
def test_the_scanner(text: str, sent: str | None) -> None:
    assert without_comment_lines(text) == (text if sent is None else sent)
