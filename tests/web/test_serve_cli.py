"""``scc serve``: its options, the default database location, and bad input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shipcaptaincrew.cli.app import app
from shipcaptaincrew.web.settings import Settings


def test_help_lists_the_contract_options() -> None:
    out = CliRunner().invoke(app, ["serve", "--help"]).output
    for flag in ("--host", "--port", "--db", "127.0.0.1", "8654"):
        assert flag in out


def test_default_database_is_sqlite_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("SCC_DB_URL", raising=False)
    url = Settings().db_url
    assert url == f"sqlite:///{tmp_path / 'shipcaptaincrew' / 'scc.sqlite3'}"
    assert (tmp_path / "shipcaptaincrew").is_dir()


def test_postgres_urls_use_psycopg() -> None:
    assert Settings(db_url="postgresql://u@h/db").sqlalchemy_url() == "postgresql+psycopg://u@h/db"


@pytest.mark.parametrize("db", ["mysql://x/y", "nonsense"])
def test_bad_database_url_is_refused(db: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--db", db])
    assert result.exit_code == 2
    assert "--db" in result.output


def test_unreachable_database_is_one_clear_line() -> None:
    result = CliRunner().invoke(app, ["serve", "--db", "postgresql://nobody@127.0.0.1:1/none"])
    assert result.exit_code == 2
    assert "cannot open the database" in result.output


def test_workers_read_back_the_very_settings_they_are_given(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--workers K`` hands its settings to the workers as environment variables."""
    given = Settings(
        db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        access_log=True,
        allowed_origins=["https://friends.example", "https://pub.example"],
        rooms_per_hour=7,
        room_idle_seconds=90.5,
        fixed_server_seed="ab" * 32,
    )
    for name in list(os.environ):
        if name.startswith("SCC_"):
            monkeypatch.delenv(name)
    for name, value in given.environment().items():
        monkeypatch.setenv(name, value)
    assert Settings() == given
