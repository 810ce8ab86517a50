"""Server settings, read from the environment (``SCC_*``) by pydantic-settings.

Everything a deployment may want to change lives here, so the app factory takes one object and
tests build their own (a temporary SQLite file, no bot pause) without touching the environment.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

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
    #: Seconds a person may be offline before a bot plays their turns (until they are back),
    #: so nobody who left stalls the table.
    absent_grace: float = Field(default=30.0, ge=0)
    #: Seconds the person to act may do nothing while connected (a locked or frozen phone)
    #: before the host, or most of the others, may let a bot play that turn.
    silent_grace: float = Field(default=30.0, ge=0)
    #: Log one JSON object a line (for log collectors) instead of plain text.
    log_json: bool = False
    #: Log a line for every request and WebSocket (``scc serve --access-log``).
    access_log: bool = False
    #: Origins (``https://example.org``) whose pages may open the live table besides the
    #: server's own (a page whose Origin names the very host it connects to); ``"*"``: any.
    #: A browser always says where a page comes from, so a page elsewhere cannot play at a
    #: table in its visitor's name (``scc serve --allow-origin``).
    allowed_origins: list[str] = Field(default_factory=list)
    #: New rooms one client address may open in an hour (0 = no limit).
    rooms_per_hour: int = Field(default=30, ge=0)
    #: Table codes one client network may look up in vain in a minute (a code that does not
    #: exist); then it is refused every lookup for a minute (0 = no limit; see ``limits``).
    code_misses_per_minute: int = Field(default=30, ge=0)
    #: Unfinished rooms (in the lobby or playing) the server holds at once (0 = no limit).
    max_open_rooms: int = Field(default=5000, ge=0)
    #: Seconds an unfinished room may go without a move (a lobby: since it was opened) before
    #: it expires and is deleted; finished matches and their logs are kept (0 = never).
    room_idle_seconds: float = Field(default=86400.0, ge=0)
    #: Seconds an unfinished room may have nobody connected (through any worker) before it
    #: expires like an idle one (0 = never).
    room_unattended_seconds: float = Field(default=1800.0, ge=0)
    #: Spectators one table takes (through every worker; 0 = no limit).  Its players and its
    #: paired table screens (up to ``max_screens``) always get in.
    max_spectators: int = Field(default=500, ge=0)
    #: Table screens a table may have paired at once, through every worker (a seated player
    #: pairs each: see ``service.screens``); a paired screen gets in past the spectators'
    #: limit, and an unpaired one is a spectator.
    max_screens: int = Field(default=4, ge=0)
    #: Seats at a table's next match that spectators of one client network may hold (an IPv4
    #: address, an IPv6 /64; 0 = no limit): one per person, not one per connection.  A pub
    #: whose phones share one address may raise it (the host can turn a newcomer down).
    next_seats_per_address: int = Field(default=1, ge=0)
    #: Connections one seat may hold at once (a phone and a tablet, say; 0 = no limit).
    max_seat_connections: int = Field(default=4, ge=0)
    #: Spectators' connections one client network (an IPv4 address, an IPv6 /64) may hold on
    #: one server process at once, and as many again still to say hello (0 = no limit).
    max_connections_per_address: int = Field(default=200, ge=0)
    #: Seconds a client has to send a request's headers, from its connection (or its
    #: request's first byte) on: a client dripping a header line every few seconds is cut
    #: off with 408 instead of holding a socket for ever (see :mod:`.guard`; 0 = no limit).
    header_timeout: float = Field(default=5.0, ge=0)
    #: Open HTTP connections one client network may hold on one server process (a page
    #: load takes a handful; WebSockets are counted apart, above).  Connections from a
    #: trusted proxy (``forwarded_allow_ips``) are not counted: the proxy speaks for many
    #: (0 = no limit).
    max_http_connections_per_address: int = Field(default=64, ge=0)
    #: Proxies (addresses or networks, ``*`` for any) whose ``X-Forwarded-For`` and
    #: ``X-Forwarded-Proto`` headers name the client; from anyone else they are ignored.
    #: Empty (the default): the server faces the clients itself (``scc serve
    #: --forwarded-allow-ips``).
    forwarded_allow_ips: list[str] = Field(default_factory=list)
    #: Seconds a connection may stay behind (its outgoing queue filled up and not yet empty
    #: again) before it is closed with 4408, to reconnect and catch up (see
    #: ``connections.transport``).
    send_stall_seconds: float = Field(default=5.0, ge=0)
    #: Bytes of a connection's messages that may wait in the kernel's and the transport's
    #: buffers below its queue (see ``connections.transport.small_buffers``).
    send_buffer_bytes: int = Field(default=65536, ge=4096)
    #: Seconds between two pictures that only tell who is online, at least (see
    #: ``table.presence``).
    presence_seconds: float = Field(default=0.5, ge=0)
    #: Scaled out: seconds after which another worker's report of who is connected through it
    #: is no longer believed, so a dead worker's people are shown offline (each worker
    #: reports at least every ``relay.PRESENCE_EVERY`` seconds: keep this above that).
    presence_ttl: float = Field(default=30.0, gt=0)
    #: SQLite's ``synchronous`` setting: ``full`` makes each move durable on disk before anyone
    #: sees it (a power cut loses nothing shown); ``normal`` is faster and may lose the last
    #: moves on a power cut (never on a crash of the process alone).
    sqlite_synchronous: Literal["full", "normal"] = "full"
    #: The server's lists of finished matches (``/history``, ``/stats`` and their API) show
    #: every finished table, as a private server on a home or pub network may want; off (the
    #: default) they show only the tables that chose to publish their result when they were
    #: opened.  A server cannot tell whether strangers reach it, so it keeps its tables to
    #: themselves unless told (``SCC_OPEN_LISTS=true``).
    open_lists: bool = False
    #: Tests and demonstrations only: a file holding the server's date and time (ISO 8601,
    #: e.g. ``2025-11-07T21:00:00+00:00``), read at every use instead of the system clock, so
    #: a test plays a crew's evenings on the days it chooses without waiting (see
    #: :mod:`.clock`).  Unset: the system clock.
    clock_file: str | None = None
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

    def environment(self) -> dict[str, str]:
        """These settings as the ``SCC_*`` variables that :class:`Settings` reads back the
        same (a list as JSON): how ``scc serve --workers K`` hands them to its workers."""
        return {
            f"SCC_{name.upper()}": json.dumps(value) if isinstance(value, list) else str(value)
            for name, value in self.model_dump().items()
            if value is not None
        }

    @property
    def sweep_seconds(self) -> float:
        """How often idle rooms are looked for: a quarter of the shorter of the idle and the
        unattended time, at most 10 min."""
        windows = [w for w in (self.room_idle_seconds, self.room_unattended_seconds) if w]
        return min(max(min(windows, default=600.0) / 4, 0.05), 600.0)

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
