"""Happy Families and Snitch'ems played as a visitor plays them: on a touchscreen, by names.

The player here knows only what a screen reader would say: buttons by their accessible names
("Ask Canny Kit", "Please may I have Twizzle's cap?", "7 of Clubs", "Capture: …"), regions
by their players' names, and the status region's words. It plays whole games to the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import LiveServer, assert_no_axe_violations, assert_targets_at_least, snap

PACE_MS = 120  # the computer players' pace in these games (the kiosk's is about 2 s)
SHOWN = "() => window.kioskPlay ? window.kioskPlay.log.length : 0"
HF = "/sets/twizzles-happy-families/play/happy-families"
SN = "/sets/snitchems-1797/play/snitchems"


@pytest.fixture(scope="module")
def game_server() -> Iterator[LiveServer]:
    """The app with a quick pace, framable from another local site."""
    config = {"PLAY_MORE_PACE_MS": PACE_MS, "FRAME_ANCESTORS": "'self' http://localhost:*"}
    with LiveServer(config) as server:
        yield server


def shown(frame: Any) -> int:
    """How many tables play.js has shown (0 before it has booted)."""
    return int(frame.evaluate(SHOWN))


def step(frame: Any) -> int:
    """The number of moves in the game on screen."""
    return int(
        frame.evaluate(
            "() => { const g = document.querySelector('[data-game][data-step]');"
            " return g ? Number(g.dataset.step) : -1; }"
        )
    )


def wait_step(frame: Any, old: int, timeout: float = 8000) -> None:
    """Wait until a table with more than ``old`` moves has been shown."""
    frame.wait_for_function(
        "n => (window.kioskPlay ? window.kioskPlay.log : []).some(e => Number(e.step) > n)",
        arg=old,
        timeout=timeout,
    )


# The visitor's own buttons: an "Ask …" of Happy Families, a card in hand of Snitch'ems.
ASK = "button.hf-pick"
MY_CARD = ".sn-hand__card"
# A table after move ``n`` has been shown, or one of the visitor's buttons is on: a snapshot of
# the buttons may be taken while they are off for a moment (a request in flight).
STEPPED_OR_MINE = """([n, mine]) =>
  (window.kioskPlay ? window.kioskPlay.log : []).some(e => Number(e.step) > n)
  || !!document.querySelector(mine + ':enabled')"""


def wait_turn(frame: Any, old: int, mine: str = ASK, timeout: float = 8000) -> None:
    """Wait until the computer players have moved on from move ``old``, or the visitor may move
    (one of the buttons ``mine`` is on)."""
    frame.wait_for_function(STEPPED_OR_MINE, arg=[old, mine], timeout=timeout)


def said_at(frame: Any, n: int) -> str:
    """The status words of the table shown after move ``n`` (read when it was shown)."""
    return str(
        frame.evaluate(
            "n => (window.kioskPlay.log.find(e => Number(e.step) === n) || {}).said || ''", n
        )
    )


def over(frame: Any) -> bool:
    return frame.locator("[data-game][data-step][data-over='1']").count() > 0


def check_result(frame: Any, rules_href: str) -> str:
    result = frame.get_by_role("heading", name=re.compile("^Game over"))
    expect(result).to_be_visible()
    expect(frame.get_by_role("button", name="Play again")).to_be_visible()
    link = frame.get_by_role("link", name=re.compile("step by step")).last
    expect(link).to_have_attribute("href", rules_href)
    return result.inner_text()


# --------------------------------------------------------------------------- Happy Families


def start_families(frame: Any, bots: int, memory: str, rules: str | None = None) -> None:
    frame.get_by_role("radio", name=re.compile(f"^{bots} computer players")).tap()
    frame.get_by_text(memory, exact=True).tap()
    if rules:
        frame.get_by_text("Which rules?").first.tap()  # the choice of rules starts closed
        frame.get_by_text(rules, exact=True).tap()
    frame.get_by_role("button", name="Start").tap()
    expect(frame.get_by_role("region", name="You", exact=True)).to_be_visible()
    frame.wait_for_function(f"() => ({SHOWN})() > 0")


def play_families(frame: Any, check_a11y: bool = False) -> list[str]:
    """Play to the end: tap the first player who can be asked, then the first card offered."""
    said: list[str] = []
    checked = False
    for _ in range(300):
        if over(frame):
            break
        old = step(frame)  # read first: the table may change while we look at it
        asks = frame.get_by_role("button", name=re.compile(r"^Ask (?!someone)"))
        enabled = [b for b in asks.all() if b.is_enabled()]
        if not enabled:  # the computer players are asking: their words come one at a time
            wait_turn(frame, old)
            if step(frame) > old:
                said.append(said_at(frame, old + 1))
            continue
        enabled[0].tap()
        offers = frame.get_by_role("button", name=re.compile(r"^Please may I have .+\?$"))
        expect(offers.first).to_be_visible()
        expect(frame.get_by_role("status")).to_contain_text("Now choose what to ask")
        if check_a11y and not checked:
            assert_no_axe_violations(frame.page if hasattr(frame, "page") else frame)
            assert_targets_at_least(frame)
            snap(frame, "happy-families-asking")
            checked = True
        wanted = offers.first.inner_text().strip()
        old = step(frame)
        offers.first.tap()
        wait_step(frame, old)
        words = said_at(frame, old + 1)
        assert f"“{wanted}”" in words, words
        said.append(words)
    expect(frame.locator("[data-game][data-step][data-over='1']")).to_have_count(1)
    return said


@pytest.mark.parametrize(
    ("bots", "rules", "variant"),
    [
        (2, None, "classic"),
        (3, "Happy Families: asking for whole families", "variation"),
    ],
)
def test_a_whole_game_of_happy_families_on_a_touchscreen(
    touch_page, game_server, bots, rules, variant
):
    page = touch_page
    page.goto(game_server.url + HF)
    assert_no_axe_violations(page)
    assert_targets_at_least(page)
    start_families(page, bots, "Good memories", rules)
    said = play_families(page, check_a11y=True)
    assert any(re.search(r"asks (you|Canny \w+): “Please may I have", s) for s in said), said
    assert any("thought: “" in s for s in said), said
    check_result(page, f"/rules/happy-families/{variant}")
    assert_no_axe_violations(page)
    assert_targets_at_least(page)
    snap(page, f"happy-families-{variant}-result")


def test_happy_families_by_keyboard_with_reduced_motion(reduced_motion_page, game_server):
    page = reduced_motion_page
    page.goto(game_server.url + HF)
    start_families(page, 2, "Daydreamers")
    for _ in range(100):
        asks = page.get_by_role("button", name=re.compile(r"^Ask (?!someone)"))
        old = step(page)
        if any(b.is_enabled() for b in asks.all()):
            break
        if over(page):  # the computer players finished before the visitor's turn came
            page.get_by_role("button", name="Play again").tap()
            page.wait_for_function(
                "() => document.querySelector('[data-over=\"0\"]') && window.kioskPlay.log"
                ".every(e => !e.over)"
            )  # the new game's table is shown, and the log is the new game's
            continue
        wait_turn(page, old)
    else:
        raise AssertionError("the visitor's turn never came")
    next(b for b in asks.all() if b.is_enabled()).focus()
    page.keyboard.press("Enter")
    offer = page.get_by_role("button", name=re.compile(r"^Please may I have"))
    expect(offer.first).to_be_visible()
    wanted = offer.first.inner_text().strip()
    old = step(page)
    offer.first.focus()
    page.keyboard.press("Space")
    wait_step(page, old)
    assert f"“{wanted}”" in said_at(page, old + 1)
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")


def test_without_javascript_happy_families_is_forms(new_context, game_server):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(game_server.url + HF)
    page.get_by_role("button", name="Start").click()
    for _ in range(60):
        asks = [
            b
            for b in page.get_by_role("button", name=re.compile(r"^Ask (?!someone)")).all()
            if b.is_enabled()
        ]
        if asks:
            break
        again = page.get_by_role("button", name="Play again")
        if again.count():  # the computers finished before the visitor's turn: deal again
            again.click()
            continue
        page.get_by_role("button", name="Next").click()
        expect(page.get_by_role("status")).to_contain_text("asks")
    asks[0].click()
    offer = page.get_by_role("button", name=re.compile(r"^Please may I have"))
    wanted = offer.first.inner_text().strip()
    offer.first.click()
    expect(page.get_by_role("status")).to_contain_text(f"“{wanted}”")


# --------------------------------------------------------------------------- Snitch'ems


def play_snitchems(frame: Any, check_a11y: bool = False) -> dict[str, Any]:
    """Play to the end: try each card in hand; take the first capture offered, else lay it."""
    status = frame.get_by_role("status")
    seen: dict[str, Any] = {"said": [], "explained": 0, "captures": 0}
    hand = frame.get_by_role("region", name="You", exact=True).get_by_role("button")
    for _ in range(400):
        if over(frame):
            break
        old = step(frame)  # read first: the table may change while we look at it
        cards = [b for b in hand.all() if b.is_enabled()]
        if not cards:
            wait_turn(frame, old, MY_CARD)
            if step(frame) > old:
                seen["said"].append(said_at(frame, old + 1))
            continue
        names = [c.inner_text().strip() for c in cards]
        moved = False
        for name in names:
            card = hand.filter(has_text=name).first
            card.tap()
            expect(card).to_have_attribute("aria-pressed", "true")
            expect(frame.get_by_role("heading", name=f"The {name}", exact=True)).to_be_visible()
            captures = frame.get_by_role("button", name=re.compile(r"^Capture: "))
            if captures.count():
                if check_a11y and not seen["captures"]:
                    assert_no_axe_violations(frame)
                    assert_targets_at_least(frame)
                    snap(frame, "snitchems-choosing")
                if not seen["explained"]:
                    # a capture is compulsory: the table offers no Lay, and says why
                    lay = frame.get_by_role("button", name=re.compile(r"^Lay the "))
                    expect(lay).to_have_count(0)
                    expect(status).to_contain_text("when you can capture, you must")
                    seen["explained"] += 1
                old = step(frame)
                captures.first.tap()
                wait_step(frame, old)
                words = said_at(frame, old + 1)
                assert "You capture:" in words, words
                seen["captures"] += 1
                moved = True
                break
        if not moved:
            old = step(frame)
            frame.get_by_role("button", name=f"Lay the {names[-1]} on the table").tap()
            wait_step(frame, old)
            words = said_at(frame, old + 1)
            assert "You lay the" in words, words
        seen["said"].append(status.inner_text())
        seen["said"].append(frame.locator(".sn-score").inner_text())
    expect(frame.locator("[data-game][data-step][data-over='1']")).to_have_count(1)
    return seen


def test_a_whole_game_of_snitchems_on_a_touchscreen(touch_page, game_server):
    page = touch_page
    page.goto(game_server.url + SN)
    assert_no_axe_violations(page)
    page.get_by_text("Thinks ahead", exact=True).tap()
    page.get_by_role("button", name="Start").tap()
    table = page.get_by_role("region", name="The table")
    expect(table.get_by_role("img")).to_have_count(4)
    expect(page.locator(".sn-score")).to_contain_text("Deal 1 of 8")
    seen = play_snitchems(page, check_a11y=True)
    assert seen["captures"] >= 1 and seen["explained"] == 1, seen["said"][-5:]
    assert any("Deal 8 of 8" in s for s in seen["said"]), seen["said"]
    check_result(page, "/rules/snitchems/dealing")
    scores = page.locator(".result__list li").all_inner_texts()
    assert sum(int(re.search(r"(\d+) cards", t).group(1)) for t in scores) == 52, scores
    assert_no_axe_violations(page)
    assert_targets_at_least(page)
    snap(page, "snitchems-result")


def test_snitchems_inside_a_cross_origin_iframe(persistent_context, host_page, game_server):
    """A school's page on another site frames the game (its /embed/ address: the kiosk's own
    pages are framed by the kiosk alone); third-party cookies are blocked."""
    url = host_page(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>School</title>"
        "</head><body><main><h1>Our lesson</h1>"
        f"<iframe src='{game_server.url}/embed{SN}' title='Snitch&#39;ems game'"
        " width='1240' height='1600'></iframe></main></body></html>"
    )
    context = persistent_context(third_party_cookies="block", has_touch=True)
    page = context.new_page()
    page.goto(url)
    frame = page.locator("iframe").element_handle().content_frame()
    frame.get_by_role("button", name="Start").tap()
    expect(frame.locator(".sn-score")).to_contain_text("Deal 1 of 8")
    play_snitchems(frame)
    check_result(frame, "/embed/rules/snitchems/dealing")
    assert context.cookies() == []
    assert_no_axe_violations(page)


def test_happy_families_inside_a_cross_origin_iframe(persistent_context, host_page, game_server):
    url = host_page(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>School</title>"
        "</head><body><main><h1>Our lesson</h1>"
        f"<iframe src='{game_server.url}/embed{HF}' title='Happy Families game'"
        " width='1240' height='1600'></iframe></main></body></html>"
    )
    context = persistent_context(third_party_cookies="block", has_touch=True)
    page = context.new_page()
    page.goto(url)
    frame = page.locator("iframe").element_handle().content_frame()
    start_families(frame, 2, "Daydreamers")
    play_families(frame)
    check_result(frame, "/embed/rules/happy-families/classic")
    assert context.cookies() == []
    assert_no_axe_violations(page)


def test_without_javascript_snitchems_is_forms(new_context, game_server):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(game_server.url + SN)
    page.get_by_role("button", name="Start").click()
    hand = page.get_by_role("region", name="You", exact=True).get_by_role("button")
    for _ in range(10):
        if hand.first.is_enabled():
            break
        page.get_by_role("button", name="Next").click()
    name = hand.first.inner_text().strip()
    hand.first.click()
    expect(hand.first).to_have_attribute("aria-pressed", "true")
    captures = page.get_by_role("button", name=re.compile(r"^Capture: "))
    if captures.count():
        captures.first.click()
        expect(page.get_by_role("status")).to_contain_text("You capture:")
    else:
        page.get_by_role("button", name=f"Lay the {name} on the table").click()
        expect(page.get_by_role("status")).to_contain_text(
            re.compile(r"You lay the|You must capture when you can")
        )
