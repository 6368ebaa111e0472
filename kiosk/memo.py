"""The kiosk's one cache layer: LRU memos under one lock, emptied by a new content version (so
an edited file never meets a stale value). None is never kept. Knows no Flask or catalogue.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, ParamSpec, TypeVar

SIZE = 512  # entries kept per memo unless a setting says otherwise

V = TypeVar("V")
P = ParamSpec("P")
R = TypeVar("R")


class Memo(Generic[V]):
    """Values by key, least recently used dropped beyond ``size`` (0 keeps nothing)."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.hits = self.misses = 0
        self._entries: OrderedDict[Hashable, V] = OrderedDict()
        self._version: str | None = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def _meet(self, version: str | None) -> None:
        """Under the lock: a new content version drops every entry kept under another."""
        if version is not None and version != self._version:
            self._entries.clear()
            self._version = version

    def get(self, key: Hashable, version: str | None = None) -> V | None:
        """The value kept for ``key`` (under ``version``, when given), or None."""
        with self._lock:
            self._meet(version)
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return found

    def take(
        self,
        key: Hashable,
        version: str | None = None,
        fits: Callable[[V], bool] | None = None,
    ) -> V | None:
        """As ``get``, but the value leaves the memo; one ``fits`` refuses counts as a miss."""
        with self._lock:
            self._meet(version)
            found = self._entries.pop(key, None)
            if found is not None and fits is not None and not fits(found):
                found = None
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
            return found

    def put(self, key: Hashable, value: V, version: str | None = None) -> None:
        """Keep ``value`` for ``key`` (under ``version``, when given)."""
        if self.size <= 0:
            return
        with self._lock:
            self._meet(version)
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def value(self, key: Hashable, make: Callable[[], V], version: str | None = None) -> V:
        """The kept value, else ``make()`` kept; ``make`` runs outside the lock (never blocks)."""
        found = self.get(key, version)
        if found is None:
            found = make()
            self.put(key, found, version)
        return found

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()


def memoized(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` memoized by its hashable arguments (pure ones only); no exception kept."""
    memo: Memo[Any] = Memo()

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(kwargs.items())) if kwargs else args
        return memo.value(key, lambda: function(*args, **kwargs))

    wrapper.memo = memo  # type: ignore[attr-defined]
    wrapper.cache_clear = memo.clear  # type: ignore[attr-defined]
    return wrapper
