"""The curators' pages in a real browser (issue 15): the emblem gallery, drawn and accessible;
the preview bar with the content's problems, and the page of them all."""

from __future__ import annotations

import shutil

from playwright.sync_api import expect

from kiosk.catalogue.looks import EMBLEM_ORDER
from kiosk.config import ROOT

from .harness import assert_no_axe_violations, snap


def test_the_emblem_gallery(live_server, page):
    page.goto(live_server.url + "/curators/emblems")
    figures = page.locator(".emblem-gallery figure")
    expect(figures).to_have_count(len(EMBLEM_ORDER))
    for n in range(len(EMBLEM_ORDER)):
        box = figures.nth(n).locator("svg").bounding_box()
        assert box is not None and box["width"] >= 100, EMBLEM_ORDER[n]
    snap(page, "curators-emblems")
    assert_no_axe_violations(page)


BROKEN = "---\nkind: note\nslug: broken\ntitle: Broken: a colon\nsummary: S.\n---\nText.\n"


def test_preview_shows_the_problems_on_every_page(make_server, page, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "notes" / "broken.md").write_text(BROKEN, encoding="utf-8")
    server = make_server({"PREVIEW": True, "CONTENT_DIR": str(content)})
    page.goto(server.url + "/")
    bar = page.get_by_role("complementary", name="Preview for curators")
    expect(bar).to_contain_text("content/notes/broken.md:4:14")
    assert_no_axe_violations(page)
    page.get_by_role("link", name="Sets", exact=True).click()  # a boosted navigation
    expect(page.locator("h1")).to_have_text("The sets")
    expect(bar).to_contain_text("content/notes/broken.md:4:14")
    bar.get_by_role("link", name="All content problems").click()
    expect(page.locator("h1")).to_have_text("Content problems")
    expect(page.locator("#problems-heading + ul")).to_contain_text("YAML: mapping values")
    snap(page, "curators-problems")
    assert_no_axe_violations(page)
