"""``scripts/deploy.sh``: the files it installs (a Caddyfile Caddy accepts, units systemd
accepts), its dry run (files under the root it is given, nothing else touched), and its real run
in a scratch root of the test's own making: the app copied and set up from the lock files for
real, the commands that would change this machine (apt-get, useradd, chown, systemctl, runuser)
replaced by stand-ins that record what they were asked.  Run again it upgrades in place and
keeps the data; ``--uninstall`` removes the units and keeps the data.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.need import missing

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "scripts" / "deploy.sh"
UNITS = "etc/systemd/system"
#: Every file the deployment installs, at its system path.
INSTALLED = {
    "etc/caddy/Caddyfile",
    "etc/shipcaptaincrew/env",
    f"{UNITS}/shipcaptaincrew.service",
    f"{UNITS}/shipcaptaincrew-backup.service",
    f"{UNITS}/shipcaptaincrew-backup.timer",
}
#: The commands that change a machine, replaced in these tests by stand-ins that log.
STANDINS = ("apt-get", "useradd", "chown", "systemctl", "runuser", "psql", "createdb")


def standins(where: Path) -> tuple[dict[str, str], Path]:
    """A PATH whose first directory holds the stand-ins, and the log they write."""
    bin_dir, log = where / "bin", where / "calls.log"
    bin_dir.mkdir(parents=True)
    for name in STANDINS:
        tool = bin_dir / name
        tool.write_text(f'#!/bin/sh\necho "{name} $*" >> {log}\n')
        tool.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    return env, log


def deploy(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(DEPLOY), *args], capture_output=True, text=True, env=env, timeout=900
    )


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def test_dry_run_writes_under_its_root_only_and_runs_nothing(tmp_path: Path) -> None:
    env, log = standins(tmp_path / "tools")
    root = tmp_path / "root"
    system_caddyfile = Path("/etc/caddy/Caddyfile")
    before = system_caddyfile.stat().st_mtime_ns if system_caddyfile.exists() else None
    done = deploy("--domain", "pub.example.org", "--dry-run", "--root", str(root), env=env)
    assert done.returncode == 0, done.stderr
    assert files_under(root) == INSTALLED
    assert not log.exists(), f"a dry run ran {log.read_text()}"
    after = system_caddyfile.stat().st_mtime_ns if system_caddyfile.exists() else None
    assert before == after
    # It says what it would run.
    assert "+ systemctl enable shipcaptaincrew.service shipcaptaincrew-backup.timer" in done.stdout
    env_file = (root / "etc/shipcaptaincrew/env").read_text()
    assert "SCC_PUBLIC_URL=https://pub.example.org\n" in env_file
    assert "SCC_DB_URL=sqlite:////var/lib/shipcaptaincrew/scc.sqlite3\n" in env_file
    unit = (root / UNITS / "shipcaptaincrew.service").read_text()
    for line in (
        "ExecStart=/opt/shipcaptaincrew/.venv/bin/scc serve --host 127.0.0.1 --port 8654",
        "Restart=on-failure",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "PrivateTmp=yes",
        "ReadWritePaths=/var/lib/shipcaptaincrew",
        "User=scc",
    ):
        assert line in unit.splitlines(), line
    # Who may name the client: the proxy on this machine, nobody else.
    assert 'SCC_FORWARDED_ALLOW_IPS=["127.0.0.1", "::1"]' in env_file


@pytest.mark.parametrize(
    "extra", [[], ["--email", "host@example.org"], ["--workers", "3", "--port", "9000"]]
)
def test_the_caddyfile_passes_caddy_validate(tmp_path: Path, extra: list[str]) -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        missing("caddy is not installed (scripts/system-deps.sh)")
    root = tmp_path / "root"
    done = deploy("--domain", "pub.example.org", *extra, "--dry-run", "--root", str(root))
    assert done.returncode == 0, done.stderr
    caddyfile = root / "etc/caddy/Caddyfile"
    checked = subprocess.run(
        [caddy, "validate", "--adapter", "caddyfile", "--config", str(caddyfile)],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")},
    )
    assert checked.returncode == 0, checked.stderr[-2000:]
    assert "Valid configuration" in checked.stdout + checked.stderr
    text = caddyfile.read_text()
    assert 'Strict-Transport-Security "max-age=31536000' in text
    port = "9000" if "--port" in extra else "8654"
    assert f"reverse_proxy 127.0.0.1:{port}" in text
    if "--workers" in extra:
        unit = (root / UNITS / "shipcaptaincrew.service").read_text()
        assert "--workers 3" in unit and "postgresql.service redis-server.service" in unit
        env_file = (root / "etc/shipcaptaincrew/env").read_text()
        assert "SCC_REDIS_URL=redis://127.0.0.1:6379/0" in env_file
        assert "SCC_DB_URL=postgresql://scc@/scc?host=/var/run/postgresql" in env_file


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([], "--domain is required"),
        (["--domain", "not a name"], "is not a host name"),
        (["--domain", "pub.example.org", "--workers", "0"], "--workers must be"),
        (["--domain", "pub.example.org", "--port", "80"], "--port must be from 1024"),
        (["--domain", "pub.example.org", "--dry-run"], "--dry-run needs --root"),
    ],
)
def test_bad_options_are_one_line(args: list[str], says: str) -> None:
    done = deploy(*args)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("deploy.sh: ") and says in line


def verify_units(root: Path) -> None:
    """``systemd-analyze verify`` of the installed units, in the scratch root (which holds
    the binary they start) with the system's own units beside them (targets they name).
    It exits 0 even on a line it cannot parse, so its output must be empty too."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        missing("systemd-analyze is not installed (scripts/system-deps.sh)")
    system_units = root / "usr/lib/systemd/system"
    if not system_units.exists():
        shutil.copytree("/usr/lib/systemd/system", system_units, symlinks=True)
    units = sorted(str(p) for p in (root / UNITS).glob("shipcaptaincrew*"))
    checked = subprocess.run(
        [analyze, "verify", f"--root={root}", *units], capture_output=True, text=True
    )
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked.stderr


def test_real_run_in_a_scratch_root_installs_upgrades_and_uninstalls(tmp_path: Path) -> None:
    env, log = standins(tmp_path / "tools")
    root = tmp_path / "root"
    done = deploy("--domain", "pub.example.org", "--root", str(root), env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    app = root / "opt/shipcaptaincrew"
    # The app is this clone's, set up for real from the lock files.
    version = subprocess.run(
        [str(app / ".venv/bin/scc"), "--version"], capture_output=True, text=True
    )
    assert version.returncode == 0 and version.stdout.startswith("scc "), version
    assert (app / "scripts/deploy.sh").read_bytes() == DEPLOY.read_bytes()
    assert INSTALLED <= files_under(root)
    calls = log.read_text().splitlines()
    assert calls[0].startswith("apt-get install -y -q --no-install-recommends caddy python3")
    assert "useradd --system --user-group --home-dir /var/lib/shipcaptaincrew " in calls[1] + " "
    assert "systemctl enable shipcaptaincrew.service shipcaptaincrew-backup.timer" in calls
    assert "systemctl reload-or-restart caddy" in calls
    verify_units(root)

    # The players' data, then an upgrade: the data stays, the service is restarted.
    data = root / "var/lib/shipcaptaincrew/scc.sqlite3"
    data.write_bytes(b"the tables of last night")
    (app / "left-over-from-an-old-release.py").write_text("")
    log.unlink()
    again = deploy("--domain", "pub.example.org", "--root", str(root), env=env)
    assert again.returncode == 0, again.stderr[-3000:]
    assert data.read_bytes() == b"the tables of last night"
    assert not (app / "left-over-from-an-old-release.py").exists()
    assert "systemctl restart shipcaptaincrew.service" in log.read_text().splitlines()
    verify_units(root)

    gone = deploy("--uninstall", "--root", str(root), env=env)
    assert gone.returncode == 0, gone.stderr
    assert not list((root / UNITS).glob("shipcaptaincrew*"))
    assert not (root / "etc/caddy/Caddyfile").exists()
    assert data.read_bytes() == b"the tables of last night"
