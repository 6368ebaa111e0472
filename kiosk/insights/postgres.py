"""The counts in PostgreSQL (psycopg 3) for several machines: one connection per write, sorted
upserts in one transaction (no deadlock), migrations under an advisory lock, and byte-wise
text (``COLLATE "C"``) as SQLite's (docs/insights.md).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

try:
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
except ImportError as missing:  # pragma: no cover - the test extras install it
    raise ModuleNotFoundError(
        "KIOSK_INSIGHTS_DB is a PostgreSQL address, and psycopg is not installed: "
        "pip install -e '.[postgres]' (docs/deployment.md)",
        name="psycopg",
    ) from missing

from kiosk.insights.schema import TABLES
from kiosk.insights.store import (
    BUSY_TIMEOUT_MS,
    POSTGRES,
    Batch,
    Store,
    key_columns,
    migrations,
    select,
    upsert,
)

MIGRATIONS = migrations(POSTGRES)
UPSERTS = {table: upsert(table, POSTGRES) for table in TABLES}
SELECTS = {table: select(table, POSTGRES) for table in TABLES}
VERSION_TABLE = "insights_schema"
# The advisory lock that migrations take: one number for "kiosk insights" in every database.
MIGRATION_LOCK = zlib.crc32(b"kiosk insights migrations")
CONNECT_TIMEOUT_SECONDS = 10  # unless the address says otherwise
STATEMENT_TIMEOUT_MS = 3 * BUSY_TIMEOUT_MS


def shown(address: str) -> str:
    """The address with its password (in the user part or the query) replaced by ``***``."""
    parts = urlsplit(address)
    netloc = parts.netloc
    if parts.password is not None:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:***@{host}"
    query = urlencode(
        [(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query)], safe="*"
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _text(value: Any) -> Any:
    """A value PostgreSQL takes: its text cannot hold NUL (SQLite's can)."""
    return value.replace("\x00", "\ufffd") if isinstance(value, str) else value


class PostgresStore(Store):
    """The counts in one PostgreSQL database, shared by every process of every machine."""

    errors = (psycopg.Error,)
    selects = SELECTS

    def __init__(self, address: str) -> None:
        address = address.strip()
        try:
            given = conninfo_to_dict(address)
        except psycopg.ProgrammingError as error:
            raise ValueError(f"KIOSK_INSIGHTS_DB: not a PostgreSQL address ({error})") from None
        defaults = {
            "connect_timeout": CONNECT_TIMEOUT_SECONDS,
            "application_name": "kiosk insights",
        }
        self._conninfo = make_conninfo(
            address, **{k: v for k, v in defaults.items() if k not in given}
        )
        self.address = self.path = shown(address)

    def connect(self) -> psycopg.Connection[Any]:
        """A new autocommit connection, with the tables made or migrated the first time."""
        db = psycopg.connect(self._conninfo, autocommit=True)
        try:
            if not self._ready:
                self._migrate(db)
                self._ready = True
        except BaseException:
            db.close()
            raise
        return db

    @staticmethod
    def _applied(db: psycopg.Connection[Any]) -> int | None:
        """The schema version, or None for a database without the kiosk's tables."""
        if db.execute("SELECT to_regclass(%s)", (VERSION_TABLE,)).fetchone() == (None,):
            return None
        row = db.execute(f"SELECT max(version) FROM {VERSION_TABLE}").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def _migrate(self, db: psycopg.Connection[Any]) -> None:
        if self._applied(db) == len(MIGRATIONS):
            return  # the usual case: one query, no lock
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            db.execute(f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER NOT NULL)")
            version = self._applied(db) or 0
            for statements in MIGRATIONS[version:]:  # those after the version applied
                for statement in statements:
                    db.execute(statement)
            if version < len(MIGRATIONS):
                db.execute(f"DELETE FROM {VERSION_TABLE}")
                db.execute(f"INSERT INTO {VERSION_TABLE} VALUES (%s)", (len(MIGRATIONS),))

    def exists(self) -> bool:
        with psycopg.connect(self._conninfo, autocommit=True) as db:
            return self._applied(db) is not None

    def version(self) -> int:
        with self.connect() as db:
            return self._applied(db) or 0

    def add(self, batch: Batch) -> None:
        if not batch:
            return
        by_table: dict[str, list[tuple[Any, ...]]] = {}
        for (table, key), n in sorted(batch.items(), key=lambda item: repr(item[0])):
            by_table.setdefault(table, []).append((*map(_text, key), n))
        with self.connect() as db, db.transaction(), db.cursor() as cursor:
            cursor.execute(
                "SELECT set_config('lock_timeout', %s, true), "
                "set_config('statement_timeout', %s, true)",
                (f"{BUSY_TIMEOUT_MS}ms", f"{STATEMENT_TIMEOUT_MS}ms"),
            )
            for table, rows in by_table.items():
                cursor.executemany(UPSERTS[table], rows)

    def dump(self) -> Iterable[str]:
        """The tables' statements, then every row as an ``INSERT`` with its values quoted."""
        with self.connect() as db:
            lines = [f"{statement};" for statements in MIGRATIONS for statement in statements]
            for table in TABLES:
                columns = sql.SQL(", ").join(map(sql.Identifier, (*key_columns(table), "n")))
                query = sql.SQL("SELECT {} FROM {} ORDER BY {}").format(
                    columns,
                    sql.Identifier(table),
                    sql.SQL(", ").join(map(sql.Identifier, key_columns(table))),
                )
                for row in db.execute(query):
                    values = ", ".join(sql.Literal(v).as_string(db) for v in row)
                    lines.append(f"INSERT INTO {table} VALUES({values});")
        yield from lines
