"""Taps on Snap! in Chromium: one call per card, a second tap absorbed, only a deliberate
call judged (issue 23).

snap.js sends at most one call per card painted: a second tap on the same card, while the
first call is held, in flight or its cards still moving, is absorbed (no request, no words,
an "absorbed" note in ``window.kioskPlay.log``); a held tap is sent only if the table still
shows the card it was aimed at, else dropped in silence. The taps are made by a script in the
page, a pointerdown and a click on #snap-button as a finger's, so the gap between two taps is
the page's own: the first at a set time after the card's paint mark (a busy loop from the
mark, so a loaded machine cannot make it later), the second ``gap`` ms after it. Against
Sleepy Sam (never under 350 ms) a call 120 ms after the paint always wins.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser.harness import LiveServer, snap
from browser.test_fair_timing_browser import move_on

from kiosk import create_app

ANSWER_MS = 100  # the server's answers come this late (a phone's round trip)
SIZES = {
    "kiosk-1280x800": ({"width": 1280, "height": 800}, False),
    "phone-390x844": ({"width": 390, "height": 844}, True),
}
# A plan for the next new card that shows a match (or, with match: false, shows none): tap
# Snap! ``first`` ms after its paint mark (or, with settled, once its cards have landed, and
# no sooner), then again ``gap`` ms later. The page notes what it did in window.__plan.
PLANNER = """
window.__plan = null;
(function () {
  const ranks = () => [...document.querySelectorAll("#snap-game img.play-card")]
    .map((img) => img.alt).filter(Boolean).map((alt) => alt.split(" of ")[0]);
  const status = () => document.getElementById("game-status").innerText;
  const seats = () => Object.fromEntries([...document.querySelectorAll("#snap-game .seat")]
    .map((s) => [s.id, [...s.querySelectorAll(".pile__n")].map((n) => +n.textContent)]));
  const tap = (plan) => {
    const button = document.getElementById("snap-button");
    const at = performance.now();
    const enabled = !!button && !button.disabled;
    if (button) {
      button.dispatchEvent(new PointerEvent("pointerdown",
        {bubbles: true, pointerType: "touch", isPrimary: true}));
      button.click();
    }
    plan.taps.push({at: at, enabled: enabled});
  };
  const run = (plan) => {
    tap(plan);
    if (plan.taps.length < plan.count) setTimeout(() => run(plan), plan.gap);
  };
  document.addEventListener("play:painted", (event) => {
    const plan = window.__plan;
    if (!plan) return;
    const first = plan.taps[0];
    if (first && plan.answer === undefined && event.detail.at > first.at) {
      plan.answer = status();  // the words of the table that answered the first tap
      plan.answerAt = event.detail.at;
    }
    const state = window.kioskSnap.state;
    if (plan.turn !== undefined || event.detail.turn === plan.lastTurn) return;
    plan.lastTurn = event.detail.turn;  // the first paint of a new card
    const r = ranks();
    const match = new Set(r).size < r.length;
    const button = document.getElementById("snap-button");
    if (match !== plan.match || !button || button.disabled) return;
    plan.turn = event.detail.turn;
    plan.before = seats();
    plan.mark = state.paintedAt;
    if (plan.settled) {
      // its cards have landed (an answer given up as slow can land before its paint), and
      // no sooner than ``first`` ms after the mark
      const landed = () => !state.busy && !document.activeViewTransition
        && performance.now() - state.paintedAt >= plan.first;
      const wait = () => (landed() ? run(plan) : setTimeout(wait, 1));
      setTimeout(wait, 1);
      return;
    }
    // a busy loop from the mark, in the task that took it, not a timer: a loaded machine
    // cannot make this tap late
    while (performance.now() - state.paintedAt < plan.first) { /* wait */ }
    run(plan);
  });
  window.__seats = seats;
})();
"""
QUIET = """() => {
  const plan = window.__plan, state = window.kioskSnap.state;
  return !!plan && plan.taps.length === plan.count && plan.answer !== undefined
    && !state.busy && !state.pending && !state.call;
}"""


def slow_answers(wsgi_app: Callable[..., Any]) -> Callable[..., Any]:
    """Answer the table's posts ANSWER_MS late, as a phone's network does, so a second tap
    comes while the first call is still on its way (on localhost the answer beats it)."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/play/act"):
            time.sleep(ANSWER_MS / 1000)
        return wsgi_app(environ, start_response)

    return app


@pytest.fixture(scope="module")
def taps_server() -> Iterator[LiveServer]:
    """The same deal every run, answered a phone's round trip late; the page never posts
    "Next" by itself (the test does)."""
    app = create_app(
        {
            "SECRET_KEY": "browser-test-secret",
            "PLAY_PACE_MS": 60_000,
            "PLAY_MAX_TURNS": 100,
            "PLAY_NONCE": "snap-taps-deal",
        }
    )
    app.wsgi_app = slow_answers(app.wsgi_app)
    with LiveServer(app=app) as server:
        yield server


def open_game(new_context: Any, server: LiveServer, size: str) -> tuple[Any, list[dict]]:
    """A touchscreen of ``size`` playing one game against Sleepy Sam; the calls it posts."""
    viewport, mobile = SIZES[size]
    page = new_context(viewport=viewport, has_touch=True, is_mobile=mobile).new_page()
    page.set_default_timeout(30_000)  # a state a loaded machine is slow to reach
    page.add_init_script(PLANNER)
    calls: list[dict] = []

    def on_request(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/play/act"):
            form = dict(urllib.parse.parse_qsl(request.post_data or ""))
            if form.get("act") in ("snap", "pool"):
                calls.append(form)

    page.on("request", on_request)
    page.goto(f"{server.url}/sets/snap-standard-deck/play")
    page.locator("input[name=bots][value='1']").check()  # (its words hide on a phone)
    page.locator("input[name=level][value=easy]").check()  # Sleepy Sam
    page.get_by_role("button", name="Start").tap()
    page.wait_for_function("() => window.kioskPlay && window.kioskPlay.log.length > 0")
    return page, calls


def play_until_the_plan_ran(page: Any, **plan: Any) -> dict[str, Any]:
    """Arm the plan, move the game on until a card it wants has been tapped and answered, and
    wait until every request has ended and its cards have landed: what the page noted."""
    plan = {"first": 120, "gap": 80, "count": 2, "match": True, "settled": False, **plan}
    page.evaluate("plan => { window.__plan = {...plan, taps: []}; }", plan)
    for _ in range(200):
        if page.evaluate("() => window.__plan.turn !== undefined"):
            break
        assert not page.locator("#snap-game[data-over='1']").count(), "no card to tap"
        page.wait_for_function("() => !window.kioskSnap.state.busy")
        move_on(page)
    page.wait_for_function(QUIET)
    return page.evaluate(
        """() => ({...window.__plan, after: window.__seats(),
                   words: document.getElementById('game-status').innerText,
                   tail: window.kioskPlay.log.slice(-14),
                   log: window.kioskPlay.log.filter(e => e.at >= window.__plan.mark)
                     .filter(e => ['call', 'absorbed', 'painted'].includes(e.type))})"""
    )


def entries(ran: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in ran["log"] if e["type"] == kind]


def totals(seats: dict[str, list[int]]) -> dict[str, int]:
    """Each seat's cards (face down and face up)."""
    return {seat: sum(piles) for seat, piles in seats.items()}


def assert_one_call(ran: dict[str, Any], calls: list[dict], *, won: bool = True) -> None:
    """One call went out and won (or, with ``won=False``, won or lost the race), its words
    stayed; the second tap made no request and no words, and nobody paid a penalty."""
    turn = ran["turn"]
    sent = [c for c in calls if c.get("turn") == turn]
    said = json.dumps({k: ran[k] for k in ("answer", "words", "taps", "mark", "tail")})
    assert len(sent) == 1, (sent, said)
    outcome = r"You called first" if won else r"You called first|Too slow! Sleepy Sam"
    assert re.search(outcome, ran["answer"]), said
    assert ran["words"] == ran["answer"], said  # the words about the call stay
    assert not re.search(r"Too late|No match|penalty|wrong call", ran["words"]), said
    # the winner took both face-up piles, and nobody paid a card
    before, after = totals(ran["before"]), totals(ran["after"])
    you_up, sam_up = ran["before"]["seat-0"][1], ran["before"]["seat-1"][1]
    moved = sam_up if "You called first" in ran["answer"] else -you_up
    assert after["seat-0"] == before["seat-0"] + moved, said
    assert after["seat-1"] == before["seat-1"] - moved, said
    # one call noted; the second tap absorbed by snap.js, or by the browser (a disabled
    # button takes no click)
    assert [c["turn"] for c in entries(ran, "call")] == [turn], ran
    absorbed = entries(ran, "absorbed")
    assert absorbed or not ran["taps"][1]["enabled"], ran
    assert all(a["turn"] == turn for a in absorbed), ran


@pytest.mark.parametrize("size", list(SIZES))
def test_two_taps_80_ms_apart_on_a_match_are_one_win(new_context, taps_server, size):
    page, calls = open_game(new_context, taps_server, size)
    # held while the new card slides in, and the second tap 80 ms after the first
    ran = play_until_the_plan_ran(page, first=120, gap=80)
    assert ran["taps"][1]["at"] - ran["taps"][0]["at"] >= 80
    assert_one_call(ran, calls)
    call = entries(ran, "call")[0]
    # measured from the mark, held, then sent; under Sleepy Sam's quickest less the tie window
    assert call["reaction"] == pytest.approx(call["tapAt"] - ran["mark"], abs=0.06), call
    assert 120 <= call["reaction"] < 350 - 60, call
    if ran["taps"][1]["enabled"]:
        assert [a["why"] for a in entries(ran, "absorbed")] == ["on its way"], ran
    # sent at once (the card has landed), the second tap while it is in flight
    # (its reaction, from the mark to the cards' landing, may lose the race on a busy machine)
    ran = play_until_the_plan_ran(page, settled=True, gap=80)
    assert_one_call(ran, calls, won=False)
    snap(page, f"snap-taps-double-{size}", full_page=False)


@pytest.mark.parametrize("size", list(SIZES))
def test_two_taps_300_ms_apart_on_a_match_never_a_mistaken_call(new_context, taps_server, size):
    page, calls = open_game(new_context, taps_server, size)
    for settled in (False, True):
        ran = play_until_the_plan_ran(page, first=120, gap=300, settled=settled)
        assert ran["taps"][1]["at"] - ran["taps"][0]["at"] >= 300
        assert_one_call(ran, calls, won=not settled)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_deliberate_call_with_no_match_is_still_a_mistaken_call(new_context, taps_server, size):
    page, calls = open_game(new_context, taps_server, size)
    ran = play_until_the_plan_ran(page, match=False, settled=True, count=1)
    assert [c["turn"] for c in calls] == [ran["turn"]], (calls, ran)
    assert not entries(ran, "absorbed"), ran
    assert ran["answer"].startswith("No match — a wrong call: a card to each other player."), ran
    before, after = totals(ran["before"]), totals(ran["after"])
    assert after["seat-0"] == before["seat-0"] - 1, ran  # the penalty: a card to Sam
    assert after["seat-1"] == before["seat-1"] + 1, ran
    snap(page, f"snap-taps-wrong-{size}", full_page=False)


def test_a_tap_held_for_a_card_that_has_gone_is_dropped_in_silence(new_context, taps_server):
    """A tap on Snap! while "Next" is in flight is aimed at the card on screen; the answer
    shows the next card, so the held tap is dropped: no request, no words over the new card's."""
    page, calls = open_game(new_context, taps_server, "phone-390x844")
    for _ in range(200):
        page.wait_for_function("() => !window.kioskSnap.state.busy")
        if (
            page.locator("#next-button:enabled").count()
            and page.locator("#snap-button:enabled").count()
        ):
            break
        move_on(page)
    else:
        pytest.fail("the computer never turned next")
    held = page.evaluate(
        """() => new Promise((done) => {
          const state = window.kioskSnap.state, log = window.kioskPlay.log;
          const turn = state.paintedTurn, start = log.length;
          document.addEventListener("htmx:before:request", () => {
            const button = document.getElementById("snap-button");
            button.dispatchEvent(new PointerEvent("pointerdown",
              {bubbles: true, pointerType: "touch", isPrimary: true}));
            button.click();
            done({turn: turn, start: start, pending: !!state.pending});
          }, {once: true});
          document.getElementById("next-button").click();
        })"""
    )
    assert held["pending"], held  # held while Next is on its way
    page.wait_for_function(
        """start => window.kioskPlay.log.slice(start).some(e => e.type === 'absorbed')
                 && !window.kioskSnap.state.busy && !window.kioskSnap.state.pending""",
        arg=held["start"],
    )
    log = page.evaluate("start => window.kioskPlay.log.slice(start)", held["start"])
    absorbed = [e for e in log if e["type"] == "absorbed"]
    assert [(a["turn"], a["why"]) for a in absorbed] == [(held["turn"], "gone")], log
    assert calls == [], calls
    words = page.get_by_role("status").inner_text()
    assert "Too late" not in words, words  # the words are the new table's
