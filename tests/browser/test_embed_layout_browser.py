"""A school's page frames the kiosk 900 px wide: the setup and the rule steps fit the frame.

The frame is as a school's site would make it without the kiosk's embed.js: 900 px wide and
700 or 600 px high, and it keeps that size (600 px is what the embed code's frame keeps
without the script). In it, Snap's setup (the Woolworths set, with its flagged cards' notice,
and the standard pack) has every word of its tiles inside the tile's border, Start wholly in
the frame and tappable without scrolling, and targets of 48 px at least; a tap on Start starts
the game. A rule step fits the same frames (the checks of test_rules_browser.py's
STEP_LAYOUT), and no link an embedded rule step draws, before or after stepping through it
with the page's script, leads out of ``/embed/`` but the one way out, in a new tab: the same
step on the full kiosk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from kiosk.games import registry
from kiosk.web import content

from .harness import LiveServer, assert_no_axe_violations, assert_targets_at_least, snap
from .test_rules_browser import STEP_LAYOUT

FRAMABLE = {"FRAME_ANCESTORS": "'self' http://localhost:*"}
WIDTH = 900
HEIGHTS = [700, 600]
SETUPS = ["misc-869-1986", "snap-standard-deck"]
RULE_STEPS = ["snap/woolworths/3", "snap/snap-pool/12", "happy-families/classic/6"]

# Every word of a setup tile inside the tile's border (its text's line boxes, its button),
# and Start: where it is, whether it is the element on top at its middle, and whether the
# frame's page scrolls.
SETUP_FITS = """() => {
  const spills = [];
  for (const tile of document.querySelectorAll('.choice__tile, .choice__summary')) {
    if (tile.offsetParent === null) continue;
    const t = tile.getBoundingClientRect(), cs = getComputedStyle(tile);
    const box = {left: t.left + parseFloat(cs.borderLeftWidth),
                 right: t.right - parseFloat(cs.borderRightWidth),
                 top: t.top + parseFloat(cs.borderTopWidth),
                 bottom: t.bottom - parseFloat(cs.borderBottomWidth)};
    for (const el of tile.querySelectorAll('span, input')) {
      const style = getComputedStyle(el);
      if (el.offsetParent === null || style.clipPath === 'inset(50%)') continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      for (const r of [el.getBoundingClientRect(), ...range.getClientRects()]) {
        if (!r.width || !r.height) continue;
        const out = [];
        if (r.left < box.left - 0.5) out.push(`${Math.round(box.left - r.left)}px on the left`);
        if (r.right > box.right + 0.5) out.push(`${Math.round(r.right - box.right)}px right`);
        if (r.top < box.top - 0.5) out.push(`${Math.round(box.top - r.top)}px at the top`);
        if (r.bottom > box.bottom + 0.5) out.push(`${Math.round(r.bottom - box.bottom)}px below`);
        if (out.length) spills.push(`"${el.textContent.trim().slice(0, 30)}" runs over its tile's`
                                    + ` border: ${out.join(', ')}`);
      }
    }
  }
  const start = document.querySelector('.start-button');
  const r = start.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {spills: [...new Set(spills)], start: {top: r.top, bottom: r.bottom, left: r.left,
          right: r.right, width: r.width, height: r.height},
          onTop: !!hit && (hit === start || start.contains(hit)),
          width: innerWidth, height: innerHeight,
          scrolls: document.documentElement.scrollHeight > innerHeight + 1
            || document.scrollingElement.scrollTop > 0};
}"""

# Every address of a link on the page, where it opens, and its words.
LINKS = """() => [...document.querySelectorAll('a[href]')].map((a) => ({
  href: a.href, target: a.target, rel: a.rel, words: a.textContent.trim().slice(0, 40)}))"""


@pytest.fixture
def server(make_server: Callable[..., LiveServer]) -> LiveServer:
    return make_server(FRAMABLE)


def framed(server: LiveServer, path: str, height: int) -> str:
    """A school's lesson page: one frame of ``path``, 900 px wide, without embed.js."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Our lesson</title>"
        "</head><body><main><h1>Our lesson</h1>"
        f"<iframe src='{server.url}{path}' title='A card game at the museum' width='{WIDTH}'"
        f" height='{height}' style='border:0'></iframe></main></body></html>"
    )


def open_frame(new_context: Any, host_page: Callable[[str], str], page_html: str) -> Any:
    """The school's page on a touchscreen wide enough for the frame; the frame's page."""
    page = new_context(viewport={"width": 1000, "height": 900}, has_touch=True).new_page()
    page.goto(host_page(page_html))
    handle = page.locator("iframe").element_handle()
    frame = handle.content_frame()
    frame.wait_for_load_state()
    return page, frame


@pytest.mark.parametrize("height", HEIGHTS)
@pytest.mark.parametrize("slug", SETUPS)
def test_the_embedded_setup_fits_a_900px_frame(new_context, server, host_page, slug, height):
    page, frame = open_frame(
        new_context, host_page, framed(server, f"/embed/sets/{slug}/play", height)
    )
    start = frame.get_by_role("button", name="Start")
    expect(start).to_be_visible()
    frame.wait_for_function("() => document.fonts.status === 'loaded'")
    snap(page, f"embed-setup-{slug}-{WIDTH}x{height}", full_page=False)
    found = frame.evaluate(SETUP_FITS)
    assert not found["spills"], "\n".join(found["spills"])
    box = found["start"]
    assert found["width"] == WIDTH and found["height"] == height, found
    assert not found["scrolls"], "the frame's page scrolls"
    assert box["top"] >= 0 and box["bottom"] <= height and box["left"] >= 0, box
    assert box["right"] <= WIDTH, box
    assert box["width"] >= 48 and box["height"] >= 48, box
    assert found["onTop"], "something lies over Start"
    assert_targets_at_least(frame)
    start.tap()
    expect(frame.locator("#snap-game.stage:not(.game--setup)")).to_be_visible()
    assert frame.url.startswith(server.url + f"/embed/sets/{slug}/play")


def test_the_embedded_setup_passes_axe(new_context, server, host_page):
    page, frame = open_frame(
        new_context, host_page, framed(server, "/embed/sets/misc-869-1986/play", 600)
    )
    expect(frame.get_by_role("button", name="Start")).to_be_visible()
    assert_no_axe_violations(page)


@pytest.mark.parametrize("height", HEIGHTS)
@pytest.mark.parametrize("path", RULE_STEPS)
def test_an_embedded_rule_step_fits_a_900px_frame(new_context, server, host_page, path, height):
    page, frame = open_frame(new_context, host_page, framed(server, f"/embed/rules/{path}", height))
    frame.wait_for_function(
        "() => !!document.getElementById('rules-stage') && !document.querySelector('.htmx-request')"
        " && [...document.querySelectorAll('#rules-table img')].every((i) => i.complete)"
    )
    snap(page, f"embed-rules-{path.replace('/', '-')}-{WIDTH}x{height}", full_page=False)
    found = frame.evaluate(STEP_LAYOUT)
    assert not found["problems"], "\n".join(found["problems"])
    assert found["cardH"] >= 0.1 * found["tableH"], found
    assert_targets_at_least(frame)


def _scenarios(server: LiveServer) -> list[str]:
    """Every rule step-through of the server's own catalogue."""
    with server.app.test_request_context():
        return sorted(content.current().scenarios)


def test_no_link_of_an_embedded_rule_step_leads_out(new_context, server, host_page):
    """Every game's every step-through, framed, stepped through twice by the page's script:
    each link stays under /embed/, but the way out (a new tab, the same step on the kiosk)."""
    keys = _scenarios(server)
    assert {k.split("/")[0] for k in keys} == set(registry.names())
    _, frame = open_frame(new_context, host_page, framed(server, "/embed/rules/", 700))
    for key in keys:
        frame.goto(f"{server.url}/embed/rules/{key}/1")
        for n in (1, 2, 3):
            if n > 1:
                frame.locator('#rules-nav a[data-go="next"]').tap()
            frame.wait_for_function(
                # the step shown (an embed keeps no history: the frame's address stays)
                "(n) => !document.querySelector('.htmx-request')"
                " && document.getElementById('rules-count')?.textContent.startsWith(`Step ${n} `)",
                arg=n,
            )
            step = f"/rules/{key}/{n}"
            out = []
            for link in frame.evaluate(LINKS):
                url = urlsplit(link["href"])
                if url.netloc != urlsplit(server.url).netloc:
                    assert link["target"] == "_blank", (step, link)  # another site, a new tab
                elif not url.path.startswith("/embed/"):
                    out.append(link)
            assert [urlsplit(x["href"]).path for x in out] == [step], (step, out)
            assert out[0]["target"] == "_blank" and "noopener" in out[0]["rel"], out
            assert not frame.locator("a", has_text="Home").count(), step
