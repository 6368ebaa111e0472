"""Snap tells its story at the cards, on every screen: a won call, a lost call, a wrong call
and the end, each marked where the cards are (docs/play.md, "The table tells the story").

A visitor plays the standard deck against three computer players: the first match it leaves to
the computer (a lost call, or one nobody called), every later match it calls 150 ms after the
card is painted (a won call), and once it calls on no match (a wrong call). After each
outcome, and at the end, the test checks what a visitor sees: the mark at the seats and cards,
nothing clipped or covered (the stage tests' FITS, and every button's centre is the button),
Play again in view at the end, and axe-core on the table mid-game and at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser.harness import LiveServer, assert_no_axe_violations, snap
from browser.test_stage_browser import FITS, SIZES

SETUP = "/sets/snap-standard-deck/play"
CONFIG = {
    "PLAY_PACE_MS": 400,
    "PLAY_MAX_TURNS": 30,
    "PLAY_NONCE": "snap-story-deal",  # the same deal every run
    "FRAME_ANCESTORS": "'self' http://localhost:*",
}
EMBED_WIDTH, EMBED_HEIGHT = 900, 700
REACTION_MS = 150  # after the paint: a quick child, never a false start (under 100 ms)
PAINTED = (
    "() => (window.kioskPlay ? window.kioskPlay.log : []).filter(e => e.type === 'painted').length"
)
# The table as it is now, read at once; it holds the pace (as a request in flight does) until
# the test has looked and acted (RELEASE): the computer players wait for the test, whatever
# the machine's load.
TABLE = """(marked) => {
  const g = document.getElementById('snap-game');
  const on = (id) => { const b = document.getElementById(id); return !!b && !b.disabled; };
  const tops = [...g.querySelectorAll('[id^=top-]')].map((i) => (i.alt || '').split(' of ')[0]);
  const outcome = g.dataset.outcome || null;
  const drawn = outcome && marked[outcome] ? [...g.querySelectorAll(marked[outcome])]
    .filter((el) => el.getBoundingClientRect().width > 20).length : 0;
  window.testHold = true;
  return {outcome, drawn, over: g.dataset.over === '1', step: g.dataset.step,
          match: tops.length !== new Set(tops).size, snap: on('snap-button'),
          turn_on: on('turn-button')};
}"""
RELEASE = """() => { window.testHold = false;
  window.kioskPlay.shown(document.getElementById('snap-game')); }"""
# The pace waits while play.js is busy: the test's hold counts as busy (play.js clears its own
# flag when a request ends, which must not end the hold).
HOLDABLE = """() => { const st = window.kioskPlay.state; let busy = st.busy;
  Object.defineProperty(st, 'busy', {get() { return busy || !!window.testHold; },
                                     set(v) { busy = v; }, configurable: true}); }"""
# A button whose centre is something else is covered (the seat marks let taps through).
COVERED = """() => [...document.querySelectorAll('#snap-game button')].filter((b) => b.offsetParent)
  .map((b) => { const r = b.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return at && (at === b || b.contains(at)) ? null : `${b.id || b.innerText} is covered by `
      + (at ? at.tagName + '.' + [...at.classList].join('.') : 'nothing'); })
  .filter(Boolean)"""
MARKED = {
    "won": ".seat--won .seat__match img.is-match",
    "slow": ".seat--slow .seat__badge",
    "lost": ".seat--won .seat__match img.is-match",
    "wrong": ".seat--wrong .seat__badge",
    "late": ".seat--late .seat__badge",
}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with LiveServer(CONFIG) as live:
        yield live


def wait_painted(frame: Any, seen: int) -> bool:
    """Wait for the next table to be painted (False when the game waits for the visitor)."""
    try:
        frame.wait_for_function(f"() => ({PAINTED})() > {seen}", timeout=12_000)
    except Exception:
        return False
    return True


def check_screen(page: Any, frame: Any, where: str) -> None:
    """Nothing clipped, cut or covered on the game's screen, once the cards have landed."""
    frame.wait_for_function("() => !window.kioskSnap.state.busy && !document.activeViewTransition")
    problems = frame.evaluate(FITS, [1]) + frame.evaluate(COVERED)
    assert not problems, f"{where}:\n  " + "\n  ".join(problems)


def play(page: Any, frame: Any, where: str, axe_mid: bool) -> dict[str, int]:
    """Play one whole game as the visitor above; check each outcome as it shows."""
    frame.evaluate(
        "() => { document.querySelector('input[name=bots][value=\"3\"]').checked = true; }"
    )
    frame.get_by_role("button", name="Start").click()
    frame.wait_for_selector("#snap-game")
    frame.evaluate(HOLDABLE)
    seen: dict[str, int] = {}
    left_one = wrong_done = axed = False
    painted = 0
    for _ in range(300):
        table = frame.evaluate(TABLE, MARKED)
        outcome = table["outcome"]
        if outcome and outcome not in seen:
            seen[outcome] = 0
            if outcome in MARKED:
                wanted = 2 if "is-match" in MARKED[outcome] else 1
                assert table["drawn"] >= wanted, f"{where}: the {outcome} mark is not drawn"
                check_screen(page, frame, f"{where}, after a {outcome} call")
                snap(page, f"snap-story-{where}-{outcome}")
            if axe_mid and not axed:
                assert_no_axe_violations(page)
                axed = True
        if table["over"]:
            break
        painted = frame.evaluate(PAINTED)
        called = False
        if table["snap"] and table["match"]:
            if left_one:
                frame.wait_for_timeout(REACTION_MS)
                frame.click("#snap-button")
                called = True
            left_one = True
        elif table["snap"] and not wrong_done and "won" in seen:
            wrong_done = True
            frame.wait_for_timeout(REACTION_MS)
            frame.click("#snap-button")
            called = True
        if not called and table["turn_on"]:
            frame.click("#turn-button")
        frame.evaluate(RELEASE)
        if not wait_painted(frame, painted) and frame.evaluate(TABLE, MARKED)["turn_on"]:
            frame.click("#turn-button")
            frame.evaluate(RELEASE)
    frame.wait_for_selector("#snap-game[data-over='1'] #result-title")
    result = frame.locator(".result")
    assert result.locator(".result__player").count() == 4
    again = frame.evaluate("""() => { const b = [...document.querySelectorAll('.result button')]
      .find((x) => x.innerText.trim() === 'Play again'); const r = b.getBoundingClientRect();
      return {top: r.top, bottom: r.bottom, height: innerHeight}; }""")
    assert again["top"] >= 0 and again["bottom"] <= again["height"] + 1, (
        f"{where}: Play again is out of view at the end ({again})"
    )
    status = frame.locator("#game-status").inner_text()
    title = frame.locator("#result-title").inner_text()
    assert title.strip("★ ").strip() not in status, f"{where}: the result is said twice"
    check_screen(page, frame, f"{where}, at the end")
    snap(page, f"snap-story-{where}-end")
    assert_no_axe_violations(page)
    return seen


@pytest.mark.parametrize("size", list(SIZES))
def test_every_outcome_is_marked_at_the_cards(new_context: Any, server: LiveServer, size: str):
    page = new_context(viewport=SIZES[size]).new_page()
    page.goto(server.url + SETUP)
    seen = play(page, page.main_frame, size, axe_mid=size == "laptop-1366x768")
    assert "won" in seen and "wrong" in seen, f"{size}: outcomes seen {sorted(seen)}"
    assert {"lost", "slow", "missed"} & set(seen), f"{size}: no lost call seen: {sorted(seen)}"


def test_in_a_900_px_embed(new_context: Any, server: LiveServer, host_page: Any):
    src = server.url + "/embed" + SETUP
    url = host_page(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Our lesson</title>"
        f"</head><body><main><h1>Our lesson</h1><iframe src='{src}' width='{EMBED_WIDTH}'"
        f" height='{EMBED_HEIGHT}' title='Snap at the museum' style='border:0'></iframe>"
        "</main></body></html>"
    )
    page = new_context(viewport={"width": 1000, "height": 800}).new_page()
    page.goto(url)
    frame = page.locator("iframe").element_handle().content_frame()
    frame.wait_for_selector("text=Start")
    seen = play(page, frame, "embed-900", axe_mid=True)
    assert "won" in seen, sorted(seen)
    links = frame.evaluate(
        "() => [...document.querySelectorAll('#snap-game a[href]')].map(a => a.href)"
    )
    assert links and all(u.startswith(server.url + "/embed/") for u in links), links
