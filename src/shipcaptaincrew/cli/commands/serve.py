"""``scc serve``: the web app for a table of friends, each on their own phone."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from ...i18n import _
from ...messages import N_, NP_
from ..app import app
from ..common import LangOpt, fail, plural
from .serve_start import check_port, lan_address, loopback, phones_notice

#: Seconds a worker of ``--workers N`` may leave the supervisor's ping unanswered before it
#: counts as hung and is replaced (a worker starting up answers at once: see web.supervisor).
WORKER_HEALTHCHECK_SECONDS = 30


@app.command(
    help=N_(
        "Start the web app: create a table, share the link, play from your phones (needs the "
        "web extra, which bash scripts/run.sh installs)."
        "\n\n"
        "--lang is the language of what the command prints; each player's pages speak the "
        "browser's language."
    )
)
def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar=N_("ADDRESS"),
            help=N_("The address to listen on (0.0.0.0 for the whole network)."),
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            "--port", min=1, max=65535, metavar=N_("PORT"), help=N_("The TCP port to listen on.")
        ),
    ] = 8654,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar=N_("URL"),
            help=N_(
                "The database: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DB (without "
                "it: SQLite in your user data directory; env SCC_DB_URL)."
            ),
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            max=64,
            metavar=N_("N"),
            help=N_(
                "Worker processes sharing the port; more than 1 needs --db postgresql://... "
                "and --redis."
            ),
        ),
    ] = 1,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            metavar=N_("URL"),
            help=N_(
                "The Redis server that links the workers, redis://HOST:PORT/0 (env SCC_REDIS_URL)."
            ),
        ),
    ] = None,
    log_json: Annotated[
        bool | None,
        typer.Option(
            "--log-json/--log-text",
            help=N_("Log one JSON object a line, or plain text (env SCC_LOG_JSON)."),
        ),
    ] = None,
    access_log: Annotated[
        bool | None,
        typer.Option(
            "--access-log/--no-access-log",
            help=N_(
                "Log a line for every request and WebSocket (off without it; env SCC_ACCESS_LOG)."
            ),
        ),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            metavar=N_("URL"),
            help=N_(
                "Another site (https://example.org) whose pages may open the live table; "
                "repeat it for more, * for any (without it: the server's own pages only)."
            ),
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            metavar=N_("ADDRESSES"),
            help=N_(
                "Reverse proxies (addresses or networks, comma-separated; * for any) whose "
                "X-Forwarded-For header names the client (env SCC_FORWARDED_ALLOW_IPS, a JSON "
                "list; without it: the header is ignored)."
            ),
        ),
    ] = None,
    tls_cert: Annotated[
        str | None,
        typer.Option(
            "--tls-cert",
            metavar=N_("FILE"),
            help=N_(
                "Serve HTTPS on the same port with this certificate (PEM, the full chain); "
                "needs --tls-key."
            ),
        ),
    ] = None,
    tls_key: Annotated[
        str | None,
        typer.Option(
            "--tls-key",
            metavar=N_("FILE"),
            help=N_("The private key of --tls-cert (PEM)."),
        ),
    ] = None,
    lang: LangOpt = None,
) -> None:
    """The web app on uvicorn: one process, or ``--workers`` on PostgreSQL and Redis."""
    # Without the web extra this import fails, and scc says what to install (see .extras).
    import uvicorn

    from ...web import Settings, create_app

    overrides: dict[str, object] = {}
    if db:
        overrides["db_url"] = db
    if redis:
        overrides["redis_url"] = redis
    if log_json is not None:
        overrides["log_json"] = log_json
    if access_log is not None:
        overrides["access_log"] = access_log
    if allow_origin:
        overrides["allowed_origins"] = allow_origin
    if forwarded_allow_ips is not None:
        overrides["forwarded_allow_ips"] = [
            ip.strip() for ip in forwarded_allow_ips.split(",") if ip.strip()
        ]
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValueError as e:
        fail(_("bad server settings: {reason}").format(reason=e))
    if not settings.db_url.startswith(("sqlite:", "postgresql:", "postgres:", "postgresql+")):
        fail(
            _("--db must be a sqlite:/// or postgresql:// URL, got '{url}'").format(
                url=settings.db_url
            )
        )
    if settings.redis_url and not settings.redis_url.startswith(
        ("redis://", "rediss://", "unix://")
    ):
        fail(_("--redis must be a redis:// URL, got '{url}'").format(url=settings.redis_url))
    postgres = not settings.db_url.startswith("sqlite:")
    if workers > 1 and not (postgres and settings.redis_url):
        fail(
            _(
                "--workers above 1 needs --db postgresql://... and --redis redis://... "
                "(SQLite and in-memory rooms belong to one process)"
            )
        )
    if settings.redis_url and not postgres:
        fail(_("--redis links workers on one shared database: use --db postgresql://..."))
    if (tls_cert is None) != (tls_key is None):
        fail(_("--tls-cert and --tls-key go together: give both, or neither"))
    secure = _tls_files(tls_cert, tls_key)
    scheme = "https" if secure else "http"
    check_port(host, port)
    lan = lan_address(host)
    if lan and not settings.public_url:
        # Join links and QR codes must reach the phones, not the host's own "localhost".
        settings.public_url = f"{scheme}://{_bracketed(lan)}:{port}"
    from ...web.connections import guard
    from ...web.connections.relay import log_config

    try:
        # Built (and the schema migrated) here even with several workers: a database that
        # cannot be reached is one clear line now, not K worker tracebacks later.
        application = create_app(settings)
    except Exception as e:  # a database that cannot be reached or migrated
        fail(
            _("cannot open the database {url}: {reason}").format(
                url=_safe(settings.db_url), reason=e
            )
        )
    shown = settings.public_url or f"{scheme}://{_bracketed(host)}:{port}"
    db = _safe(settings.db_url)
    if settings.redis_url:
        ids = NP_(
            "Ship, Captain and Crew: {url}/  (database: {db}, one worker, redis {redis})",
            "Ship, Captain and Crew: {url}/  (database: {db}, {n} workers, redis {redis})",
        )
        banner = plural(ids, workers, url=shown, db=db, redis=_safe(settings.redis_url))
    else:
        banner = _("Ship, Captain and Crew: {url}/  (database: {db})").format(url=shown, db=db)
    typer.echo(banner)
    if lan or not loopback(host):
        phones_notice(shown.rstrip("/") + "/", secure or shown.startswith("https:"))
    guard.configure(settings)
    options: dict[str, Any] = dict(
        host=host,
        port=port,
        # uvicorn's HTTP with a deadline for a request's headers and a cap on the connections
        # one address holds (web.connections.guard); each worker of --workers configures it from SCC_*.
        http=guard.GuardedHttp,
        ssl_certfile=tls_cert,
        ssl_keyfile=tls_key,
        log_config=log_config(settings.log_json, access=settings.access_log),
        access_log=settings.access_log,
        ws_max_size=settings.ws_max_size,
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=settings.shutdown_grace,
        # The app reads forwarded headers itself, from the proxies it is told of only
        # (Settings.forwarded_allow_ips); uvicorn's own default would believe any process
        # on this machine that sends X-Forwarded-For.
        proxy_headers=False,
    )
    if workers > 1:
        # Each worker makes its app from the factory; they read the same settings from the
        # environment and share the listening socket, and the supervisor forks them, replaces
        # any that dies at once and logs what it does (see web.supervisor).
        import os

        from ...web.supervisor import Supervisor

        os.environ.update(settings.environment())
        application.state.service.sessions.kw["bind"].dispose()  # (nothing open at the fork)
        del application
        config = uvicorn.Config(
            "shipcaptaincrew.web.app:create_app_from_env", factory=True, workers=workers, **options
        )
        Supervisor(config, workers, WORKER_HEALTHCHECK_SECONDS).run()
        return
    # PostgreSQL writes run in writer threads; a shorter GIL switch interval lets them take
    # their turn within a fraction of a millisecond instead of up to 5 ms per hand-over.
    sys.setswitchinterval(0.0005)
    # Full garbage collections walk only what is new (the app is built: freeze it).
    from ...web import heap

    heap.install(settings.gc_sweep_seconds)
    # No per-message compression: each broadcast would be compressed once per connection.
    uvicorn.run(application, **options)


def _safe(url: str | None) -> str:
    """A URL fit to print: any password replaced by ***."""
    import re

    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url or "")


def _bracketed(host: str) -> str:
    """A host as a URL names it (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host


def _tls_files(cert: str | None, key: str | None) -> bool:
    """Whether HTTPS is asked for, after checking its files load (one line if they do not)."""
    if cert is None or key is None:
        return False
    import ssl

    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as e:
        fail(
            _("cannot use the certificate {cert} with the key {key}: {reason}").format(
                cert=cert, key=key, reason=getattr(e, "strerror", None) or e
            )
        )
    return True
