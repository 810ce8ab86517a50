"""docs/terminal.md's transcripts are what their commands print, from answer files in the
repository, and the German and Norwegian ones hold no English.

``scripts/terminal_transcripts.py`` made them; every command shown reads its answers from
``docs/transcripts/`` with ``--script``, so here each one runs again, as shown, in a
directory laid out like a clone, and must print exactly the transcript shown.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from .english import english_left
from .test_docs_commands import DC, ITEMS, _load

TT = _load("terminal_transcripts")
CAPTURES = TT.captures()


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    cwd = DC.sandbox(tmp_path_factory.mktemp("clone"))
    with ThreadPoolExecutor(max_workers=2) as pool:
        lines = pool.map(lambda c: TT.transcript(c, cwd), CAPTURES)
        return {c.command: out for c, out in zip(CAPTURES, lines, strict=True)}


def test_every_transcript_is_what_its_command_prints(printed: dict[str, list[str]]) -> None:
    shown = TT.shown()
    assert set(shown) == set(printed), "run scripts/terminal_transcripts.py"
    stale = [c for c in printed if printed[c] != shown[c]]
    first = stale[0] if stale else ""
    diff = [
        f"shown {a!r}\nnow   {b!r}"
        for a, b in zip(shown.get(first, []), printed.get(first, []), strict=False)
        if a != b
    ][:3]
    assert not stale, (
        f"run scripts/terminal_transcripts.py --keep; {len(stale)} differ: {stale}\n{diff}"
    )


@pytest.mark.parametrize("lang", ["de", "nb"])
def test_the_transcripts_speak_the_language(printed: dict[str, list[str]], lang: str) -> None:
    problems = {}
    for c in CAPTURES:
        if c.lang == lang and (left := english_left("\n".join(printed[c.command]), lang)):
            problems[c.command] = left
    assert not problems, problems


def test_every_answer_file_is_read_by_a_command_shown() -> None:
    read: set[str] = {TT._answer_path(c.answers) for c in CAPTURES if c.answers}
    read |= {i.directive.script for i in ITEMS if i.directive and i.directive.script}
    read |= {w for i in ITEMS for w in i.words if w.startswith("docs/transcripts/")}
    kept = {f"docs/transcripts/{p.name}" for p in (DC.ROOT / "docs" / "transcripts").iterdir()}
    assert read <= kept, f"read but not in the repository: {read - kept}"
    assert kept <= read, f"in the repository but read by nothing shown: {kept - read}"


def test_a_capture_is_a_command_a_reader_can_type() -> None:
    """The shown command is the whole command: its answers and log are in it."""
    for c in CAPTURES:
        if c.answers:
            assert f"--script docs/transcripts/{c.answers}.txt" in c.command
            assert (DC.ROOT / "docs" / "transcripts" / f"{c.answers}.txt").is_file()
    assert len(CAPTURES) == 3 + 3 * 3 * len(TT.SEEDS)
