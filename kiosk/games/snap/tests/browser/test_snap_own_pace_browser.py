"""Snap at your own pace (issue 24) in Chromium: whole games by keyboard alone and by one
switch (two keys), with the live region's announcements checked and axe at 0.

Nothing moves by itself at your own pace (no data-pace: the page never posts "Next"), so
the visitor's "Go on" moves the game a step at a time, and a match waits for them: the live
region says the card turned and "It's a match — press Snap!". Keyboard alone: Tab and
Shift+Tab move between Snap! and "Go on", Enter presses. One switch: only Tab (move to the
next button) and Space (press it), as a switch interface sends them.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser.harness import assert_no_axe_violations, snap
from playwright.sync_api import expect

SETUP = "/sets/snap-standard-deck/play"
CONFIG = {"PLAY_MAX_TURNS": 40, "PLAY_NONCE": "own-pace"}
MATCH = "It's a match — press Snap!"
PAINTS = "() => window.kioskPlay.log.filter(e => e.type === 'painted').length"
AFTER = "n => window.kioskPlay.log.filter(e => e.type === 'painted').length > n"
QUIET = """() => { const s = window.kioskSnap.state;
  return !s.busy && !s.pending && !s.call; }"""


def start(page: Any, url: str) -> None:
    page.goto(url + SETUP)
    page.locator("input[name=mode][value=own-pace]").check()
    page.get_by_text("Speedy Sid").first.click()  # the quickest: it still never calls first
    page.get_by_role("button", name="Start").click()
    page.wait_for_function(PAINTS + " > 0")


def live(page: Any) -> str:
    return page.locator("#game-status[role=status][aria-live=polite]").inner_text()


def focused(page: Any) -> str:
    return page.evaluate("() => document.activeElement && document.activeElement.id")


def press_tab_until(page: Any, target: str, back: bool = False) -> None:
    """Tab (or Shift+Tab), until the button ``target`` has the focus."""
    for _ in range(40):
        if focused(page) == target:
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached #{target} (at #{focused(page)})")


def play(page: Any, switch: bool, shots: str | None = None) -> dict:
    """Play to the end: Snap! on every match the live region announces, else "Go on"."""
    seen = {"matches": 0, "won": 0, "axed": False}
    assert page.locator("#snap-game").get_attribute("data-pace") is None
    for _ in range(400):
        page.wait_for_function(QUIET)
        if page.locator("#snap-game").get_attribute("data-over") == "1":
            break
        said = live(page)
        n = page.evaluate(PAINTS)
        if MATCH in said:
            seen["matches"] += 1
            if shots and not seen["axed"]:
                assert_no_axe_violations(page)
                snap(page, f"{shots}-match", full_page=False)
                seen["axed"] = True
            press_tab_until(page, "snap-button", back=not switch)
            page.keyboard.press("Space" if switch else "Enter")
        else:
            press_tab_until(page, "next-button")
            page.keyboard.press("Space" if switch else "Enter")
        page.wait_for_function(AFTER, arg=n)
        page.wait_for_function(QUIET)
        if MATCH in said:
            after = live(page)
            # the visitor's call, however slow, comes first: the computer never beats it
            assert "You called first" in after, after
            seen["won"] += 1
        # nothing moves by itself at your own pace
        assert page.locator("#snap-game").get_attribute("data-pace") is None
    expect(page.locator("#result-title")).to_be_visible()
    if shots:
        snap(page, f"{shots}-result", full_page=False)
    return seen


@pytest.mark.parametrize("switch", [False, True], ids=["keyboard", "one-switch"])
def test_own_pace_whole_game_by_keys(new_context, make_server, switch):
    server = make_server(CONFIG)
    page = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.set_default_timeout(30_000)
    start(page, server.url)
    expect(page.locator("#own-pace-keys")).to_contain_text("Tab moves to the next button")
    expect(page.locator("#auto-button")).to_have_count(0)  # two buttons: Snap! and Go on
    seen = play(page, switch, shots=None if switch else "snap-own-pace-1920x1080")
    assert seen["matches"] >= 1 and seen["won"] == seen["matches"], seen
