"""The turn games tell their story at the table (issue 23), at every size.

Happy Families and Snitch'ems are played to the end with a fixed deal (``PLAY_NONCE``) at the
four kiosk sizes, in a 900 px wide embed and on the laptop in kiosk mode at the largest text
size, the computer players moved by tapping Next (their
pace is set far beyond the test, so no table changes while it is looked at). The visitor plays
simply: the first player who can be asked and the first card offered; the first card that can
move and its first capture. The deals are chosen so that every outcome comes up: an ask
answered "yes" and one answered "no" (by the visitor and by the computer players), a family
laid down, a capture by each side, and at the end a visitor's win at some sizes and a loss at
the others. After each outcome, first seen, and at the end:

- the outcome is a state on the table: ``data-outcome`` on the game region, classes on the
  seats it touched (``.seat--asking`` / ``--asked`` / ``--got`` / ``--refused`` /
  ``--family``; ``.seat--capturing``) and the cards (``.is-new``, ``.is-captured``), the
  words at the seats; ``data-sounds`` names sounds from the contract's list only;
- nothing is clipped or covered: the stage's fit check (test_stage_browser's ``FITS``), no
  button or card in a box that scrolls, none covered by anything but the cards of its own
  fan, no caption cut;
- axe-core finds nothing, on the first outcome and on the result;
- at the end: one result screen, its title said once (not again in the status), each
  player's families or captured cards as pictures big enough to see, Play again in view and
  on top (at the foot of the screen on portrait screens and phones).

Screenshots of every outcome and result go to test-artifacts/ (``story-<game>-…``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import LiveServer, assert_no_axe_violations, snap
from .test_stage_browser import FITS, TOLERANCE

SIZES = {
    "landscape-1920x1080": {"width": 1920, "height": 1080},
    "portrait-1080x1920": {"width": 1080, "height": 1920},
    "laptop-1366x768": {"width": 1366, "height": 768},
    "phone-390x844": {"width": 390, "height": 844},
    "embed-900x700": {"width": 900, "height": 700},
    # the laptop in kiosk mode at the largest text size (the words grow; the cards give way)
    "laptop-1366x768-largest": {"width": 1366, "height": 768},
}
PORTRAIT = {"portrait-1080x1920", "phone-390x844"}
# which deal each size plays: the visitor wins the "won" deal of both games, loses the other
ENDING = {
    "landscape-1920x1080": "won",
    "portrait-1080x1920": "lost",
    "laptop-1366x768": "lost",
    "phone-390x844": "won",
    "embed-900x700": "won",
    "laptop-1366x768-largest": "won",
}
# deals found by playing as this test plays (the visitor's first choice every time): in both
# games "story-5" ends in the visitor's win (a shared one in Happy Families), "story-4" in a loss
NONCES = {"won": "story-5", "lost": "story-4"}
HF = "/sets/twizzles-happy-families/play/happy-families"
SN = "/sets/snitchems-1797/play/snitchems"
SOUNDS = {"card", "call", "win", "lose", "wrong", "late", "end-win", "end-lose"}
MIN_CARD_PX = 56  # the result's pictures: a card at least this tall (not 25×35 px)

# Animations that show the story settle at once; the capture's collection is held at its
# start, so the captured cards are looked at where the visitor first sees them.
SETTLE = """() => {
  for (const a of document.getAnimations()) {
    const name = a.animationName || '';
    if (name.startsWith('sn-collect')) { a.pause(); a.currentTime = 0; }
    else if (a.effect && a.effect.getTiming().iterations !== Infinity) a.finish();
  }
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""

IMAGES_READY = """() => document.fonts.status === 'loaded'
  && [...document.querySelectorAll('#main img')].every((i) => i.complete)"""

# Buttons and cards in a box that scrolls; buttons and cards covered by something that is
# not the card's own fan (the cards laid over one another on purpose) or their own button;
# captions whose words do not fit their box, or are cut by an ancestor that hides overflow.
HIDDEN_PROBLEMS = """([tolerance]) => {
  const T = tolerance, problems = [];
  const main = document.getElementById('main');
  const describe = (el) => {
    let s = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    const cls = [...el.classList].slice(0, 2).join('.');
    if (cls) s += '.' + cls;
    const words = (el.getAttribute('alt') || el.innerText || '').replace(/\\s+/g, ' ').trim();
    return words ? `${s} "${words.slice(0, 40)}"` : s;
  };
  const shown = (el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden'
    && el.getBoundingClientRect().width > 0;
  for (const el of main.querySelectorAll('button, .card-img')) {
    if (!shown(el)) continue;
    for (let n = el.parentElement; n && n !== main; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (/(auto|scroll)/.test(s.overflowY + s.overflowX)
          && (n.scrollHeight > n.clientHeight + T || n.scrollWidth > n.clientWidth + T)) {
        problems.push(`${describe(el)} sits in a box that scrolls: ${describe(n)}`
          + ` (${n.scrollHeight}px of content in ${n.clientHeight}px)`);
        break;
      }
    }
    const r = el.getBoundingClientRect();
    const points = el.tagName === 'BUTTON'
      ? [[0.5, 0.5], [0.15, 0.5], [0.85, 0.5], [0.5, 0.2], [0.5, 0.8]] : [[0.5, 0.5]];
    for (const [fx, fy] of points) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit === el || el.contains(hit)) continue;
      const button = el.closest('button');
      if (button && button.contains(hit)) continue;  // a card's own button (its name, its edge)
      if (hit.classList.contains('card-img') && hit.parentElement === el.parentElement) continue;
      const item = el.closest('li');
      if (item && item.contains(hit) && !hit.closest('button')) continue;  // its own tag
      problems.push(`${describe(el)} is covered by ${describe(hit)}`);
      break;
    }
  }
  const captions = ['.seat__name', '.seat__meta', '.hf-say__badge', '.hf-say__stamp',
    '.hf-family__name', '.hf-card__tag', '.hf-offer__words', '.sn-catch__words',
    '.sn-layout__tag', '.sn-hand__name', '.sn-capture', '.result__title', '.result__who',
    '.result__score', '.game__status p', '.sn-score__item', '.sn-choices__title',
    '.hf-offers__title'];
  const readOnly = (el) => {  // words kept for screen readers only (clipped to nothing)
    for (let n = el; n && n !== main; n = n.parentElement)
      if (getComputedStyle(n).clipPath !== 'none') return true;
    return false;
  };
  for (const el of main.querySelectorAll(captions.join(','))) {
    if (!shown(el) || getComputedStyle(el).display === 'inline' || readOnly(el)) continue;
    if (el.scrollWidth > el.clientWidth + T || el.scrollHeight > el.clientHeight + T)
      problems.push(`${describe(el)}: its words do not fit (${el.scrollWidth}×`
        + `${el.scrollHeight}px in ${el.clientWidth}×${el.clientHeight}px)`);
    const r = el.getBoundingClientRect();
    const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2];
    const over = cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight
      ? document.elementFromPoint(cx, cy) : null;
    if (over && over !== el && !el.contains(over) && !over.contains(el))
      problems.push(`${describe(el)} is covered by ${describe(over)}`);
    for (let n = el.parentElement; n && n !== main.parentElement; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      if (/(auto|scroll)/.test(s.overflowY) && n.scrollHeight > n.clientHeight + T) break;
      const c = n.getBoundingClientRect();
      if (r.left < c.left - T || r.right > c.right + T || r.top < c.top - T
          || r.bottom > c.bottom + T) {
        problems.push(`${describe(el)} is cut off by ${describe(n)}`);
        break;
      }
    }
  }
  // the boxes that hold the story and the seats: what they hold fits inside them
  const boxes = ['.seat', '.hf-seat__body', '.sn-seat__body', '.sn-layout__body', '.hf-say',
    '.sn-catch', '.hf-offers', '.sn-choices', '.result__player'];
  for (const el of main.querySelectorAll(boxes.join(','))) {
    if (!shown(el)) continue;
    if (el.scrollHeight > el.clientHeight + T || el.scrollWidth > el.clientWidth + T)
      problems.push(`${describe(el)}: what it holds does not fit in it (${el.scrollWidth}×`
        + `${el.scrollHeight}px in ${el.clientWidth}×${el.clientHeight}px)`);
  }
  // what sticks out of a stage that overflows, so that a failure names it
  const stage = main.querySelector('.stage');
  if (stage && stage.scrollHeight > stage.clientHeight + T) {
    const bottom = stage.getBoundingClientRect().bottom;
    const out = [...stage.querySelectorAll('*')].filter((el) => shown(el)
      && el.getBoundingClientRect().bottom > bottom + T);
    problems.push('sticking out of the stage: ' + out.slice(0, 4).map(describe).join('; '));
  }
  return problems;
}"""

REGION = "[data-game][data-step]"


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, LiveServer]]:
    """One server per deal; the computer players move only when the test taps Next."""
    config = {"PLAY_MORE_PACE_MS": 600_000}
    kiosk = {"KIOSK_MODE": True, "IDLE_SECONDS": 900}  # "Are you still there?" never opens
    with (
        LiveServer({**config, "PLAY_NONCE": NONCES["won"]}) as won,
        LiveServer({**config, "PLAY_NONCE": NONCES["lost"]}) as lost,
        LiveServer({**config, **kiosk, "PLAY_NONCE": NONCES["won"]}) as kiosk_won,
    ):
        yield {"won": won, "lost": lost, "kiosk-won": kiosk_won}


class Table:
    """One game on one page at one size, gathering every problem seen on the way."""

    def __init__(self, page: Any, size: str, game: str):
        self.page, self.size, self.game = page, size, game
        self.problems: list[str] = []
        self.axe_done = False

    def region(self) -> Any:
        return self.page.locator(REGION)

    def step(self) -> int:
        return int(
            self.page.evaluate(f"() => Number(document.querySelector('{REGION}').dataset.step)")
        )

    def over(self) -> bool:
        return self.region().get_attribute("data-over") == "1"

    def tap_and_wait(self, button: Any) -> None:
        """Tap a button that makes a move, and wait until its table is shown."""
        old = self.step()
        button.tap()
        self.page.wait_for_function(
            "n => Number(document.querySelector('[data-game][data-step]').dataset.step) > n"
            " && window.kioskPlay.log.some((e) => Number(e.step) > n)",
            arg=old,
        )

    def settle(self) -> None:
        self.page.wait_for_function(IMAGES_READY)
        self.page.evaluate(SETTLE)

    def fail(self, where: str, problem: str) -> None:
        self.problems.append(f"{self.game} {where} at {self.size}: {problem}")

    def look(self, where: str, axe: bool = False) -> None:
        """Everything fits, nothing is cut or covered; a screenshot; axe when asked."""
        self.settle()
        for problem in self.page.evaluate(FITS, [TOLERANCE]):
            self.fail(where, problem)
        for problem in self.page.evaluate(HIDDEN_PROBLEMS, [TOLERANCE]):
            self.fail(where, problem)
        sounds = (self.region().get_attribute("data-sounds") or "").split()
        if not set(sounds) <= SOUNDS:
            self.fail(where, f"data-sounds names sounds outside the contract: {sounds}")
        snap(self.page, f"story-{self.game}-{where}-{self.size}")
        if axe and not self.axe_done:
            assert_no_axe_violations(self.page)
            self.axe_done = True

    def sounds(self) -> list[str]:
        return (self.region().get_attribute("data-sounds") or "").split()

    # ------------------------------------------------------------------ the end

    def check_end(self, ending: str) -> None:
        page = self.page
        expect(self.region()).to_have_attribute("data-over", "1")
        title = page.locator("#result-title")
        expect(title).to_be_visible()
        said = page.locator("#game-status").inner_text()
        if "Game over" in said:
            self.fail("result", f"the status says who won again: {said!r}")
        won = page.locator(".result--won").count() == 1
        if won != (ending == "won"):
            self.fail("result", f"expected a {ending} game, the result is {title.inner_text()!r}")
        wanted = "end-win" if ending == "won" else "end-lose"
        if wanted not in self.sounds():
            self.fail("result", f"data-sounds {self.sounds()} lacks {wanted}")
        again = page.get_by_role("button", name="Play again")
        expect(again).to_be_visible()
        self.look("result", axe=True)
        self.play_again_in_view(again)

    def play_again_in_view(self, again: Any) -> None:
        box = again.bounding_box()
        view = SIZES[self.size]
        inside = box is not None and (
            box["x"] >= -TOLERANCE
            and box["y"] >= -TOLERANCE
            and box["x"] + box["width"] <= view["width"] + TOLERANCE
            and box["y"] + box["height"] <= view["height"] + TOLERANCE
        )
        if not inside:
            self.fail("result", f"Play again is not in view: {box}")
            return
        if self.size in PORTRAIT and box["y"] + box["height"] < view["height"] * 0.8:
            self.fail("result", f"Play again is not at the foot of the screen: {box}")
        on_top = self.page.evaluate(
            "([x, y]) => { const b = document.elementFromPoint(x, y);"
            " return !!(b && b.closest('button') && b.closest('button').innerText.trim()"
            " === 'Play again'); }",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        if not on_top:
            self.fail("result", "something lies over Play again")

    def pictures_at_least(self, selector: str, where: str) -> None:
        heights = self.page.locator(selector).evaluate_all(
            "(els) => els.map((e) => e.getBoundingClientRect().height)"
        )
        small = [h for h in heights if h < MIN_CARD_PX]
        if not heights or small:
            self.fail(where, f"the pictures {selector} are {heights[:4]} px tall (< {MIN_CARD_PX})")


# --------------------------------------------------------------------------- Happy Families


def happy_families_story(t: Table, who: str, outcome: str) -> None:
    """The last ask, marked at the seats, as the visitor sees it."""
    page = t.page
    asking = page.locator("section.seat.seat--asking")
    asked = page.locator("section.seat.seat--asked")
    expect(asking).to_have_count(1)
    expect(asked).to_have_count(1)
    asker_is_you = asking.get_attribute("id") == "seat-0"
    assert asker_is_you == (who == "you")
    expect(asking.locator(".hf-say__badge").first).to_contain_text("asks")
    if outcome == "given":
        expect(asking).to_have_class(re.compile(r"\bseat--got\b"))
        expect(asked.locator(".hf-say__badge")).to_have_text("Here you are.")
        expect(asked).to_be_visible()
        if asker_is_you:  # the card is at its new seat: in the visitor's hand, marked
            new = page.locator("#seat-0 .hf-family__cards > li.is-new")
            expect(new).to_have_count(1)
            expect(new).to_contain_text("New")
            assert "win" in t.sounds(), t.sounds()
        else:
            expect(asking.locator(".hf-say__card.is-new")).to_have_count(1)
            expect(asking.locator(".hf-say__stamp")).to_have_text("Got it!")
        assert "card" in t.sounds(), t.sounds()
    elif outcome == "refused":
        expect(asking).to_have_class(re.compile(r"\bseat--refused\b"))
        expect(asked.locator(".hf-say__badge")).to_have_text("I'm sorry, you can't.")
        expect(asking.locator(".hf-say__card")).to_have_count(1)  # the card asked for
        expect(asking.locator(".hf-say__stamp")).to_have_text("Not this time")
        if asker_is_you:
            assert "lose" in t.sounds(), t.sounds()
    else:  # a family laid down: its four cards together at the winner's seat
        family = page.locator("section.seat.seat--family")
        expect(family).to_have_count(1)
        expect(family.locator(".hf-say--family .hf-say__card")).to_have_count(4)
        expect(family.locator(".hf-say__stamp")).to_have_text("A whole family!")
        if family.get_attribute("id") == "seat-0":
            assert "win" in t.sounds(), t.sounds()


def play_happy_families(t: Table, ending: str) -> set[tuple[str, str]]:
    page = t.page
    seen: set[tuple[str, str]] = set()
    asked_once = False
    for _ in range(200):
        if t.over():
            break
        picks = page.locator("#happy-families-game button.hf-pick:enabled")
        if picks.count():
            picks.first.tap()
            offers = page.locator(".hf-offers .hf-offer")
            expect(offers.first).to_be_visible()
            expect(page.get_by_role("button", name="Ask someone else")).to_be_visible()
            if not asked_once:
                t.look("asking")
                asked_once = True
            t.tap_and_wait(offers.first)
            who = "you"
        else:
            t.tap_and_wait(page.locator("#next-button"))
            who = "them"
        outcome = t.region().get_attribute("data-outcome")
        if outcome and not t.over() and (outcome, who) not in seen:
            seen.add((outcome, who))
            happy_families_story(t, who, outcome)
            t.look(f"{outcome}-{who}", axe=True)
    else:
        raise AssertionError("the game did not end")
    t.check_end(ending)
    for li in page.locator(".result__list > li").all():
        tricks = int(re.search(r"(\d+) tricks?", li.inner_text()).group(1))
        expect(li.locator(".hf-result__family")).to_have_count(tricks)
        for family in li.locator(".hf-result__family").all():
            expect(family.locator("img")).to_have_count(4)
    t.pictures_at_least(".hf-result__card", "result")
    return seen


# --------------------------------------------------------------------------- Snitch'ems


def snitchems_story(t: Table, who: str) -> None:
    """A capture: the capturing card and what it took, together on the table."""
    page = t.page
    catch = page.locator("#the-table .sn-catch").first
    expect(catch).to_be_visible()
    expect(catch.locator(".is-captured.is-capturing")).to_have_count(1)
    assert catch.locator(".is-captured").count() >= 2
    words = "You capture" if who == "you" else "captures"
    expect(catch.locator(".sn-catch__words")).to_contain_text(words)
    seat = "#seat-0" if who == "you" else "#seat-1"
    expect(page.locator(seat)).to_have_class(re.compile(r"\bseat--capturing\b"))
    assert "card" in t.sounds(), t.sounds()
    assert ("win" in t.sounds()) == (who == "you"), t.sounds()


def play_snitchems(t: Table, ending: str) -> set[tuple[str, str]]:
    page = t.page
    seen: set[tuple[str, str]] = set()
    chose = set()
    hand = page.locator("#seat-0 .sn-hand__card:enabled")
    for _ in range(200):
        if t.over():
            break
        if hand.count():
            card = hand.first
            card.tap()
            expect(card).to_have_attribute("aria-pressed", "true")
            expect(page.get_by_role("button", name="Choose another card")).to_be_visible()
            captures = page.locator(".sn-choices .sn-capture")
            kind = "capture" if captures.count() else "lay"
            if kind not in chose:
                chose.add(kind)
                t.look(f"choosing-{kind}")
            t.tap_and_wait(captures.first if kind == "capture" else page.locator(".sn-lay"))
            who = "you"
        else:
            t.tap_and_wait(page.locator("#next-button"))
            who = "them"
        outcome = t.region().get_attribute("data-outcome")
        key = (outcome or "laid", who)
        if not t.over() and key not in seen:
            seen.add(key)
            if outcome == "captured":
                snitchems_story(t, who)
            else:
                laid = page.locator("#the-table .sn-layout__card.is-laid")
                if laid.count():
                    expect(laid).to_contain_text("Just laid")
            t.look(f"{key[0]}-{who}", axe=outcome == "captured")
    else:
        raise AssertionError("the game did not end")
    t.check_end(ending)
    scores = [
        int(s) for s in re.findall(r"(\d+) cards?", page.locator(".result__list").inner_text())
    ]
    assert sum(scores) == 52, scores
    for li, n in zip(page.locator(".result__list > li").all(), scores, strict=True):
        expect(li.locator(".sn-result__card")).to_have_count(n)
    t.pictures_at_least(".sn-result__card", "result")
    return seen


# --------------------------------------------------------------------------- the tests


def open_game(new_context: Any, servers: dict[str, LiveServer], size: str, path: str) -> Any:
    phone = size.startswith("phone")
    context = new_context(viewport=SIZES[size], has_touch=True, is_mobile=phone)
    page = context.new_page()
    server = servers[ENDING[size]]
    if size.endswith("-largest"):  # chosen once, in the kiosk's header: it holds for the visit
        server = servers["kiosk-" + ENDING[size]]
        page.goto(server.url + "/")
        page.locator("[data-set-text-size='largest']").tap()
        expect(page.locator("html")).to_have_attribute("data-text-size", "largest")
    base = server.url + ("/embed" if size.startswith("embed") else "")
    page.goto(base + path)
    page.locator(".start-button").tap()
    expect(page.locator(f"{REGION}.stage:not(.game--setup)")).to_be_visible()
    page.wait_for_function("() => window.kioskPlay && window.kioskPlay.log.length > 0")
    return page


def report(t: Table) -> None:
    if t.problems:
        pytest.fail(
            f"{len(t.problems)} problems:\n" + "\n".join(f"  * {p}" for p in t.problems),
            pytrace=False,
        )


@pytest.mark.parametrize("size", list(SIZES))
def test_happy_families_tells_each_ask_at_the_seats(new_context, servers, size):
    page = open_game(new_context, servers, size, HF)
    t = Table(page, size, "happy-families")
    seen = play_happy_families(t, ENDING[size])
    outcomes = {o for o, _ in seen}
    assert {"given", "refused", "family"} <= outcomes, seen
    assert ("given", "you") in seen and ("refused", "you") in seen, seen
    report(t)


@pytest.mark.parametrize("size", list(SIZES))
def test_snitchems_shows_each_capture_on_the_table(new_context, servers, size):
    page = open_game(new_context, servers, size, SN)
    t = Table(page, size, "snitchems")
    seen = play_snitchems(t, ENDING[size])
    assert ("captured", "you") in seen and ("captured", "them") in seen, seen
    report(t)


def test_a_capture_is_collected_and_stays_still_under_reduced_motion(new_context, servers):
    """With motion the captured cards go to the capturer's pile; without, they lie still."""
    for motion, moves in (("no-preference", True), ("reduce", False)):
        context = new_context(
            viewport=SIZES["laptop-1366x768"], has_touch=True, reduced_motion=motion
        )
        page = context.new_page()
        page.goto(servers["won"].url + SN)
        page.locator(".start-button").click()
        expect(page.locator(f"{REGION}.stage:not(.game--setup)")).to_be_visible()
        page.wait_for_function("() => window.kioskPlay && window.kioskPlay.log.length > 0")
        t = Table(page, "laptop-1366x768", "snitchems")
        for _ in range(60):
            hand = page.locator("#seat-0 .sn-hand__card:enabled")
            if hand.count():
                hand.first.click()
                expect(page.locator(".sn-choices")).to_be_visible()
                captures = page.locator(".sn-choices .sn-capture")
                t.tap_and_wait(captures.first if captures.count() else page.locator(".sn-lay"))
            else:
                t.tap_and_wait(page.locator("#next-button"))
            if t.region().get_attribute("data-outcome") == "captured":
                break
        catch = page.locator("#the-table .sn-catch").first
        expect(catch).to_be_visible()
        animated = catch.evaluate("(el) => el.getAnimations().length > 0")
        assert animated == moves, (motion, animated)
        if moves:  # collected: the cards leave the table once the visitor has seen them
            expect(catch).to_be_hidden(timeout=5_000)
        context.close()
