"""The curators' pages in a real browser (issue 15): the emblem gallery, drawn and accessible."""

from __future__ import annotations

from playwright.sync_api import expect

from kiosk import cardfaces

from .harness import assert_no_axe_violations, snap


def test_the_emblem_gallery(live_server, page):
    page.goto(live_server.url + "/curators/emblems")
    figures = page.locator(".emblem-gallery figure")
    expect(figures).to_have_count(len(cardfaces.EMBLEM_ORDER))
    for n in range(len(cardfaces.EMBLEM_ORDER)):
        box = figures.nth(n).locator("svg").bounding_box()
        assert box is not None and box["width"] >= 100, cardfaces.EMBLEM_ORDER[n]
    snap(page, "curators-emblems")
    assert_no_axe_violations(page)
