"""A teacher's first ten minutes (issue 18): an embed that displays on any site by default,
the "Embed this" panel whose copied code works as pasted, and print and play on A4."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import assert_no_axe_violations, assert_targets_at_least, snap

GAME = "/embed/sets/misc-869-1986/play"
A4 = {"width": 794, "height": 1123}  # 210 x 297 mm at 96 CSS px to the inch
MM = 96 / 25.4


def school_page(src: str, title: str = "A card game at the museum") -> str:
    """A lesson page on another site, framing ``src`` as the kiosk's docs say."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Our lesson</title>"
        "</head><body><main><h1>Our lesson</h1>"
        f"<iframe src='{src}' title='{title}' width='1000' height='700'></iframe>"
        "</main></body></html>"
    )


def frame_of(page: Any) -> Any:
    frame = page.locator("iframe").element_handle().content_frame()
    frame.wait_for_load_state()
    return frame


def test_another_site_frames_the_game_and_plays_a_turn_by_default(page, live_server, host_page):
    """No KIOSK_FRAME_ANCESTORS: /embed/ pages are framed by any site (`frame-ancestors *`)."""
    assert live_server.app.config["FRAME_ANCESTORS"] == "*"  # the default
    page.goto(host_page(school_page(live_server.url + GAME)))
    frame = frame_of(page)
    frame.get_by_role("button", name="Start").click()
    turn = frame.locator("#turn-button")
    expect(turn).to_be_enabled(timeout=10_000)
    status = frame.locator("#game-status")
    before = status.inner_text()
    turn.click()
    expect(status).not_to_have_text(before, timeout=10_000)
    assert frame.url.startswith(live_server.url + GAME)
    assert frame.locator("header.site-header").count() == 0


def test_the_copied_embed_code_works_when_pasted_on_another_site(
    new_context, live_server, host_page
):
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(live_server.url + "/sets/misc-869-1986")
    panel = page.locator("#embed-this")
    panel.scroll_into_view_if_needed()
    copy = panel.get_by_role("button", name="Copy the code")
    expect(copy).to_be_visible()
    copy.click()
    expect(panel.get_by_role("status")).to_contain_text("Copied")
    code = page.evaluate("() => navigator.clipboard.readText()")
    assert code == panel.locator("textarea").input_value()
    assert f'src="{live_server.url}/embed/sets/misc-869-1986"' in code
    assert f'src="{live_server.url}/static/js/embed.js"' in code
    assert_no_axe_violations(page)
    assert_targets_at_least(page, 48)
    snap(page, "teach-embed-panel-set")

    lesson = context.new_page()
    lesson.goto(host_page(f"<!doctype html><html lang='en'><title>Lesson</title><body>{code}"))
    frame = frame_of(lesson)
    expect(frame.locator("h1")).to_contain_text("Snap")
    lesson.wait_for_function("() => document.querySelector('iframe').clientHeight > 700")


def test_a_rule_step_opens_its_embed_panel_over_the_stage(page, live_server):
    page.goto(live_server.url + "/rules/snap/classic/3")
    opener = page.get_by_role("button", name="Embed this")
    opener.click()
    dialog = page.get_by_role("dialog", name="Embed this on your own site")
    expect(dialog).to_be_visible()
    code = dialog.locator("textarea").input_value()
    assert f"{live_server.url}/embed/rules/snap/classic/1" in code  # the whole step-through
    assert_no_axe_violations(page)
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()


@pytest.mark.parametrize("mode", ["kiosk", "embed"])
def test_no_embed_panel_in_kiosk_mode_or_inside_an_embed(page, make_server, live_server, mode):
    if mode == "kiosk":
        url = make_server({"KIOSK_MODE": True}).url + "/sets/misc-869-1986"
    else:
        url = live_server.url + "/embed/sets/misc-869-1986"
    page.goto(url)
    expect(page.locator("h1")).to_be_visible()
    assert page.locator("#embed-this, .teach").count() == 0


def test_print_and_play_lays_out_on_a4(new_context, live_server):
    page = new_context(viewport=A4).new_page()
    page.goto(live_server.url + "/sets/misc-869-1986/print")
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    page.emulate_media(media="print")
    assert page.locator("header.site-header").is_hidden()
    assert page.get_by_role("button", name="Print").is_hidden()
    cards = page.locator(".card-sheet__img")
    assert cards.count() == 43  # 47 cards less the four flagged ones
    first = cards.first.bounding_box()
    assert abs(first["width"] - 63 * MM) < 2 and abs(first["height"] - 88 * MM) < 2, first
    # three to a row, inside the A4 page's 186 mm between its margins
    row = [cards.nth(i).bounding_box()["y"] for i in range(4)]
    assert row[0] == row[1] == row[2] < row[3]
    assert page.locator(".strip__step").count() >= 5
    assert page.get_by_text(re.compile(r"Left out: the 4 .Golly Oh Golly!. cards")).count() == 1
    path = snap(page, "print-misc-869-1986-a4")
    assert path.stat().st_size > 10_000
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF")
