"""Rule steps in a real browser: Next, arrow keys and Play, with and without reduced motion."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import assert_no_axe_violations, assert_targets_at_least, snap

SCENARIOS = ["snap/snap-pool", "snitchems/pairing", "happy-families/classic"]

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
    """Wait (frame by frame, not in Playwright's slower expect steps) for step n to land: its
    count shown, no request out, and its cards' flight (a view transition) over."""
    page.wait_for_function(
        """(text) => {
          const stage = document.getElementById('rules-stage');
          const count = document.getElementById('rules-count');
          return !!stage && !!count && !document.querySelector('.htmx-request')
            && !document.documentElement.matches(':active-view-transition')
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


def _assert_shows(page, step: dict) -> None:
    """The table (the game's own, as in play) shows cards of each place that holds any, each
    where the engine has it."""
    shown, want = _places(page), _want(step)
    assert set(shown) == set(want)
    for place, cards in shown.items():  # a pile's top, a hand, a family's card for a trick
        assert set(cards) <= set(want[place]), place


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
        _assert_shows(page, steps[n - 1])
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
    _assert_shows(page, steps[-1])
    assert re.search(rf"/rules/{key}/{total}(\?|$)", page.url)


def test_pause_stops_play_and_start_again_goes_back(new_context, live_server):
    """Play's dwell runs on a clock the test drives: a step lands only when the test lets the
    dwell pass, so a busy machine cannot play past Pause."""
    page = _motion_page(new_context, True)
    page.clock.install()
    page.goto(f"{live_server.url}/rules/snap/snap-pool/1?dwell=150")
    _settled(page, 1, 12)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    page.get_by_role("link", name="Play", exact=True).tap()  # Play shows the next step at once
    _settled(page, 2, 12)
    page.clock.run_for(149)
    _settled(page, 2, 12)  # the dwell has not yet passed
    page.clock.run_for(1)
    _settled(page, 3, 12)
    page.get_by_role("link", name="Pause", exact=True).tap()
    expect(page.get_by_role("link", name="Play", exact=True)).to_be_visible()
    page.clock.run_for(1500)  # ten times Play's dwell: nothing moves
    _settled(page, 3, 12)
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
    page.wait_for_function("() => !!window.kioskRules")  # the swapped-in script has run
    page.keyboard.press("ArrowRight")
    _settled(page, 2, 12)
    assert page.url.endswith("/rules/snitchems/pairing/2")
    expect(page.locator(".rules-table")).to_have_css("touch-action", "pan-y")


# ------------------------------------------------------------------ one screen, at every size

SIZES = {
    "landscape-1920x1080": {"width": 1920, "height": 1080},
    "portrait-1080x1920": {"width": 1080, "height": 1920},
    "laptop-1366x768": {"width": 1366, "height": 768},
    "phone-390x844": {"width": 390, "height": 844},
}
# A step of each game, the longest quotations among them (Snap Pool's last step is the
# longest caption of all), and the least a card's height is of the table's height: Snap's few
# piles take a good share of it; Happy Families' long hands and Snitch'ems' spread share the
# width out, most of all on a phone.
LAYOUT_STEPS = {
    "snap/classic/6": 0.2,  # no pool: the middle held the pack at the deal, and nothing since
    "snap/snap-pool/12": 0.2,
    "snap/woolworths/3": 0.2,
    "snap/forfeits/5": 0.15,  # three players, and each one's counters under their cards
    "happy-families/classic/6": 0.11,
    "snitchems/pairing/6": 0.13,
}
FILL = 0.6  # the cards take at least this of a pile's height or of the fullest area's width
# ... or less, where the play table itself keeps room under the cards: a seat's counters,
# three seats in a row
FILL_AT = {
    "snap/forfeits/5": 0.4,
    "snitchems/pairing/6": 0.45,  # a wide hand: each card's name beside it, as at play
}

# What must hold for a step as it is drawn now, and how big its cards are: the page does not
# scroll; no word of the caption, the quotation, the controls or the table's labels spills
# out of its box, is cut off by an ancestor that does not show its overflow, or is covered;
# every card on top (a pile's last, each card of a spread) is whole, uncovered and inside its
# area; the table's areas fill it. ``fill``: how much of a pile's height, or of the fullest
# area's width (the most cards it ever holds side by side), the cards take.
STEP_LAYOUT = """() => {
  const T = 1, W = innerWidth, H = innerHeight, problems = [];
  const doc = document.documentElement;
  if (doc.scrollHeight > H + T) problems.push(`the page scrolls: ${doc.scrollHeight}px in ${H}px`);
  if (doc.scrollWidth > W + T) problems.push(`the page scrolls sideways: ${doc.scrollWidth}px`);
  const say = (el) => {
    const words = (el.getAttribute('alt') || el.innerText || '').replace(/\\s+/g, ' ').trim();
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
      + [...el.classList].slice(0, 2).map((c) => '.' + c).join('')
      + (words ? ` "${words.slice(0, 40)}"` : '');
  };
  const clipper = (el) => {
    const r = el.getBoundingClientRect();
    for (let n = el.parentElement; n; n = n.parentElement) {
      const cs = getComputedStyle(n);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const c = n.getBoundingClientRect();
      if (r.top < c.top - T || r.bottom > c.bottom + T || r.left < c.left - T
          || r.right > c.right + T) return n;
    }
    return null;
  };
  const cover = (el) => {
    const r = el.getBoundingClientRect();
    for (const [fx, fy] of [[0.5, 0.5], [0.1, 0.2], [0.9, 0.2], [0.1, 0.8], [0.9, 0.8]]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x >= W || y >= H)
        return `outside the viewport at ${Math.round(x)},${Math.round(y)}`;
      const hit = document.elementFromPoint(x, y);
      if (!hit) return `on nothing at ${Math.round(x)},${Math.round(y)}`;
      if (hit === el || el.contains(hit) || (hit.contains(el) && el.tagName !== 'IMG')) continue;
      if (hit.classList.contains('pile__ghost')) continue;  // cards just won, over their pile
      return `covered by ${say(hit)} at ${Math.round(x)},${Math.round(y)}`;
    }
    return null;
  };
  const words = document.querySelectorAll(
    '#rules-caption > *, #rules-caption .rules-quote > *, #rules-nav > *, .rules-head h1,'
    + ' #rules-table :is(.seat .seat__name, .seat__meta, .pile__name, .pile__count),'
    + ' #rules-table .table__kitty');
  for (const el of words) {
    if (el.offsetParent === null) continue;
    if (el.scrollHeight > el.clientHeight + T || el.scrollWidth > el.clientWidth + T)
      problems.push(`${say(el)}: its words spill out (${el.scrollWidth}x${el.scrollHeight}`
        + ` in ${el.clientWidth}x${el.clientHeight})`);
    const c = clipper(el);
    if (c) problems.push(`${say(el)} is cut off by ${say(c)}`);
    const v = cover(el);
    if (v) problems.push(`${say(el)} is ${v}`);
  }
  const quote = document.querySelector('#rules-caption .rules-quote');
  if (!quote) problems.push('no quotation');
  else if (quote.scrollHeight > quote.clientHeight + T)
    problems.push(`the quotation is cut: ${quote.scrollHeight}px in ${quote.clientHeight}px`);
  // the game's own table (as in play) draws only the cards on top (of cards side by side in
  // one element, a fanned hand, the last: the one wholly shown)
  const drawn = [...document.querySelectorAll('#rules-table img.card-img:not(.pile__ghost)')];
  const shown = new Set(drawn.filter((i) => !drawn.includes(i.nextElementSibling)));
  for (const img of shown) {
    const v = cover(img);
    if (v) problems.push(`the card ${say(img.parentElement)} is ${v}`);
    const c = clipper(img);
    if (c) problems.push(`the card ${say(img.parentElement)} is cut off by ${say(c)}`);
    const r = img.getBoundingClientRect();
    const a = img.closest('.game-watch > * section, .game-watch > *')
      .getBoundingClientRect();
    if (r.bottom > a.bottom + T || r.right > a.right + T || r.left < a.left - T
        || r.top < a.top - T) problems.push(`the card ${say(img.parentElement)} leaves its area`);
  }
  const table = document.getElementById('rules-table');
  // a seat's cards, or their empty places (the same size), on a game's own table
  const seatCards = '.seat :is(img.card-img:not(.pile__ghost), .pile__empty)';
  const imgs = [...table.querySelectorAll(seatCards)];
  // the table may draw a pile smaller than a hand (Snitch'ems' captured cards): its biggest,
  // its seats' cards
  const cardH = Math.max(...imgs.map((i) => i.getBoundingClientRect().height));
  const cardW = Math.max(...imgs.map((i) => i.getBoundingClientRect().width));
  let fill = 0;
  for (const img of imgs) {  // a seat's card (or its place), of its row's height
    const row = img.closest('.game-watch > *');
    fill = Math.max(fill, img.getBoundingClientRect().height / row.getBoundingClientRect().height);
  }
  const inner = table.clientHeight - 2 * parseFloat(getComputedStyle(table).paddingTop);
  const grid = table.querySelector('.rules-room > div').getBoundingClientRect();
  if (grid.height < inner - 2)
    problems.push(`the table's areas leave ${Math.round(inner - grid.height)}px of it empty`);
  const t = table.getBoundingClientRect();
  return {problems, cardH, cardW, fill, tableW: t.width, tableH: t.height,
          tableTop: t.top, captionH: document.getElementById('rules-caption').offsetHeight};
}"""


def layout_problems(page: Any, least: float, fill: float = FILL) -> tuple[list[str], dict]:
    """What is wrong with the step as drawn now (STEP_LAYOUT), its cards' size included."""
    found = page.evaluate(STEP_LAYOUT)
    problems = list(found["problems"])
    if found["cardH"] < least * found["tableH"]:
        problems.append(
            f"the cards are {found['cardH']:.0f}px high in a table {found['tableH']:.0f}px high:"
            f" under {least:.0%} of it"
        )
    if found["fill"] < fill:
        problems.append(f"the cards take {found['fill']:.0%} of their room, under {fill:.0%}")
    return problems, found


@pytest.mark.parametrize("path", list(LAYOUT_STEPS))
@pytest.mark.parametrize("size", list(SIZES))
def test_a_step_fills_one_screen_and_cuts_no_words(new_context, live_server, size, path):
    """Cards as big as the table allows, the table filling its room, the caption and its
    quotation whole and uncovered, nothing scrolling: at the four sizes, with axe-core."""
    context = new_context(viewport=SIZES[size], has_touch=True, is_mobile=size.startswith("phone"))
    page = context.new_page()
    key, n = path.rsplit("/", 1)
    total = len(_steps(page, live_server.url, key))
    page.goto(f"{live_server.url}/rules/{path}")
    _settled(page, int(n), total)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#rules-table img')].every((i) => i.complete)"
    )
    snap(page, f"rules-layout-{path.replace('/', '-')}-{size}", full_page=False)
    problems, _ = layout_problems(page, LAYOUT_STEPS[path], FILL_AT.get(path, FILL))
    assert not problems, f"{path} at {size}:\n" + "\n".join(f"  - {p}" for p in problems)
    assert_no_axe_violations(page)
    assert_targets_at_least(page)


@pytest.mark.parametrize("size", ["portrait-1080x1920", "phone-390x844"])
def test_the_table_keeps_its_size_from_step_to_step(new_context, live_server, size):
    """The caption is as tall as the scenario's longest (drawn unseen in its place): the table
    beside or above it, and its cards, keep one size while the steps go by."""
    page = _motion_page(new_context, True)
    page.set_viewport_size(SIZES[size])
    total = len(_steps(page, live_server.url, "snap/snap-pool"))
    page.goto(f"{live_server.url}/rules/snap/snap-pool/1")
    _settled(page, 1, total)
    seen = {}
    for n in range(1, total + 1):
        if n > 1:
            page.keyboard.press("ArrowRight")
            _settled(page, n, total)
        found = page.evaluate(STEP_LAYOUT)
        assert not found["problems"], (n, found["problems"])
        seen[n] = (found["tableTop"], found["tableH"], found["cardW"])
    # one size to the eye: a few pixels (once seen on a busy machine: 1,319 against 1,322) are not
    for part in zip(*seen.values(), strict=True):
        assert max(part) - min(part) <= 4, seen
