"""What ``scc serve`` says and checks before it serves: the port it can listen on, and, on a
network, the address phones should open, as a link and a QR code, with what plain HTTP costs.

A host who starts the server for the phones at the table reads the terminal, not the docs:
so a port that is taken or needs root is one line naming the fix (not a banner followed by a
logging traceback), and ``--host 0.0.0.0`` prints the address the phones can reach (never
``0.0.0.0``, which no phone can open), a QR code of it, and one line saying what a page
without HTTPS lacks on a phone and the command that gives HTTPS.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys

import typer

from ...i18n import _
from ..common import fail

#: Addresses that mean "every interface": the server is on the network, at no one address.
WILDCARDS = ("0.0.0.0", "::", "")


def loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (no phone can open it)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_port(host: str, port: int) -> None:
    """Stop with one line if ``host:port`` cannot be listened on (in use, or needs root)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # As uvicorn binds: a port left in TIME_WAIT by a server just stopped is free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except PermissionError:
            fail(
                _(
                    "cannot listen on port {port}: ports below 1024 need root; use a port "
                    "above 1023 (--port 8654), or HTTPS on 443 through Caddy "
                    "(bash scripts/deploy.sh, see docs/deployment.md)"
                ).format(port=port)
            )
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                fail(
                    _(
                        "cannot listen on {host}:{port}: the port is in use (another scc "
                        "serve?); choose another with --port"
                    ).format(host=host, port=port)
                )
            if e.errno == errno.EADDRNOTAVAIL:
                fail(
                    _("cannot listen on {host}: this machine has no such address").format(host=host)
                )
            fail(
                _("cannot listen on {host}:{port}: {reason}").format(
                    host=host, port=port, reason=e.strerror or e
                )
            )


def lan_address(host: str) -> str | None:
    """The address phones on the network reach this machine at, for a server listening on
    ``host``: ``host`` itself when it names one address, else the address of the interface
    that leads out (no packet is sent), else the first interface that is not loopback."""
    if host not in WILDCARDS:
        return None if loopback(host) else host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: only selects the outgoing interface
            address = str(sock.getsockname()[0])
        if not loopback(address):
            return address
    except OSError:
        pass  # no route out (a hotspot without internet): look at the interfaces themselves
    return _interface_address()


def _interface_address() -> str | None:
    """The IPv4 address of the first interface that is up and not loopback (Linux), or None."""
    try:
        import fcntl
        import struct
    except ImportError:  # not a POSIX system
        return None
    siocgifaddr = 0x8915
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            try:
                packed = struct.pack("256s", name.encode()[:15])
                raw = fcntl.ioctl(sock.fileno(), siocgifaddr, packed)
            except OSError:
                continue  # no IPv4 address on it
            address = socket.inet_ntoa(raw[20:24])
            if not loopback(address):
                return address
    return None


def phones_notice(url: str, secure: bool) -> None:
    """The address the phones open, its QR code, and (over plain HTTP) what that costs."""
    import segno

    typer.echo(_("Phones at the table: open {url} or scan this code.").format(url=url))
    qr = segno.make(url, error="m")
    # Half blocks, two rows of modules a line: small enough for a laptop's terminal, and
    # the quiet zone around it keeps it readable on a dark background too.
    qr.terminal(out=sys.stdout, compact=True, border=2)
    if not secure:
        typer.echo(
            _(
                "Plain http: phones get no shake to roll, no screen kept awake, no installed "
                "app and no link copying. For https: scc serve --tls-cert FILE --tls-key FILE, "
                "or a public server with bash scripts/deploy.sh (docs/deployment.md)."
            )
        )
