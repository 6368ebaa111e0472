"""Kiosk mode on a touchscreen: the idle question and reset, the attract loop, the lock-down.

Short timings (idle 3 s, countdown 3 s, a set slide 2 s) make the two-stage timeout testable;
the accessibility sweep runs on a server with the default timings, so that no dialog opens
while axe-core is looking.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import (
    LiveServer,
    assert_targets_at_least,
    format_violations,
    run_axe,
    snap,
)

QUICK = {
    "KIOSK_MODE": True,
    "TESTING": True,
    "IDLE_SECONDS": 3,
    "COUNTDOWN_SECONDS": 3,
    "ATTRACT_SLIDE_SECONDS": 2,
}
FLAGGED = "golly-oh-golly"  # the golliwog card of MISC.869-1986: never in the attract loop

# Every page type, as kiosk mode shows it (the game tables are reached by their Start button).
PAGES = {
    "home": "/",
    "sets": "/sets/",
    "a-set": "/sets/misc-869-1986",
    "a-note": "/notes/golliwog",
    "games": "/games/",
    "a-game": "/games/snap",
    "rules-index": "/rules/",
    "a-rule-step": "/rules/snap/snap-pool/3",
    "snap-setup": "/sets/misc-869-1986/play",
    "families-setup": "/sets/twizzles-happy-families/play/happy-families",
    "snitchems-setup": "/sets/snitchems-1797/play/snitchems",
    "attract-set-slide": "/attract/1",
    "attract-rule-slide": "/attract/2",
}
TABLES = {
    "snap": ("/sets/snap-standard-deck/play", "#snap-game"),
    "happy-families": ("/sets/twizzles-happy-families/play/happy-families", "#happy-families-game"),
    "snitchems": ("/sets/snitchems-1797/play/snitchems", "#snitchems-game"),
}


@pytest.fixture(scope="module")
def quick_server() -> Iterator[LiveServer]:
    with LiveServer(QUICK) as server:
        yield server


@pytest.fixture(scope="module")
def kiosk_server() -> Iterator[LiveServer]:
    with LiveServer({"KIOSK_MODE": True}) as server:
        yield server


def assert_kiosk_axe(page: Any) -> None:
    """No axe-core violation at all (kiosk mode stops pinch zoom with touch-action instead)."""
    violations = run_axe(page)["violations"]
    assert not violations, f"axe-core violations on {page.url}:\n" + format_violations(violations)


def start(page: Any, url: str, root: str) -> None:
    """Open a game's setup and tap Start with its defaults: the table appears."""
    page.goto(url)
    page.get_by_role("button", name="Start").tap()
    expect(page.locator(root + " form, " + root + " [data-step]").first).to_be_attached()
    expect(page.locator(root)).to_be_visible()


def font_size(page: Any) -> float:
    return page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")


def pressed(page: Any) -> list[str]:
    buttons = page.locator("[data-set-text-size][aria-pressed='true']")
    return [b.get_attribute("data-set-text-size") for b in buttons.all()]


# --------------------------------------------------------------------------- idle, two stages


def test_the_countdown_shows_and_a_tap_extends_it(touch_page, quick_server):
    page = touch_page
    page.goto(quick_server.url + "/sets/misc-869-1986")
    dialog = page.locator("dialog#kiosk-idle")
    expect(dialog).to_be_visible(timeout=8000)
    stay = dialog.get_by_role("button", name="I'm still here")
    assert page.evaluate("document.activeElement.hasAttribute('data-idle-stay')")
    box = stay.bounding_box()
    assert box and box["width"] >= 48 and box["height"] >= 48
    expect(dialog.locator("[data-idle-status]")).to_contain_text("start again in 3 seconds")
    first = int(dialog.locator("[data-idle-count]").inner_text())
    page.wait_for_timeout(1100)
    later = int(dialog.locator("[data-idle-count]").inner_text())
    assert 1 <= later < first <= 3

    page.touchscreen.tap(12, 600)  # a tap anywhere, here on the backdrop, answers
    expect(dialog).to_be_hidden()
    assert page.evaluate("window.kioskMode.phase()") == "active"
    page.wait_for_timeout(2500)  # longer than the countdown had left
    assert page.url == quick_server.url + "/sets/misc-869-1986"

    expect(dialog).to_be_visible(timeout=8000)  # quiet again: asked again
    snap(page, "kiosk-still-there", full_page=False)
    stay.tap()
    expect(dialog).to_be_hidden()
    assert page.url == quick_server.url + "/sets/misc-869-1986"
    assert page.evaluate("window.kioskMode.phase()") == "active"


def test_the_reset_drops_the_game_covers_the_cards_and_leaves_no_way_back(touch_page, quick_server):
    page = touch_page
    home = quick_server.url + "/"
    page.goto(home)
    page.get_by_role("button", name="Largest text").tap()
    page.locator("a[href$='/sets/misc-869-1986']").first.tap()
    page.wait_for_url("**/sets/misc-869-1986")
    page.get_by_role("button", name="View card").tap()
    face = page.locator("[data-flagged] [data-face] img")
    expect(face).to_be_visible()
    page.evaluate("localStorage.setItem('left-behind', '1')")
    page.get_by_role("link", name=re.compile("^Play Snap")).first.tap()
    page.wait_for_url("**/sets/misc-869-1986/play")
    page.get_by_role("button", name="Start").tap()
    expect(page.locator("#play-form")).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.textSize") == "largest"

    page.wait_for_url(home, timeout=15_000)  # idle 3 s, then 3 s of countdown
    page.wait_for_load_state()
    expect(page.locator("#main.page-home")).to_be_visible()
    expect(page.locator("#play-form")).to_have_count(0)
    assert page.evaluate("document.documentElement.dataset.textSize") is None
    assert pressed(page) == ["standard"]
    keys = page.evaluate("Object.keys(sessionStorage).concat(Object.keys(localStorage))")
    assert keys == ["kiosk.gone"]  # the entries left behind (kiosk-mode.js): nothing else

    for _ in range(3):  # Back, as often as there was history: never the last visitor's pages
        page.go_back()
        page.wait_for_url(home)
        page.wait_for_load_state()
        expect(page.locator("#main.page-home")).to_be_visible()
        expect(page.locator("#play-form")).to_have_count(0)

    page.goto(quick_server.url + "/sets/misc-869-1986")
    expect(page.locator("[data-flagged] [data-cover]")).to_be_visible()
    expect(face).to_be_hidden()


def test_the_idle_timer_survives_boosted_navigation_and_starts_once(touch_page, quick_server):
    page = touch_page
    page.goto(quick_server.url + "/")
    page.evaluate("window.sameDocument = true")
    nav = page.get_by_role("navigation", name="Main")
    for name, path in (("Sets", "/sets/"), ("Games", "/games/"), ("Rules", "/rules/")):
        nav.get_by_role("link", name=name).tap()
        page.wait_for_url("**" + path)
    assert page.evaluate("window.sameDocument") is True  # boosted: one document throughout
    assert page.evaluate("window.kioskMode.starts()") == 1
    assert page.evaluate("document.body.classList.contains('is-kiosk')")
    expect(page.locator("dialog#kiosk-idle")).to_be_visible(timeout=8000)


# --------------------------------------------------------------------------- the attract loop


def test_the_attract_loop_starts_on_home_after_idle_and_a_tap_stops_it(touch_page, quick_server):
    page = touch_page
    page.goto(quick_server.url + "/")
    layer = page.locator("#kiosk-attract")
    first = layer.locator("[data-attract-slide][data-n='1']")
    expect(first).to_be_visible(timeout=10_000)  # no "still there?" on the home page
    expect(page.locator("dialog#kiosk-idle")).to_be_hidden()
    expect(first.locator(".attract-title")).not_to_be_empty()
    snap(page, "kiosk-attract-set", full_page=False)

    rule = layer.locator("[data-attract-slide][data-n='2']")
    expect(rule).to_be_visible(timeout=8000)
    expect(rule.locator("[data-frame='1']")).to_be_visible()
    expect(rule.locator("[data-frame='2']")).to_be_visible(timeout=8000)  # the rule plays
    expect(rule.locator("[data-frame]:not([hidden])")).to_have_count(1)
    sources = layer.locator("img").evaluate_all("(imgs) => imgs.map((i) => i.src)")
    assert sources and not [s for s in sources if FLAGGED in s]
    snap(page, "kiosk-attract-rule", full_page=False)

    page.touchscreen.tap(900, 500)
    expect(layer).to_be_hidden()
    assert page.url == quick_server.url + "/"
    expect(page.locator("#main.page-home h1")).to_be_visible()
    assert page.evaluate("window.kioskMode.phase()") == "active"


def test_with_reduced_motion_the_attract_loop_only_changes_slides(
    reduced_motion_page, quick_server
):
    page = reduced_motion_page
    page.goto(quick_server.url + "/")
    rule = page.locator("#kiosk-attract [data-attract-slide][data-n='2']")
    expect(rule).to_be_visible(timeout=15_000)
    last = rule.locator("[data-frame]").last.get_attribute("data-frame")
    seen = set()
    for _ in range(40):  # watch the slide until the next one replaces it
        found = page.evaluate(
            """() => {
              const slide = document.querySelector("#kiosk-attract [data-n='2']");
              return slide ? [...slide.querySelectorAll("[data-frame]:not([hidden])")]
                .map((f) => f.dataset.frame).join(",") : null;
            }"""
        )
        if found is None:
            break
        seen.add(found)
        page.wait_for_timeout(150)
    assert seen == {last}  # only its last step, standing still
    expect(page.locator("#kiosk-attract [data-attract-slide][data-n='3']")).to_be_visible()


# --------------------------------------------------------------------------- locked down


def test_the_text_size_control_changes_the_root_size_for_the_visit(touch_page, kiosk_server):
    page = touch_page
    page.goto(kiosk_server.url + "/")
    standard = font_size(page)
    assert pressed(page) == ["standard"]
    page.get_by_role("button", name="Large text").tap()
    assert pressed(page) == ["large"]
    assert font_size(page) == pytest.approx(standard * 1.5, rel=0.02)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sets").tap()
    page.wait_for_url("**/sets/")
    assert pressed(page) == ["large"]
    assert font_size(page) == pytest.approx(standard * 1.5, rel=0.02)
    page.get_by_role("button", name="Largest text").tap()
    assert font_size(page) == pytest.approx(standard * 2, rel=0.02)
    page.reload()
    assert pressed(page) == ["largest"]
    assert_targets_at_least(page)
    page.get_by_role("button", name="Standard text").tap()
    assert font_size(page) == pytest.approx(standard, rel=0.02)


LOCKED = """(selector) => {
  const table = document.querySelector(selector);
  const fire = (event) => { table.dispatchEvent(event); return event.defaultPrevented; };
  const style = getComputedStyle(table);
  return {
    contextmenu: fire(new MouseEvent('contextmenu', {bubbles: true, cancelable: true})),
    selectstart: fire(new Event('selectstart', {bubbles: true, cancelable: true})),
    ctrlWheel: fire(new WheelEvent('wheel', {bubbles: true, cancelable: true, ctrlKey: true})),
    plainWheel: fire(new WheelEvent('wheel', {bubbles: true, cancelable: true})),
    userSelect: style.userSelect,
    touchAction: style.touchAction,
  };
}"""


@pytest.mark.parametrize("game", list(TABLES))
def test_the_game_table_is_locked_down(touch_page, kiosk_server, game):
    page = touch_page
    path, root = TABLES[game]
    start(page, kiosk_server.url + path, root)
    found = page.evaluate(LOCKED, root)
    assert found == {
        "contextmenu": True,
        "selectstart": True,
        "ctrlWheel": True,
        "plainWheel": False,  # scrolling still works
        "userSelect": "none",
        "touchAction": "pan-x pan-y",
    }
    viewport = page.locator("meta[name=viewport]").get_attribute("content")
    assert "user-scalable" not in viewport and "maximum-scale" not in viewport


# --------------------------------------------------------------------------- every page type


@pytest.mark.parametrize("path", [pytest.param(p, id=k) for k, p in PAGES.items()])
def test_no_axe_or_csp_violations_in_kiosk_mode(touch_page, kiosk_server, path):
    page = touch_page
    page.goto(kiosk_server.url + path)
    expect(page.locator("html.is-kiosk")).to_have_count(1)
    expect(page.locator("body.is-kiosk")).to_have_count(1)
    assert_kiosk_axe(page)
    assert_targets_at_least(page)


@pytest.mark.parametrize("game", list(TABLES))
def test_no_axe_violations_on_a_game_table_in_kiosk_mode(touch_page, kiosk_server, game):
    page = touch_page
    path, root = TABLES[game]
    start(page, kiosk_server.url + path, root)
    assert_kiosk_axe(page)
    assert_targets_at_least(page)


@pytest.mark.expect_page_errors
def test_the_error_page_in_kiosk_mode(page, kiosk_server, page_errors):
    response = page.goto(kiosk_server.url + "/no-such-page")
    assert response is not None and response.status == 404
    expect(page.locator("html.is-kiosk")).to_have_count(1)
    assert_kiosk_axe(page)
    assert_targets_at_least(page)
    assert page_errors.failed_requests == [f"404 GET {kiosk_server.url}/no-such-page"]
    assert not page_errors.csp_violations and not page_errors.page_errors


def test_the_open_dialog_and_the_attract_layer_pass_axe(touch_page, quick_server):
    page = touch_page
    page.goto(quick_server.url + "/games/")
    expect(page.locator("dialog#kiosk-idle")).to_be_visible(timeout=8000)
    assert_kiosk_axe(page)
    assert_targets_at_least(page)
    page.get_by_role("button", name="I'm still here").tap()

    page.goto(quick_server.url + "/")
    expect(page.locator("#kiosk-attract [data-attract-slide]")).to_be_visible(timeout=10_000)
    assert_kiosk_axe(page)
