"""``scc serve``: the web app for a table of friends, each on their own phone."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .app import app
from .common import fail


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0 for the whole network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8654,
    db: Annotated[str | None, typer.Option("--db", help="Database URL: sqlite:///FILE or postgresql://... (default: SQLite in the user's data directory).")] = None,
) -> None:
    """Start the web app: create a table, share the link, play from your phones."""
    try:
        import uvicorn

        from ..web import Settings, create_app
    except ImportError as e:
        fail(f"the web app needs its dependencies ({e.name}): pip install 'shipcaptaincrew[web]'")
    settings = Settings(db_url=db) if db else Settings()
    if not settings.db_url.startswith(("sqlite:", "postgresql:", "postgres:", "postgresql+")):
        fail(f"--db must be a sqlite:/// or postgresql:// URL, got {settings.db_url!r}")
    if host in ("0.0.0.0", "::") and not settings.public_url:
        # Join links and QR codes must reach the phones, not the host's own "localhost".
        lan = _lan_address()
        if lan:
            settings.public_url = f"http://{lan}:{port}"
    try:
        application = create_app(settings)
    except Exception as e:  # a database that cannot be reached or migrated
        fail(f"cannot open the database {settings.db_url}: {e}")
    shown = settings.public_url or f"http://{host}:{port}"
    typer.echo(f"Ship, Captain and Crew: {shown}/  (database: {settings.db_url})")
    # Database writes run in a writer thread; a shorter GIL switch interval lets it take its
    # turn within a fraction of a millisecond instead of up to 5 ms per hand-over.
    sys.setswitchinterval(0.0005)
    # No per-message compression: each broadcast would be compressed once per connection.
    uvicorn.run(application, host=host, port=port, log_level="warning", ws_max_size=65536,
                ws_per_message_deflate=False,
                ws_ping_interval=20, ws_ping_timeout=20)


def _lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: only selects the outgoing interface
            address = str(sock.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address
