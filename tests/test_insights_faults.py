"""Faults of visitor insights that reached visitors, each attack replayed: a curator's wrong
passwords locked every curator out and held a worker for a second each (4); made-up embedding
sites added a row each, without bound, and made the dashboard huge (5, also under load on a real
server); a damaged or unreadable database turned the dashboard into a 500 (6). Each test asserts
no 5xx but the designed 503, that the problem is named, and that the kiosk still serves."""

from __future__ import annotations

import http.client
import random
import shutil
import sqlite3
import threading
import time
from base64 import b64encode
from collections import Counter

import pytest
from bs4 import BeautifulSoup
from test_insights import PASSWORD, SET, beacon, make_app

from kiosk import create_app
from kiosk.insights import guard, report
from kiosk.insights import recorder as recorder_module
from kiosk.insights import store as store_module
from kiosk.insights.recorder import MAX_ORIGINS_PER_DAY, OTHER_SITES, Recorder
from kiosk.insights.schema import NO_ORIGIN, hour_of
from kiosk.insights.store import Store
from kiosk.web import insights

CURATOR = ("curator", PASSWORD)
VISITOR_PAGES = ("/", f"/sets/{SET}", f"/embed/sets/{SET}", "/notes/golliwog")


@pytest.fixture
def no_sleep(monkeypatch):
    """Every time.sleep a request makes, recorded instead of slept: none may hold a worker."""
    slept = []
    monkeypatch.setattr(time, "sleep", slept.append)
    return slept


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def assert_still_serving(client) -> None:
    for path in VISITOR_PAGES:
        assert client.get(path).status_code == 200, path
    assert beacon(client, e="note-read", note="golliwog").status_code == 204


def at(address: str) -> dict[str, str]:
    return {"REMOTE_ADDR": address}


# --------------------------------------------------------------------------- 4: wrong passwords


def test_a_guessers_wrong_passwords_lock_out_only_the_guesser(tmp_path, no_sleep):
    """The red team's attack: a stream of wrong passwords from one address (10 a minute used to
    lock out every curator, and each held a worker for a second). Now the guesser alone is
    refused, at once; curators elsewhere sign in all along."""
    client = make_app(tmp_path).test_client()
    guesser, curator = at("203.0.113.9"), at("198.51.100.7")
    statuses: Counter[int] = Counter()
    for n in range(20):
        answer = client.get("/insights", auth=("curator", f"guess {n}"), environ_base=guesser)
        statuses[answer.status_code] += 1
        assert client.get("/insights", auth=CURATOR, environ_base=curator).status_code == 200
    assert statuses == {401: guard.MAX_FAILURES, 429: 20 - guard.MAX_FAILURES}
    refused = client.get("/insights", auth=CURATOR, environ_base=guesser)  # even the right one
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) == guard.LOCKOUT_SECONDS
    assert "Too many wrong passwords from your address" in refused.get_data(as_text=True)
    assert "WWW-Authenticate" not in refused.headers
    assert client.get("/insights.csv", auth=CURATOR, environ_base=curator).status_code == 200
    assert no_sleep == []  # no request waited: no worker was held
    assert_still_serving(client)


def test_behind_a_proxy_the_forwarded_address_is_the_client(tmp_path, no_sleep):
    """With KIOSK_PROXY_FIX every request comes from the proxy: the address it forwards is the
    client. Without it, a made-up X-Forwarded-For is no way round the lockout."""
    proxy = at("127.0.0.1")
    client = make_app(tmp_path, PROXY_FIX=1).test_client()
    guesser = {"X-Forwarded-For": "203.0.113.9"}
    for n in range(guard.MAX_FAILURES):
        wrong = client.get(
            "/insights", auth=("curator", str(n)), headers=guesser, environ_base=proxy
        )
        assert wrong.status_code == 401
    assert client.get("/insights", headers=guesser, environ_base=proxy).status_code == 429
    curator = {"X-Forwarded-For": "198.51.100.7"}
    answer = client.get("/insights", auth=CURATOR, headers=curator, environ_base=proxy)
    assert answer.status_code == 200

    direct = make_app(tmp_path / "direct").test_client()  # no proxy trusted
    for n in range(guard.MAX_FAILURES):
        forged = {"X-Forwarded-For": f"192.0.2.{n}"}
        direct.get("/insights", auth=("curator", str(n)), headers=forged, environ_base=proxy)
    forged = {"X-Forwarded-For": "192.0.2.200"}
    assert (
        direct.get("/insights", auth=CURATOR, headers=forged, environ_base=proxy).status_code == 429
    )
    assert no_sleep == []


def test_each_lockout_is_longer_and_the_right_password_forgets_them(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    clock = Clock()
    app.extensions[insights.GUARD].clock = clock
    guesser = at("203.0.113.9")

    def attempt(password: str):
        return client.get("/insights", auth=("curator", password), environ_base=guesser)

    for _ in range(guard.MAX_FAILURES):
        assert attempt("wrong").status_code == 401
    waits = []
    for _ in range(8):
        refused = attempt("wrong")
        assert refused.status_code == 429
        waits.append(int(refused.headers["Retry-After"]))
        clock.now += waits[-1] / 2
        assert int(attempt(PASSWORD).headers["Retry-After"]) == waits[-1] / 2  # still locked
        clock.now += waits[-1] / 2
        assert attempt("wrong").status_code == 401  # one more try, wrong: locked again
    assert waits == [60, 120, 240, 480, 960, 1920, 3600, 3600]  # doubling, up to an hour
    clock.now += guard.MAX_LOCKOUT_SECONDS
    assert attempt(PASSWORD).status_code == 200  # the lockouts are forgotten
    for _ in range(guard.MAX_FAILURES - 1):
        assert attempt("wrong").status_code == 401
    assert attempt(PASSWORD).status_code == 200


def test_an_ipv6_client_is_its_64_and_wrong_passwords_are_forgotten(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    clock = Clock()
    app.extensions[insights.GUARD].clock = clock
    for n in range(guard.MAX_FAILURES):  # one machine, a new address for each guess
        client.get("/insights", auth=("curator", "x"), environ_base=at(f"2001:db8:1:2::{n + 1}"))
    assert client.get("/insights", environ_base=at("2001:db8:1:2::ff")).status_code == 429
    other_network = client.get("/insights", auth=CURATOR, environ_base=at("2001:db8:1:3::1"))
    assert other_network.status_code == 200
    assert guard.client_of("::ffff:192.0.2.1") == "192.0.2.1"
    assert guard.client_of(None) == "(unknown)"

    for _ in range(guard.MAX_FAILURES - 1):
        client.get("/insights", auth=("curator", "x"), environ_base=at("192.0.2.7"))
    clock.now += guard.FAILURE_WINDOW + 1  # quiet for a while: the slips are forgotten
    for _ in range(guard.MAX_FAILURES - 1):
        client.get("/insights", auth=("curator", "x"), environ_base=at("192.0.2.7"))
    assert client.get("/insights", auth=CURATOR, environ_base=at("192.0.2.7")).status_code == 200


def test_the_clients_remembered_are_bounded():
    kept = guard.FailureGuard(capacity=100, clock=Clock())
    for n in range(5000):
        kept.failed(f"10.0.{n // 256}.{n % 256}")
    assert len(kept) == 100
    for _ in range(guard.MAX_FAILURES):
        kept.failed("203.0.113.9")
    assert kept.refused_for("203.0.113.9") == guard.LOCKOUT_SECONDS  # the newest is kept
    assert len(kept) == 100
    assert kept.refused_for("10.0.0.0") == 0.0  # the oldest was forgotten


# --------------------------------------------------------------------------- 5: made-up sites


def embeds(client, sites, page=f"/embed/sets/{SET}"):
    for site in sites:
        assert client.get(page, headers={"Referer": f"https://{site}/class"}).status_code == 200


def stored_sites(store: Store) -> Counter[str]:
    found: Counter[str] = Counter()
    for row in store.rows("page_views"):
        if row["mode"] == "embed":
            found[row["origin"]] += row["n"]
    return found


def test_made_up_embedding_sites_are_capped_per_day(tmp_path):
    """The red team's attack: a made-up Referer host on every embed request used to add a row
    each. Now a day keeps MAX_ORIGINS_PER_DAY sites and counts the rest as other sites."""
    app = make_app(tmp_path)
    client = app.test_client()
    counts = app.extensions[insights.EXTENSION]
    embeds(client, [f"school-{n}.example" for n in range(10)])
    embeds(client, [f"made-up-{n}.example" for n in range(500)])
    embeds(client, ["school-3.example"])  # a site the day already has is still named
    client.get(f"/embed/sets/{SET}")  # no Referer: "(none)", never capped
    counts.flush()
    found = stored_sites(counts.store)
    named = set(found) - {OTHER_SITES, NO_ORIGIN}
    assert len(named) == MAX_ORIGINS_PER_DAY
    assert found["https://school-3.example"] == 2
    assert found[OTHER_SITES] == 510 - MAX_ORIGINS_PER_DAY
    assert found[NO_ORIGIN] == 1
    assert sum(found.values()) == 512  # every view counted
    assert len(counts.store.rows("page_views")) == MAX_ORIGINS_PER_DAY + 2
    assert_still_serving(client)


def test_the_days_room_is_shared_with_what_the_file_has(tmp_path):
    """Another process (or this one before a restart) may have filled the day: sites beyond
    the room it left become other sites when they are written, however they were counted."""
    path = tmp_path / "shared.sqlite3"
    first, second = Recorder(Store(path), thread=False), Recorder(Store(path), thread=False)

    def view(counts: Recorder, site: str) -> None:
        counts.count("page_views", kind="set", subject=SET, mode="embed", origin=site)

    for n in range(MAX_ORIGINS_PER_DAY - 5):
        view(first, f"https://a{n}.example")
    for n in range(10):  # the second process knows nothing yet: it admits all ten
        view(second, f"https://b{n}.example")
    view(second, "https://a0.example")
    first.flush()
    assert second.sites() == 11
    view(second, "https://b9.example")  # counted after its check was due
    second.flush()
    found = stored_sites(Store(path))
    assert len(set(found) - {OTHER_SITES}) == MAX_ORIGINS_PER_DAY
    assert found[OTHER_SITES] == 6  # b5…b9, b9 twice
    assert found["https://a0.example"] == 2
    view(second, "https://b9.example")  # from now on counted as other sites at once
    view(second, "https://c.example")
    assert second.sites() >= MAX_ORIGINS_PER_DAY
    second.flush()
    assert stored_sites(Store(path))[OTHER_SITES] == 8

    restarted = Recorder(Store(path), thread=False)
    view(restarted, "https://d.example")
    restarted.flush()
    assert stored_sites(Store(path))[OTHER_SITES] == 9


def test_the_dashboard_lists_at_most_the_sites_it_shows(tmp_path):
    """A file flooded before the cap (the red team's 10,000 rows) still makes a small page."""
    app = make_app(tmp_path)
    hour = hour_of()
    flood = {
        ("page_views", (hour, "set", SET, "embed", f"https://{n}.example")): 1 for n in range(3000)
    }
    flood[("page_views", (hour, "set", SET, "embed", "https://school.example"))] = 40
    Store(tmp_path / "insights.sqlite3").add(flood)
    client = app.test_client()
    page = client.get("/insights", auth=CURATOR)
    assert page.status_code == 200
    assert len(page.data) < 64_000
    soup = BeautifulSoup(page.get_data(as_text=True), "html.parser")
    table = soup.find(id="embeds-heading").find_parent("section").find("tbody")
    rows = [(r.th.get_text(), int(r.td.get_text())) for r in table.find_all("tr")]
    assert len(rows) == report.SITES_SHOWN + 1
    assert rows[0] == ("https://school.example", 40)
    assert rows[-1] == (OTHER_SITES, 3000 - (report.SITES_SHOWN - 1))
    assert f"the {3000 - (report.SITES_SHOWN - 1)} sites with fewer views" in page.get_data(
        as_text=True
    )


def _get(connection: http.client.HTTPConnection, path: str, **headers: str) -> tuple[int, bytes]:
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


def test_a_flood_of_made_up_sites_on_a_real_server(tmp_path):
    """3,000 embed requests with random Referer hosts to the kiosk served by waitress on
    127.0.0.1 (its flush thread writing as it goes), and visitors browsing meanwhile: no 5xx,
    at most MAX_ORIGINS_PER_DAY sites kept, a small file and a small dashboard."""
    from browser.harness import LiveServer  # the browser tests' server, without a browser

    requests, threads = 3000, 4
    app = create_app(
        {
            "SECRET_KEY": "flood-test-" + "s" * 32,
            "INSIGHTS_DB": str(tmp_path / "insights.sqlite3"),
            "INSIGHTS_FLUSH_SECONDS": 0.2,
            "CURATOR_PASSWORD": PASSWORD,
        }
    )
    counts = app.extensions[insights.EXTENSION]
    statuses: Counter[int] = Counter()
    visitors: Counter[int] = Counter()
    lock = threading.Lock()
    done = threading.Event()

    with LiveServer(app=app) as server:

        def flood(seed: int) -> None:
            rng = random.Random(seed)
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            try:
                for _ in range(requests // threads):
                    host = f"{rng.getrandbits(48):012x}.example"
                    status, _ = _get(
                        connection, f"/embed/sets/{SET}", Referer=f"https://{host}/lesson"
                    )
                    with lock:
                        statuses[status] += 1
            finally:
                connection.close()

        def browse() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            try:
                for n in range(2000):  # bounded: until the flood is over
                    status, _ = _get(connection, VISITOR_PAGES[n % 2])
                    visitors[status] += 1
                    if done.is_set():
                        break
            finally:
                connection.close()

        workers = [threading.Thread(target=flood, args=(n,)) for n in range(threads)]
        visitor = threading.Thread(target=browse)
        for worker in [*workers, visitor]:
            worker.start()
        for worker in workers:
            worker.join(120)
        done.set()
        visitor.join(60)
        assert statuses == {200: requests}
        assert set(visitors) == {200} and visitors[200] > 0

        deadline = time.monotonic() + 60  # until the flush thread has written every view
        found = stored_sites(counts.store)
        while sum(found.values()) < requests and time.monotonic() < deadline:
            time.sleep(0.05)
            found = stored_sites(counts.store)
        assert sum(found.values()) == requests and not counts.failing
        assert len(set(found) - {OTHER_SITES}) == MAX_ORIGINS_PER_DAY
        assert found[OTHER_SITES] == requests - MAX_ORIGINS_PER_DAY
        assert len(counts.store.rows("page_views")) <= MAX_ORIGINS_PER_DAY + 3
        assert (tmp_path / "insights.sqlite3").stat().st_size < 200_000

        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            token = b64encode(f"curator:{PASSWORD}".encode()).decode()
            status, body = _get(connection, "/insights", Authorization=f"Basic {token}")
            assert status == 200 and len(body) < 64_000
            assert OTHER_SITES.encode() in body
            status, _ = _get(connection, "/healthz")
            assert status == 200
        finally:
            connection.close()
            counts._wake.set()  # end the flush thread


# --------------------------------------------------------------------------- 6: a broken file


def _filled(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    embeds(client, [f"school-{n}.example" for n in range(40)])
    beacon(client, e="note-read", note="golliwog")
    app.extensions[insights.EXTENSION].flush()
    return app, client, tmp_path / "insights.sqlite3"


def _garbage(path):
    path.write_bytes(b"this is not a database " * 400)


def _damaged(path):
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 2 * page
    data[page:] = b"\xff" * (len(data) - page)  # the header stands, the tables do not
    path.write_bytes(bytes(data))


def _folder(path):
    path.unlink()
    path.mkdir()  # what an unreadable file is to a server (tests run as root, which reads all)


BREAKS = {
    "not a database": (_garbage, "not an SQLite database", "file is not a database"),
    "damaged": (_damaged, "it is damaged", "malformed"),
    "cannot be opened": (_folder, "cannot be opened", "unable to open database file"),
}


@pytest.mark.parametrize("case", sorted(BREAKS))
def test_an_unusable_database_is_a_503_that_says_why(tmp_path, case):
    app, client, path = _filled(tmp_path)
    breaking, words, sqlite_says = BREAKS[case]
    breaking(path)
    assert client.get("/insights").status_code == 401  # who may ask is checked first
    for url in ("/insights", "/insights.csv?from=2026-01-01"):
        answer = client.get(url, auth=CURATOR)
        assert answer.status_code == 503, url
        assert answer.mimetype == "text/plain"
        assert answer.headers["Cache-Control"] == "no-store"
        text = answer.get_data(as_text=True)
        assert "the visitor counts cannot be read" in text
        assert words in text and sqlite_says in text and "insights.sqlite3" in text
        assert "Traceback" not in text and str(tmp_path) not in text

    health = client.get("/healthz")
    assert health.status_code == 200
    body = health.get_json()
    assert body["status"] == "degraded" and body["insights"]["status"] == "unusable"
    assert any(sqlite_says in problem for problem in body["insights"]["problems"])
    assert str(tmp_path) not in health.get_data(as_text=True)

    counts = app.extensions[insights.EXTENSION]
    assert_still_serving(client)  # and counting, in memory
    assert counts.flush() == 0 and counts.failing and counts.pending() > 0
    assert any("writing: " in p for p in client.get("/healthz").get_json()["insights"]["problems"])

    (shutil.rmtree if path.is_dir() else path.unlink)(path)  # moved aside: a new file is made
    assert client.get("/insights", auth=CURATOR).status_code == 200
    assert counts.flush() > 0 and not counts.failing  # what was counted meanwhile
    assert stored_sites(counts.store) == {NO_ORIGIN: 1}  # assert_still_serving's embed
    assert client.get("/healthz").get_json()["insights"] == {
        "status": "ok",
        "counting": True,
        "problems": [],
    }


def test_a_database_locked_past_the_busy_timeout_is_a_503(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 200)  # not the 10 s of a real server
    _, client, path = _filled(tmp_path)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")  # another program keeps the file to itself
        answer = client.get("/insights", auth=CURATOR)
        assert answer.status_code == 503
        assert "locked" in answer.get_data(as_text=True)
        assert client.get("/healthz").get_json()["insights"]["status"] == "unusable"
        assert_still_serving(client)
    finally:
        holder.close()
    assert client.get("/insights", auth=CURATOR).status_code == 200


def test_healthz_reads_the_database_at_most_every_interval(tmp_path, monkeypatch):
    """/healthz is public: it must not let anyone make the server read the file on every
    request; it reads at most every PROBE_SECONDS, and a dashboard's read counts too."""
    app, client, path = _filled(tmp_path)
    clock = Clock()
    state = app.extensions[insights.HEALTH]
    state.clock = clock
    reads = []
    kind = type(Store(path))  # the store class for a file
    real_rows = kind.rows

    def counted(self, *args, **kwargs):
        reads.append(args[0])
        return real_rows(self, *args, **kwargs)

    monkeypatch.setattr(kind, "rows", counted)
    assert client.get("/healthz").get_json()["insights"]["status"] == "ok"
    first = len(reads)
    assert first > 0
    _garbage(path)
    for _ in range(20):
        assert client.get("/healthz").get_json()["insights"]["status"] == "ok"  # not read again
    assert len(reads) == first
    clock.now += insights.PROBE_SECONDS
    assert client.get("/healthz").get_json()["insights"]["status"] == "unusable"
    path.unlink()
    assert client.get("/insights", auth=CURATOR).status_code == 200  # a read that worked
    assert client.get("/healthz").get_json()["insights"]["status"] == "ok"


def test_health_with_insights_off(tmp_path):
    off = make_app(tmp_path, INSIGHTS=False, CURATOR_PASSWORD="").test_client()
    assert off.get("/healthz").get_json()["insights"] == {
        "status": "off",
        "counting": False,
        "problems": [],
    }


def test_a_failed_write_is_reported_until_one_works(tmp_path, monkeypatch):
    path = tmp_path / "i.sqlite3"
    counts = Recorder(Store(path), thread=False)
    counts.count("visitor_events", event="attract-tap", subject="", detail="", mode="kiosk")
    path.mkdir()
    assert counts.flush() == 0 and isinstance(counts.error, sqlite3.OperationalError)
    assert counts.error.__traceback__ is None  # the failed batch is not kept alive by it
    path.rmdir()
    assert counts.flush() == 1 and counts.error is None
    monkeypatch.setattr(recorder_module, "MAX_ORIGINS_PER_DAY", 1)
    counts.count("page_views", kind="set", subject=SET, mode="embed", origin="https://a.example")
    counts.count("page_views", kind="set", subject=SET, mode="embed", origin="https://b.example")
    assert counts.flush() == 2
    assert stored_sites(counts.store) == {"https://a.example": 1, OTHER_SITES: 1}
