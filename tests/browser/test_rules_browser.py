"""Rule steps in a real browser: Next, arrow keys and Play, with and without reduced motion."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .harness import assert_no_axe_violations, assert_targets_at_least, snap

SCENARIOS = ["snap/snap-pool", "snitchems/pairing"]

# Counts the view transitions rules.js starts, and checks every card's name is unique.
WATCH = """
window.__vt = {count: 0, dupes: 0, names: 0, flips: 0};
const start = Document.prototype.startViewTransition;
if (start) {
  Document.prototype.startViewTransition = function (update) {
    const named = [...document.querySelectorAll('[data-card]')]
      .filter((el) => el.style.viewTransitionName);
    const names = named.map((el) => el.style.viewTransitionName);
    window.__vt.count += 1;
    window.__vt.names += names.length;
    window.__vt.flips += named.filter((el) => el.style.viewTransitionClass === 'flip').length;
    if (new Set(names).size !== names.length) window.__vt.dupes += 1;
    return start.call(this, update);
  };
}
"""


def _motion_page(new_context, reduced: bool):
    options = {"has_touch": True, "is_mobile": False}
    if reduced:
        options["reduced_motion"] = "reduce"
    context = new_context(**options)
    context.add_init_script(WATCH)
    return context.new_page()


def _steps(page, base: str, key: str) -> list[dict]:
    return page.request.get(f"{base}/rules/{key}/steps.json").json()["steps"]


def _nav(page, go: str):
    """A step control by its role in the bar (its name is checked once, in the axe test)."""
    return page.locator(f'#rules-nav a[data-go="{go}"]')


def _count(page):
    return page.locator("#rules-count")


def _settled(page, n: int, total: int) -> None:
    """Wait (frame by frame, not in Playwright's slower expect steps) for step n to land."""
    page.wait_for_function(
        """(text) => {
          const stage = document.getElementById('rules-stage');
          const count = document.getElementById('rules-count');
          return !!stage && !!count && stage.dataset.state === 'idle'
            && count.textContent.trim() === text;
        }""",
        arg=f"Step {n} of {total}",
        polling="raf",
        timeout=10_000,
    )


def _places(page) -> dict[str, list[str]]:
    return page.evaluate("""() => {
      const out = {};
      for (const el of document.querySelectorAll('#rules-table [data-card]')) {
        (out[el.dataset.place] ||= []).push(el.dataset.card);
      }
      return out;
    }""")


def _want(step: dict) -> dict[str, list[str]]:
    return {
        p: [re.sub(r"[^A-Za-z0-9_-]", "_", c) for c in ids]
        for p, ids in step["places"].items()
        if ids
    }


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced"])
@pytest.mark.parametrize("key", SCENARIOS)
def test_next_steps_through_every_step(new_context, live_server, key, reduced):
    page = _motion_page(new_context, reduced)
    steps = _steps(page, live_server.url, key)
    total = len(steps)
    page.goto(f"{live_server.url}/rules/{key}/1")
    _settled(page, 1, total)
    label = f"rules-{key.replace('/', '-')}-{'reduced' if reduced else 'motion'}"
    for n in range(1, total + 1):
        assert _places(page) == _want(steps[n - 1])
        if not reduced:  # one screenshot per step is enough: the reduced run looks the same
            snap(page, f"{label}-{n:02d}", full_page=False)
        if n == total:
            break
        _nav(page, "next").tap()
        _settled(page, n + 1, total)
        assert page.url.endswith(f"/rules/{key}/{n + 1}")
    expect(_nav(page, "next")).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile(r"^Next"))).to_have_count(0)
    vt = page.evaluate("window.__vt")
    assert vt["dupes"] == 0
    if reduced:
        assert vt["count"] == 0  # the change is instant
    else:
        assert vt["count"] >= total - 3  # nearly every step moves a card
        assert vt["flips"] > 0  # cards turned over turn
    page.go_back()
    _settled(page, total - 1, total)


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced"])
@pytest.mark.parametrize("key", SCENARIOS)
def test_arrow_keys_step_forward_and_back(new_context, live_server, key, reduced):
    page = _motion_page(new_context, reduced)
    total = len(_steps(page, live_server.url, key))
    page.goto(f"{live_server.url}/rules/{key}/1")
    _settled(page, 1, total)
    for n in range(2, 5):
        page.keyboard.press("ArrowRight")
        _settled(page, n, total)
    page.keyboard.press("ArrowLeft")
    _settled(page, 3, total)
    assert page.url.endswith(f"/rules/{key}/3")


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced"])
@pytest.mark.parametrize("key", SCENARIOS)
def test_play_runs_to_the_end_and_pause_stops(new_context, live_server, key, reduced):
    page = _motion_page(new_context, reduced)
    steps = _steps(page, live_server.url, key)
    total = len(steps)
    first = total - 5  # the last six steps: Play's pace is the same from anywhere
    page.goto(f"{live_server.url}/rules/{key}/{first}?dwell=60")
    _settled(page, first, total)
    page.get_by_role("link", name="Play", exact=True).tap()
    expect(page.get_by_role("link", name="Pause", exact=True)).to_be_visible()
    _settled(page, total, total)
    # back to Play at the end
    expect(page.get_by_role("link", name="Play", exact=True)).to_be_visible()
    assert _places(page) == _want(steps[-1])
    assert re.search(rf"/rules/{key}/{total}(\?|$)", page.url)


def test_pause_stops_play_and_start_again_goes_back(new_context, live_server):
    page = _motion_page(new_context, True)
    page.goto(f"{live_server.url}/rules/snap/snap-pool/1?dwell=150")
    _settled(page, 1, 12)
    page.get_by_role("link", name="Play", exact=True).tap()
    _settled(page, 2, 12)
    page.get_by_role("link", name="Pause", exact=True).tap()
    expect(page.get_by_role("link", name="Play", exact=True)).to_be_visible()
    page.wait_for_function("() => document.getElementById('rules-stage').dataset.state === 'idle'")
    paused_at = _count(page).text_content()
    page.wait_for_timeout(500)  # more than three times Play's pace: nothing moves
    assert _count(page).text_content() == paused_at
    assert paused_at != "Step 12 of 12"
    page.get_by_role("link", name="Start again").tap()
    _settled(page, 1, 12)
    expect(page.get_by_role("link", name=re.compile(r"^Previous"))).to_have_count(0)


def test_taps_are_never_lost_during_a_move(new_context, live_server):
    page = _motion_page(new_context, False)
    page.goto(f"{live_server.url}/rules/snap/snap-pool/3")
    _settled(page, 3, 12)
    nxt = page.get_by_role("link", name=re.compile(r"^Next"))
    nxt.tap()
    nxt.tap()  # while the first move is still running
    _settled(page, 5, 12)


def test_swipe_steps(new_context, live_server):
    page = _motion_page(new_context, True)
    page.goto(f"{live_server.url}/rules/snitchems/pairing/2")
    _settled(page, 2, 12)
    box = page.locator("#rules-table").bounding_box()
    y = box["y"] + 40
    for dx in (-200, 200):
        page.mouse.move(box["x"] + box["width"] / 2, y)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] / 2 + dx, y + 5, steps=4)
        page.mouse.up()
        _settled(page, 3 if dx < 0 else 2, 12)


def test_works_without_javascript(new_context, live_server):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(f"{live_server.url}/rules/snap/easy/2")
    page.get_by_role("link", name=re.compile(r"^Next")).click()
    assert page.url.endswith("/rules/snap/easy/3")
    page.get_by_role("link", name="Play", exact=True).click()
    assert page.url.endswith("/rules/snap/easy/4?play=1")
    expect(page.get_by_role("link", name="Pause", exact=True)).to_be_visible()


@pytest.mark.parametrize(
    "path",
    [
        "/rules/",
        "/rules/snap/snap-pool/8",
        "/rules/snitchems/pairing/6",
        "/rules/happy-families/classic/5",
    ],
)
def test_no_axe_violations_and_big_targets(touch_page, live_server, path):
    touch_page.goto(live_server.url + path)
    assert_no_axe_violations(touch_page)
    assert_targets_at_least(touch_page)


def test_reached_from_the_list_by_a_boosted_link(page, live_server):
    """htmx swaps the page in (no full load): the step's script still takes over the controls."""
    page.goto(f"{live_server.url}/rules/")
    page.locator('a[href="/rules/snitchems/pairing/1"]').click()
    _settled(page, 1, 12)
    page.keyboard.press("ArrowRight")
    _settled(page, 2, 12)
    assert page.url.endswith("/rules/snitchems/pairing/2")
    expect(page.locator(".rules-table")).to_have_css("touch-action", "pan-y")
