"""Visitor insights' storage (issue 17): SQLite made and migrated by the kiosk, batches written
in one transaction, two processes writing at once, and a whole database with nothing in it
that could pick out a visitor."""

from __future__ import annotations

import contextlib
import re
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner
from test_insights import SET, beacon, flagged_card, make_app

from kiosk.cli import main
from kiosk.insights import recorder as recorder_module
from kiosk.insights import report, schema
from kiosk.insights.recorder import Recorder
from kiosk.insights.store import MIGRATIONS, Store
from kiosk.web import insights


def test_the_kiosk_makes_and_migrates_its_file(tmp_path):
    store = Store(tmp_path / "deep" / "insights.sqlite3")
    assert store.version() == len(MIGRATIONS)
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == set(schema.TABLES)
    assert Store(store.path).version() == len(MIGRATIONS)  # a second start changes nothing


def test_a_batch_adds_to_what_is_there(tmp_path):
    store = Store(tmp_path / "i.sqlite3")
    key = ("2026-12-01T10", "set", SET, "site", "")
    store.add({("page_views", key): 2})
    store.add({("page_views", key): 3, ("page_views", (*key[:3], "kiosk", "")): 1})
    assert [(r["mode"], r["n"]) for r in store.rows("page_views")] == [("kiosk", 1), ("site", 5)]
    assert store.rows("page_views", "2026-12-01T11") == []


def test_the_recorder_writes_nothing_until_flushed_and_keeps_counts_a_write_lost(tmp_path):
    path = tmp_path / "i.sqlite3"
    recorder = Recorder(Store(path), thread=False)
    recorder.count("visitor_events", event="attract-tap", subject="", detail="", mode="kiosk")
    recorder.count("visitor_events", event="attract-tap", subject="", detail="", mode="kiosk")
    assert not path.exists() and recorder.pending() == 2
    path.mkdir()  # the file cannot be made: the write fails, the counts wait
    assert recorder.flush() == 0 and recorder.pending() == 2 and recorder.failing
    path.rmdir()
    assert recorder.flush() == 2 and recorder.pending() == 0 and not recorder.failing
    assert [r["n"] for r in recorder.store.rows("visitor_events")] == [2]
    with pytest.raises(TypeError):
        recorder.count("visitor_events", event="attract-tap")


def test_too_many_distinct_rows_between_writes_are_dropped(tmp_path, monkeypatch):
    monkeypatch.setattr(recorder_module, "MAX_PENDING_KEYS", 3)
    recorder = Recorder(Store(tmp_path / "i.sqlite3"), thread=False)
    for n in range(5):
        recorder.count("page_views", kind="set", subject="s", mode="embed", origin=f"https://{n}.x")
    recorder.count("page_views", kind="set", subject="s", mode="embed", origin="https://0.x")
    assert recorder.pending() == 4 and recorder.dropped == 2


def test_the_flush_thread_writes_every_interval(tmp_path):
    recorder = Recorder(Store(tmp_path / "i.sqlite3"), interval=0.05, thread=True)
    recorder.count("visitor_events", event="note-read", subject="golliwog", detail="", mode="site")
    for _ in range(100):
        if recorder.store.path.exists() and recorder.store.rows("visitor_events"):
            break
        recorder._wake.wait(0.05)
    assert [r["n"] for r in recorder.store.rows("visitor_events")] == [1]
    recorder._wake.set()  # end the thread


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


def test_a_whole_visit_leaves_nothing_that_could_pick_out_the_visitor(tmp_path):
    """Every kind of count from one scripted visit, then the whole database dumped as SQL: no
    address, no user agent, no cookie, no visit id, no time finer than the hour."""
    app = make_app(tmp_path, KIOSK_MODE=True, PROXY_FIX=1)
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


def test_two_processes_writing_at_once_lose_no_count(tmp_path):
    path = tmp_path / "shared.sqlite3"  # new: both processes also race to create it
    each = 60
    with contextlib.ExitStack() as stack:
        procs = [
            stack.enter_context(
                subprocess.Popen(
                    [sys.executable, "-c", WRITER, str(path), str(each)],
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
    store = Store(path)
    assert sum(r["n"] for r in store.rows("page_views")) == 2 * each
    assert sum(r["n"] for r in store.rows("visitor_events")) == 2 * each


def test_counts_reach_the_file_at_shutdown(tmp_path):
    """A process that ends normally writes what it had (atexit), without waiting the interval."""
    path = tmp_path / "exit.sqlite3"
    code = textwrap.dedent(
        f"""
        from kiosk import create_app
        app = create_app({{"SECRET_KEY": "x" * 32, "INSIGHTS_DB": {str(path)!r},
                          "INSIGHTS_FLUSH_SECONDS": 3600}})
        app.test_client().get("/notes/golliwog")
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    assert [(r["kind"], r["n"]) for r in Store(path).rows("page_views")] == [("note", 1)]


# --------------------------------------------------------------------------- the command


def test_kiosk_insights_summary_and_csv(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    client.get(f"/sets/{SET}")
    beacon(client, e="note-read", note="golliwog")
    app.extensions[insights.EXTENSION].flush()
    db = str(tmp_path / "insights.sqlite3")
    summary = CliRunner().invoke(main, ["insights", "--db", db])
    assert summary.exit_code == 0, summary.output
    assert f"set {SET}" in summary.output and "notes read" in summary.output
    exported = CliRunner().invoke(main, ["insights", "--db", db, "--csv", "--days", "1"])
    assert exported.exit_code == 0
    assert exported.output.splitlines()[0] == ",".join(report.CSV_COLUMNS)
    assert len(exported.output.splitlines()) == 3
    bad = CliRunner().invoke(main, ["insights", "--db", db, "--from", "soon"])
    assert bad.exit_code == 2 and "not a date" in bad.output
    missing = CliRunner().invoke(main, ["insights", "--db", str(tmp_path / "none.sqlite3")])
    assert missing.exit_code == 1 and "no counts yet" in missing.output


def test_a_postgres_url_is_refused_with_a_reason(tmp_path):
    with pytest.raises(ValueError, match="file path"):
        make_app(tmp_path, INSIGHTS_DB="postgresql://kiosk@db/insights")
