"""Where the server may send a notification: an https push service on the public internet.

A subscription's endpoint is a URL the browser got from its push service, but the server takes
it from whoever calls ``POST /api/push/subscriptions``: without a check, anyone could make the
server send requests to its own network (its database, a router's admin page, a cloud's
metadata address).  So an endpoint must be https, carry no user name or password, and name a
host whose every address is public (not loopback, private, link-local, shared or reserved,
nor multicast).  It is checked when the subscription is made and again just before each
sending (a name may be pointed elsewhere since); a name that does not resolve at the
subscription is taken and checked at sending.  ``Settings.push_local_endpoints`` lifts the
check for the tests' push service on this machine (and a push service inside a private
network).
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def public(address: Address) -> bool:
    """Whether an address is on the public internet (an IPv4 address inside IPv6 by its own)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def addresses(host: str, port: int) -> list[Address]:
    """The addresses a host stands for: itself if it is one, else what it resolves to now
    (none if it does not resolve)."""
    try:
        return [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        return []
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]


def check_endpoint(url: str, local: bool) -> None:
    """Refuse an endpoint the server must not send to (see the module); ``local``: plain
    http and private addresses are allowed."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise _refusal(E.PUSH_BAD_ADDRESS) from None
    if parts.scheme != "https" and not (local and parts.scheme == "http"):
        raise _refusal(E.PUSH_NOT_HTTPS)
    if not parts.hostname or parts.username is not None or parts.password is not None:
        raise _refusal(E.PUSH_BAD_ADDRESS)
    if local:
        return
    if not all(public(a) for a in addresses(parts.hostname, port)):
        raise _refusal(E.PUSH_PRIVATE)


def _refusal(msgid: str) -> RoomError:
    return RoomError(ErrorCode.BAD_SUBSCRIPTION, msgid, 422)
