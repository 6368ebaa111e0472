"""Photographs in play (issue 25, point 7), in Chromium: a whole Snap game and a rule
step-through with the photographed pack, on a phone and a landscape kiosk.

Every photographed face must be a made copy that loads (``naturalWidth`` > 0, 320 px across:
no more than a card needs), fill its card's shape as the drawn face does (5:7, cropped, not
stretched: as tall as the face-down pile beside it), and fit the screen (the stage tests'
FITS, the rule tests' STEP_LAYOUT). The page never asks for an original under /media/images/.
Screenshots of a game mid-play and of a step at the four screen sizes go to
/tmp/shots-25-play/ (and test-artifacts/) for a person to look at.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from photo_content import SLUG, photo_content
from playwright.sync_api import expect
from test_play_photographs import with_scenario

from .harness import LiveServer, snap
from .test_play_browser import PAINTED, picture, play_a_game, start_game
from .test_rules_browser import _settled, _steps, layout_problems
from .test_stage_browser import FITS, TOLERANCE

SHOTS = Path("/tmp/shots-25-play")
SIZES = {
    "landscape-1920x1080": {"width": 1920, "height": 1080},
    "portrait-1080x1920": {"width": 1080, "height": 1920},
    "laptop-1366x768": {"width": 1366, "height": 768},
    "phone-390x844": {"width": 390, "height": 844},
}
PLAYED_AT = ["phone-390x844", "landscape-1920x1080"]
STEPS = "snap/photographs"
PLAY_WIDTH = 320  # the copy kiosk/web/cards.py places in play

# Every photographed face put on the page is checked once it has decoded: loaded, the made
# copy, its box 5:7 with the photograph cropped (object-fit: cover), and, on a seat's
# face-up pile, as big as the face-down pile's drawn back beside it.
WATCH = """
window.__photos = {checked: 0, srcs: new Set(), problems: []};
const checkPhoto = (img) => {
  if (img.dataset.photoChecked) return;
  img.dataset.photoChecked = '1';
  const p = window.__photos;
  const done = () => {
    const say = `${img.id || img.className} ${img.getAttribute('src')}`;
    // swapped out before it decoded, or not drawn (a result that hides the table): the
    // cards on the screen are the ones checked
    if (!img.isConnected || img.getClientRects().length === 0) return;
    p.checked += 1;
    p.srcs.add(img.getAttribute('src'));
    if (!(img.complete && img.naturalWidth > 0)) p.problems.push(`${say}: did not load`);
    if (!/^\\/media\\/pictures\\/[a-z0-9-]+\\/w[0-9]+\\.jpg$/.test(img.getAttribute('src')))
      p.problems.push(`${say}: not a made copy`);
    const style = getComputedStyle(img);
    if (style.objectFit !== 'cover') p.problems.push(`${say}: object-fit ${style.objectFit}`);
    const w = img.offsetWidth, h = img.offsetHeight;  // its box, before any rotation
    if (!w || Math.abs(w / h - 5 / 7) > 0.03)
      p.problems.push(`${say}: its box is ${w}x${h}, not a card's 5:7`);
    const seat = img.id && img.id.startsWith('top-') && img.closest('.seat');
    const back = seat && seat.querySelector('.pile--down .card-img--back:not(.pile__ghost)');
    if (back && Math.abs(back.offsetHeight - h) > 1)
      p.problems.push(`${say}: ${h}px high beside a ${back.offsetHeight}px drawn back`);
  };
  (img.decode ? img.decode() : Promise.resolve()).then(done, done);
};
const scan = () => document.querySelectorAll('img.card-img--photo').forEach(checkPhoto);
new MutationObserver(scan).observe(document, {childList: true, subtree: true});
document.addEventListener('DOMContentLoaded', scan);
"""
PHOTOS = "() => ({...window.__photos, srcs: [...window.__photos.srcs]})"
IMAGES_READY = """() => [...document.querySelectorAll('#main img')]
  .every((i) => i.complete && i.naturalWidth > 0)"""


@pytest.fixture(scope="module")
def photo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The photographed pack with its step-through, short games at a quick pace."""
    content = with_scenario(photo_content(tmp_path_factory.mktemp("photographs")))
    config = {
        "CONTENT_DIR": str(content),
        "PLAY_PACE_MS": 700,
        "PLAY_MAX_TURNS": 24,
        "PLAY_NONCE": "photographs-in-play",
    }
    with LiveServer(config) as server:
        yield server


def open_page(new_context: Any, size: str) -> tuple[Any, list[str]]:
    """A touchscreen at ``size`` watching its photographs, and the addresses it asks for."""
    context = new_context(viewport=SIZES[size], has_touch=True, is_mobile=size.startswith("phone"))
    context.add_init_script(WATCH)
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url))
    return context.new_page(), asked


def settled(page: Any) -> None:
    """Every picture loaded, and two frames drawn since."""
    page.wait_for_function(IMAGES_READY)
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


def shoot(page: Any, name: str) -> None:
    """A screenshot between moves: every card landed (no animation or view transition)."""
    page.wait_for_function(
        "() => document.getAnimations().length === 0", polling="raf", timeout=15_000
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(snap(page, f"photographs-{name}", full_page=False), SHOTS / f"{name}.png")


def assert_fits(page: Any, where: str) -> None:
    settled(page)
    problems = page.evaluate(FITS, [TOLERANCE])
    assert not problems, f"{where}:\n" + "\n".join(f"  - {p}" for p in problems)


def assert_photos_fine(page: Any, asked: list[str], least: int) -> dict:
    """What WATCH found: no problem, at least ``least`` photographs checked."""
    page.wait_for_function(
        "() => document.querySelectorAll('img.card-img--photo:not([data-photo-checked])')"
        ".length === 0"
    )
    found = page.evaluate(PHOTOS)
    assert not found["problems"], "\n".join(found["problems"])
    assert found["checked"] >= least, found
    assert not [url for url in asked if "/media/images/" in url]
    pictures = [url for url in asked if "/media/pictures/" in url]
    assert pictures and all(url.endswith(f"/w{PLAY_WIDTH}.jpg") for url in pictures), pictures
    return found


def start_playing(page: Any, base: str) -> None:
    """Three computer players (the fullest table), the visitor's cards turned for them, until
    the game has moved on: a few cards painted, photographs face up."""
    page.goto(f"{base}/sets/{SLUG}/play")
    start_game(page, 3, None)
    page.locator("#auto-button").tap()
    expect(page.locator("#auto-button")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(
        f"() => ({PAINTED})().length >= 5"
        " && document.querySelectorAll('#snap-game img.card-img--photo').length >= 2",
        timeout=30_000,
    )


@pytest.mark.parametrize("size", PLAYED_AT)
def test_a_whole_snap_game_with_the_photographed_pack(new_context, photo_server, size):
    page, asked = open_page(new_context, size)
    start_playing(page, photo_server.url)
    assert_fits(page, f"Snap mid-play at {size}")
    played = play_a_game(page, picture)
    expect(page.get_by_role("heading", name=re.compile("^Game over"))).to_be_visible()
    assert_fits(page, f"Snap's result at {size}")
    found = assert_photos_fine(page, asked, least=8)
    assert len(found["srcs"]) >= 4, found["srcs"]
    assert played.lines, "the game said nothing"
    # a face is named by its card's name, photographed or not (the players read them)
    alts = page.locator("#snap-game img.card-img--photo").evaluate_all(
        "els => els.map((e) => e.alt)"
    )
    assert all(re.fullmatch(r"“[A-Z][A-Za-z ]+”", alt) for alt in alts), alts


@pytest.mark.parametrize("size", PLAYED_AT)
def test_the_step_through_moves_the_photographs(new_context, photo_server, size):
    """Every step, with the cards moving between them (rules.js), photographs and all."""
    page, asked = open_page(new_context, size)
    total = len(_steps(page, photo_server.url, STEPS))
    page.goto(f"{photo_server.url}/rules/{STEPS}/1")
    _settled(page, 1, total)
    srcs: set[str] = set()  # the table draws the cards on top: photographs come and go
    for n in range(2, total + 1):
        page.keyboard.press("ArrowRight")
        _settled(page, n, total)
        settled(page)
        problems, _ = layout_problems(page, 0.2)
        assert not problems, f"step {n} at {size}:\n" + "\n".join(f"  - {p}" for p in problems)
        page.wait_for_function(
            "() => document.querySelectorAll('img.card-img--photo:not([data-photo-checked])')"
            ".length === 0"
        )
        found = page.evaluate(PHOTOS)
        assert not found["problems"], "\n".join(found["problems"])
        srcs |= set(found["srcs"])
    assert_photos_fine(page, asked, least=1)
    assert {src.split("/")[3] for src in srcs} >= {
        "test-photographs--harbour-light-jpg",
        "test-photographs--the-milk-cart-jpg",
    }


@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_of_a_game_and_a_step(new_context, photo_server, size):
    """Mid-play and a step, kept for a person to look at; each fits its screen."""
    page, asked = open_page(new_context, size)
    start_playing(page, photo_server.url)
    assert_fits(page, f"Snap mid-play at {size}")
    shoot(page, f"snap-mid-play-{size}")
    total = len(_steps(page, photo_server.url, STEPS))
    page.goto(f"{photo_server.url}/rules/{STEPS}/10")
    _settled(page, 10, total)
    settled(page)
    problems, _ = layout_problems(page, 0.2)
    assert not problems, f"step 10 at {size}:\n" + "\n".join(f"  - {p}" for p in problems)
    shoot(page, f"rules-step-10-{size}")
    assert_photos_fine(page, asked, least=2)  # the two face-up piles' tops, as at play
