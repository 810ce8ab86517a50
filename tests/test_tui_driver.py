"""The pseudo-terminal driver gives the program a keyboard's signals, whatever the test run
inherited: a suite started in the background (``cmd &``, ``nohup``, some CI harnesses) runs
with SIGINT ignored, and an ignored signal stays ignored across fork and exec, so without the
driver's reset the Ctrl-C tests would send an interrupt that nothing receives."""

from __future__ import annotations

import signal
from pathlib import Path

import pexpect

from .tui_driver import spawn


def _ignored_signals(pid: int) -> int:
    """The kernel's mask of the signals a process ignores (bit n-1 for signal n)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return int(line.split()[1], 16)
    raise AssertionError("no SigIgn line in /proc/PID/status")


def test_the_child_hears_ctrl_c_even_when_the_test_run_ignores_it(tmp_path: Path) -> None:
    log = tmp_path / "l.jsonl"
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a background job starts
    try:
        child = spawn(
            ["companion", "-p", "Anna", "-p", "Bo", "--rules", "classic", "--log", str(log)]
        )
        child.expect("Anna: roll one die")  # the program is running: its signal state is set
        assert not _ignored_signals(child.pid) & (1 << (signal.SIGINT - 1))
        child.sendintr()
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 130
    finally:
        signal.signal(signal.SIGINT, before)
