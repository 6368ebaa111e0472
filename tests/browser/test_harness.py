"""The harness itself: it must catch what it claims to catch, or the browser tests prove nothing."""

from __future__ import annotations

import errno
import socket

import pytest
from playwright.sync_api import Error as PlaywrightError

from .harness import (
    CSP_PREFIX,
    assert_no_axe_violations,
    run_axe,
    settle,
    small_targets,
    snap,
)

# A top-level page on another *site* (localhost vs 127.0.0.1) that frames the kiosk.
HOST_PAGE = """<!doctype html><html lang="en"><title>A school's page</title>
<iframe title="The kiosk" src="{src}" width="800" height="600"></iframe></html>"""

SET_COOKIE = """() => {
  document.cookie = "probe=1; SameSite=None; Secure; Path=/";
  return document.cookie;
}"""


def _add(page, html: str) -> None:
    """Add markup through the DOM API (allowed by the CSP, unlike inline script)."""
    page.evaluate(
        "(html) => (document.querySelector('main') || document.body)"
        ".insertAdjacentHTML('beforeend', html)",
        html,
    )


def test_home_page_loads_under_the_strict_csp(page, live_server):
    response = page.goto(live_server.url + "/")
    assert response.status == 200
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert page.title()
    assert page.evaluate("() => document.documentElement.lang").startswith("en")


def test_make_server_serves_its_own_config_on_another_port(make_server, live_server):
    other = make_server({"KIOSK_MODE": True, "FRAME_ANCESTORS": "http://localhost:*"})
    assert other.port != live_server.port
    assert other.app.config["KIOSK_MODE"] is True
    with socket.create_connection(("127.0.0.1", other.port), timeout=5) as conn:
        conn.sendall(b"GET /embed/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        head = conn.recv(4096).decode("latin-1")
    assert head.startswith("HTTP/1.1 200")
    assert "frame-ancestors http://localhost:*" in head
    other.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", other.port), timeout=2).close()


def test_a_server_whose_trigger_fails_still_stops(make_server, monkeypatch):
    """Once in CI pulling waitress's wake-up pipe raised EBADF: stop() then closes every
    channel itself, the pipe's read end included, and the loop ends."""
    other = make_server()
    trigger = other._server.trigger
    read_end = trigger.socket  # waitress's wrapper of the pipe's read end

    def gone(thunk=None):
        raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(trigger, "pull_trigger", gone)
    other.stop()
    assert not other._thread.is_alive()
    assert read_end.fd < 0  # the pipe's read end is closed: nothing left to leak
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", other.port), timeout=2).close()


@pytest.mark.expect_page_errors
def test_inline_script_is_reported_as_a_csp_violation(page, page_errors, live_server):
    page.goto(live_server.url + "/")
    with pytest.raises(PlaywrightError, match="Content Security Policy"):
        page.add_script_tag(content="window.ranInline = true")  # inline: the CSP refuses it
    page.wait_for_timeout(100)
    assert page.evaluate("() => window.ranInline") is None
    assert any("script-src" in v for v in page_errors.csp_violations), page_errors.report()
    assert all(v.count(CSP_PREFIX) == 1 for v in page_errors.csp_violations)


@pytest.mark.expect_page_errors
def test_console_errors_uncaught_exceptions_and_404s_are_recorded(page, page_errors, live_server):
    page.goto(live_server.url + "/")
    page.evaluate("() => console.error('deliberate console error')")
    # thrown from a timer: wait for it before leaving the page, or a busy machine may
    # navigate away before the timer fires (the throw then never happens)
    with page.expect_event("pageerror"):
        page.evaluate("() => { setTimeout(() => { throw new Error('deliberate throw') }, 0) }")
    page.goto(live_server.url + "/no-such-page-for-the-harness")
    page.wait_for_timeout(100)
    assert any("deliberate console error" in line for line in page_errors.console)
    assert any("deliberate throw" in line for line in page_errors.page_errors)
    assert any(
        line.startswith("404 GET") and "no-such-page-for-the-harness" in line
        for line in page_errors.failed_requests
    ), page_errors.report()
    assert "uncaught page errors" in page_errors.report()


def test_axe_runs_without_weakening_the_csp(page, live_server):
    page.goto(live_server.url + "/")
    result = run_axe(page)
    assert result["testEngine"]["version"] == "4.14.1"
    assert "wcag22aa" in result["toolOptions"]["runOnly"]["values"]
    # The page fixture fails this test at teardown if injecting axe broke the CSP.


def test_axe_reports_a_planted_violation(page, live_server):
    page.goto(live_server.url + "/")
    _add(page, '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" id="planted">')
    with pytest.raises(AssertionError, match=r"(?s)image-alt .*#planted"):
        assert_no_axe_violations(page)


def test_small_targets_are_found_and_prose_links_are_exempt(page, live_server):
    page.goto(live_server.url + "/")
    _add(
        page,
        '<p>Read <a href="/">the catalogue</a> first.</p>'
        '<button type="button" id="tiny" aria-label="Tiny button"></button>'
        '<nav><a href="/" id="lonely">Lonely link</a></nav>',
    )
    page.evaluate(
        """() => {
          const tiny = document.getElementById('tiny');
          tiny.style.width = '20px'; tiny.style.height = '20px'; tiny.style.padding = '0';
          const lonely = document.getElementById('lonely');
          lonely.style.display = 'inline-block'; lonely.style.minHeight = '0';
        }"""
    )
    names = {t.name for t in small_targets(page)}
    assert "Tiny button" in names
    assert "Lonely link" in names  # alone in its block: not running prose
    assert "the catalogue" not in names  # inside a sentence: WCAG 2.5.8's inline exception


def test_touch_and_reduced_motion_contexts(touch_page, reduced_motion_page, live_server):
    for page in (touch_page, reduced_motion_page):
        page.goto(live_server.url + "/")
        assert page.evaluate("() => navigator.maxTouchPoints") > 0
        assert page.viewport_size == {"width": 1280, "height": 800}
    reduce = "() => matchMedia('(prefers-reduced-motion: reduce)').matches"
    assert reduced_motion_page.evaluate(reduce) is True
    assert touch_page.evaluate(reduce) is False


def test_snap_saves_a_png_artifact(page, live_server):
    page.goto(live_server.url + "/")
    path = snap(page, "harness/home smoke")
    assert path.name == "harness-home-smoke.png"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("setting", "readable"),
    [("allow", True), ("block", False)],
)
def test_third_party_cookie_setting_reaches_a_cross_site_iframe(
    persistent_context, make_server, host_page, setting, readable
):
    kiosk = make_server({"FRAME_ANCESTORS": "http://localhost:*"})
    context = persistent_context(third_party_cookies=setting)
    page = context.new_page()
    page.goto(host_page(HOST_PAGE.format(src=kiosk.url + "/embed/")))
    frame = page.locator("iframe").element_handle().content_frame()
    frame.wait_for_load_state()
    assert frame.url == kiosk.url + "/embed/"
    assert (frame.evaluate(SET_COOKIE) == "probe=1") is readable
    # The error capture reaches into the other-origin frame too.
    frame.evaluate("() => console.error('from the framed kiosk')")
    settle(context)
    assert any("from the framed kiosk" in line for line in context.errors.console)
    context.errors.console.clear()


def test_ordinary_contexts_already_block_third_party_cookies(new_context, make_server, host_page):
    kiosk = make_server({"FRAME_ANCESTORS": "http://localhost:*"})
    page = new_context(full=True, has_touch=True).new_page()  # a visitor's browser: the full one
    page.goto(host_page(HOST_PAGE.format(src=kiosk.url + "/embed/")))
    frame = page.locator("iframe").element_handle().content_frame()
    frame.wait_for_load_state()
    assert frame.evaluate(SET_COOKIE) == ""
    page.goto(kiosk.url + "/")  # first party: the same cookie is accepted
    assert page.evaluate(SET_COOKIE) == "probe=1"
