"""Server settings, read from the environment (``SCC_*``) by pydantic-settings.

Everything a deployment may want to change lives here, so the app factory takes one object and
tests build their own (a temporary SQLite file, no bot pause) without touching the environment.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_db_url() -> str:
    """SQLite in the user's data directory (created on first use)."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("shipcaptaincrew", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'scc.sqlite3'}"


class Settings(BaseSettings):
    """Configuration of one server process."""

    model_config = SettingsConfigDict(env_prefix="SCC_", extra="ignore")

    #: SQLAlchemy URL; ``postgresql://`` URLs are driven by psycopg 3.
    db_url: str = Field(default_factory=default_db_url)
    #: Seconds a bot waits before it acts, so people can follow (0 in tests).
    bot_delay: float = 0.9
    #: Largest WebSocket message a client may send, in bytes (a longer one is refused, and the
    #: connection stays).
    max_message_bytes: int = 2048
    #: Largest WebSocket frame read at all: a longer one is answered with a clear message and
    #: the connection is closed (1009).  The transport reads up to :attr:`ws_max_size`.
    max_frame_bytes: int = 65536
    #: Per-connection rate limit: sustained messages per second, and the burst allowed.
    rate_per_second: float = 8.0
    rate_burst: int = 20
    #: Emoji reactions per connection: sustained per second, and the burst allowed.
    reaction_rate: float = 1.0
    reaction_burst: int = 3
    #: Seats per room (the rules allow 2..8 players).
    max_seats: int = 8
    #: Base URL used in join links and QR codes when the server sits behind a proxy ("" = from the request).
    public_url: str = ""
    #: Tests and demonstrations only: every new room uses this server seed (64 hex digits), so a
    #: match is reproducible.  Clients still cannot choose dice; leave unset in production.
    fixed_server_seed: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    #: Expose ``/ws/echo``, the bare WebSocket floor used by ``benchmarks/bench_web.py``.
    echo_endpoint: bool = False
    #: Redis URL (``redis://host:port/0``) for several workers: live fan-out between them.
    #: Unset (the default): a single process, everything in memory, no Redis.
    redis_url: str | None = None
    #: Seconds a worker that did not make the last move waits, beyond the bot pause, before it
    #: plays a bot or a turn timer itself (it takes over only if the mover's worker went away).
    failover_grace: float = 2.0
    #: Seconds the host may be offline, while someone else is at the table, before the next
    #: person online becomes host.
    host_grace: float = Field(default=30.0, ge=0)
    #: Log one JSON object a line (for log collectors) instead of plain text.
    log_json: bool = False
    #: Seconds ``SIGTERM`` waits for moves in progress before the process ends.
    shutdown_grace: float = 10.0
    #: Seconds between the server's full sweeps of long-lived memory (see :mod:`.heap`;
    #: 0 = never; ``scc serve`` only).
    gc_sweep_seconds: float = Field(default=3600.0, ge=0)

    @property
    def ws_max_size(self) -> int:
        """What the WebSocket transport (uvicorn) accepts: well above the frame limit, so a
        frame over the limit still reaches the app and is answered with a message; only a
        frame beyond this is cut by the transport unread (1009)."""
        return 16 * self.max_frame_bytes

    @property
    def scaled(self) -> bool:
        """Several workers share the rooms (Redis configured): rooms are read from the database."""
        return bool(self.redis_url)

    def sqlalchemy_url(self) -> str:
        """The URL with the driver SQLAlchemy should use (psycopg 3 for PostgreSQL)."""
        url = self.db_url
        if url.startswith("postgresql://"):
            return "postgresql+psycopg://" + url[len("postgresql://") :]
        if url.startswith("postgres://"):
            return "postgresql+psycopg://" + url[len("postgres://") :]
        return url
