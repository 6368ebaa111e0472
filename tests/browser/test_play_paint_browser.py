"""The Snap table's tap-to-paint path in Chromium: one view transition per action, begun with
the request; the paint mark at the transition's first frame; a slow or failed answer leaves
the page live.

snap.js starts the view transition when the request is sent (the old table is captured while
the server answers) and htmx then swaps without one of its own; these tests watch
``document.startViewTransition`` and the animation frames from an init script.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import LiveServer

EARLY_MS = 150  # snap.js: a server slower than this gets the early transition given up

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
    groups: document.getAnimations()
      .map((a) => (a.effect && a.effect.pseudoElement) || "")
      .filter((p) => p.startsWith("::view-transition-group")),
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


def quick_action(page: Any) -> dict[str, Any]:
    """An action whose answer came well within EARLY_MS (the first ones compile templates;
    a loaded machine can be slow once)."""
    for _ in range(5):
        paint = act_and_wait(page)
        if paint["steps"]["response"] - paint["steps"]["request"] < EARLY_MS / 2:
            return paint
    raise AssertionError(f"no answer came within {EARLY_MS / 2} ms: {paint}")


def frames_between(page: Any, start: float, end: float) -> int:
    return page.evaluate(
        "([a, b]) => window.__watch.frames.filter(t => t > a && t < b).length", [start, end]
    )


def test_one_transition_begun_with_the_request_and_painted_at_its_first_frame(
    touch_page, paint_server
):
    page = touch_page
    open_table(page, paint_server)
    paint = quick_action(page)
    steps = paint["steps"]
    assert paint["transitions"] == 1, paint  # htmx did not start a second one
    # the old table was captured before the answer was swapped in, and the transition was
    # begun with the request, before the answer came
    assert steps["request"] <= steps["transition"] < steps["response"], steps
    # (an answer quicker than the capture waits for it: else nothing would move)
    assert steps["capture"] < steps["response"] < steps["swap"], steps
    assert steps["swap"] <= steps["decoded"] <= steps["ready"], steps
    assert steps["ready"] <= paint["at"], (steps, paint["at"])
    # painted while the transition runs: the turned card's move is under way, and the
    # words already say what happened (the page itself is live, not a snapshot)
    assert paint["transition"], paint
    assert any("flip-" in g for g in paint["groups"]), paint["groups"]
    assert paint["status"] and paint["status"] == paint["status_now"], paint
    said = paint["status"]
    assert "turn up" in said or "turns up" in said or "Over to" in said, said


def test_reduced_motion_fades_in_place_with_the_same_paint_mark(reduced_motion_page, paint_server):
    page = reduced_motion_page
    open_table(page, paint_server)
    paint = quick_action(page)
    steps = paint["steps"]
    assert paint["transitions"] == 1, paint
    assert steps["capture"] < steps["swap"] <= steps["ready"] <= paint["at"], steps
    # no card travels (the groups' animation is "none"), the words are there at once
    assert paint["groups"] == [], paint["groups"]
    assert paint["status"] and paint["status"] == paint["status_now"], paint


def test_a_slow_answer_gives_up_the_early_transition_and_the_page_stays_live(
    touch_page, paint_server
):
    page = touch_page
    open_table(page, paint_server)

    def slow(route: Any) -> None:
        response = route.fetch()
        time.sleep(0.6)
        route.fulfill(response=response)

    page.route("**/play/act", slow)
    paint = act_and_wait(page, timeout=10000)
    steps = paint["steps"]
    # the early transition was skipped after EARLY_MS; htmx's own took over at the answer
    assert paint["transitions"] == 2, paint
    assert steps["response"] - steps["request"] > 500, steps
    assert steps["response"] < steps["transition"] < steps["swap"] <= steps["ready"], steps
    # the page was rendered while it waited (a pending transition would freeze it)
    frames = frames_between(page, steps["request"] + EARLY_MS + 100, steps["response"] - 50)
    assert frames >= 5, frames
    assert paint["transition"] and any("flip-" in g for g in paint["groups"]), paint


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
