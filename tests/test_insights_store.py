"""Visitor insights' storage (issues 17 and 30): the database made and migrated by the kiosk,
batches written in one transaction, two processes writing at once, and a whole database with
nothing in it that could pick out a visitor; each on SQLite and on PostgreSQL (``insights_db``
in conftest.py: a throwaway server, tests/postgres.py). Then several machines, each an app
process of its own, counting into one PostgreSQL database, and the dashboard showing the sum."""

from __future__ import annotations

import contextlib
import io
import os
import re
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from csv import DictReader
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from test_insights import PASSWORD, SET, beacon, flagged_card, make_app

from kiosk.cli import main
from kiosk.insights import recorder as recorder_module
from kiosk.insights import report, schema
from kiosk.insights.recorder import Recorder
from kiosk.insights.store import MIGRATIONS, SQLiteStore, Store, is_postgres
from kiosk.web import insights

ROOT = Path(__file__).resolve().parent.parent


class Counts:
    """One backend for a test: new databases' addresses, one that no write reaches yet, and
    the tables a database holds."""

    def __init__(self, first: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
        self.kind = "postgres" if is_postgres(first) else "sqlite"
        self.server = (
            request.getfixturevalue("postgres_server") if self.kind == "postgres" else None
        )
        self.tmp_path = tmp_path
        self._unused = [first]

    def address(self, name: str = "insights") -> str:
        """A new, empty database's address (the fixture's own first)."""
        if self._unused:
            return self._unused.pop()
        if self.server is not None:
            return self.server.new_database()
        return str(self.tmp_path / name / "insights.sqlite3")

    def blocked(self) -> tuple[str, Callable[[], None]]:
        """An address no write reaches yet, and what then lets writes through: a folder where
        the SQLite file must go (removed); a PostgreSQL database not there yet (created)."""
        if self.server is not None:
            address = self.server.new_database(make=False)
            return address, lambda: self.server.create(address.rpartition("/")[2])
        path = self.tmp_path / "blocked.sqlite3"
        path.mkdir()
        return str(path), path.rmdir

    def tables(self, store: Store) -> set[str]:
        if self.kind == "sqlite":
            query = "SELECT name FROM sqlite_master WHERE type = 'table'"
        else:
            query = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        with contextlib.closing(store.connect()) as db:
            return {row[0] for row in db.execute(query)}


@pytest.fixture
def counts(insights_db, tmp_path, request) -> Counts:
    return Counts(insights_db, tmp_path, request)


def test_the_kiosk_makes_and_migrates_its_database(counts, tmp_path):
    address = counts.address() if counts.server else str(tmp_path / "deep" / "insights.sqlite3")
    store = Store(address)
    assert not store.exists()
    assert store.version() == len(MIGRATIONS)
    assert store.exists()
    expected = set(schema.TABLES) | ({"insights_schema"} if counts.server else set())
    assert counts.tables(store) == expected
    assert Store(address).version() == len(MIGRATIONS)  # a second start changes nothing
    if counts.kind == "sqlite":
        with sqlite3.connect(address) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_batch_adds_to_what_is_there(counts):
    store = Store(counts.address())
    key = ("2026-12-01T10", "set", SET, "site", "")
    store.add({("page_views", key): 2})
    store.add({("page_views", key): 3, ("page_views", (*key[:3], "kiosk", "")): 1})
    assert [(r["mode"], r["n"]) for r in store.rows("page_views")] == [("kiosk", 1), ("site", 5)]
    assert store.rows("page_views", "2026-12-01T11") == []
    assert store.rows("page_views", "2026-12-01T10", "2026-12-01T10") != []
    games = ("2026-12-01T10", "started", SET, "snap", "", "", 1, "", "", "site")
    store.add({("games", games): 1})
    assert store.rows("games") == [
        dict(zip(("hour", *schema.TABLES["games"], "n"), (*games, 1), strict=True))
    ]


def test_the_recorder_writes_nothing_until_flushed(counts):
    recorder = Recorder(Store(counts.address()), thread=False)
    recorder.count("visitor_events", event="attract-tap", subject="", detail="", mode="kiosk")
    recorder.count("visitor_events", event="attract-tap", subject="", detail="", mode="kiosk")
    assert not recorder.store.exists() and recorder.pending() == 2
    assert recorder.flush() == 2 and recorder.pending() == 0
    assert [r["n"] for r in recorder.store.rows("visitor_events")] == [2]
    with pytest.raises(TypeError):
        recorder.count("visitor_events", event="attract-tap")


def test_the_recorder_keeps_counts_a_write_lost(counts):
    address, unblock = counts.blocked()
    recorder = Recorder(Store(address), thread=False)
    recorder.count("visitor_events", event="attract-tap", subject="", detail="", mode="kiosk")
    recorder.count("visitor_events", event="attract-tap", subject="", detail="", mode="kiosk")
    assert recorder.flush() == 0 and recorder.pending() == 2 and recorder.failing
    unblock()
    assert recorder.flush() == 2 and recorder.pending() == 0 and not recorder.failing
    assert [r["n"] for r in recorder.store.rows("visitor_events")] == [2]


def test_too_many_distinct_rows_between_writes_are_dropped(tmp_path, monkeypatch):
    monkeypatch.setattr(recorder_module, "MAX_PENDING_KEYS", 3)
    recorder = Recorder(Store(tmp_path / "i.sqlite3"), thread=False)
    for n in range(5):
        recorder.count("page_views", kind="set", subject="s", mode="embed", origin=f"https://{n}.x")
    recorder.count("page_views", kind="set", subject="s", mode="embed", origin="https://0.x")
    assert recorder.pending() == 4 and recorder.dropped == 2


def test_the_flush_thread_writes_every_interval(counts):
    recorder = Recorder(Store(counts.address()), interval=0.05, thread=True)
    recorder.count("visitor_events", event="note-read", subject="golliwog", detail="", mode="site")
    for _ in range(100):
        if recorder.store.exists() and recorder.store.rows("visitor_events"):
            break
        recorder._wake.wait(0.05)
    assert [r["n"] for r in recorder.store.rows("visitor_events")] == [1]
    recorder._wake.set()  # end the thread


def test_an_address_is_a_file_or_a_postgres_database():
    assert isinstance(Store("insights.sqlite3"), SQLiteStore)
    found = Store(" postgresql://kiosk:s3cret@db.example/insights?password=s3cret ")
    assert type(found).__name__ == "PostgresStore"  # made without connecting
    assert "s3cret" not in found.address and "s3cret" not in repr(found)
    assert found.address == "postgresql://kiosk:***@db.example/insights?password=***"
    assert type(Store("postgres://db.example/insights")).__name__ == "PostgresStore"
    with pytest.raises(ValueError, match="postgresql://"):
        Store("mysql://kiosk@db/insights")
    with pytest.raises(ValueError, match="not a PostgreSQL address"):
        Store("postgresql://db.example/insights?nonsense=1")


@pytest.mark.parametrize(
    ("moves", "band"),
    [
        (0, "no move"),
        (1, "1-9 moves"),
        (9, "1-9 moves"),
        (10, "10-49 moves"),
        (199, "50-199 moves"),
        (200, "200+ moves"),
    ],
)
def test_length_bands(moves, band):
    assert schema.length_band(moves) == band


def test_hours_are_utc_hours():
    assert schema.hour_of(0) == "1970-01-01T00"
    assert schema.hour_of(3600 * 24 * 365 + 3599) == "1971-01-01T00"


# --------------------------------------------------------------------------- privacy


AGENT = "Mozilla/5.0 (InsightsPrivacyTest; rv:99) Gecko/20100101 Firefox/99.0"
ADDRESS = "203.0.113.77"
FORWARDED = "198.51.100.23"


def test_a_whole_visit_leaves_nothing_that_could_pick_out_the_visitor(counts, tmp_path):
    """Every kind of count from one scripted visit, then the whole database dumped as SQL: no
    address, no user agent, no cookie, no visit id, no time finer than the hour."""
    app = make_app(tmp_path, KIOSK_MODE=True, PROXY_FIX=1, INSIGHTS_DB=counts.address())
    client = app.test_client()
    visit_id = "a1b2c3d4e5f60718"  # what kiosk-mode.js keeps in sessionStorage
    client.set_cookie("visit", visit_id)
    headers = {
        "User-Agent": AGENT,
        "X-Forwarded-For": FORWARDED,
        "Referer": f"https://school.example/class?visit={visit_id}&ip={ADDRESS}",
        "Accept-Language": "cy-GB",
    }
    environ = {"REMOTE_ADDR": ADDRESS}
    for path in (
        "/",
        f"/sets/{SET}",
        "/rules/snap/woolworths/1",
        "/notes/golliwog",
        f"/embed/sets/{SET}",
    ):
        assert client.get(path, headers=headers, environ_base=environ).status_code == 200
    card = flagged_card(app)
    for form in (
        {"e": "reveal", "set": SET, "card": card},
        {"e": "note-read", "note": "golliwog"},
        {"e": "rule", "game": "snap", "scenario": "woolworths", "step": "4"},
        {"e": "idle-reset", "how": "countdown"},
        {"e": "attract-tap"},
        {"e": "abandon", "set": SET, "game": "snap", "bots": "1", "moves": "12"},
        {"e": "attract-tap", "visit": visit_id, "agent": AGENT},  # extra fields are not kept
    ):
        response = client.post("/insights/event", data=form, headers=headers, environ_base=environ)
        assert response.status_code == 204, form
    with app.test_request_context(headers=headers, environ_base=environ):
        insights.count_game(
            "finished", set_slug=SET, game="snap", bots=1, outcome="lost", length=80
        )
    assert not any("Set-Cookie" in r.headers for r in [client.get("/", headers=headers)])
    recorder = app.extensions[insights.EXTENSION]
    assert recorder.flush() > 10
    dump = "\n".join(recorder.store.dump())
    for secret in (
        ADDRESS,
        FORWARDED,
        AGENT,
        "Mozilla",
        "InsightsPrivacyTest",
        visit_id,
        "cy-GB",
        "/class",
        "visit=",
        "127.0.0.1",
        "localhost",
    ):
        assert secret not in dump, secret
    assert "https://school.example'" in dump  # the embedding site, and nothing more of it
    columns = " ".join(c for cs in schema.TABLES.values() for c in cs)
    assert not re.search(r"ip|addr|agent|cookie|visit|session|user|time|minute", columns)
    hours = re.findall(r"'(\d{4}-\d\d-\d\dT[^']*)'", dump)
    assert hours and all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d", h) for h in hours)


# --------------------------------------------------------------------------- two processes

WRITER = textwrap.dedent(
    """
    import sys
    from kiosk import create_app
    from kiosk.web import insights
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "INSIGHTS_DB": sys.argv[1]})
    client = app.test_client()
    recorder = app.extensions[insights.EXTENSION]
    print("ready", flush=True)
    sys.stdin.readline()  # both start writing together
    for i in range(int(sys.argv[2])):
        client.get("/sets/misc-869-1986")
        client.post("/insights/event", data={"e": "note-read", "note": "golliwog"})
        if i % 5 == 0:
            recorder.flush()
    recorder.flush()
    """
)


def test_two_processes_writing_at_once_lose_no_count(counts):
    address = counts.address()  # new: both processes also race to make the tables
    each = 60
    with contextlib.ExitStack() as stack:
        procs = [
            stack.enter_context(
                subprocess.Popen(
                    [sys.executable, "-c", WRITER, address, str(each)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
            )
            for _ in range(2)
        ]
        for proc in procs:
            assert proc.stdout.readline().strip() == "ready"
        for proc in procs:
            proc.stdin.write("go\n")
            proc.stdin.close()
        for proc in procs:
            assert proc.wait(120) == 0
    store = Store(address)
    assert sum(r["n"] for r in store.rows("page_views")) == 2 * each
    assert sum(r["n"] for r in store.rows("visitor_events")) == 2 * each


def test_counts_reach_the_database_at_shutdown(counts):
    """A process that ends normally writes what it had (atexit), without waiting the interval."""
    address = counts.address()
    code = textwrap.dedent(
        f"""
        from kiosk import create_app
        app = create_app({{"SECRET_KEY": "x" * 32, "INSIGHTS_DB": {address!r},
                          "INSIGHTS_FLUSH_SECONDS": 3600}})
        app.test_client().get("/notes/golliwog")
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    assert [(r["kind"], r["n"]) for r in Store(address).rows("page_views")] == [("note", 1)]


# --------------------------------------------------------------------------- several machines

MACHINE = textwrap.dedent(
    """
    import sys
    import flask
    # A machine of its own: its own instance folder (where a SQLite file would go).
    flask.Flask.auto_find_instance_path = lambda self: sys.argv[1]
    from kiosk import create_app
    client = create_app().test_client()  # every setting from its own KIOSK_* environment
    for _ in range(int(sys.argv[2])):
        assert client.get("/sets/misc-869-1986").status_code == 200
        client.post("/insights/event", data={"e": "note-read", "note": "golliwog"})
    for _ in range(int(sys.argv[3])):
        dealt = client.post("/sets/misc-869-1986/play", data={"bots": "1", "level": "medium"})
        assert dealt.status_code == 200
    # the counts are written by the flush thread, and at the latest when the process ends
    """
)


@pytest.mark.postgres
def test_two_machines_count_into_one_postgres_database(postgres_server, tmp_path):
    """A gallery kiosk and a hosted site, separate processes each with its own settings and
    instance folder, count into one PostgreSQL database; a third app's dashboard and CSV show
    the sum of both."""
    address = postgres_server.new_database()
    views, games = {"kiosk": 7, "site": 5}, {"kiosk": 2, "site": 3}
    machines = []
    for name in views:
        folder = tmp_path / name
        folder.mkdir()
        env = {
            **os.environ,
            "KIOSK_INSIGHTS_DB": address,
            "KIOSK_SECRET_KEY": f"{name}-" + "s" * 32,  # nothing shared but the database
            "KIOSK_CONTENT_DIR": str(ROOT / "content"),
            "KIOSK_MODE": "1" if name == "kiosk" else "0",
        }
        machines.append(
            subprocess.Popen(
                [sys.executable, "-c", MACHINE, str(folder), str(views[name]), str(games[name])],
                cwd=folder,
                env=env,
            )
        )
    for machine in machines:
        assert machine.wait(120) == 0
    for name in views:
        assert not list((tmp_path / name).rglob("*.sqlite3")), "a machine kept its own file"

    reader = make_app(tmp_path, INSIGHTS_DB=address).test_client()
    exported = reader.get("/insights.csv", auth=("curator", PASSWORD))
    assert exported.status_code == 200
    rows = list(DictReader(io.StringIO(exported.get_data(as_text=True))))

    def total(table: str, **where: str) -> int:
        return sum(
            int(r["n"])
            for r in rows
            if r["table"] == table and all(r[k] == v for k, v in where.items())
        )

    for mode in views:
        assert total("page_views", kind="set", subject=SET, mode=mode) == views[mode]
        assert total("games", event="started", set_slug=SET, mode=mode) == games[mode]
    assert total("visitor_events", event="note-read") == sum(views.values())

    page = reader.get("/insights", auth=("curator", PASSWORD))
    assert page.status_code == 200
    shown = {
        dt.get_text(strip=True): dt.find_next_sibling("dd").get_text(strip=True)
        for dt in BeautifulSoup(page.get_data(as_text=True), "html.parser").select(
            ".insights__totals dt"
        )
    }
    assert shown["Page views"] == str(total("page_views"))
    assert total("page_views") >= sum(views.values())
    assert shown["Games started"] == str(sum(games.values()))
    assert shown["Notes read"] == str(sum(views.values()))


# --------------------------------------------------------------------------- the command


def test_kiosk_insights_summary_and_csv(counts, tmp_path):
    db = counts.address()
    app = make_app(tmp_path, INSIGHTS_DB=db)
    client = app.test_client()
    client.get(f"/sets/{SET}")
    beacon(client, e="note-read", note="golliwog")
    app.extensions[insights.EXTENSION].flush()
    summary = CliRunner().invoke(main, ["insights", "--db", db])
    assert summary.exit_code == 0, summary.output
    assert f"set {SET}" in summary.output and "notes read" in summary.output
    exported = CliRunner().invoke(main, ["insights", "--db", db, "--csv", "--days", "1"])
    assert exported.exit_code == 0
    assert exported.output.splitlines()[0] == ",".join(report.CSV_COLUMNS)
    assert len(exported.output.splitlines()) == 3
    bad = CliRunner().invoke(main, ["insights", "--db", db, "--from", "soon"])
    assert bad.exit_code == 2 and "not a date" in bad.output
    missing = CliRunner().invoke(main, ["insights", "--db", counts.address("none")])
    assert missing.exit_code == 1 and "no counts yet" in missing.output


def test_an_address_of_another_database_is_refused_with_a_reason(tmp_path):
    with pytest.raises(ValueError, match="postgresql://"):
        make_app(tmp_path, INSIGHTS_DB="mysql://kiosk@db/insights")
