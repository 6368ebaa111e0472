"""Two visitors at one screen (issue 24): whole games of Snap in Chromium, by touch and by keys.

Blue and Orange each have their own Snap! at their own edge (1920×1080: left and right;
1080×1920: Orange at the top, turned to face them, Blue at the foot). The touches are real
touch points sent through the DevTools protocol (Input.dispatchTouchEvent), so two fingers
at once are two pointers in one event, as on the gallery's screen. Each visitor's reaction,
measured by the page from the card's one paint, is checked against what the server said of
their call ("Blue calls “Snap!” (455.1 ms)"): each visitor is judged from their own tap. The
pace is set far off (PLAY_PACE_MS) and the test posts "Next" itself, waiting for each paint.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser.harness import assert_no_axe_violations, assert_targets_at_least, snap
from browser.test_stage_browser import FITS, TOLERANCE, assert_fits, settled
from playwright.sync_api import expect

SETUP = "/sets/snap-standard-deck/play"
CONFIG = {"PLAY_PACE_MS": 60_000, "PLAY_MAX_TURNS": 100, "PLAY_NONCE": "two-visitors"}
PAINTS = "() => window.kioskPlay.log.filter(e => e.type === 'painted').length"
AFTER = "n => window.kioskPlay.log.filter(e => e.type === 'painted').length > n"
READ = """() => {
  const g = document.getElementById('snap-game');
  const ranks = [...g.querySelectorAll('.pile--up img.play-card')]
    .map((i) => i.alt.split(' of ')[0]);
  const b = (id) => { const el = document.getElementById(id); return !!el && !el.disabled; };
  return {over: g.dataset.over === '1', turn: g.dataset.turn,
          match: new Set(ranks).size < ranks.length,
          blue: b('snap-button-0'), orange: b('snap-button-1')};
}"""
# the table at rest: no request in flight, no cards still moving, no call collected or held
QUIET = """() => { const s = window.kioskSnap.state;
  return !s.busy && !s.pending && !s.batch && !s.call; }"""
CALLS = "n => window.kioskPlay.log.filter(e => e.type === 'calls').slice(n)"
WORDS = re.compile(r"(Blue|Orange) calls “Snap!” \(([\d.]+) ms\)")


def start(page: Any, url: str, bots: str, variant: str) -> None:
    page.goto(url + SETUP)
    page.locator("input[name=mode][value=together]").check()
    page.locator(f"input[name=bots][value='{bots}']").check()
    rules = page.locator(f"input[name=variant][value='{variant}']")
    if not rules.is_visible():  # the other rules are behind "More rules"
        page.locator("details:has(input[name=variant]) summary").click()
    page.locator("label", has=rules).click()  # the label is what a finger taps
    expect(rules).to_be_checked()
    page.get_by_role("button", name="Start").click()
    page.wait_for_function(PAINTS + " > 0")


def centre(page: Any, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


def touch(page: Any, cdp: Any, seats: list[int]) -> None:
    """Fingers on the Snap! buttons of ``seats``, all in one touch event, then lifted."""
    points = [{**centre(page, f"#snap-button-{s}"), "id": i} for i, s in enumerate(seats)]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def keys(page: Any, seats: list[int]) -> None:
    """Blue's A and Orange's L, held down together, then let go."""
    names = ["a" if s == 0 else "l" for s in seats]
    for name in names:
        page.keyboard.down(name)
    for name in names:
        page.keyboard.up(name)


def next_card(page: Any) -> None:
    n = page.evaluate(PAINTS)
    page.evaluate("() => document.getElementById('next-button').click()")
    page.wait_for_function(AFTER, arg=n)


def status(page: Any) -> str:
    return page.locator("#game-status").inner_text()


def play_game(page: Any, tap: Any, shots: str | None = None) -> dict:
    """Play to the end: on every match one visitor calls, or the other, or both at once."""
    plans = [[0, 1], [0], [1], [1, 0]]
    seen = {"single": 0, "both": 0, "won": set(), "together": 0, "axed": False}
    for _ in range(400):
        page.wait_for_function(QUIET)
        table = page.evaluate(READ)
        if table["over"]:
            break
        if not (table["match"] and table["blue"] and table["orange"]):
            next_card(page)
            continue
        plan = plans[(seen["single"] + seen["both"]) % len(plans)]
        noted = page.evaluate("() => window.kioskPlay.log.filter(e => e.type === 'calls').length")
        n = page.evaluate(PAINTS)
        tap(plan)
        page.wait_for_function(AFTER, arg=n)
        sent = page.evaluate(CALLS, noted)
        assert len(sent) == 1, sent  # both taps on one card went in one request
        calls = {c["seat"]: c["reaction"] for c in sent[0]["calls"]}
        assert sorted(calls) == sorted(plan)
        said = status(page)
        heard = {("Blue", "Orange").index(who): float(ms) for who, ms in WORDS.findall(said)}
        # each visitor judged from their own tap: the server heard each one's own reaction
        assert heard == calls, (said, calls)
        if len(plan) == 2:
            seen["both"] += 1
            quick = min(calls.values())
            if "called together" in said:
                seen["together"] += 1  # the variant's tie rule: the piles go to the pool
            else:
                lot = re.search(r"A dead heat! Drawn by lot, (Blue|Orange) wins", said)
                if lot:  # two fingers in one touch event: the very same moment
                    assert calls[0] == calls[1], (said, calls)
                    seen["won"].add(("Blue", "Orange").index(lot.group(1)))
                    continue
                winner = re.search(r"(\S+(?: \S+)?) called Snap! first", said)
                assert winner, said
                if winner.group(1) in ("Blue", "Orange"):  # else a computer player was quicker
                    seat = ("Blue", "Orange").index(winner.group(1))
                    assert calls[seat] == quick, (said, calls)  # the quicker one (or by lot)
                    seen["won"].add(seat)
        else:
            seen["single"] += 1
        if shots and not seen["axed"]:
            assert_no_axe_violations(page)
            snap(page, f"{shots}-called", full_page=False)
            seen["axed"] = True
    expect(page.locator("#result-title")).to_be_visible()
    result = page.locator(".result").inner_text()
    assert "Blue" in result and "Orange" in result and "You" not in result
    if shots:
        snap(page, f"{shots}-result", full_page=False)
    return seen


@pytest.mark.parametrize(
    ("size", "variant", "bots"),
    [
        ({"width": 1920, "height": 1080}, "classic", "1"),
        ({"width": 1080, "height": 1920}, "snap-pool", "2"),
    ],
    ids=["landscape-1920x1080", "portrait-1080x1920"],
)
def test_two_visitors_play_a_whole_game_by_touch(new_context, make_server, size, variant, bots):
    server = make_server(CONFIG)
    context = new_context(viewport=size, has_touch=True, is_mobile=False)
    page = context.new_page()
    page.set_default_timeout(30_000)
    start(page, server.url, bots, variant)
    blue, orange = page.locator("#snap-button-0"), page.locator("#snap-button-1")
    expect(blue).to_contain_text("Blue")
    expect(orange).to_contain_text("Orange")
    b, o = blue.bounding_box(), orange.bounding_box()
    if size["width"] > size["height"]:
        assert b["x"] + b["width"] < size["width"] / 2 < o["x"]  # Blue left, Orange right
    else:
        assert o["y"] + o["height"] < size["height"] / 2 < b["y"]  # Orange top, Blue foot
        turned = page.evaluate(
            "getComputedStyle(document.querySelector('.table__visitor--orange')).rotate"
        )
        assert turned == "180deg"
    assert_targets_at_least(page)
    cdp = context.new_cdp_session(page)
    name = f"snap-together-{size['width']}x{size['height']}"
    seen = play_game(page, lambda seats: touch(page, cdp, seats), shots=name)
    assert seen["single"] >= 2 and seen["both"] >= 1, seen


def test_two_visitors_play_a_whole_game_by_keys(new_context, make_server):
    server = make_server(CONFIG)
    page = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.set_default_timeout(30_000)
    start(page, server.url, "0", "classic")
    expect(page.locator(".controls__keys")).to_contain_text("Blue: key A for Snap!")
    expect(page.locator(".controls__keys")).to_contain_text("Orange: key L for Snap!")
    seen = play_game(page, lambda seats: keys(page, seats))
    assert seen["single"] >= 2 and seen["both"] >= 1, seen


def test_the_idle_reset_puts_an_abandoned_two_visitor_game_away(new_context, make_server):
    """The cards turning by themselves are not a visitor's touch: idle, then home."""
    server = make_server(
        {
            "KIOSK_MODE": True,
            "TESTING": True,  # timings under the production floors
            "IDLE_SECONDS": 3,
            "COUNTDOWN_SECONDS": 3,
            "PLAY_PACE_MS": 400,
            "PLAY_NONCE": "two-visitors-idle",
        }
    )
    page = new_context(viewport={"width": 1920, "height": 1080}, has_touch=True).new_page()
    start(page, server.url, "1", "classic")
    page.wait_for_function("() => window.kioskPlay.log.filter(e => e.type === 'shown').length > 3")
    page.wait_for_url(server.url + "/", timeout=20_000)  # idle 3 s, then 3 s of countdown
    expect(page.locator("#play-form")).to_have_count(0)
    expect(page.locator("#main.page-home")).to_be_visible()


# Two visitors on a phone: the parts of the table that must not lie on one another, and the
# height of each visitor's face-up card.
PHONE_TABLE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const name = (el) => el.id || [...el.classList].join('.');
  const problems = [];
  const cards = {};
  for (const seat of document.querySelectorAll('.table__visitor .seat')) {
    const parts = [...seat.querySelectorAll(
      '.seat__name, .pile__button, .pile--up .card-img, .pile--up .pile__empty,'
      + ' .pile__count, .snap-button')];
    parts.forEach((a, i) => parts.slice(i + 1).forEach((b) => {
      if (a.contains(b) || b.contains(a)) return;
      if (meets(box(a), box(b))) problems.push(`${seat.id}: ${name(a)} lies on ${name(b)}`);
    }));
    const up = seat.querySelector('.pile--up .card-img, .pile--up .pile__empty');
    cards[seat.id] = Math.round(box(up).height);
  }
  const regions = [...document.querySelectorAll(
    '#game-status, .table__others .seat, .table__middle .pile, .controls')];
  for (const strip of document.querySelectorAll('.table__visitor'))
    for (const other of regions)
      if (meets(box(strip), box(other)))
        problems.push(`${name(strip)} lies on ${name(other)}`);
  return {problems, cards};
}"""


@pytest.mark.parametrize(
    ("bots", "variant"), [("0", "classic"), ("1", "snap-pool"), ("2", "snap-pool")]
)
def test_two_visitors_share_a_phone(new_context, make_server, bots, variant):
    """390×844: each visitor's strip holds their piles (cards at least 56 px tall, side by side,
    nothing on top of another) and their own buttons; the whole table fits, before a call and
    after one."""
    server = make_server(CONFIG)
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    start(page, server.url, bots, variant)
    for _ in range(3):
        page.wait_for_function(QUIET)
        next_card(page)
    for moment in ("before a call", "after a call"):
        page.wait_for_function(QUIET)
        settled(page)
        seen = page.evaluate(PHONE_TABLE)
        assert not seen["problems"], (moment, seen["problems"])
        assert min(seen["cards"].values()) >= 56, (moment, seen["cards"])
        assert_fits([f"{moment}: {p}" for p in page.evaluate(FITS, [TOLERANCE])])
        assert_targets_at_least(page)
        if moment == "before a call":
            n = page.evaluate(PAINTS)
            touch(page, context.new_cdp_session(page), [0])
            page.wait_for_function(AFTER, arg=n)
    snap(page, f"snap-together-390x844-{bots}-{variant}", full_page=False)


# Where each named card was just before an answer was swapped in (as snap.js reads them).
OLD_PLACES = """(() => {
  window.__old = {};
  document.addEventListener("htmx:before:swap", () => {
    window.__old = {};
    document.querySelectorAll("#snap-game [data-vt-next], #snap-game [data-vt]").forEach((el) => {
      const r = el.getBoundingClientRect();
      window.__old[el.dataset.vtNext || el.dataset.vt] = [r.left, r.top, r.right, r.bottom];
    });
  });
})();"""
# The card just turned, at the first moment of its travel: [seat name, where it was, where
# it is drawn at the start of its animation], its animation then let run to the end.
SETS_OFF = """() => {
  const el = document.querySelector("#snap-game [data-vt-turned]");
  if (!el) return null;
  const runs = el.getAnimations().filter((a) => !(a instanceof CSSAnimation));
  if (!runs.length) return null;
  runs.forEach((a) => { a.pause(); a.currentTime = 0; });
  const r = el.getBoundingClientRect();
  runs.forEach((a) => a.finish());
  return [el.dataset.vtTurned, window.__old[el.dataset.vtTurned] || null,
          [r.left, r.top, r.right, r.bottom]];
}"""


@pytest.mark.parametrize(
    "size",
    [{"width": 1080, "height": 1920}, {"width": 1920, "height": 1080}],
    ids=["portrait-orange-upside-down", "landscape"],
)
def test_each_visitors_card_sets_off_from_their_own_pile(new_context, make_server, size):
    """A turned card's travel starts exactly where its pile was, for Blue and for Orange, whose
    side of a portrait table is drawn upside down (a transform there runs the other way)."""
    server = make_server(CONFIG)
    page = new_context(viewport=size, has_touch=True, is_mobile=False).new_page()
    page.add_init_script(OLD_PLACES)
    start(page, server.url, "0", "classic")
    checked: dict[str, list] = {}
    for _ in range(6):
        page.wait_for_function(QUIET)
        next_card(page)
        seen = page.evaluate(SETS_OFF)
        if seen is None:
            continue
        name, old, drawn = seen
        assert old is not None, seen
        assert all(abs(a - b) <= 2 for a, b in zip(old, drawn, strict=True)), seen
        checked[name] = drawn
    assert set(checked) == {"flip-0", "flip-1"}, checked  # Blue's card and Orange's
