"""The counts' database: ``Store(address)`` is SQLite (a file: WAL, a busy timeout, BEGIN
IMMEDIATE) or PostgreSQL (an address), same tables and SQL but a few words; every write is
one transaction of upserts, so concurrent processes never lose a count.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

from kiosk.insights.schema import INTEGER_COLUMNS, TABLES

BUSY_TIMEOUT_MS = 10_000
POSTGRES_SCHEMES = ("postgresql", "postgres")  # what libpq takes as a URL

# A batch: (table, (hour, *dimensions)) -> how many to add.
Batch = Mapping[tuple[str, tuple[Any, ...]], int]


@dataclass(frozen=True)
class Dialect:
    """The few words in which SQLite's SQL and PostgreSQL's differ here."""

    mark: str  # a query parameter
    text: str  # a text column: PostgreSQL's compares bytes ("C"), as SQLite's does
    count: str  # the n column
    table_options: str  # after a CREATE TABLE's closing parenthesis


SQLITE = Dialect(mark="?", text="TEXT", count="INTEGER", table_options=" WITHOUT ROWID")
POSTGRES = Dialect(mark="%s", text='TEXT COLLATE "C"', count="BIGINT", table_options="")


def key_columns(table: str) -> tuple[str, ...]:
    """A table's primary key: the hour, then its dimensions."""
    return ("hour", *TABLES[table])


def _create_table(table: str, dialect: Dialect) -> str:
    columns = ", ".join(
        f"{name} {'INTEGER' if name in INTEGER_COLUMNS else dialect.text} NOT NULL"
        for name in key_columns(table)
    )
    return (
        f"CREATE TABLE IF NOT EXISTS {table} ({columns}, n {dialect.count} NOT NULL, "
        f"PRIMARY KEY ({', '.join(key_columns(table))})){dialect.table_options}"
    )


def migrations(dialect: Dialect) -> tuple[tuple[str, ...], ...]:
    """Each migration's statements, numbered from 1: the same version means the same tables."""
    return (tuple(_create_table(table, dialect) for table in TABLES),)


def upsert(table: str, dialect: Dialect) -> str:
    """Add n to a row, making it if it is not there (the same words in both databases)."""
    columns = ", ".join((*key_columns(table), "n"))
    marks = ", ".join(dialect.mark for _ in (*key_columns(table), "n"))
    return (
        f"INSERT INTO {table} ({columns}) VALUES ({marks}) "
        f"ON CONFLICT ({', '.join(key_columns(table))}) DO UPDATE SET n = {table}.n + excluded.n"
    )


def select(table: str, dialect: Dialect) -> str:
    """Every row of a table in an hour range, in key order (the same order in both)."""
    columns = ", ".join((*key_columns(table), "n"))
    return (
        f"SELECT {columns} FROM {table} WHERE hour >= {dialect.mark} AND hour <= {dialect.mark} "
        f"ORDER BY {', '.join(key_columns(table))}"
    )


def is_postgres(address: str | Path) -> bool:
    """Whether ``address`` names a PostgreSQL database (``postgresql://…``), not a file."""
    return isinstance(address, str) and urlsplit(address.strip()).scheme in POSTGRES_SCHEMES


MIGRATIONS = migrations(SQLITE)
UPSERTS = {table: upsert(table, SQLITE) for table in TABLES}
SELECTS = {table: select(table, SQLITE) for table in TABLES}


class Store:
    """The counts in one database: a SQLiteStore for a path, a PostgresStore for an address."""

    # What the store raises when its database cannot be used (kiosk.web.insights catches them).
    errors: ClassVar[tuple[type[BaseException], ...]] = ()
    selects: ClassVar[dict[str, str]]  # SELECTS in the store's dialect
    # What log lines and messages name the database by (a PostgreSQL address without its
    # password); ``path`` is the same for a PostgreSQL store, the file for SQLite.
    address: str
    path: Path | str
    # Whether the tables have been made or migrated by this store (once, unless a failed write
    # says the database may be a new one: kiosk.insights.recorder).
    _ready = False

    def __new__(cls, address: str | Path) -> Store:
        if cls is Store:
            if is_postgres(address):
                from kiosk.insights.postgres import PostgresStore  # psycopg: only when asked for

                cls = PostgresStore
            elif "://" in str(address):
                raise ValueError(
                    f"{address!r}: the counts database is a file path or a postgresql:// "
                    "address (docs/insights.md)"
                )
            else:
                cls = SQLiteStore
        return super().__new__(cls)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.address!r})"

    def rows(
        self, table: str, first_hour: str = "", last_hour: str = "\uffff"
    ) -> list[dict[str, Any]]:
        """Every row of ``table`` with its hour in the range, oldest first, in key order."""
        columns = (*key_columns(table), "n")
        with closing(self.connect()) as db:  # type: ignore[attr-defined]
            return [
                dict(zip(columns, row, strict=True))
                for row in db.execute(self.selects[table], (first_hour, last_hour))
            ]


class SQLiteStore(Store):
    """One SQLite file of counts (made, with its folder, and migrated by the kiosk)."""

    errors = (sqlite3.Error, OSError)
    selects = SELECTS

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.address = str(self.path)

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
            for statements in MIGRATIONS[version:]:  # those after the version applied
                for statement in statements:
                    db.execute(statement)
            if version < len(MIGRATIONS):
                db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")

    def exists(self) -> bool:
        return self.path.exists()

    def version(self) -> int:
        with closing(self.connect()) as db:
            return int(db.execute("PRAGMA user_version").fetchone()[0])

    def add(self, batch: Batch) -> None:
        if not batch:
            return
        with closing(self.connect()) as db, self._immediate(db):
            for (table, key), n in batch.items():
                db.execute(UPSERTS[table], (*key, n))

    def rows(
        self, table: str, first_hour: str = "", last_hour: str = "\uffff"
    ) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        return super().rows(table, first_hour, last_hour)

    def dump(self) -> Iterable[str]:
        """Every statement that rebuilds the file (``iterdump``)."""
        with closing(self.connect()) as db:
            yield from db.iterdump()
