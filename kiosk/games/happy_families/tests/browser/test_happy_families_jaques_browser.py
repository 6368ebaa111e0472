"""Jaques' Happy Families played to the end in a browser, on a big touchscreen and a phone.

The player is the one of test_play_more_browser: it knows only the buttons' accessible names
and the status region's words, and taps the first player it may ask, then the first card.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from browser.harness import LiveServer, assert_no_axe_violations, assert_targets_at_least, snap
from browser.test_play_more_browser import (
    PACE_MS,
    SHOWN,
    check_result,
    play_families,
    step,
    wait_step,
    wait_turn,
)
from browser.test_stage_browser import FITS, TOLERANCE
from playwright.sync_api import expect

JAQUES = "/sets/jaques-happy-families"


@pytest.fixture(scope="module")
def game_server() -> Iterator[LiveServer]:
    """The app with the quick pace the other turn-game tests use."""
    with LiveServer({"PLAY_MORE_PACE_MS": PACE_MS}) as server:
        yield server


def start(page) -> None:
    """Two forgetful computer players, by the radios' names (on a phone their words are
    read out, not shown, so a tap goes to the radio itself)."""
    page.get_by_role("radio", name=re.compile("^2 computer players")).check()
    page.get_by_role("radio", name=re.compile("^Daydreamers")).check()
    page.get_by_role("button", name="Start").tap()
    expect(page.get_by_role("region", name="You", exact=True)).to_be_visible()
    page.wait_for_function(f"() => ({SHOWN})() > 0")


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (390, 844)])
def test_a_whole_game_with_jaques_pack(new_context, game_server, width, height):
    phone = width < 600
    page = new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=phone
    ).new_page()
    page.goto(game_server.url + JAQUES + "/play/happy-families")
    assert_no_axe_violations(page)
    start(page)
    assert page.evaluate(FITS, [TOLERANCE]) == []  # a hand of ten families fits its seat
    said = play_families(page, check_a11y=True)
    asked = [s for s in said if "“Please may I have " in s]
    assert len(asked) > 20, said  # ten families make a game, not a minute's watching
    assert any(re.search(r"“Please may I have (Mr|Mrs|Master|Miss) \w+ the ", s) for s in said)
    assert not [s for s in said if "not recorded" in s], "every card of this pack is recorded"
    check_result(page, "/rules/happy-families/classic")
    expect(page.get_by_role("heading", name=re.compile("^Game over"))).to_be_visible()
    assert_no_axe_violations(page)
    assert_targets_at_least(page)
    assert page.evaluate(FITS, [TOLERANCE]) == []
    snap(page, f"happy-families-jaques-result-{width}x{height}")


@pytest.mark.parametrize(("width", "height"), [(1080, 1920), (1366, 768)])
def test_a_hand_of_many_families_fits_every_screen(new_context, game_server, width, height):
    page = new_context(viewport={"width": width, "height": height}, has_touch=True).new_page()
    page.goto(game_server.url + JAQUES + "/play/happy-families")
    start(page)
    for _ in range(12):  # the deal, then a few asks: hands of every size on the way
        assert page.evaluate(FITS, [TOLERANCE]) == [], step(page)
        if page.locator("[data-game][data-over='1']").count():
            break
        asks = [b for b in page.get_by_role("button", name=re.compile(r"^Ask (?!someone)")).all()]
        old = step(page)
        if any(b.is_enabled() for b in asks):
            next(b for b in asks if b.is_enabled()).tap()
            page.get_by_role("button", name=re.compile(r"^Please may I have")).first.tap()
            wait_step(page, old)
        else:  # the computer players ask, or the visitor's buttons were off for a moment
            wait_turn(page, old)
    snap(page, f"happy-families-jaques-{width}x{height}")
