"""Every game is a stage: one screen, nothing to scroll, at every size and text size (issue 12).

At the four sizes (landscape kiosk 1920×1080, portrait kiosk 1080×1920, laptop 1366×768,
phone 390×844), on a touchscreen, in kiosk mode and not, and in kiosk mode at the largest
text size, each game is started from its setup page (3 computer players where there is a
choice) and, on the setup page, on the table just after Start and once the play has moved
on, these hold:

- the document does not scroll (its scroll size is the viewport's, 1 px allowed) and the
  stage does not overflow;
- every visible button, card picture and the status region inside ``#main`` lies inside the
  viewport (1 px allowed); what sits in a list that scrolls inside itself (Happy Families'
  "What has been asked" and choices) counts through that list, which must be in view;
- none of them is cut off by an ancestor that hides its overflow, and no button's content
  spills out of it (words or pictures running over its edge);
- Snap! (and Snap Pool!, in the Woolworths rules) never moves while the game plays itself,
  stays on one line, and both are the same size.

Each (size, mode) is one test that plays the three games in one page and lists every
problem in one message. Screenshots of every screen go to ``test-artifacts/``
(``stage-<game>-<screen>-<size>-<mode>.png``, gitignored) so that a person can look.
The embed at 1366×768 and axe-core on each stage at 1366×768 have tests of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import LiveServer, assert_no_axe_violations, snap

SIZES = {
    "landscape-1920x1080": {"width": 1920, "height": 1080},
    "portrait-1080x1920": {"width": 1080, "height": 1920},
    "laptop-1366x768": {"width": 1366, "height": 768},
    "phone-390x844": {"width": 390, "height": 844},
}
PHONE = "phone-390x844"
LAPTOP = "laptop-1366x768"
MODES = ["plain", "kiosk", "kiosk-largest"]

# game: (setup path, root of its stage, the bots radio's value or None when there is no choice)
GAMES = {
    "snap": ("/sets/misc-869-1986/play", "#snap-game", "3"),
    "happy-families": (
        "/sets/twizzles-happy-families/play/happy-families",
        "#happy-families-game",
        "3",
    ),
    "snitchems": ("/sets/snitchems-1797/play/snitchems", "#snitchems-game", None),
}

# Quick computer players: the play moves on in a few seconds (the layout does not depend on it).
QUICK = {"PLAY_PACE_MS": 500, "PLAY_MORE_PACE_MS": 400}
TOLERANCE = 1  # px

# Everything that must hold for the screen as it is now: a list of problems, each in words.
FITS = """([tolerance]) => {
  const T = tolerance, W = innerWidth, H = innerHeight;
  const px = (n) => `${Math.round(n * 10) / 10}px`;
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollHeight > H + T)
    problems.push(`the page scrolls: it is ${doc.scrollHeight}px tall in a ${H}px viewport`
      + ` (${px(doc.scrollHeight - H)} too tall)`);
  if (doc.scrollWidth > W + T)
    problems.push(`the page scrolls sideways: it is ${doc.scrollWidth}px wide in a ${W}px`
      + ` viewport (${px(doc.scrollWidth - W)} too wide)`);
  const main = document.getElementById('main');
  const stage = main && main.querySelector('.stage');
  if (!stage) return problems.concat(['no .stage in #main']);
  if (stage.scrollHeight > stage.clientHeight + T)
    problems.push(`the stage overflows: ${stage.scrollHeight}px of content in`
      + ` ${stage.clientHeight}px (${px(stage.scrollHeight - stage.clientHeight)})`);
  if (stage.scrollWidth > stage.clientWidth + T)
    problems.push(`the stage overflows sideways: ${stage.scrollWidth}px of content in`
      + ` ${stage.clientWidth}px (${px(stage.scrollWidth - stage.clientWidth)})`);
  const describe = (el) => {
    let s = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    const cls = [...el.classList].slice(0, 2).join('.');
    if (cls) s += '.' + cls;
    const words = (el.getAttribute('alt') || el.innerText || el.getAttribute('aria-label')
                   || '').replace(/\\s+/g, ' ').trim();
    return words ? `${s} "${words.slice(0, 40)}"` : s;
  };
  // A list that scrolls inside itself stands for what it holds (not the stage, not #main).
  const scroller = (el) => {
    for (let n = el.parentElement; n && n !== stage && n !== main; n = n.parentElement) {
      const style = getComputedStyle(n);
      if (/(auto|scroll)/.test(style.overflowY) && n.scrollHeight > n.clientHeight + T)
        return n;
    }
    return null;
  };
  // An ancestor that hides what overflows it (overflow hidden or clip) and cuts this off.
  const clipper = (el, r) => {
    for (let n = el.parentElement; n && n !== main.parentElement; n = n.parentElement) {
      const style = getComputedStyle(n);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const c = n.getBoundingClientRect();
      const how = [];
      if (style.overflowX !== 'visible') {
        if (r.left < c.left - T) how.push(`${px(c.left - r.left)} on the left`);
        if (r.right > c.right + T) how.push(`${px(r.right - c.right)} on the right`);
      }
      if (style.overflowY !== 'visible') {
        if (r.top < c.top - T) how.push(`${px(c.top - r.top)} at the top`);
        if (r.bottom > c.bottom + T) how.push(`${px(r.bottom - c.bottom)} at the bottom`);
      }
      if (how.length) return {by: n, how: how.join(', ')};
    }
    return null;
  };
  const seen = new Set();
  let checked = 0;
  for (const el of main.querySelectorAll('button, .card-img, #game-status')) {
    if (el.offsetParent === null || el.closest('details:not([open])')) continue;
    const own = el.getBoundingClientRect();
    if (!own.width || !own.height) continue;
    checked += 1;
    if (el.tagName === 'BUTTON' && (el.scrollHeight > el.clientHeight + T
                                    || el.scrollWidth > el.clientWidth + T))
      problems.push(`${describe(el)}: its content spills out of it (${el.scrollWidth}×`
        + `${el.scrollHeight}px of content in ${el.clientWidth}×${el.clientHeight}px)`);
    const inside = scroller(el);
    const cut = clipper(el, own);
    if (cut && !inside)
      problems.push(`${describe(el)} is cut off by ${describe(cut.by)}: ${cut.how}`);
    const box = inside || el;
    if (seen.has(box)) continue;
    seen.add(box);
    const r = box.getBoundingClientRect();
    const out = [];
    if (r.left < -T) out.push(`${px(-r.left)} past the left edge`);
    if (r.top < -T) out.push(`${px(-r.top)} above the top`);
    if (r.right > W + T) out.push(`${px(r.right - W)} past the right edge`);
    if (r.bottom > H + T) out.push(`${px(r.bottom - H)} below the bottom`);
    if (out.length)
      problems.push(`${describe(box)}${inside ? ' (the list that scrolls, holding '
        + describe(el) + ')' : ''} is outside the viewport: ${out.join(', ')}`
        + ` (at ${px(r.left)},${px(r.top)}, ${px(r.width)}×${px(r.height)})`);
  }
  if (!checked) problems.push('nothing to check: no visible button, card or status in #main');
  return problems;
}"""

# Snap! and Snap Pool! as they are now: where, how big, and whether their words wrap.
SNAP_BUTTONS = """() => Object.fromEntries(['snap-button', 'pool-button'].map((id) => {
  const el = document.getElementById(id);
  if (!el || el.offsetParent === null) return [id, null];
  const r = el.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set([...range.getClientRects()].filter((x) => x.width > 0)
                        .map((x) => Math.round(x.top)));
  return [id, {x: r.x, y: r.y, width: r.width, height: r.height, lines: tops.size,
               clipped: el.scrollWidth > el.clientWidth + 1}];
}))"""

IMAGES_READY = """() => document.fonts.status === 'loaded'
  && [...document.querySelectorAll('#main img')].every((i) => i.complete)"""


@pytest.fixture(scope="module")
def plain_server() -> Iterator[LiveServer]:
    with LiveServer(QUICK) as server:
        yield server


@pytest.fixture(scope="module")
def kiosk_server() -> Iterator[LiveServer]:
    # idle long enough that "Are you still there?" never opens during a test
    with LiveServer({**QUICK, "KIOSK_MODE": True, "IDLE_SECONDS": 900}) as server:
        yield server


def open_page(new_context: Any, size: str) -> Any:
    """A touchscreen at that size (a phone for the phone size)."""
    context = new_context(viewport=SIZES[size], has_touch=True, is_mobile=size == PHONE)
    return context.new_page()


def settled(page: Any) -> None:
    page.wait_for_function(IMAGES_READY)
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


class Stage:
    """One page at one size in one mode, collecting problems across games and screens."""

    def __init__(self, page: Any, base: str, size: str, mode: str):
        self.page, self.base, self.size, self.mode = page, base, size, mode
        self.problems: list[str] = []

    def fail(self, where: str, problem: str) -> None:
        self.problems.append(f"{where} at {self.size}, {self.mode}: {problem}")

    def check(self, game: str, screen: str) -> None:
        """The screen fits: checked, and kept as a screenshot."""
        settled(self.page)
        for problem in self.page.evaluate(FITS, [TOLERANCE]):
            self.fail(f"{game} {screen}", problem)
        if self.mode == "kiosk-largest":
            size = self.page.evaluate("document.documentElement.dataset.textSize")
            if size != "largest":
                self.fail(f"{game} {screen}", f"the text size is {size!r}, not 'largest'")
        snap(self.page, f"stage-{game}-{screen}-{self.size}-{self.mode}")

    def check_setup(self, game: str, root: str) -> None:
        page = self.page
        expect(page.locator(f"{root}.stage.game--setup")).to_be_visible()
        start = page.locator(f"{root} .start-button")
        expect(start).to_be_visible()
        self.check(game, "setup")
        box = start.bounding_box()
        view = SIZES[self.size]
        if box is None or not (
            box["x"] >= -TOLERANCE
            and box["y"] >= -TOLERANCE
            and box["x"] + box["width"] <= view["width"] + TOLERANCE
            and box["y"] + box["height"] <= view["height"] + TOLERANCE
        ):
            self.fail(f"{game} setup", f"Start is not inside the viewport: {box}")

    def start(self, game: str) -> None:
        path, root, bots = GAMES[game]
        page = self.page
        page.goto(self.base + path)
        self.check_setup(game, root)
        if bots is not None:
            page.locator(f"{root} label:has(input[name=bots][value='{bots}'])").tap()
            expect(page.locator(f"{root} input[name=bots][value='{bots}']")).to_be_checked()
        page.locator(f"{root} .start-button").tap()
        expect(page.locator(f"{root}.stage:not(.game--setup)")).to_be_visible()
        expect(page.locator(f"{root} #game-status")).to_be_visible()
        if bots is not None:
            expect(page.locator(f"{root} section.seat")).to_have_count(int(bots) + 1)
        self.check(game, "start")

    # ------------------------------------------------------------------ each game

    def snap_buttons(self) -> dict[str, Any]:
        return self.page.evaluate(SNAP_BUTTONS)

    def play_snap(self) -> None:
        page = self.page
        self.start("snap")
        first = self.snap_buttons()
        if first["snap-button"] is None:
            self.fail("snap", "Snap! (#snap-button) is not shown after Start")
            return
        if first["pool-button"] is None:
            self.fail("snap", "Snap Pool! (#pool-button) is not shown in the Woolworths rules")
        self.same_size(first)
        page.locator("#auto-button").tap()
        expect(page.locator("#auto-button")).to_have_attribute("aria-pressed", "true")
        # the cards turn by themselves: sample Snap! while they do
        for _ in range(10):
            page.wait_for_timeout(400)
            now = self.snap_buttons()
            for button, name in (("snap-button", "Snap!"), ("pool-button", "Snap Pool!")):
                self.same_place(name, first[button], now[button])
        painted = page.evaluate(
            "() => window.kioskPlay.log.filter((e) => e.type === 'painted').length"
        )
        if painted < 3:
            self.fail("snap", f"the cards did not turn by themselves ({painted} painted)")
        self.check("snap", "playing")

    def same_size(self, buttons: dict[str, Any]) -> None:
        snap_, pool = buttons["snap-button"], buttons["pool-button"]
        for name, b in (("Snap!", snap_), ("Snap Pool!", pool)):
            if b is not None and (b["lines"] != 1 or b["clipped"]):
                self.fail(
                    "snap",
                    f"{name} wraps or is cut: {b['lines']} lines, "
                    f"clipped={b['clipped']} ({b['width']:.0f}×{b['height']:.0f})",
                )
        if (
            snap_
            and pool
            and (
                abs(snap_["width"] - pool["width"]) > TOLERANCE
                or abs(snap_["height"] - pool["height"]) > TOLERANCE
            )
        ):
            self.fail(
                "snap",
                f"Snap! is {snap_['width']:.1f}×{snap_['height']:.1f} but Snap Pool!"
                f" is {pool['width']:.1f}×{pool['height']:.1f}",
            )

    def same_place(self, name: str, before: Any, now: Any) -> None:
        if before is None:
            return
        if now is None:
            self.fail("snap playing", f"{name} is gone")
            return
        moved = {
            k: round(now[k] - before[k], 1)
            for k in ("x", "y", "width", "height")
            if abs(now[k] - before[k]) > TOLERANCE
        }
        if moved:
            problem = f"{name} moved or changed size by {moved} (px)"
            if not any(p.endswith(problem) for p in self.problems):
                self.fail("snap playing", problem)
        if now["lines"] != 1 or now["clipped"]:
            problem = f"{name} wraps or is cut: {now['lines']} lines, clipped={now['clipped']}"
            if not any(p.endswith(problem) for p in self.problems):
                self.fail("snap playing", problem)

    def play_happy_families(self) -> None:
        page = self.page
        self.start("happy-families")
        # the computer players ask until it is the visitor's turn: "Ask …" on each player
        pick = page.locator("#happy-families-game button.hf-pick:enabled").first
        over = page.locator("#happy-families-game[data-over='1']")
        for _ in range(3):
            expect(pick.or_(over).first).to_be_visible(timeout=30_000)
            if not over.count():
                break
            # a quick game: the computer players made every family before the visitor asked
            self.check("happy-families", "over")
            page.locator("#happy-families-game").get_by_role("button", name="Play again").tap()
            expect(over).to_have_count(0)
        else:
            self.fail("happy-families", "three games ended before it was the visitor's turn")
            return
        self.check("happy-families", "your-turn")
        pick.tap()  # then the choices: the cards to ask for
        expect(page.locator("#happy-families-game .hf-offers")).to_be_visible()
        self.check("happy-families", "choices")

    def play_snitchems(self) -> None:
        page = self.page
        self.start("snitchems")
        card = page.locator("#snitchems-game .sn-hand__card:enabled").first  # the visitor's turn
        expect(card).to_be_visible(timeout=30_000)
        card.tap()
        expect(page.locator("#snitchems-game .sn-choices")).to_be_visible()
        self.check("snitchems", "choices")

    def play_all(self) -> None:
        self.play_snap()
        self.play_happy_families()
        self.play_snitchems()


def assert_fits(problems: list[str]) -> None:
    """Fail listing every problem; the same problem of several alike elements once, counted."""
    if not problems:
        return
    groups: dict[str, list[str]] = {}
    for problem in problems:
        groups.setdefault(re.sub(r'"[^"]*"', '"…"', problem), []).append(problem)
    lines = [
        same[0] if len(same) == 1 else f"{same[0]} (and {len(same) - 1} more alike)"
        for same in groups.values()
    ]
    pytest.fail(
        f"{len(problems)} layout problems:\n" + "\n".join(f"  * {line}" for line in lines),
        pytrace=False,
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_game_fits_one_screen(new_context, plain_server, kiosk_server, size, mode):
    page = open_page(new_context, size)
    server = plain_server if mode == "plain" else kiosk_server
    if mode == "kiosk-largest":  # chosen once, in the header: it holds for the visit
        page.goto(server.url + "/")
        page.locator("[data-set-text-size='largest']").tap()
        assert page.evaluate("document.documentElement.dataset.textSize") == "largest"
    stage = Stage(page, server.url, size, mode)
    stage.play_all()
    assert_fits(stage.problems)


def test_the_embedded_game_fits_one_screen(new_context, plain_server):
    page = open_page(new_context, LAPTOP)
    stage = Stage(page, plain_server.url, LAPTOP, "embed")
    page.goto(plain_server.url + "/embed" + GAMES["snap"][0])
    stage.check_setup("snap-embed", "#snap-game")
    page.locator("#snap-game label:has(input[name=bots][value='3'])").tap()
    page.locator("#snap-game .start-button").tap()
    expect(page.locator("#snap-game.stage:not(.game--setup)")).to_be_visible()
    expect(page.locator("#snap-game section.seat")).to_have_count(4)
    stage.check("snap-embed", "start")
    assert_fits(stage.problems)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_stage_passes_axe(new_context, plain_server, game):
    page = open_page(new_context, LAPTOP)
    path, root, bots = GAMES[game]
    page.goto(plain_server.url + path)
    if bots is not None:
        page.locator(f"{root} label:has(input[name=bots][value='{bots}'])").tap()
    page.locator(f"{root} .start-button").tap()
    expect(page.locator(f"{root}.stage:not(.game--setup)")).to_be_visible()
    if game == "happy-families":  # the computer players ask by themselves: wait for the choices
        pick = page.locator("#happy-families-game button.hf-pick:enabled").first
        expect(pick).to_be_visible(timeout=30_000)
        pick.tap()
        expect(page.locator("#happy-families-game .hf-offers")).to_be_visible()
    settled(page)
    assert_no_axe_violations(page)
