"""Who a client is for the server's limits, and how many live connections each may hold.

A limit per address is only worth what the address is worth.  An IPv4 address is what one
household or pub has; an IPv6 client usually holds a whole /64 network (2^64 addresses), so
the limits count IPv6 clients by their /64 (:func:`network`).  The address itself is the one
the socket comes from, or, behind a reverse proxy, the one the proxy names in
``X-Forwarded-For`` -- believed only from the proxies listed in
``Settings.forwarded_allow_ips`` (see :mod:`..app`), never from anyone who simply sends it.

:class:`Doorman` counts the live table's connections per network in this process: at most
``max_connections_per_address`` spectators, and as many sockets again that have not said hello
yet (a page says hello as soon as its socket opens).  Seated players are let in past the
count (their own limits are the room's: see :mod:`..play.protocol`), so a crowd on the same
network never locks a player out of their own table; a table screen counts like any
connection (one network once held 244 "screens" over 61 tables).

:class:`Turnstile` counts the open HTTP connections per network the same way, below the app
(see :mod:`.guard`, which holds each connection to a header deadline too): a page load takes a
handful, so a generous cap costs nobody, while one address can no longer hold every socket of
the process.  A trusted proxy (:func:`from_proxy`) is not counted: it speaks for many clients,
and the app counts each of them by the address it names.

The count is per process, and that is the promise (docs/deployment.md says so): what it
guards -- sockets, queues, tasks -- belongs to the process holding them, so with K workers a
network holds at most K times the cap and no worker more than its own.  Shared through Redis,
every hello and goodbye would wait for a round trip, and a worker killed mid-stream would
leave its connections counted (a network locked out) until a lease expired.

:class:`Misses` counts the table codes a network looks up in vain, and bars a network that
guesses (see its docstring).
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from collections import Counter, deque
from dataclasses import dataclass, field

#: The prefix length by which IPv6 clients are counted (one customer's network).
IPV6_PREFIX = 64

Net = ipaddress.IPv4Network | ipaddress.IPv6Network


def network(address: str | None) -> str | None:
    """The network a client address counts as: an IPv4 address itself, an IPv6 address's /64
    (an IPv4 address written as IPv6 counts as the IPv4 one); anything that is not an IP
    address (a test client's name) as it is.

    >>> network("192.0.2.7"), network("::ffff:192.0.2.7")
    ('192.0.2.7', '192.0.2.7')
    >>> network("2001:db8:1:2:a:b:c:d") == network("2001:db8:1:2::99")
    True
    >>> network("2001:db8:1:2:a:b:c:d"), network("2001:db8:1:3::1")
    ('2001:db8:1:2::/64', '2001:db8:1:3::/64')
    """
    if address is None:
        return None
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def address_key(address: str) -> str:
    """The form in which a client's network is kept wherever it is stored (a hash of
    :func:`network`, never the address itself)."""
    net = network(address) or address
    return hashlib.sha256(b"scc-room-limit\0" + net.encode()).hexdigest()


@dataclass
class Doorman:
    """This process's count of live-table connections per network (see the module)."""

    #: Spectators a network may have connected at once, and sockets waiting to say hello
    #: (0 = no limit).
    most: int
    waiting: Counter[str] = field(default_factory=Counter)
    inside: Counter[str] = field(default_factory=Counter)

    def knock(self, key: str | None) -> Visit | None:
        """A socket opened from network ``key``: its visit, counted as waiting for its hello,
        or None if the network has as many sockets waiting as it may."""
        if key is not None and self.most:
            if self.waiting[key] >= self.most:
                return None
            self.waiting[key] += 1
        return Visit(self, key)

    def _forget(self, counts: Counter[str], key: str) -> None:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]


@dataclass
class Visit:
    """One socket's stay, from its opening to its end (see :class:`Doorman`)."""

    doorman: Doorman
    key: str | None
    waiting: bool = True
    counted: bool = False

    def hello(self, exempt: bool) -> bool:
        """Its hello came: whether it may come in (``exempt``: a seat, let in past the count
        and not counted).  It no longer waits either way."""
        door, key = self.doorman, self.key
        if key is None or not door.most:
            return True
        if self.waiting:
            door._forget(door.waiting, key)
            self.waiting = False
        if exempt:
            return True
        if door.inside[key] >= door.most:
            return False
        door.inside[key] += 1
        self.counted = True
        return True

    def leave(self) -> None:
        """The socket closed: it counts no longer."""
        door, key = self.doorman, self.key
        if key is None or not door.most:
            return
        if self.waiting:
            door._forget(door.waiting, key)
        if self.counted:
            door._forget(door.inside, key)
        self.waiting = self.counted = False


@dataclass
class Misses:
    """Table codes looked up in vain, per network, in this process: a network that has tried
    ``most`` codes that do not exist within ``window`` seconds is refused every lookup until a
    window has passed (0 = no limit).

    A join code is the only key to a table, so guessing codes is how an outsider finds
    tables to squat: 2,648 lookups in 5 s from one address once went unchecked.  Only
    misses count: a phone reloading its own table's page looks up a code that exists, a
    script guessing codes finds nothing nearly every time.  Scaled out, each miss is also
    counted in Redis (``service.upkeep``), so the cap holds across the workers.
    """

    most: int
    window: float = 60.0
    #: Networks with misses in the window: their times (monotonic), oldest first.
    seen: dict[str, deque[float]] = field(default_factory=dict)
    #: Networks refused, until when (monotonic).
    barred: dict[str, float] = field(default_factory=dict)

    #: Networks remembered at most (the oldest is forgotten first): a flood from many
    #: networks costs bounded memory.
    KEEP = 10_000

    def blocked(self, key: str | None, now: float | None = None) -> bool:
        """Whether network ``key`` is refused lookups now."""
        if key is None or not self.most:
            return False
        now = time.monotonic() if now is None else now
        until = self.barred.get(key)
        if until is None:
            return False
        if until <= now:
            del self.barred[key]
            return False
        return True

    def missed(self, key: str | None, now: float | None = None) -> bool:
        """Count a miss of network ``key``; whether it is barred now."""
        if key is None or not self.most:
            return False
        now = time.monotonic() if now is None else now
        times = self.seen.pop(key, None) or deque()
        self.seen[key] = times  # (moved last: the oldest networks are forgotten first)
        times.append(now)
        while times and times[0] <= now - self.window:
            times.popleft()
        while len(times) > self.most:
            times.popleft()
        if len(self.seen) > self.KEEP:
            del self.seen[next(iter(self.seen))]
        if len(times) >= self.most:
            self.bar(key, now)
        return self.blocked(key, now)

    def bar(self, key: str, now: float | None = None) -> None:
        """Refuse network ``key`` for a window (its misses reached the cap, here or, scaled
        out, across the workers)."""
        now = time.monotonic() if now is None else now
        if len(self.barred) > self.KEEP:
            del self.barred[next(iter(self.barred))]
        self.barred[key] = now + self.window


def proxies(allowed: list[str]) -> list[Net] | None:
    """``Settings.forwarded_allow_ips`` as networks (None: ``*``, every address is a proxy).

    >>> proxies(["127.0.0.1", "10.0.0.0/8"])
    [IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8')]
    """
    if "*" in allowed:
        return None
    return [ipaddress.ip_network(a.strip(), strict=False) for a in allowed if a.strip()]


def from_proxy(address: str | None, trusted: list[Net] | None) -> bool:
    """Whether a connection from ``address`` comes through a trusted proxy (see
    :func:`proxies`): its own address then says nothing about the client behind it.

    >>> from_proxy("127.0.0.1", proxies(["127.0.0.1"])), from_proxy("127.0.0.2", [])
    (True, False)
    """
    if trusted is None:
        return True
    try:
        ip = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return False
    return any(ip in net for net in trusted)


@dataclass
class Turnstile:
    """This process's count of open HTTP connections per network (see the module)."""

    #: Connections a network may hold open at once (0 = no limit).
    most: int
    trusted: list[Net] | None = field(default_factory=list)
    open: Counter[str] = field(default_factory=Counter)

    def enter(self, address: str | None) -> tuple[bool, str | None]:
        """A connection opened from ``address``: whether it may stay, and the key it is
        counted under (None: not counted), to hand back to :meth:`leave`."""
        key = network(address)
        if key is None or not self.most or from_proxy(address, self.trusted):
            return True, None
        if self.open[key] >= self.most:
            return False, None
        self.open[key] += 1
        return True, key

    def leave(self, key: str | None) -> None:
        """A counted connection closed (or became a WebSocket, which the Doorman counts)."""
        if key is not None:
            self.open[key] -= 1
            if self.open[key] <= 0:
                del self.open[key]
