"""Counting without slowing a page: counts in memory per process, written every few seconds by a
thread (and at exit); a failed write keeps them. Made-up embedding origins are capped per day
(MAX_ORIGINS_PER_DAY a process; docs/insights.md).
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from kiosk.insights.schema import NO_ORIGIN, SAME_SITE, TABLES, hour_of
from kiosk.insights.store import Store

log = logging.getLogger(__name__)

FLUSH_SECONDS = 5.0
# Distinct rows held between writes: far above what visitors make in a few seconds, low enough
# that a flood of made-up embedding origins cannot fill a worker's memory.
MAX_PENDING_KEYS = 5_000
# Embedding sites kept per UTC day (the rest are OTHER_SITES): far more than any real day has.
MAX_ORIGINS_PER_DAY = 50
OTHER_SITES = "(other sites)"
# page_views origins that are words of ours, not a site's name: never capped
NOT_A_SITE = frozenset({"", NO_ORIGIN, SAME_SITE, OTHER_SITES})
_SITE = TABLES["page_views"].index("origin")  # its place in a page view's values
_ORIGIN = 1 + _SITE  # and in a key, which starts with the hour


class Recorder:
    """The counts of one process for one database, and the thread that writes them."""

    def __init__(self, store: Store, interval: float = FLUSH_SECONDS, thread: bool = True) -> None:
        self.store = store
        self.interval = interval
        self.thread = thread
        self.dropped = 0  # counts refused because MAX_PENDING_KEYS rows were already waiting
        self.failing = False  # the last write failed (said once in the log, not every interval)
        self.error: Exception | None = None  # what the last write raised (None: it worked)
        self._start_fresh()

    def _start_fresh(self) -> None:
        """A new lock, counts and thread: at start, and in a forked child (gunicorn)."""
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._pending: Counter[tuple[str, tuple[Any, ...]]] = Counter()
        self._wake = threading.Event()
        self._worker: threading.Thread | None = None
        self._origin_day = ""  # the UTC day _origins is about
        self._origins: set[str] = set()  # that day's sites: in the file, or admitted here
        self._unchecked: dict[tuple[str, str], None] = {}  # (day, site) admitted, not checked

    def count(self, table: str, n: int = 1, **dimensions: Any) -> None:
        """Add ``n`` to this hour's row of ``table`` with these dimensions (all of them)."""
        names = TABLES[table]
        if dimensions.keys() != set(names):
            raise TypeError(f"{table} counts {', '.join(names)}, given {sorted(dimensions)}")
        self.add(table, tuple(dimensions[name] for name in names), n)

    def add(self, table: str, values: tuple[Any, ...], n: int = 1) -> None:
        """``count`` with values in column order: the page-view hook's fast path."""
        hour = hour_of()
        with self._lock:
            if table == "page_views" and values[_SITE] not in NOT_A_SITE:
                values = self._admit(hour[:10], values)
            key = (table, (hour, *values))
            if key not in self._pending and len(self._pending) >= MAX_PENDING_KEYS:
                self.dropped += n
                return
            self._pending[key] += n
        if self._worker is None and self.thread:
            self._start_thread()

    def _admit(self, day: str, values: tuple[Any, ...]) -> tuple[Any, ...]:
        """Keep the site if the day has room, else OTHER_SITES (under the lock)."""
        if day != self._origin_day:
            self._origin_day, self._origins = day, set()
        site = values[_SITE]
        if site in self._origins:
            return values
        if len(self._origins) < MAX_ORIGINS_PER_DAY:
            self._origins.add(site)
            self._unchecked[(day, site)] = None
            return values
        return (*values[:_SITE], OTHER_SITES, *values[_SITE + 1 :])

    def sites(self) -> int:
        """How many embedding sites this process knows of today (for the tests)."""
        with self._lock:
            return len(self._origins)

    def _check_sites(
        self, batch: Counter[tuple[str, tuple[Any, ...]]], unchecked: dict[tuple[str, str], None]
    ) -> Counter[tuple[str, tuple[Any, ...]]]:
        """Sites beyond the day's room in the database become OTHER_SITES; raises as a write."""
        refused: set[tuple[str, str]] = set()
        known: dict[str, set[str]] = {}
        for day in dict.fromkeys(day for day, _ in unchecked):
            rows = self.store.rows("page_views", f"{day}T00", f"{day}T23")
            stored = {row["origin"] for row in rows} - NOT_A_SITE
            known[day] = stored
            room = MAX_ORIGINS_PER_DAY - len(stored)
            for this_day, site in unchecked:
                if this_day != day or site in stored:
                    continue
                if room > 0:
                    room -= 1
                else:
                    refused.add((day, site))
        with self._lock:
            for day, stored in known.items():
                if day == self._origin_day:
                    self._origins = (self._origins - {s for d, s in refused if d == day}) | stored
            if refused:
                self._pending = _as_other_sites(self._pending, refused)
        return _as_other_sites(batch, refused) if refused else batch

    def pending(self) -> int:
        """How many counts wait to be written."""
        with self._lock:
            return sum(self._pending.values())

    def flush(self) -> int:
        """Write what has gathered in one transaction; return how many counts were written."""
        with self._lock:
            batch, self._pending = self._pending, Counter()
            unchecked, self._unchecked = self._unchecked, {}
        if not batch:
            return 0
        try:
            if unchecked:
                batch = self._check_sites(batch, unchecked)
            self.store.add(batch)
        except Exception as error:
            if not self.failing:
                log.exception("insights: could not write counts to %s", self.store.path)
            self.failing = True
            self.error = error.with_traceback(None)  # not the frames: they hold the batch
            # The database may be a new one (a damaged file moved aside, one restored from a
            # backup): the store makes or migrates its tables again on its next connection.
            self.store._ready = False
            with self._lock:
                self._unchecked = {**unchecked, **self._unchecked}  # checked again next time
                for key, n in batch.items():
                    if key in self._pending or len(self._pending) < MAX_PENDING_KEYS:
                        self._pending[key] += n
            return 0
        if self.failing:
            log.warning("insights: writing counts to %s again", self.store.path)
        self.failing = False
        self.error = None
        return sum(batch.values())

    def _start_thread(self) -> None:
        with self._lock:
            if self._worker is not None:
                return
            self._worker = threading.Thread(
                target=self._run, name=f"insights-flush-{os.getpid()}", daemon=True
            )
        self._worker.start()

    def _run(self) -> None:
        while not self._wake.wait(self.interval):
            self.flush()


def _as_other_sites(
    counts: Counter[tuple[str, tuple[Any, ...]]], refused: set[tuple[str, str]]
) -> Counter[tuple[str, tuple[Any, ...]]]:
    """``counts`` with every page view from a refused (day, site) counted as OTHER_SITES."""
    out: Counter[tuple[str, tuple[Any, ...]]] = Counter()
    for (table, key), n in counts.items():
        if table == "page_views" and (key[0][:10], key[_ORIGIN]) in refused:
            key = (*key[:_ORIGIN], OTHER_SITES, *key[_ORIGIN + 1 :])
        out[(table, key)] += n
    return out


_recorders: dict[tuple[Path | str, bool], Recorder] = {}
_recorders_lock = threading.Lock()


def recorder_for(
    path: str | Path, interval: float = FLUSH_SECONDS, thread: bool = True
) -> Recorder:
    """The process's recorder for a database, one per database, shared by apps."""
    where = path if isinstance(path, str) and "://" in path else Path(path).resolve()
    key = (where, thread)
    with _recorders_lock:
        found = _recorders.get(key)
        if found is None:
            found = _recorders[key] = Recorder(Store(where), interval, thread)
        return found


def _after_fork() -> None:
    for recorder in list(_recorders.values()):
        recorder._start_fresh()


os.register_at_fork(after_in_child=_after_fork)


@atexit.register
def flush_all() -> None:
    """At shutdown: write every threaded recorder's counts (tests flush their own)."""
    for recorder in list(_recorders.values()):
        if recorder.thread and recorder._pid == os.getpid():
            recorder.flush()
