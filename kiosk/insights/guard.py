"""Wrong curator passwords per client, kept in the process (pure: the tests drive its clock)."""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

# MAX_FAILURES-th wrong password within FAILURE_WINDOW seconds of the one before locks it out for
# LOCKOUT_SECONDS; after a lockout each wrong password locks it again, for twice as long as the
# last time, up to MAX_LOCKOUT_SECONDS. A locked client gets 429 with Retry-After, its password
# not even looked at; everyone else signs in as usual. Nothing waits: no request is held.
MAX_FAILURES = 5
FAILURE_WINDOW = 15 * 60.0  # wrong passwords are forgotten after this long without one
LOCKOUT_SECONDS = 60.0
MAX_LOCKOUT_SECONDS = 60 * 60.0
FORGET_LOCKOUTS = 24 * 60 * 60.0  # lockouts are forgotten a day after the last wrong password
MAX_CLIENTS = 10_000  # clients remembered per process (the least recent forgotten first)


@dataclass(slots=True)
class _Client:
    failures: int = 0  # wrong passwords since the last lockout (or since forgotten)
    lockouts: int = 0
    last: float = 0.0  # when the last wrong password came
    until: float = 0.0  # refused until then


class FailureGuard:
    """Per-process lockouts of at most ``capacity`` clients (docs/insights.md: W workers, W×)."""

    def __init__(
        self, capacity: int = MAX_CLIENTS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.clock = clock
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._clients)

    def refused_for(self, client: str) -> float:
        """Seconds until ``client`` may try a password again (0: now)."""
        with self._lock:
            found = self._clients.get(client)
            return max(0.0, found.until - self.clock()) if found is not None else 0.0

    def failed(self, client: str) -> float:
        """A wrong password from ``client``: how long it is now locked out for (0: not)."""
        now = self.clock()
        with self._lock:
            found = self._clients.pop(client, None)
            if found is None or now - found.last > FORGET_LOCKOUTS:
                found = _Client()
            elif now - found.last > FAILURE_WINDOW:
                found.failures = 0
            self._clients[client] = found  # the most recent, last
            while len(self._clients) > self.capacity:
                self._clients.popitem(last=False)
            found.failures += 1
            found.last = now
            if found.failures < (MAX_FAILURES if found.lockouts == 0 else 1):
                return 0.0
            wait = min(MAX_LOCKOUT_SECONDS, LOCKOUT_SECONDS * 2**found.lockouts)
            found.lockouts += 1
            found.failures = 0
            found.until = now + wait
            return wait

    def succeeded(self, client: str) -> None:
        """The right password from ``client``: its wrong ones are forgotten."""
        with self._lock:
            self._clients.pop(client, None)


def client_of(address: str | None) -> str:
    """Whom wrong passwords are counted against: the address, an IPv6 one by its /64."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return address or "(unknown)"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
