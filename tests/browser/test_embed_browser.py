"""A teacher's page on another site embeds kiosk pages: the frame fits, stays in, and plays."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import LiveServer, assert_no_axe_violations

SET_PATH = "/embed/sets/misc-869-1986"
FRAMABLE = {"FRAME_ANCESTORS": "'self' http://localhost:*"}
CONTENT_HEIGHT = """() => {
  const main = document.getElementById("main");
  let bottom = main.getBoundingClientRect().top;
  for (const child of main.children) {
    bottom = Math.max(bottom, child.getBoundingClientRect().bottom);
  }
  return bottom + parseFloat(getComputedStyle(main).paddingBottom) + window.scrollY;
}"""


def school_page(server: LiveServer, path: str, *, height: int = 150) -> str:
    """A school's lesson page: one iframe of ``path`` and the kiosk's embed.js."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Our lesson</title>"
        f"<script src='{server.url}/static/js/embed.js' defer></script></head>"
        "<body><main><h1>Our lesson</h1>"
        f"<iframe src='{server.url}{path}' title='A card game at the museum' width='1000'"
        f" height='{height}' style='border:0'></iframe></main></body></html>"
    )


@pytest.fixture
def server(make_server: Callable[..., LiveServer]) -> LiveServer:
    return make_server(FRAMABLE)


def frame_of(page: Any) -> Any:
    return page.locator("iframe").element_handle().content_frame()


def test_the_iframe_grows_to_its_content(page, server, host_page):
    page.goto(host_page(school_page(server, SET_PATH)))
    frame = frame_of(page)
    expect(frame.locator("h1")).to_be_visible()
    page.wait_for_function("() => document.querySelector('iframe').clientHeight > 600")
    page.wait_for_timeout(300)
    height = page.evaluate("() => document.querySelector('iframe').clientHeight")
    wanted = frame.evaluate(CONTENT_HEIGHT)
    assert abs(height - wanted) <= 2, (height, wanted)
    page.wait_for_timeout(500)  # no feedback loop: the height has settled
    assert page.evaluate("() => document.querySelector('iframe').clientHeight") == height
    assert frame.locator("header.site-header").count() == 0
    assert frame.url.startswith(server.url + "/embed/")


def test_a_message_from_elsewhere_does_not_resize(page, server, host_page):
    page.goto(host_page(school_page(server, SET_PATH)))
    page.wait_for_function("() => document.querySelector('iframe').clientHeight > 600")
    page.wait_for_timeout(300)
    before = page.evaluate("() => document.querySelector('iframe').clientHeight")
    # The host page itself (not the iframe) posts a height: embed.js must ignore it.
    page.evaluate("() => window.postMessage({type: 'kiosk:height', height: 99}, '*')")
    page.wait_for_timeout(200)
    assert page.evaluate("() => document.querySelector('iframe').clientHeight") == before


def test_no_axe_violations_in_the_embed(page, server, host_page):
    page.goto(host_page(school_page(server, SET_PATH)))
    frame = frame_of(page)
    expect(frame.locator("h1")).to_be_visible()
    assert_no_axe_violations(page)


@pytest.mark.parametrize(
    "path", ["/embed/", "/embed/sets/", "/embed/rules/snap/classic/1", "/embed/games/snap"]
)
def test_no_axe_violations_on_embedded_page_types(page, server, path):
    page.goto(server.url + path)
    expect(page.locator("h1").first).to_be_visible()
    assert page.locator("header.site-header").count() == 0
    assert_no_axe_violations(page)


def test_links_stay_inside_the_embed(page, server, host_page):
    page.goto(host_page(school_page(server, SET_PATH)))
    frame = frame_of(page)
    expect(frame.locator("h1")).to_be_visible()
    hrefs = frame.eval_on_selector_all("a[href^='/']", "as => as.map(a => a.getAttribute('href'))")
    assert hrefs and all(h.startswith("/embed/") for h in hrefs), hrefs
    frame.locator("a[href='/embed/notes/golliwog']").first.click()
    expect(frame.locator("h1")).to_contain_text(re.compile("golliwog", re.IGNORECASE))
    assert frame.url == server.url + SET_PATH  # htmx history is off inside the embed
    assert frame.locator("header.site-header").count() == 0


def test_an_embedded_game_plays_with_third_party_cookies_blocked(
    persistent_context, server, host_page
):
    context = persistent_context(third_party_cookies="block")
    page = context.new_page()
    page.goto(host_page(school_page(server, "/embed/sets/snap-standard-deck/play")))
    frame = frame_of(page)
    frame.get_by_role("button", name="Start").click()
    turn = frame.locator("#turn-button")
    expect(turn).to_be_visible()
    status = frame.locator("#game-status")
    seen = {status.inner_text()}
    for _ in range(3):
        expect(turn).to_be_enabled(timeout=10_000)
        turn.click()
        page.wait_for_timeout(400)
        seen.add(status.inner_text())
    assert len(seen) > 1, seen
    assert frame.url.startswith(server.url + "/embed/sets/snap-standard-deck/play")
    assert frame.locator("header.site-header").count() == 0
    assert context.cookies() == []
