"""Snap played as a visitor plays it: on a touchscreen, by reading the cards, in an iframe too.

The player in these tests only knows what a screen reader would say: each face-up card's
accessible name in the region named for its player. It taps Snap! when two names match,
calls wrongly once on purpose, turns its own card when asked, and plays to the result.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from game_files import shipped_variants
from playwright.sync_api import expect

from .harness import LiveServer, assert_no_axe_violations, assert_targets_at_least, snap

DEBUG = bool(os.environ.get("PLAY_DEBUG"))
PACE_MS = 700  # the computer players' pace in these games (the kiosk's is 1.2–2.2 s)
MAX_TURNS = 24  # a short game (the kiosk's bound is 100 turns)
# a visitor's quickest reaction: a call under 100 ms (snap.FALSE_START_MS) from a card's
# paint is a false start, answered "Too late" (tests/browser/test_fair_timing_browser.py)
REACTION_MS = 150
ALTS = "els => els.map(e => e.getAttribute('alt') || '')"
REGIONS = """els => els.map(r => [
  (r.getAttribute('aria-labelledby') || '').split(' ')
    .map(id => (document.getElementById(id) || {}).textContent || '').join(' ').trim(),
  [...r.querySelectorAll('img')].map(i => i.getAttribute('alt') || '').filter(Boolean)])"""
SNAPSHOT = f"""() => {{
  const on = (id) => {{ const b = document.getElementById(id); return !!b && !b.disabled; }};
  const regions = ({REGIONS})([...document.querySelectorAll('section[aria-labelledby]')]);
  const game = document.getElementById('snap-game');
  return {{regions: Object.fromEntries(regions), over: !!game && game.dataset.over === '1',
          snap: on('snap-button'), pool: on('pool-button'), turn: on('turn-button'),
          status: (document.querySelector('[role=status]') || {{}}).innerText || '',
          painted: window.kioskPlay ? window.kioskPlay.log.filter(
            e => e.type === 'painted').length : 0}};
}}"""
PAINTED = "() => window.kioskPlay ? window.kioskPlay.log.filter(e => e.type === 'painted') : []"


@pytest.fixture(scope="module")
def game_server() -> Iterator[LiveServer]:
    """The app with short games and a quick pace, framable from another local site."""
    config = {
        "PLAY_PACE_MS": PACE_MS,
        "PLAY_MAX_TURNS": MAX_TURNS,
        "PLAY_NONCE": "browser-test-deal",  # the same deal every run (the secret is fixed)
        "FRAME_ANCESTORS": "'self' http://localhost:*",
    }
    with LiveServer(config) as server:
        yield server


# --------------------------------------------------------------------------- the visitor


def rank(name: str) -> str:
    """ "Queen of Hearts" → "Queen" (the standard pack matches by rank)."""
    return name.split(" of ")[0]


def picture(name: str) -> str:
    return name


def family(name: str) -> str:
    """'“Cap”, Twizzle family' → "Twizzle" (Twizzle Snap matches by family)."""
    return name.rsplit(", ", 1)[-1].removesuffix(" family")


@dataclass
class Played:
    """What happened in one game, for the assertions."""

    matches_called: int = 0
    wins: int = 0
    wrong_calls: int = 0
    turns_taken: int = 0
    lines: list[str] = field(default_factory=list)


def painted_count(frame: Any) -> int:
    return len(frame.evaluate(PAINTED))


def wait_painted(frame: Any, after: int, timeout: float = 8000) -> None:
    frame.wait_for_function(f"n => ({PAINTED})().length > n", arg=after, timeout=timeout)


def react(frame: Any) -> None:
    """Wait as a person would: no call before REACTION_MS after the card was painted."""
    frame.evaluate(
        """ms => new Promise(done => setTimeout(done, Math.max(0,
            ms - (performance.now() - (window.kioskSnap.state.paintedAt || 0)))))""",
        REACTION_MS,
    )


def table(frame: Any) -> dict[str, list[str]]:
    """Every region's name and the accessible names of its cards, read in one go."""
    regions = frame.get_by_role("region").evaluate_all(REGIONS)
    return {name: alts for name, alts in regions}


def play_a_game(frame: Any, key: Callable[[str], str], central: bool = False) -> Played:
    """Play to the end as a visitor: read, tap Snap! on a match, one wrong call on purpose."""
    played = Played()
    getattr(frame, "page", frame).set_default_timeout(5000)  # the table moves on: fail fast
    deadline = time.monotonic() + 420  # 20 s alone; a loaded machine is much slower
    seats = [name for name in table(frame) if name not in ("The pool", "The centre pile")]
    snap_button = frame.get_by_role("button", name="Snap!", exact=True)
    pool_button = frame.get_by_role("button", name="Snap Pool!", exact=True)
    turn_button = frame.get_by_role("button", name="Turn your card")
    seen = ""
    for _ in range(600):
        now = frame.evaluate(SNAPSHOT)
        if now["status"] != seen:
            seen = now["status"]
            played.lines.append(seen)
            if re.search(r"You called (Snap Pool! )?first", seen):
                played.wins += 1
        if now["over"]:
            break
        assert time.monotonic() < deadline, played.lines[-5:]
        cards, count = now["regions"], now["painted"]
        if central:
            names = [n.removeprefix("Under it: ") for n in cards.get("The centre pile", [])]
            match = len(names) == 2 and key(names[0]) == key(names[1])
            up = {key(names[-1])} if names else set()
        else:
            keys = [key(n) for seat in seats for n in cards.get(seat, [])]
            match = len(set(keys)) < len(keys)
            up = set(keys)
        pool_match = bool({key(n) for n in cards.get("The pool", [])} & up)
        try:
            if match and now["snap"]:
                react(frame)
                snap_button.tap()
                played.matches_called += 1
            elif pool_match and now["pool"]:
                react(frame)
                pool_button.tap()
                played.matches_called += 1
            elif not played.wrong_calls and now["turn"] and now["snap"] and not match:
                # the visitor's own turn (no pace timer runs): a call now is surely wrong
                react(frame)
                snap_button.tap()
                wait_painted(frame, count)
                words = frame.evaluate(SNAPSHOT)["status"]
                assert "No match —" in words, words
                played.wrong_calls += 1
                continue
            elif now["turn"]:
                turn_button.tap()
                played.turns_taken += 1
            wait_painted(frame, count, timeout=15000)
        except AssertionError:
            raise
        except Exception as exc:
            if DEBUG:
                print("retry after", type(exc).__name__, str(exc)[:200], flush=True)
            # the table moved on under the finger (a swap mid-tap): read it again
            continue
        if DEBUG:
            print(round(time.monotonic() - deadline + 420, 2), seen.replace("\n", " "), flush=True)
    expect(frame.locator("#snap-game[data-over='1']")).to_have_count(1)
    return played


def start_game(frame: Any, bots: int, rules: str | None) -> None:
    """Two taps (plus the rules, when not the set's own): players, then Start."""
    frame.get_by_role("radio", name=re.compile(f"^{bots} computer player")).tap()
    if rules is not None:
        variant = shipped_variants("snap")[rules]
        frame.get_by_text("Which rules?").first.tap()
        name = f"{variant.title} {variant.description}"
        frame.get_by_role("radio", name=name, exact=True).check()
    frame.get_by_role("button", name="Start").tap()
    expect(
        frame.get_by_role("button", name="Snap!", exact=True).or_(
            frame.get_by_text("snaps by itself")
        )
    ).to_be_visible()
    frame.wait_for_function(f"() => ({PAINTED})().length > 0")


def check_result(frame: Any, played: Played, rules_slug: str, prefix: str = "") -> None:
    assert played.wrong_calls == 1, played.lines[-5:]
    result = frame.get_by_role("heading", name=re.compile("^Game over"))
    expect(result).to_be_visible()
    expect(frame.get_by_role("button", name="Play again")).to_be_visible()
    link = frame.get_by_role("link", name=re.compile("step by step")).last
    expect(link).to_have_attribute("href", f"{prefix}/rules/snap/{rules_slug}")


GAMES = [
    pytest.param("snap-standard-deck", None, "classic", rank, False, id="classic-standard"),
    pytest.param("misc-869-1986", None, "woolworths", picture, False, id="woolworths-card"),
    pytest.param("twizzles-happy-families", None, "classic", family, False, id="twizzle-snap"),
    pytest.param(
        "snap-standard-deck",
        "penalty-card-each",
        "penalty-card-each",
        rank,
        False,
        id="penalty-card-each",
    ),
    pytest.param("snap-standard-deck", "easy", "easy", rank, True, id="easy-snap"),
]


@pytest.mark.parametrize(("slug", "rules", "variant", "key", "central"), GAMES)
def test_play_a_whole_game_on_a_touchscreen(
    touch_page, game_server, slug, rules, variant, key, central
):
    page = touch_page
    page.goto(f"{game_server.url}/sets/{slug}/play")
    start_game(page, 3, rules)
    played = play_a_game(page, key, central)
    check_result(page, played, variant)
    if not central:  # four piles, this deal: matches show (and are called)
        assert played.matches_called >= 1, played.lines
        # each call is put into words: won, too slow (a loaded machine), too late, or a tie
        calls = [w for w in played.lines if re.search(r"You called|Too slow|Too late|together", w)]
        # or none put into words: a held tap whose card had gone is dropped in silence
        dropped = page.evaluate(
            "() => window.kioskPlay.log.filter(e => e.type === 'absorbed' && e.why === 'gone')"
            ".length"
        )
        assert calls or dropped, played.lines
    snap(page, f"play-{variant}-{slug}-result")


def test_the_woolworths_game_leaves_out_the_flagged_cards(touch_page, game_server):
    page = touch_page
    page.goto(f"{game_server.url}/sets/misc-869-1986/play")
    notice = page.get_by_role("note").filter(has_text="left out of this game")
    expect(notice).to_contain_text("Golly Oh Golly!")
    expect(notice.get_by_role("link", name=re.compile("Read our note"))).to_have_attribute(
        "href", "/notes/golliwog"
    )
    start_game(page, 1, None)
    expect(page.get_by_role("note").filter(has_text="left out of this game")).to_be_visible()
    names = page.evaluate("() => [...document.querySelectorAll('img')].map(i => i.alt).join(' | ')")
    assert "Golly" not in names


def test_the_game_page_passes_axe_and_target_sizes(touch_page, game_server):
    page = touch_page
    page.goto(f"{game_server.url}/sets/misc-869-1986/play")
    assert_no_axe_violations(page)
    assert_targets_at_least(page)
    start_game(page, 2, None)
    page.get_by_role("button", name="Turn your card").tap()
    wait_painted(page, 1)
    assert_no_axe_violations(page)
    assert_targets_at_least(page)
    snap(page, "play-table")


def test_space_calls_snap_and_reduced_motion_still_plays(reduced_motion_page, game_server):
    page = reduced_motion_page
    page.goto(f"{game_server.url}/sets/snap-standard-deck/play")
    start_game(page, 1, None)
    count = painted_count(page)
    page.get_by_role("button", name="Turn your card").tap()
    wait_painted(page, count)
    count = painted_count(page)
    page.keyboard.press("Space")
    wait_painted(page, count)
    words = page.get_by_role("status").inner_text()
    assert re.search(r"No match|You called|Too late|Too slow|together", words), words
    calls = page.evaluate("() => window.kioskPlay.log.filter(e => e.type === 'call')")
    assert calls and calls[-1]["reaction"] >= 0


def test_without_javascript_every_button_is_a_form(new_context, game_server):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(f"{game_server.url}/sets/snap-standard-deck/play")
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="Turn your card").click()
    expect(page.get_by_role("status")).to_contain_text("You turn up")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("status")).to_contain_text("Sleepy Sam turns up")


def test_a_game_inside_a_cross_origin_iframe(persistent_context, host_page, game_server):
    """A school's page on another site frames the game; third-party cookies are blocked.

    It frames the /embed/ address, as a school does: the kiosk's own pages are framed by the
    kiosk alone (frame-ancestors 'self'), whatever KIOSK_FRAME_ANCESTORS says."""
    url = host_page(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>School</title>"
        "</head><body><main><h1>Our lesson</h1>"
        f"<iframe src='{game_server.url}/embed/sets/snap-standard-deck/play' title='Snap game'"
        " width='1240' height='1500'></iframe></main></body></html>"
    )
    context = persistent_context(third_party_cookies="block", has_touch=True)
    page = context.new_page()
    page.goto(url)
    frame = page.locator("iframe").element_handle().content_frame()
    expect(frame.get_by_role("button", name="Start")).to_be_visible()
    assert frame.url.startswith(game_server.url)
    assert page.url.startswith("http://localhost:")
    start_game(frame, 3, None)
    played = play_a_game(frame, rank)
    check_result(frame, played, "classic", prefix="/embed")  # links stay inside the embed
    assert played.matches_called >= 1, played.lines
    assert context.cookies() == []
    assert_no_axe_violations(page)
