"""Visitor insights on the web (issue 17): every counted event, the dashboard's auth, and that
nothing about a visitor is ever stored."""

from __future__ import annotations

import io
import time
from csv import DictReader

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk import create_app
from kiosk.insights import guard
from kiosk.insights.schema import NO_ORIGIN, SAME_SITE
from kiosk.web import insights

SET = "misc-869-1986"
PASSWORD = "a long curator password"


def make_app(tmp_path, **config):
    settings = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "INSIGHTS_DB": str(tmp_path / "insights.sqlite3"),
        "CURATOR_PASSWORD": PASSWORD,
    }
    settings.update(config)
    return create_app(settings)


@pytest.fixture
def app(tmp_path, insights_db):
    """The kiosk counting into a new database: a SQLite file, and (``insights_db``'s second
    run) a PostgreSQL database, so every test of this file holds for both stores."""
    return make_app(tmp_path, INSIGHTS_DB=insights_db)


@pytest.fixture
def client(app):
    return app.test_client()


def rows(app, table):
    """Flush this app's counts and read the table back, without the hour and n."""
    recorder = app.extensions[insights.EXTENSION]
    recorder.flush()
    return recorder.store.rows(table)


def keyed(app, table, *columns):
    """{(column values...): n} of a table."""
    out = {}
    for row in rows(app, table):
        key = tuple(row[c] for c in columns)
        out[key] = out.get(key, 0) + row["n"]
    return out


def flagged_card(app):
    with app.test_request_context():
        from kiosk.web import content

        record = content.current().sets[SET].record
        return next(face.key for face in record.cards if face.content_note is not None)


# --------------------------------------------------------------------------- page views


PAGES = {
    "/": ("home", ""),
    "/sets/": ("sets", ""),
    f"/sets/{SET}": ("set", SET),
    f"/sets/{SET}/play": ("play-snap", SET),
    "/sets/twizzles-happy-families/play/happy-families": (
        "play-happy-families",
        "twizzles-happy-families",
    ),
    "/sets/snitchems-1797/play/snitchems": ("play-snitchems", "snitchems-1797"),
    f"/sets/{SET}/print": ("print", SET),
    "/games/": ("games", ""),
    "/games/snap": ("game", "snap"),
    "/rules/": ("rules", ""),
    "/rules/snap/woolworths/2": ("rule", "snap/woolworths"),
    "/notes/golliwog": ("note", "golliwog"),
    "/pages/about": ("page", "about"),
    "/patterns": ("patterns", ""),
}


def test_every_page_kind_is_counted_once_per_view(app, client):
    for path in PAGES:
        assert client.get(path).status_code == 200, path
    found = keyed(app, "page_views", "kind", "subject", "mode", "origin")
    assert found == {(kind, subject, "site", ""): 1 for kind, subject in PAGES.values()}


def test_pages_from_the_page_cache_and_304s_count_too(app, client):
    first = client.get(f"/sets/{SET}")
    client.get(f"/sets/{SET}")  # sent again from the page cache (kiosk.web.caching)
    again = client.get(f"/sets/{SET}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert keyed(app, "page_views", "kind") == {("set",): 3}


def test_only_navigations_count(app, client):
    client.get("/sets/", headers={"HX-Request": "true", "HX-Boosted": "true"})  # a boosted link
    # rules.js and the attract loop fetch steps and slides: not page views
    client.get("/rules/snap/woolworths/3", headers={"HX-Request": "true"})
    client.get("/attract/1", headers={"HX-Request": "true"})
    client.get("/", headers={"Sec-Purpose": "prefetch"})
    client.get("/sets/no-such-set")  # 404
    client.post("/", data={})  # 405
    client.get("/healthz")
    client.get("/cards/icon.svg")
    assert keyed(app, "page_views", "kind") == {("sets",): 1}


def test_kiosk_site_and_embed_are_counted_apart(tmp_path):
    site = make_app(tmp_path)
    kiosk = make_app(tmp_path, KIOSK_MODE=True)
    site.test_client().get(f"/sets/{SET}")
    site.test_client().get(f"/embed/sets/{SET}", headers={"Referer": "https://a.example/x"})
    kiosk.test_client().get(f"/sets/{SET}")
    kiosk.test_client().get(f"/embed/sets/{SET}")  # an embed of a kiosk-mode server is an embed
    found = keyed(site, "page_views", "mode", "origin")
    # the two apps share the file, and so the process's recorder for it
    assert found == {
        ("site", ""): 1,
        ("kiosk", ""): 1,
        ("embed", "https://a.example"): 1,
        ("embed", NO_ORIGIN): 1,
    }


@pytest.mark.parametrize(
    ("headers", "origin"),
    [
        (
            {"Referer": "https://school.example:8443/class/7?pupil=ann#top"},
            "https://school.example:8443",
        ),
        ({"Referer": "https://USER:pw@School.Example/"}, "https://school.example"),
        (
            {"Origin": "http://school.example", "Referer": "https://other.example/"},
            "http://school.example",
        ),
        ({"Referer": "http://localhost/embed/sets/"}, SAME_SITE),
        ({"Referer": "file:///home/ann/page.html"}, NO_ORIGIN),
        ({"Referer": "https://[::1"}, NO_ORIGIN),
        ({"Origin": "null"}, NO_ORIGIN),
        ({}, NO_ORIGIN),
    ],
)
def test_an_embeds_origin_is_its_scheme_and_host_only(app, client, headers, origin):
    client.get(f"/embed/sets/{SET}", headers=headers)
    assert keyed(app, "page_views", "mode", "origin") == {("embed", origin): 1}


def test_counting_off_counts_nothing_and_loads_no_script(tmp_path):
    app = make_app(tmp_path, INSIGHTS=False)
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    assert "insights.js" not in page
    assert insights.EXTENSION not in app.extensions
    assert client.post("/insights/event", data={"e": "attract-tap"}).status_code == 204
    assert not (tmp_path / "insights.sqlite3").exists()


def test_the_script_is_on_every_page_and_under_embed_posts_there(client):
    assert 'data-event-url="/insights/event"' in client.get("/").get_data(as_text=True)
    embedded = client.get(f"/embed/sets/{SET}").get_data(as_text=True)
    assert 'data-event-url="/embed/insights/event"' in embedded


# --------------------------------------------------------------------------- browser events


def beacon(client, path="/insights/event", **form):
    return client.post(path, data=form)


def test_a_reveal_counts_only_a_flagged_card_of_a_set(app, client):
    card = flagged_card(app)
    assert beacon(client, e="reveal", set=SET, card=card).status_code == 204
    assert beacon(client, e="reveal", set=SET, card="no-such-card").status_code == 204
    plain = next(f.key for f in _cards(app) if f.content_note is None)
    assert beacon(client, e="reveal", set=SET, card=plain).status_code == 204
    assert beacon(client, e="reveal", set="no-such-set", card=card).status_code == 204
    found = keyed(app, "visitor_events", "event", "subject", "detail", "mode")
    assert found == {("reveal", SET, card, "site"): 1}


def _cards(app):
    with app.test_request_context():
        from kiosk.web import content

        return content.current().sets[SET].record.cards


def test_view_card_without_javascript_counts_a_reveal(app, client):
    card = flagged_card(app)
    own = {"Sec-Fetch-Site": "same-origin"}  # the form sent from our own page
    assert client.get(f"/sets/{SET}?view={card}", headers=own).status_code == 200
    client.get(f"/sets/{SET}?view=not-a-card", headers=own)
    found = keyed(app, "visitor_events", "event", "detail")
    assert found == {("reveal", card): 1}


def test_a_note_read(app, client):
    assert beacon(client, e="note-read", note="golliwog").status_code == 204
    assert beacon(client, e="note-read", note="nope").status_code == 204
    assert keyed(app, "visitor_events", "event", "subject") == {("note-read", "golliwog"): 1}


def test_how_far_a_rule_was_watched(app, client):
    with app.test_request_context():
        from kiosk.web import content

        total = len(content.current().runs["snap/woolworths"].steps)
    assert beacon(client, e="rule", game="snap", scenario="woolworths", step="3").status_code == 204
    assert (
        beacon(client, e="rule", game="snap", scenario="woolworths", step=str(total)).status_code
        == 204
    )
    for step in ("0", str(total + 1), "-1", "2.5", "٣", "1e3", ""):
        response = beacon(client, e="rule", game="snap", scenario="woolworths", step=step)
        assert response.status_code == 204, step  # answered, not counted
    assert beacon(client, e="rule", game="snap", scenario="nope", step="1").status_code == 204
    found = keyed(app, "rule_watches", "game", "scenario", "furthest", "total")
    assert found == {("snap", "woolworths", 3, total): 1, ("snap", "woolworths", total, total): 1}


def test_idle_resets_and_attract_taps_only_in_kiosk_mode(tmp_path):
    site = make_app(tmp_path)
    kiosk = make_app(tmp_path, KIOSK_MODE=True)
    assert beacon(site.test_client(), e="idle-reset", how="countdown").status_code == 204
    assert beacon(site.test_client(), e="attract-tap").status_code == 204
    client = kiosk.test_client()
    assert beacon(client, e="idle-reset", how="countdown").status_code == 204
    assert beacon(client, e="idle-reset", how="home").status_code == 204
    assert beacon(client, e="idle-reset", how="whenever").status_code == 204
    assert beacon(client, e="attract-tap").status_code == 204
    # an embed of the kiosk-mode server is not the touchscreen
    assert beacon(client, "/embed/insights/event", e="attract-tap").status_code == 204
    found = keyed(kiosk, "visitor_events", "event", "detail", "mode")
    assert found == {
        ("idle-reset", "countdown", "kiosk"): 1,
        ("idle-reset", "home", "kiosk"): 1,
        ("attract-tap", "", "kiosk"): 1,
    }


def test_a_game_left_unfinished(app, client):
    ok = {
        "e": "abandon",
        "set": SET,
        "game": "snap",
        "variant": "woolworths",
        "level": "",
        "bots": "2",
        "moves": "37",
    }
    assert beacon(client, **ok).status_code == 204
    assert beacon(client, **{**ok, "variant": "", "bots": "", "moves": ""}).status_code == 204
    for bad in (
        {"game": "happy-families"},
        {"variant": "nope"},
        {"level": "grandmaster"},
        {"bots": "99"},
        {"moves": "lots"},
        {"set": "nope"},
    ):
        assert beacon(client, **{**ok, **bad}).status_code == 204, bad
    found = keyed(app, "games", "event", "set_slug", "game", "variant", "bots", "length_band")
    assert found == {
        ("abandoned", SET, "snap", "woolworths", 2, "10-49 moves"): 1,
        ("abandoned", SET, "snap", "", 0, "no move"): 1,
    }


def test_the_event_endpoint_refuses_what_it_does_not_know(app, client):
    assert beacon(client, e="visit", id="abc").status_code == 204
    assert beacon(client).status_code == 204
    assert client.post("/insights/event", data="x" * 2000).status_code == 204
    cross = client.post(
        "/insights/event",
        data={"e": "note-read", "note": "golliwog"},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert cross.status_code == 204
    assert client.get("/insights/event").status_code == 405
    assert all(not rows(app, table) for table in ("visitor_events", "games", "rule_watches"))


def test_count_game_for_the_play_views(app):
    with app.test_request_context(f"/sets/{SET}/play"):
        assert insights.count_game(
            "started", set_slug=SET, game="snap", variant="woolworths", level="", bots=1
        )
        assert insights.count_game(
            "finished",
            set_slug=SET,
            game="snap",
            variant="woolworths",
            bots=1,
            outcome="won",
            length=250,
        )
        assert insights.count_game("abandoned", set_slug=SET, game="snap", length=0)
        assert not insights.count_game("started", set_slug="nope", game="snap")
        with pytest.raises(ValueError):
            insights.count_game("finished", set_slug=SET, game="snap", outcome="")
        with pytest.raises(ValueError):
            insights.count_game("won", set_slug=SET, game="snap")
    found = keyed(app, "games", "event", "variant", "bots", "outcome", "length_band", "mode")
    assert found == {
        ("started", "woolworths", 1, "", "", "site"): 1,
        ("finished", "woolworths", 1, "won", "200+ moves", "site"): 1,
        ("abandoned", "", 0, "", "no move", "site"): 1,
    }


# --------------------------------------------------------------------------- the dashboard


@pytest.fixture
def no_sleep(monkeypatch):
    """Every time.sleep a request makes, recorded instead of slept: none may hold a worker."""
    slept = []
    monkeypatch.setattr(time, "sleep", slept.append)
    return slept


def test_no_password_no_dashboard(tmp_path):
    client = make_app(tmp_path, CURATOR_PASSWORD="").test_client()
    for path in ("/insights", "/insights.csv"):
        assert client.get(path).status_code == 404
        assert client.get(path, auth=("curator", "")).status_code == 404


def test_the_dashboard_asks_for_the_curator(client, no_sleep):
    for path in ("/insights", "/insights.csv"):
        asked = client.get(path)
        assert asked.status_code == 401
        assert asked.headers["WWW-Authenticate"].startswith("Basic ")
        assert asked.headers["Cache-Control"] == "no-store"
        assert client.get(path, auth=("curator", "wrong")).status_code == 401
        assert client.get(path, auth=("admin", PASSWORD)).status_code == 401
        assert client.get(path, auth=("curator", PASSWORD)).status_code == 200
    assert no_sleep == []  # a wrong password is answered at once: no worker is held


def test_repeated_failures_lock_out_that_client_only(app, client, no_sleep):
    guesser = {"REMOTE_ADDR": "203.0.113.9"}
    for _ in range(guard.MAX_FAILURES):
        wrong = client.get("/insights", auth=("curator", "guess"), environ_base=guesser)
        assert wrong.status_code == 401
    locked = client.get("/insights", auth=("curator", PASSWORD), environ_base=guesser)
    assert locked.status_code == 429
    assert locked.headers["Retry-After"] == str(int(guard.LOCKOUT_SECONDS))
    assert locked.headers["Cache-Control"] == "no-store"
    curator = {"REMOTE_ADDR": "198.51.100.7"}
    assert (
        client.get("/insights", auth=("curator", PASSWORD), environ_base=curator).status_code == 200
    )
    assert no_sleep == []


def test_never_in_kiosk_mode_or_an_embed(tmp_path, client):
    kiosk = make_app(tmp_path, KIOSK_MODE=True).test_client()
    assert kiosk.get("/insights", auth=("curator", PASSWORD)).status_code == 404
    for path in ("/embed/insights", "/embed/insights.csv"):
        assert client.get(path, auth=("curator", PASSWORD)).status_code == 404


def test_never_linked_from_a_visitor_page(tmp_path):
    for config in ({}, {"KIOSK_MODE": True}):
        client = make_app(tmp_path, **config).test_client()
        for path in [*PAGES, f"/embed/sets/{SET}", "/attract/1"]:
            page = client.get(path).get_data(as_text=True)
            assert 'href="/insights' not in page and "insights.csv" not in page, path


def test_the_dashboard_shows_the_counts(app, client):
    client.get(f"/sets/{SET}")
    client.get("/notes/golliwog")
    beacon(client, e="note-read", note="golliwog")
    beacon(client, e="rule", game="snap", scenario="woolworths", step="2")
    with app.test_request_context():
        insights.count_game("started", set_slug=SET, game="snap", bots=1)
    rows(app, "page_views")  # flushed
    page = client.get("/insights", auth=("curator", PASSWORD)).get_data(as_text=True)
    assert page.count("<svg") >= 4
    assert "Woolworths" in page
    assert 'href="/insights.csv?from=' in page
    csv = client.get("/insights.csv", auth=("curator", PASSWORD))
    assert csv.mimetype == "text/csv"
    exported = list(DictReader(io.StringIO(csv.get_data(as_text=True))))
    found = {(r["table"], r["kind"] or r["event"], r["subject"] or r["scenario"]) for r in exported}
    assert found == {
        ("page_views", "set", SET),
        ("page_views", "note", "golliwog"),
        ("visitor_events", "note-read", "golliwog"),
        ("rule_watches", "", "woolworths"),
        ("games", "started", ""),
    }


def test_a_period_that_cannot_be_read(client):
    bad = client.get("/insights?from=yesterday", auth=("curator", PASSWORD))
    assert bad.status_code == 400
    assert "not a date" in bad.get_data(as_text=True)
    assert client.get("/insights.csv?to=2026-13-01", auth=("curator", PASSWORD)).status_code == 400
    fine = client.get("/insights?from=2026-01-31&to=2026-01-01", auth=("curator", PASSWORD))
    assert fine.status_code == 200  # the wrong way round is swapped
    assert 'value="2026-01-01"' in fine.get_data(as_text=True)


FIELDS = [
    "e",
    "set",
    "card",
    "note",
    "game",
    "scenario",
    "step",
    "how",
    "variant",
    "level",
    "bots",
    "moves",
]
WORDS = st.sampled_from(
    [
        "",
        "0",
        "1",
        "99",
        "-1",
        "snap",
        "rule",
        "reveal",
        "abandon",
        "note-read",
        "idle-reset",
        "attract-tap",
        SET,
        "golliwog",
        "woolworths",
        "\x00",
        "é",
        "1" * 40,
    ]
)


@pytest.fixture(scope="module")
def kiosk_client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("fuzz"), KIOSK_MODE=True).test_client()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(form=st.dictionaries(st.sampled_from(FIELDS), WORDS | st.text(max_size=12), max_size=8))
def test_any_report_is_answered_204_and_never_breaks(kiosk_client, form):
    assert kiosk_client.post("/insights/event", data=form).status_code == 204
