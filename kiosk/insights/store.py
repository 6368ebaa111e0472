"""The counts in SQLite (the standard library's ``sqlite3``): made and migrated by the kiosk.

Several processes share one file safely: WAL mode (readers never wait for the writer), a busy
timeout, and every write one short ``BEGIN IMMEDIATE`` transaction that adds a batch of counts
with upserts (``n = n + excluded.n``), so two workers adding to the same hour never lose a count.
Migrations are numbered by ``PRAGMA user_version`` and run inside the same kind of transaction,
so two processes starting on a new file at once create it once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from kiosk.insights.schema import INTEGER_COLUMNS, TABLES

BUSY_TIMEOUT_MS = 10_000

# A batch: (table, (hour, *dimensions)) -> how many to add.
Batch = Mapping[tuple[str, tuple[Any, ...]], int]


def _create_table(table: str) -> str:
    columns = ", ".join(
        f"{name} {'INTEGER' if name in INTEGER_COLUMNS else 'TEXT'} NOT NULL"
        for name in ("hour", *TABLES[table])
    )
    key = ", ".join(("hour", *TABLES[table]))
    return (
        f"CREATE TABLE IF NOT EXISTS {table} ({columns}, n INTEGER NOT NULL, "
        f"PRIMARY KEY ({key})) WITHOUT ROWID"
    )


# Each migration is a list of statements; its number is its place in the list, from 1.
MIGRATIONS: tuple[tuple[str, ...], ...] = (tuple(_create_table(table) for table in TABLES),)


def _upsert(table: str) -> str:
    columns = ("hour", *TABLES[table])
    marks = ", ".join("?" for _ in (*columns, "n"))
    return (
        f"INSERT INTO {table} ({', '.join(columns)}, n) VALUES ({marks}) "
        f"ON CONFLICT ({', '.join(columns)}) DO UPDATE SET n = n + excluded.n"
    )


UPSERTS = {table: _upsert(table) for table in TABLES}


class Store:
    """One SQLite file of counts: ``add`` a batch, ``rows`` to read a table back."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._ready = False

    def connect(self) -> sqlite3.Connection:
        """A new connection in WAL mode with a busy timeout (one per write or read: cheap)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not self._ready:
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":  # pragma: no cover - a file system without WAL
                raise sqlite3.OperationalError(f"{self.path}: WAL mode refused ({mode})")
            self._migrate(db)
            self._ready = True
        db.execute("PRAGMA synchronous = NORMAL")  # WAL's safe setting: a crash loses no commit
        return db

    @staticmethod
    @contextmanager
    def _immediate(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        """One short write transaction, taken at once (no upgrade from a read lock to fail)."""
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _migrate(self, db: sqlite3.Connection) -> None:
        with self._immediate(db):
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for number, statements in enumerate(MIGRATIONS, start=1):
                if number > version:
                    for statement in statements:
                        db.execute(statement)
            if version < len(MIGRATIONS):
                db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")

    def version(self) -> int:
        """The schema version of the file (the number of migrations applied)."""
        with closing(self.connect()) as db:
            return int(db.execute("PRAGMA user_version").fetchone()[0])

    def add(self, batch: Batch) -> None:
        """Add every count of ``batch`` in one transaction."""
        if not batch:
            return
        with closing(self.connect()) as db, self._immediate(db):
            for (table, key), n in batch.items():
                db.execute(UPSERTS[table], (*key, n))

    def rows(
        self, table: str, first_hour: str = "", last_hour: str = "\uffff"
    ) -> list[dict[str, Any]]:
        """Every row of ``table`` whose hour is in [first_hour, last_hour], oldest first."""
        columns = ("hour", *TABLES[table], "n")
        query = (
            f"SELECT {', '.join(columns)} FROM {table} WHERE hour >= ? AND hour <= ? ORDER BY hour"
        )
        if not self.path.exists():
            return []
        with closing(self.connect()) as db:
            return [
                dict(zip(columns, row, strict=True))
                for row in db.execute(query, (first_hour, last_hour))
            ]

    def dump(self) -> Iterable[str]:
        """Every statement that rebuilds the file (``iterdump``): for the privacy tests."""
        with closing(self.connect()) as db:
            yield from db.iterdump()
