"""Visitor insights in a real browser (issue 17): what insights.js sends by sendBeacon (a card
revealed, how far a rule was watched, a game left, an idle reset, a tap on the attract loop),
and the curators' dashboard drawn and accessible (axe-core: no violations)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from playwright.sync_api import expect

from kiosk.web import insights

from .harness import assert_no_axe_violations, assert_targets_at_least, snap

SET = "misc-869-1986"
PASSWORD = "browser-test curator password"


def _server(make_server, tmp_path, **config):
    settings = {
        "TESTING": True,  # no flush thread: the test flushes, so it knows what was written
        "INSIGHTS_DB": str(tmp_path / "insights.sqlite3"),
        "CURATOR_PASSWORD": PASSWORD,
        **config,
    }
    return make_server(settings)


def _wait_for(server, table, wanted, seconds=10.0):
    """Flush the server's counts until ``wanted`` (a predicate on the table's rows) holds."""
    recorder = server.app.extensions[insights.EXTENSION]
    deadline = time.monotonic() + seconds
    while True:
        recorder.flush()
        found = recorder.store.rows(table) if recorder.store.path.exists() else []
        if wanted(found) or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_a_visit_sends_its_events_and_the_dashboard_shows_them(make_server, new_context, tmp_path):
    server = _server(make_server, tmp_path)
    page = new_context().new_page()
    page.goto(f"{server.url}/sets/{SET}")
    page.get_by_role("button", name="View card").first.click()  # in place, by kiosk.js
    reveals = _wait_for(server, "visitor_events", lambda rows: rows)
    assert [(r["event"], r["subject"], r["mode"]) for r in reveals] == [("reveal", SET, "site")]

    page.goto(f"{server.url}/rules/snap/snap-pool/1")
    for n in (2, 3):
        page.locator('#rules-nav a[data-go="next"]').click()
        expect(page).to_have_url(f"{server.url}/rules/snap/snap-pool/{n}")
        page.wait_for_function(  # the step swapped in, not only its address pushed
            """(n) => document.getElementById('rules-count')?.textContent.trim()
              .startsWith(`Step ${n} of`) && !document.querySelector('.htmx-request')""",
            arg=n,
        )
    page.get_by_role("link", name="Sets", exact=True).click()  # a boosted link: no unload
    expect(page.locator("h1")).to_have_text("The sets")
    watched = _wait_for(server, "rule_watches", lambda rows: rows)
    assert [(r["scenario"], r["furthest"]) for r in watched] == [("snap-pool", 3)]

    page.goto(f"{server.url}/sets/{SET}/play")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("button", name="Turn your card")).to_be_visible()
    page.goto(f"{server.url}/")  # the game left unfinished
    games = _wait_for(
        server, "games", lambda rows: any(r["event"] == "abandoned" for r in rows)
    )  # "started" is counted by the server, "abandoned" by the page as it is left
    assert sorted((r["event"], r["set_slug"], r["game"]) for r in games) == [
        ("abandoned", SET, "snap"),
        ("started", SET, "snap"),
    ]
    views = {(r["kind"], r["subject"]) for r in _wait_for(server, "page_views", bool)}
    assert {("set", SET), ("rule", "snap/snap-pool"), ("sets", ""), ("home", "")} <= views
    assert ("rule", "snap/snap-pool") in views

    curator = new_context(http_credentials={"username": "curator", "password": PASSWORD})
    dashboard = curator.new_page()
    dashboard.goto(f"{server.url}/insights")
    expect(dashboard.locator("h1")).to_have_text("Visitor insights")
    for name in (
        "Page views by day",
        "Games started and finished",
        "How far rules are watched",
        "Notes read next to cards revealed",
    ):
        chart = dashboard.get_by_role("img", name=name)
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box is not None and box["width"] > 300, name
    snap(dashboard, "insights-dashboard")
    assert_no_axe_violations(dashboard)
    assert_targets_at_least(dashboard)
    dashboard.get_by_text("The figures").first.click()
    assert_no_axe_violations(dashboard)
    dashboard.get_by_label("From").fill("2026-01-01")
    dashboard.get_by_role("button", name="Show this period").click()
    expect(dashboard).to_have_url(
        f"{server.url}/insights?from=2026-01-01&to=" + datetime.now(UTC).date().isoformat()
    )
    with dashboard.expect_download() as download:
        dashboard.get_by_role("link", name="Download as CSV").click()
    assert download.value.suggested_filename.startswith("insights-2026-01-01-")


def test_kiosk_resets_and_attract_taps_are_counted(make_server, new_context, tmp_path):
    server = _server(
        make_server,
        tmp_path,
        KIOSK_MODE=True,
        IDLE_SECONDS=2,
        COUNTDOWN_SECONDS=2,
        ATTRACT_SLIDE_SECONDS=2,
    )
    page = new_context(has_touch=True, is_mobile=False).new_page()
    page.goto(f"{server.url}/sets/")
    expect(page.locator("dialog#kiosk-idle")).to_be_visible(timeout=8000)
    expect(page.locator("#kiosk-attract")).to_be_visible(timeout=15_000)  # reset, home, loop
    page.touchscreen.tap(900, 500)
    expect(page.locator("#kiosk-attract")).to_be_hidden()
    found = _wait_for(
        server,
        "visitor_events",
        lambda rows: {r["event"] for r in rows} >= {"idle-reset", "attract-tap"},
    )
    events = {(r["event"], r["detail"], r["mode"]) for r in found}
    assert ("idle-reset", "countdown", "kiosk") in events
    assert ("attract-tap", "", "kiosk") in events
    assert server.app.test_client().get("/insights").status_code == 404  # never in kiosk mode
