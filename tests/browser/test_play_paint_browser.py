"""The Snap table's tap-to-paint path in Chromium: no view transition (no frame spent capturing
the old table); the cards travel from their old places by Web Animations, begun with the swap;
the paint mark at the first frame that shows the new table; a slow or failed answer leaves the
page live.

These tests watch ``document.startViewTransition``, the page's animations and the animation
frames from an init script.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import LiveServer

WATCH = """
window.__watch = {transitions: 0, frames: [], paints: []};
(function loop() {
  window.__watch.frames.push(performance.now());
  if (window.__watch.frames.length > 2000) window.__watch.frames.shift();
  requestAnimationFrame(loop);
})();
document.addEventListener("DOMContentLoaded", () => {
  const start = document.startViewTransition && document.startViewTransition.bind(document);
  if (start) document.startViewTransition = (update) => {
    window.__watch.transitions += 1;
    return start(update);
  };
});
document.addEventListener("play:painted", (event) => {
  const status = document.getElementById("game-status");
  window.__watch.paints.push({
    at: event.detail.at,
    steps: event.detail.steps,
    status: status ? status.innerText : "",
    transition: !!document.activeViewTransition,
    moving: document.getAnimations()
      .filter((a) => a.effect && a.effect.target && a.playState === "running"
        && !(a instanceof CSSAnimation) && !(a instanceof CSSTransition))  // snap.js's own
      .map((a) => ({card: a.effect.target.dataset.vtTurned || a.effect.target.dataset.vt || "",
                    from: a.effect.getKeyframes()[0].transform})),
  });
});
"""


@pytest.fixture(scope="module")
def paint_server() -> Iterator[LiveServer]:
    """The app with the same deal every run; the page never posts "Next" by itself."""
    config = {"PLAY_PACE_MS": 60_000, "PLAY_MAX_TURNS": 40, "PLAY_NONCE": "paint-test-deal"}
    with LiveServer(config) as server:
        yield server


def open_table(page: Any, server: LiveServer) -> None:
    """The watch script in, then a game against one computer player, painted."""
    page.add_init_script(WATCH)
    page.goto(f"{server.url}/sets/snap-standard-deck/play")
    page.get_by_role("radio", name=re.compile("^1 computer player")).tap()
    page.get_by_role("button", name="Start").tap()
    page.wait_for_function("() => window.__watch.paints.length > 0")


def act_and_wait(page: Any, timeout: float = 8000) -> dict[str, Any]:
    """Tap "Turn your card" (or "Next" on the computer's turn); the watch's record of the
    table painted after it."""
    before = page.evaluate("() => [window.__watch.paints.length, window.__watch.transitions]")
    turn = page.get_by_role("button", name="Turn your card")
    if turn.is_enabled():
        turn.tap()
    else:  # the computer's turn: "Next" (hidden with JavaScript: the pace posts it)
        expect(page.locator("#next-button")).to_be_enabled()
        page.evaluate("() => document.getElementById('next-button').click()")
    page.wait_for_function("n => window.__watch.paints.length > n", arg=before[0], timeout=timeout)
    page.wait_for_function("() => !window.kioskSnap.state.busy", timeout=timeout)
    after = page.evaluate("() => [window.__watch.paints.at(-1), window.__watch.transitions]")
    paint = after[0]
    paint["transitions"] = after[1] - before[1]
    paint["status_now"] = page.get_by_role("status").inner_text()
    return paint


def landed_after(page: Any, at: float) -> None:
    """Wait for snap.js's note that the cards of the table painted at ``at`` have landed."""
    page.wait_for_function(
        "at => window.kioskPlay.log.some(e => e.type === 'landed' && e.at >= at)", arg=at
    )


def frames_between(page: Any, start: float, end: float) -> int:
    return page.evaluate(
        "([a, b]) => window.__watch.frames.filter(t => t > a && t < b).length", [start, end]
    )


def test_the_turned_card_travels_from_its_pile_and_the_paint_is_its_first_frame(
    touch_page, paint_server
):
    page = touch_page
    open_table(page, paint_server)
    paint = act_and_wait(page)
    steps = paint["steps"]
    assert paint["transitions"] == 0 and not paint["transition"], paint  # no capture frame
    assert steps["request"] < steps["response"] < steps["swap"] <= steps["decoded"], steps
    assert steps["decoded"] <= paint["at"], (steps, paint["at"])
    # painted as the card sets off: the card just turned is on its way from the face-down
    # pile (its first frame is where the pile was), and the words already say what happened
    turned = [m for m in paint["moving"] if m["card"].startswith("flip-")]
    assert turned and turned[0]["from"].startswith("translate("), paint["moving"]
    assert paint["status"] and paint["status"] == paint["status_now"], paint
    said = paint["status"]
    assert "turn up" in said or "turns up" in said or "Over to" in said, said
    landed_after(page, steps["swap"])
    assert (
        page.evaluate(
            "() => document.getAnimations().filter(a => !(a instanceof CSSAnimation)).length"
        )
        == 0
    )


def test_reduced_motion_shows_the_cards_in_place_with_the_same_paint_mark(
    reduced_motion_page, paint_server
):
    page = reduced_motion_page
    open_table(page, paint_server)
    paint = act_and_wait(page)
    steps = paint["steps"]
    assert paint["transitions"] == 0, paint
    assert steps["swap"] <= steps["decoded"] <= paint["at"], steps
    assert paint["moving"] == [], paint["moving"]  # no card travels
    assert paint["status"] and paint["status"] == paint["status_now"], paint
    landed_after(page, steps["swap"])


def test_a_slow_answer_leaves_the_page_live_and_the_card_still_travels(touch_page, paint_server):
    page = touch_page
    open_table(page, paint_server)

    def slow(route: Any) -> None:
        response = route.fetch()
        time.sleep(0.6)
        route.fulfill(response=response)

    page.route("**/play/act", slow)
    paint = act_and_wait(page, timeout=10000)
    steps = paint["steps"]
    assert paint["transitions"] == 0, paint
    assert steps["response"] - steps["request"] > 500, steps
    # the page was rendered while it waited (nothing freezes it)
    frames = frames_between(page, steps["request"] + 100, steps["response"] - 50)
    assert frames >= 5, frames
    assert any(m["card"].startswith("flip-") for m in paint["moving"]), paint["moving"]


@pytest.mark.expect_page_errors
def test_a_failed_answer_releases_the_page(touch_page, paint_server):
    page = touch_page
    open_table(page, paint_server)
    page.route("**/play/act", lambda route: route.abort())
    tapped = page.evaluate("() => performance.now()")
    page.get_by_role("button", name="Turn your card").tap()
    expect(page.get_by_role("status")).to_contain_text("did not answer")
    page.wait_for_function("() => !window.kioskSnap.state.busy && !document.activeViewTransition")
    now = page.evaluate("() => new Promise(r => setTimeout(() => r(performance.now()), 300))")
    assert frames_between(page, now - 250, now) >= 5  # rendering goes on
    # and the next tap is sent (nothing is held as if a request were still out)
    page.unroute("**/play/act")
    count = page.evaluate("() => window.__watch.paints.length")
    page.get_by_role("button", name="Turn your card").tap()
    page.wait_for_function("n => window.__watch.paints.length > n", arg=count)
    assert page.evaluate("() => window.__watch.paints.at(-1).status").strip(), "painted"
    assert tapped < now
