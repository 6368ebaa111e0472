"""Reload, Back and Forward keep the game (issue 23): every game, plain, embedded, kiosk mode.

A game's whole record is the signed token in its page. ``play.js`` keeps each table's token in
sessionStorage with its history entry's id (``navigation.currentEntry.id``); a reload, Back
or Forward lands on the game's setup address, and there the entry's game comes back by
itself (posted to the flow's resume address), or the setup offers "Carry on with your game".
A game is the same game when its step, its record (the token without its timestamp and
signature) and every card's accessible name are the same, and it plays on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .harness import LiveServer, assert_no_axe_violations, assert_targets_at_least, snap
from .test_stage_browser import FITS, SIZES, TOLERANCE, settled

CONFIG = {
    "PLAY_NONCE": "resume-test-deal",  # the same deal every run (the secret is fixed)
    "PLAY_PACE_MS": 250,  # Snap's computer players, quick
    "PLAY_MORE_PACE_MS": 150,  # Happy Families' and Snitch'ems'
    "PLAY_MAX_TURNS": 14,  # a short game of Snap (a finished game is not resumed)
    "FRAME_ANCESTORS": "'self' http://localhost:*",
}
QUICK_KIOSK = {"KIOSK_MODE": True, "TESTING": True, "IDLE_SECONDS": 3, "COUNTDOWN_SECONDS": 3}
GAMES = {
    "snap": "/sets/snap-standard-deck/play",
    "happy-families": "/sets/twizzles-happy-families/play/happy-families",
    "snitchems": "/sets/snitchems-1797/play/snitchems",
}
SETS = {game: path.split("/")[2] for game, path in GAMES.items()}
RESUMED = "Here is your game, as you left it."
CARRY_ON = "Carry on with your game"

# The table waits for the visitor: no pace, a move of theirs to make, no request in flight.
VISITOR_TO_MOVE = """(game) => {
  const g = document.querySelector('[data-game][data-step]');
  if (!g || g.dataset.game !== game || g.dataset.over !== '0' || g.dataset.pace) return false;
  if (!window.kioskPlay || window.kioskPlay.state.busy) return false;
  const shown = window.kioskPlay.log.filter((e) => e.type === 'shown');
  if (!shown.length || shown[shown.length - 1].step !== g.dataset.step) return false;
  const sel = game === 'snap' ? '#turn-button' : 'button[value^="pick:"]';
  return [...g.querySelectorAll(sel)].some((b) => !b.disabled);
}"""
# What makes the table this game at this moment (the token's record without its timestamp).
TABLE = """() => {
  const g = document.querySelector('[data-game][data-step]');
  const token = g.querySelector('#play-form input[name=token]').value;
  return {game: g.dataset.game, step: g.dataset.step, over: g.dataset.over,
          record: token.split('.').slice(0, -2).join('.'),
          cards: [...g.querySelectorAll('img')].map((i) => i.getAttribute('alt') || '')
                   .filter(Boolean)};
}"""
RESUMED_SHOWN = """(words) => !!window.kioskPlay && window.kioskPlay.log.some(
  (e) => e.type === 'shown' && e.said.includes(words))"""
KEPT = """() => {
  let stored = [];
  let entry = null;  // the game kept for this very history entry
  try {
    stored = Object.keys(sessionStorage).filter((k) => k.startsWith('kiosk.play:'));
    for (const k of stored) {
      const kept = JSON.parse(sessionStorage.getItem(k));
      if (kept.entry === navigation.currentEntry.id) entry = kept;
    }
  } catch (e) { stored = ['(storage refused: ' + e.name + ')']; }
  return {entry: entry, stored: stored};
}"""
ARRIVED = "() => !!document.querySelector('#play-resume[data-arrived]')"


@pytest.fixture(scope="module")
def game_server() -> Iterator[LiveServer]:
    """Fixed deals, quick computer players, short Snap; framable from another local site."""
    with LiveServer(CONFIG) as server:
        yield server


@pytest.fixture(scope="module")
def kiosk_server() -> Iterator[LiveServer]:
    """Kiosk mode with its default timings: no idle question while a test plays."""
    with LiveServer({**CONFIG, "KIOSK_MODE": True}) as server:
        yield server


@pytest.fixture(scope="module")
def quick_kiosk_server() -> Iterator[LiveServer]:
    """Kiosk mode that resets after 3 s idle and 3 s of countdown."""
    with LiveServer({**CONFIG, **QUICK_KIOSK}) as server:
        yield server


# --------------------------------------------------------------------------- the visitor


def wait_for_visitor(frame: Any, game: str, timeout: float = 15_000) -> None:
    frame.wait_for_function(VISITOR_TO_MOVE, arg=game, timeout=timeout)


def table(frame: Any) -> dict[str, Any]:
    return frame.evaluate(TABLE)


def move(frame: Any, game: str) -> None:
    """One move of the visitor's (the table is waiting for it), then wait for their next."""
    wait_for_visitor(frame, game)
    step = int(table(frame)["step"])
    if game == "snap":
        frame.get_by_role("button", name="Turn your card").tap()
    elif game == "happy-families":
        asks = frame.get_by_role("button", name=re.compile(r"^Ask (?!someone)"))
        next(b for b in asks.all() if b.is_enabled()).tap()
        offers = frame.get_by_role("button", name=re.compile(r"^Please may I have .+\?$"))
        expect(offers.first).to_be_visible()
        offers.first.tap()
    else:
        hand = frame.get_by_role("region", name="You", exact=True).get_by_role("button")
        card = next(b for b in hand.all() if b.is_enabled())
        name = card.inner_text().strip()
        card.tap()
        expect(card).to_have_attribute("aria-pressed", "true")
        captures = frame.get_by_role("button", name=re.compile(r"^Capture: "))
        if captures.count():
            captures.first.tap()
        else:
            frame.get_by_role("button", name=f"Lay the {name} on the table").tap()
    frame.wait_for_function(
        "n => window.kioskPlay.log.some((e) => e.type === 'shown' && Number(e.step) > n)",
        arg=step,
    )
    frame.wait_for_function(  # the visitor's turn again, or the end
        f"game => ({VISITOR_TO_MOVE})(game) || !!document.querySelector('[data-over=\"1\"]')",
        arg=game,
        timeout=15_000,
    )


def start(frame: Any, base: str | None, game: str) -> None:
    """Open the game's setup (unless the frame is on it) and tap Start with its defaults."""
    if base is not None:
        frame.goto(base + GAMES[game])
    if game == "happy-families":  # more players, a longer game
        frame.locator("label:has(input[name=bots][value='3'])").tap()
    frame.get_by_role("button", name="Start").tap()
    expect(frame.locator("#play-form")).to_be_attached()


def played_a_little(frame: Any, game: str, moves: int = 2) -> dict[str, Any]:
    """A few moves of the visitor's; the table as it then stands (waiting for the visitor)."""
    for _ in range(moves):
        move(frame, game)
    now = table(frame)
    assert int(now["step"]) >= moves and now["over"] == "0", now
    return now


def resumed(frame: Any) -> dict[str, Any]:
    """Wait for the game to come back; the table as it came back."""
    frame.wait_for_function(RESUMED_SHOWN, arg=RESUMED)
    expect(frame.get_by_role("status").first).to_contain_text(RESUMED)
    return table(frame)


def plays_on(frame: Any, game: str, before: dict[str, Any]) -> None:
    move(frame, game)
    assert int(table(frame)["step"]) > int(before["step"])


def documents(page: Any) -> list[tuple[str, str]]:
    """Every page load from now on: (method, URL)."""
    seen: list[tuple[str, str]] = []
    page.on(
        "request",
        lambda r: seen.append((r.method, r.url)) if r.is_navigation_request() else None,
    )
    return seen


# --------------------------------------------------------------------------- the plain site


@pytest.mark.parametrize("game", GAMES)
def test_a_reload_keeps_the_game(touch_page, game_server, game):
    page = touch_page
    start(page, game_server.url, game)
    before = played_a_little(page, game)
    length = page.evaluate("history.length")
    kept = page.evaluate(KEPT)
    assert kept["entry"]["token"] and kept["entry"]["game"] == game, kept
    assert kept["stored"] == [f"kiosk.play:{game}:{SETS[game]}"]
    loads = documents(page)

    page.reload()
    assert loads and all(method == "GET" for method, _ in loads), loads  # never a resubmission
    after = resumed(page)
    assert after == before
    assert page.url == game_server.url + GAMES[game]
    assert page.evaluate("history.length") == length  # in place: no new history entry
    snap(page, f"resume-{game}-after-reload", full_page=False)
    plays_on(page, game, before)


@pytest.mark.parametrize("game", GAMES)
def test_back_to_the_setup_and_forward_again_keep_the_game(touch_page, game_server, game):
    page = touch_page
    start(page, game_server.url, game)
    before = played_a_little(page, game)

    page.go_back()  # the setup, where the game began: it offers the game, and a new one
    carry_on = page.get_by_role("button", name=CARRY_ON)
    expect(carry_on).to_be_visible()
    expect(page.get_by_role("button", name="Start")).to_be_visible()
    expect(page.locator("[data-game][data-step]")).to_have_count(0)
    assert page.evaluate(KEPT)["entry"] is None  # the setup's own entry holds no game

    page.go_forward()  # the game's entry: the game comes back by itself
    assert resumed(page) == before

    page.go_back()
    expect(carry_on).to_be_visible()
    carry_on.tap()
    assert resumed(page) == before
    plays_on(page, game, before)


def test_a_finished_game_is_not_resumed(touch_page, game_server):
    page = touch_page
    start(page, game_server.url, "snap")
    wait_for_visitor(page, "snap")
    page.get_by_role("button", name="Turn my cards for me").tap()  # it plays itself to the end
    expect(page.locator("#snap-game[data-over='1']")).to_be_attached(timeout=60_000)
    assert page.evaluate(KEPT)["entry"] is None
    assert page.evaluate(KEPT)["stored"] == []

    page.reload()  # the setup, as it always was
    page.wait_for_function(ARRIVED)
    expect(page.locator("#play-resume")).to_be_hidden()
    expect(page.get_by_role("button", name="Start")).to_be_visible()
    expect(page.locator("[data-game][data-step]")).to_have_count(0)
    page.go_back()
    page.wait_for_function(ARRIVED)
    expect(page.get_by_role("button", name=CARRY_ON)).to_be_hidden()


@pytest.mark.expect_page_errors
def test_a_game_the_kiosk_cannot_read_gets_the_friendly_page_and_is_forgotten(
    touch_page, game_server
):
    page = touch_page
    errors = page.context.errors
    start(page, game_server.url, "snitchems")
    played_a_little(page, "snitchems", moves=1)
    page.evaluate(
        """() => { const k = 'kiosk.play:snitchems:snitchems-1797';
          const kept = JSON.parse(sessionStorage.getItem(k));
          sessionStorage.setItem(k, JSON.stringify({...kept, token: 'x' + kept.token})); }"""
    )
    page.reload()
    expect(page.get_by_role("heading", name="Let's start a new game")).to_be_visible()
    expect(page.get_by_role("link", name="Start a new game")).to_be_visible()
    page.wait_for_function(f"() => !({KEPT})().stored.length")
    assert errors.failed_requests and all(  # the resume's answer, 400, and nothing else
        f.startswith("400 POST") and f.endswith("/play/snitchems/resume")
        for f in errors.failed_requests
    ), errors.report()


def test_without_javascript_the_setup_offers_nothing(new_context, game_server):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(game_server.url + GAMES["happy-families"])
    expect(page.locator("#play-resume")).to_be_hidden()
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#play-form")).to_be_visible()


@pytest.mark.parametrize("mode", ["plain", "kiosk-largest"])
def test_carry_on_fits_every_screen_and_passes_axe(new_context, game_server, kiosk_server, mode):
    """The setup with its offer: one screen at every kiosk size (in kiosk mode at the largest
    text too), axe-clean, targets big enough."""
    server = game_server if mode == "plain" else kiosk_server
    problems = []
    for size, viewport in SIZES.items():
        page = new_context(viewport=viewport, has_touch=True, is_mobile=size.startswith("phone"))
        page = page.new_page()
        if mode == "kiosk-largest":
            page.goto(server.url + "/")
            page.get_by_role("button", name="Largest text").tap()
        for game, path in GAMES.items():
            start(page, server.url, game)
            wait_for_visitor(page, game)
            page.goto(server.url + path)  # a new visit to the setup: the offer shows
            expect(page.get_by_role("button", name=CARRY_ON)).to_be_visible()
            expect(page.get_by_role("button", name="Start")).to_be_visible()
            settled(page)
            problems += [f"{game} at {size}: {p}" for p in page.evaluate(FITS, [TOLERANCE])]
            snap(page, f"resume-carry-on-{game}-{size}-{mode}")
            if size == "laptop-1366x768":
                assert_no_axe_violations(page)
                assert_targets_at_least(page)
        page.context.close()
    if mode == "plain":
        page = new_context(viewport={"width": 900, "height": 900}, has_touch=True).new_page()
        start(page, server.url + "/embed", "snap")
        wait_for_visitor(page, "snap")
        page.goto(server.url + "/embed" + GAMES["snap"])
        expect(page.get_by_role("button", name=CARRY_ON)).to_be_visible()
        settled(page)
        problems += [f"snap embedded at 900: {p}" for p in page.evaluate(FITS, [TOLERANCE])]
        snap(page, "resume-carry-on-snap-embed-900")
    assert not problems, "\n".join(problems)


@pytest.mark.expect_page_errors
def test_when_the_game_cannot_be_fetched_the_setup_offers_it_again(touch_page, game_server):
    page = touch_page
    start(page, game_server.url, "snitchems")
    before = played_a_little(page, "snitchems", moves=1)
    page.route("**/resume", lambda route: route.abort())  # the network fails, once
    page.reload()
    carry_on = page.get_by_role("button", name=CARRY_ON)
    expect(carry_on).to_be_visible()  # the setup again: Start, and the game to carry on
    expect(page.get_by_role("button", name="Start")).to_be_visible()
    page.unroute("**/resume")
    carry_on.tap()
    assert resumed(page) == before


# --------------------------------------------------------------------------- embedded


@pytest.mark.parametrize("game", GAMES)
def test_an_embedded_game_survives_a_reload_under_embed(touch_page, game_server, game):
    page = touch_page
    ours: list[str] = []
    page.on(
        "request",
        lambda r: ours.append(urlsplit(r.url).path) if r.url.startswith(game_server.url) else None,
    )
    start(page, game_server.url + "/embed", game)
    before = played_a_little(page, game)
    assert page.evaluate(KEPT)["entry"]["token"]

    page.reload()
    assert resumed(page) == before
    assert page.url == game_server.url + "/embed" + GAMES[game]
    plays_on(page, game, before)
    action = page.locator("#play-form").get_attribute("action")
    assert action.startswith("/embed/"), action
    outside = [path for path in ours if not path.startswith("/embed/")]
    assert not outside, outside
    assert any(path.endswith("/resume") for path in ours), ours


def test_an_embedded_game_in_a_cross_site_frame_survives_a_reload(
    persistent_context, host_page, game_server
):
    """A school's page on another site, third-party cookies blocked (and with them, in
    Chromium, the frame's storage): the frame's window.name keeps it, the entry's id brings it
    back."""
    url = host_page(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>School</title>"
        "</head><body><main><h1>Our lesson</h1>"
        f"<iframe src='{game_server.url}/embed{GAMES['snitchems']}' title='Snitch&#39;ems game'"
        " width='1240' height='1000'></iframe></main></body></html>"
    )
    context = persistent_context(third_party_cookies="block", has_touch=True)
    page = context.new_page()
    page.goto(url)
    frame = page.locator("iframe").element_handle().content_frame()
    start(frame, None, "snitchems")
    before = played_a_little(frame, "snitchems")
    storage = frame.evaluate(KEPT)["stored"]

    frame.evaluate("location.reload()")
    assert resumed(frame) == before
    plays_on(frame, "snitchems", before)
    assert context.cookies() == []
    assert storage in (
        ["kiosk.play:snitchems:snitchems-1797"],
        ["(storage refused: SecurityError)"],
    )


# --------------------------------------------------------------------------- kiosk mode


def test_in_kiosk_mode_reload_back_and_forward_keep_the_game(touch_page, kiosk_server):
    page = touch_page
    start(page, kiosk_server.url, "happy-families")
    before = played_a_little(page, "happy-families")
    assert page.evaluate(KEPT)["entry"]

    page.reload()
    assert resumed(page) == before
    page.go_back()
    expect(page.get_by_role("button", name=CARRY_ON)).to_be_visible()
    page.go_forward()
    assert resumed(page) == before
    plays_on(page, "happy-families", before)


def test_after_the_idle_reset_nothing_of_the_game_comes_back(touch_page, quick_kiosk_server):
    page = touch_page
    home = quick_kiosk_server.url + "/"
    page.goto(home)
    page.goto(quick_kiosk_server.url + GAMES["snap"])
    page.get_by_role("button", name="Start").tap()
    expect(page.locator("#play-form")).to_be_attached()
    move(page, "snap")
    assert page.evaluate(KEPT)["stored"] == ["kiosk.play:snap:snap-standard-deck"]

    page.wait_for_url(home, timeout=20_000)  # idle 3 s, then 3 s of countdown
    page.wait_for_load_state()
    expect(page.locator("#main.page-home")).to_be_visible()
    assert page.evaluate("Object.keys(sessionStorage)") == ["kiosk.gone"]

    for _ in range(2):  # Back to the setup, then home: never the last visitor's game
        page.go_back()
        page.wait_for_url(home)
        page.wait_for_load_state()
        expect(page.locator("#main.page-home")).to_be_visible()
        expect(page.locator("#play-form")).to_have_count(0)
        assert page.evaluate(KEPT)["stored"] == []

    page.goto(quick_kiosk_server.url + GAMES["snap"])  # the next visitor's setup offers nothing
    page.wait_for_function(ARRIVED)
    expect(page.get_by_role("button", name=CARRY_ON)).to_be_hidden()
    expect(page.locator("[data-game][data-step]")).to_have_count(0)
