"""The catalogue as a visitor meets it: tapped through on a touchscreen, checked by axe-core."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .harness import assert_no_axe_violations, assert_targets_at_least, snap

SET_SLUG = "misc-869-1986"
# The Woolworths Snap set's link is named by its title (whatever the curator's exact words).
SET_NAME = re.compile(r"^(?!Play\b)(?=.*\bSnap\b)(?=.*Woolworths)", re.IGNORECASE)
FLAGGED_CARD = "Golly Oh Golly!"
NOTE_PATH = "/notes/golliwog"

PAGES = {
    "home": "/",
    "sets": "/sets/",
    "woolworths-set": f"/sets/{SET_SLUG}",
    "standard-snap-set": "/sets/snap-standard-deck",
    "snitchems-set": "/sets/snitchems-1797",
    "twizzles-set": "/sets/twizzles-happy-families",
    "golliwog-note": NOTE_PATH,
}
REQUIRED = ["home", "woolworths-set", "golliwog-note"]  # the three
PAGE_PARAMS = [
    pytest.param(PAGES[name], id=name)
    for name in [*REQUIRED, *(n for n in PAGES if n not in REQUIRED)]
]


def _set_link(page):
    """The link to MISC.869-1986: named with the set's title, pointing at its record."""
    return page.get_by_role("link", name=SET_NAME).and_(
        page.locator(f"a[href$='/sets/{SET_SLUG}']")
    )


def _flagged_tile(page):
    """The list item of the card grid that holds the flagged card (covered or not)."""
    view = page.get_by_role("button", name="View card", include_hidden=True)
    return page.locator("li").filter(has=view).filter(has_text=FLAGGED_CARD)


def _card_face(tile):
    """The flagged card's picture: named by the card's printed title."""
    name = re.compile(re.escape(FLAGGED_CARD.rstrip("!")))
    return tile.get_by_role("img", name=name, include_hidden=True)


def _assert_covered(tile) -> None:
    view = tile.get_by_role("button", name="View card")
    expect(view).to_be_visible()
    # The cover names what the card shows, specifically, before anyone chooses to look.
    expect(tile.get_by_text(re.compile(r"shows a golliwog", re.IGNORECASE))).to_be_visible()
    expect(_card_face(tile)).to_have_count(1)  # it is there, under its cover
    expect(_card_face(tile)).to_be_hidden()


def _assert_revealed(tile) -> None:
    expect(_card_face(tile)).to_be_visible()
    expect(tile.get_by_role("button", name="View card")).to_be_hidden()
    expect(tile.get_by_role("link", name=re.compile("cover", re.IGNORECASE))).to_be_visible()


def test_tap_from_home_to_the_woolworths_set_and_the_golliwog_note(touch_page, live_server):
    page = touch_page
    page.goto(live_server.url + "/")
    snap(page, "catalogue/01-home")

    link = _set_link(page)
    expect(link).to_have_count(1)
    link.tap()
    page.wait_for_url(f"**/sets/{SET_SLUG}")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Woolworths")
    expect(page.get_by_text("MISC.869-1986").first).to_be_visible()
    snap(page, "catalogue/02-woolworths-set")

    tile = _flagged_tile(page)
    expect(tile).to_have_count(1)
    tile.scroll_into_view_if_needed()
    _assert_covered(tile)
    snap(page, "catalogue/03-covered-card")

    tile.get_by_role("button", name="View card").tap()
    _assert_revealed(tile)
    assert page.url.endswith(f"/sets/{SET_SLUG}"), "revealing in place, not a new page"
    snap(page, "catalogue/04-revealed-card")

    tile.get_by_role("link", name=re.compile("cover", re.IGNORECASE)).tap()
    _assert_covered(tile)

    note = tile.get_by_role("link").and_(tile.locator(f"a[href$='{NOTE_PATH}']"))
    expect(note).to_have_count(1)
    note.tap()
    page.wait_for_url(f"**{NOTE_PATH}")
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        re.compile("golliwog", re.IGNORECASE)
    )
    snap(page, "catalogue/05-golliwog-note")


@pytest.mark.parametrize("key", ["Enter", "Space"])
def test_view_card_by_keyboard(page, live_server, key):
    page.goto(f"{live_server.url}/sets/{SET_SLUG}")
    tile = _flagged_tile(page)
    _assert_covered(tile)
    tile.get_by_role("button", name="View card").focus()
    page.keyboard.press(key)
    _assert_revealed(tile)
    # Focus lands on the control that covers the card again, so the keyboard is not lost.
    focused = page.evaluate("() => document.activeElement.textContent.trim()")
    assert re.search("cover", focused, re.IGNORECASE), focused
    page.keyboard.press("Enter")
    _assert_covered(tile)


def test_view_card_works_without_javascript(new_context, live_server):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(f"{live_server.url}/sets/{SET_SLUG}")
    tile = _flagged_tile(page)
    _assert_covered(tile)
    tile.get_by_role("button", name="View card").click()
    page.wait_for_load_state()
    assert "view=" in page.url  # the server sent the page back with the card uncovered
    _assert_revealed(_flagged_tile(page))


def test_a_reload_covers_the_card_again(page, live_server):
    page.goto(f"{live_server.url}/sets/{SET_SLUG}")
    tile = _flagged_tile(page)
    tile.get_by_role("button", name="View card").click()
    _assert_revealed(tile)
    page.goto(f"{live_server.url}/sets/{SET_SLUG}")
    _assert_covered(_flagged_tile(page))


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_no_axe_violations(page, live_server, path):
    page.goto(live_server.url + path)
    assert_no_axe_violations(page)


def test_no_axe_violations_with_the_card_revealed(page, live_server):
    page.goto(f"{live_server.url}/sets/{SET_SLUG}")
    _flagged_tile(page).get_by_role("button", name="View card").click()
    assert_no_axe_violations(page)


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_touch_targets_are_at_least_48_px(touch_page, live_server, path):
    touch_page.goto(live_server.url + path)
    assert_targets_at_least(touch_page, 48)
