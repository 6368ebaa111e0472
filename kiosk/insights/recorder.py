"""Counting without slowing a page: counts kept in memory per process, written every few seconds.

``count`` only adds 1 to a dictionary under a lock; a daemon thread of the process (started on
the first count, again after a fork) writes what has gathered every ``interval`` seconds in one
transaction, and an ``atexit`` hook writes the rest when the process ends. A crash (or a kill
that skips ``atexit``) loses at most the last ``interval`` seconds of counts: accepted
(docs/insights.md). A write that fails (the disk full, the file locked for longer than the busy
timeout) keeps its counts for the next try. Under tests no thread is started: ``flush`` is
called directly, so what is written is known.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from kiosk.insights.schema import TABLES, hour_of
from kiosk.insights.store import Store

log = logging.getLogger(__name__)

FLUSH_SECONDS = 5.0
# Distinct rows held between writes: far above what visitors make in a few seconds, low enough
# that a flood of made-up embedding origins cannot fill a worker's memory.
MAX_PENDING_KEYS = 5_000


class Recorder:
    """The counts of one process for one database, and the thread that writes them."""

    def __init__(self, store: Store, interval: float = FLUSH_SECONDS, thread: bool = True) -> None:
        self.store = store
        self.interval = interval
        self.thread = thread
        self.dropped = 0  # counts refused because MAX_PENDING_KEYS rows were already waiting
        self.failing = False  # the last write failed (said once in the log, not every interval)
        self._start_fresh()

    def _start_fresh(self) -> None:
        """A new lock, no counts and no thread: at start, and in a forked child (gunicorn's
        workers), where the parent's lock, counts and thread are not its own."""
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._pending: Counter[tuple[str, tuple[Any, ...]]] = Counter()
        self._wake = threading.Event()
        self._worker: threading.Thread | None = None

    def count(self, table: str, n: int = 1, **dimensions: Any) -> None:
        """Add ``n`` to this hour's row of ``table`` with these dimensions (all of them)."""
        names = TABLES[table]
        if dimensions.keys() != set(names):
            raise TypeError(f"{table} counts {', '.join(names)}, given {sorted(dimensions)}")
        self.add(table, tuple(dimensions[name] for name in names), n)

    def add(self, table: str, values: tuple[Any, ...], n: int = 1) -> None:
        """``count`` with the dimensions already in the table's column order (the page-view
        hook's fast path: it runs on every page)."""
        key = (table, (hour_of(), *values))
        with self._lock:
            if key not in self._pending and len(self._pending) >= MAX_PENDING_KEYS:
                self.dropped += n
                return
            self._pending[key] += n
        if self._worker is None and self.thread:
            self._start_thread()

    def pending(self) -> int:
        """How many counts wait to be written."""
        with self._lock:
            return sum(self._pending.values())

    def flush(self) -> int:
        """Write what has gathered in one transaction; return how many counts were written."""
        with self._lock:
            batch, self._pending = self._pending, Counter()
        if not batch:
            return 0
        try:
            self.store.add(batch)
        except Exception:
            if not self.failing:
                log.exception("insights: could not write counts to %s", self.store.path)
            self.failing = True
            with self._lock:
                for key, n in batch.items():
                    if key in self._pending or len(self._pending) < MAX_PENDING_KEYS:
                        self._pending[key] += n
            return 0
        if self.failing:
            log.warning("insights: writing counts to %s again", self.store.path)
        self.failing = False
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


_recorders: dict[tuple[Path, bool], Recorder] = {}
_recorders_lock = threading.Lock()


def recorder_for(
    path: str | Path, interval: float = FLUSH_SECONDS, thread: bool = True
) -> Recorder:
    """The process's recorder for the database at ``path`` (one per file, shared by apps)."""
    key = (Path(path).resolve(), thread)
    with _recorders_lock:
        found = _recorders.get(key)
        if found is None:
            found = _recorders[key] = Recorder(Store(key[0]), interval, thread)
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
