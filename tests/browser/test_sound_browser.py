"""The play pages' sounds (issue 23): made in the page with Web Audio, played when asked.

An init script wraps the page's AudioContext: it counts the contexts made and every source
node started (when, and when it stops), beside sound.js's own log (``kioskSound.played``,
``kioskSound.started``). It also notes, at each ``play:shown``, the sounds the table on
screen asks for (its region's ``data-sounds``), so a real game's sounds can be checked
against what each table asked for. The tests: the control on every game's table, toggling
with aria-pressed; what plays (a table's sounds, in order; the visitor's call at the tap;
nothing when off); the defaults (on, on in kiosk mode, off in an embed), kept across a
reload and cleared by the kiosk's idle reset; storage that throws; boosted navigation; a
whole game of Snap; axe-core and target sizes.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import expect

from .harness import LiveServer, assert_no_axe_violations, assert_targets_at_least, snap
from .test_play_browser import PAINTED, play_a_game, rank, start_game, wait_painted

AUDIO = """
(() => {
  const audio = window.__audio = {contexts: 0, sources: [], shown: []};
  document.addEventListener("play:shown", () => {
    const g = document.querySelector("[data-game][data-step]");
    audio.shown.push(((g && g.getAttribute("data-sounds")) || "").split(/\\s+/).filter(Boolean));
  });
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); audio.contexts += 1; }
  };
  // AudioBufferSourceNode has a start() of its own; oscillators take the shared one
  for (const Node of [AudioScheduledSourceNode, AudioBufferSourceNode]) {
    const proto = Node.prototype;
    const start = proto.start, stop = proto.stop;
    if (Object.hasOwn(proto, "start")) proto.start = function (when, ...rest) {
      this.__entry = {start: Math.max(when || 0, this.context.currentTime), stop: null,
                      kind: this.constructor.name};
      audio.sources.push(this.__entry);
      return start.call(this, when || 0, ...rest);
    };
    if (Object.hasOwn(proto, "stop")) proto.stop = function (when) {
      if (this.__entry) this.__entry.stop = when || this.context.currentTime;
      return stop.call(this, when || 0);
    };
  }
})();
"""
NO_STORAGE = """
(() => {
  const refuse = () => { throw new DOMException("The document is sandboxed", "SecurityError"); };
  Object.defineProperty(window, "sessionStorage", {get: refuse, configurable: true});
  Object.defineProperty(window, "localStorage", {get: refuse, configurable: true});
})();
"""
NAMES = ["card", "call", "win", "lose", "wrong", "late", "end-win", "end-lose"]
SNAP = "/sets/snap-standard-deck/play"
GAMES = {
    "snap": (SNAP, "#snap-game"),
    "happy-families": ("/sets/twizzles-happy-families/play/happy-families", "#happy-families-game"),
    "snitchems": ("/sets/snitchems-1797/play/snitchems", "#snitchems-game"),
}
PLAYED = "() => window.kioskSound.played.map(p => p.name)"
# A table "shown" with these sounds: what it played (in the same task, so nothing else can).
SHOW = """names => {
  const g = document.querySelector("[data-game][data-step]");
  const before = window.kioskSound.played.length;
  g.setAttribute("data-sounds", names);
  document.dispatchEvent(new CustomEvent("play:shown", {detail: {type: "shown"}}));
  return window.kioskSound.played.slice(before);
}"""


@pytest.fixture(scope="module")
def sound_server() -> Iterator[LiveServer]:
    """Short Snap games, always the same deal; the turn games at a quick pace."""
    config = {
        "PLAY_PACE_MS": 700,
        "PLAY_MORE_PACE_MS": 400,
        "PLAY_MAX_TURNS": 24,
        "PLAY_NONCE": "sound-test-deal",
    }
    with LiveServer(config) as server:
        yield server


@pytest.fixture(scope="module")
def kiosk_server() -> Iterator[LiveServer]:
    """Kiosk mode with its default timings (no idle dialog while a test looks)."""
    with LiveServer({"KIOSK_MODE": True}) as server:
        yield server


@pytest.fixture(scope="module")
def quick_kiosk() -> Iterator[LiveServer]:
    """Kiosk mode that resets after 4 s without a touch and 2 s of "Are you still there?"."""
    config = {"KIOSK_MODE": True, "TESTING": True, "IDLE_SECONDS": 4, "COUNTDOWN_SECONDS": 2}
    with LiveServer(config) as server:
        yield server


def audio_page(new_context: Any, **options: Any) -> Any:
    options.setdefault("has_touch", True)
    page = new_context(**options).new_page()
    page.add_init_script(AUDIO)
    return page


def start(page: Any, url: str, root: str = "#snap-game") -> None:
    """Open a game's setup, tap Start (a boosted form: the same document), see the table."""
    page.goto(url)
    page.evaluate("window.sameDocument = true")
    page.get_by_role("button", name="Start").tap()
    expect(page.locator(root + "[data-step]")).to_be_visible()
    page.wait_for_function("() => window.kioskPlay && window.kioskPlay.log.length > 0")
    assert page.evaluate("window.sameDocument") is True


def table_again(page: Any, root: str = "#snap-game") -> None:
    """After a reload: the game as it was left, or its setup again (then Start)."""
    start_button = page.get_by_role("button", name="Start")
    expect(page.locator(root + "[data-step]").or_(start_button)).to_be_visible()
    if start_button.count():
        start_button.tap()
    expect(page.locator(root + "[data-step]")).to_be_visible()
    page.wait_for_function("() => !!window.kioskSound")


def control(page: Any) -> Any:
    return page.get_by_role("button", name="Sound", exact=True)


def words(button: Any) -> str:
    """What the button shows (innerText leaves out the state word that is hidden)."""
    return " ".join(button.inner_text().split())


def played(page: Any) -> list[str]:
    return page.evaluate(PLAYED)


def turn_a_card(page: Any) -> None:
    count = len(page.evaluate(PAINTED))
    page.get_by_role("button", name="Turn your card").tap()
    wait_painted(page, count)


# --------------------------------------------------------------------------- the control


@pytest.mark.parametrize("game", list(GAMES))
def test_the_control_is_on_every_game_page_and_toggles(new_context, sound_server, game):
    page = audio_page(new_context)
    url, root = GAMES[game]
    start(page, sound_server.url + url, root)
    button = control(page)
    expect(button).to_be_visible()
    expect(page.locator(root + " .stage__top > #sound-toggle")).to_have_count(1)
    expect(button).to_have_attribute("aria-pressed", "true")  # on by default on the plain site
    assert words(button) == "Sound on"
    box = button.bounding_box()
    assert box and box["width"] >= 48 and box["height"] >= 48, box
    width = box["width"]

    button.tap()
    expect(button).to_have_attribute("aria-pressed", "false")
    assert words(button) == "Sound off"
    assert page.evaluate("sessionStorage.getItem('kiosk.sound')") == "off"
    assert page.evaluate("window.kioskSound.enabled()") is False
    assert control(page).bounding_box()["width"] == pytest.approx(width, abs=0.5)  # no jump

    button.tap()
    expect(button).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("sessionStorage.getItem('kiosk.sound')") == "on"
    toggled = page.evaluate("window.kioskSound.played.filter(p => p.from === 'toggle')")
    assert [p["name"] for p in toggled] == ["card"]  # turned on: a soft flick, at once
    snap(page, f"sound-control-{game}", full_page=False)


def test_the_control_survives_the_table_changing_and_works_by_keyboard(new_context, sound_server):
    page = audio_page(new_context)
    start(page, sound_server.url + SNAP)
    button = control(page)
    button.tap()
    expect(button).to_have_attribute("aria-pressed", "false")
    turn_a_card(page)  # the region is morphed: the control keeps the visitor's setting
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-pressed", "false")

    calls = page.evaluate("() => window.kioskPlay.log.filter(e => e.type === 'call').length")
    button.focus()
    page.keyboard.press("Space")  # on the control, Space is the control's, not Snap!'s
    expect(button).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("document.activeElement.id") == "sound-toggle"
    after = page.evaluate("() => window.kioskPlay.log.filter(e => e.type === 'call').length")
    assert after == calls


def test_without_javascript_there_is_no_control(new_context, sound_server):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(sound_server.url + SNAP)
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("button", name="Turn your card")).to_be_visible()
    expect(page.locator("#sound-toggle")).to_be_hidden()
    expect(control(page)).to_have_count(0)


def test_without_web_audio_there_is_no_control_and_the_game_plays(new_context, sound_server):
    page = new_context(has_touch=True).new_page()
    page.add_init_script("delete window.AudioContext; delete window.webkitAudioContext;")
    start(page, sound_server.url + SNAP)
    expect(page.locator("#sound-toggle")).to_be_hidden()
    turn_a_card(page)
    assert page.evaluate(SHOW, "card win") == []
    assert played(page) == []


# --------------------------------------------------------------------------- what plays


def test_a_tables_sounds_play_in_order_and_the_call_at_the_tap(new_context, sound_server):
    page = audio_page(new_context)
    start(page, sound_server.url + SNAP)
    turn_a_card(page)
    table = page.evaluate(SHOW, "card call win nonsense")
    assert [p["name"] for p in table] == ["card", "call", "win"]  # unknown names: nothing
    assert {p["from"] for p in table} == {"table"}
    gaps = [b["at"] - a["at"] for a, b in pairwise(table)]
    assert gaps == [pytest.approx(120, abs=1)] * 2, gaps  # 120 ms apart

    # the visitor's own call sounds at pointerdown, before any answer, and only once
    snap_button = page.get_by_role("button", name="Snap!", exact=True)
    expect(snap_button).to_be_enabled()
    page.evaluate(
        """() => { window.__tap = null;
          document.getElementById("snap-button").addEventListener("pointerdown", () => {
            window.__tap = window.kioskSound.played.length; }, {once: true}); }"""
    )
    count = len(page.evaluate(PAINTED))
    snap_button.tap()
    wait_painted(page, count)
    taps = page.evaluate("() => window.kioskSound.played.filter(p => p.from === 'tap')")
    assert [p["name"] for p in taps] == ["call"], taps
    call = page.evaluate("() => window.kioskPlay.log.filter(e => e.type === 'call').at(-1)")
    assert abs(taps[0]["at"] - call["tapAt"]) < 50, (taps, call)  # at the pointerdown

    # a key call (snap.js turns Space into a click on Snap!) sounds too, once
    turn = page.get_by_role("button", name="Turn your card")
    if turn.is_enabled():
        turn_a_card(page)
    page.locator("#page-title").focus()
    expect(snap_button).to_be_enabled()
    count = len(page.evaluate(PAINTED))
    page.keyboard.press("Space")
    wait_painted(page, count)
    taps = page.evaluate("() => window.kioskSound.played.filter(p => p.from === 'tap')")
    assert [p["name"] for p in taps] == ["call", "call"], taps

    audio = page.evaluate("window.__audio")
    assert len(audio["sources"]) == page.evaluate("window.kioskSound.started") > 0
    assert audio["contexts"] == 1  # made once, at the first gesture


def test_every_sound_is_short(new_context, sound_server):
    page = audio_page(new_context)
    start(page, sound_server.url + SNAP)
    lengths = {}
    for name in NAMES:
        page.evaluate("window.__audio.sources.length = 0")
        assert page.evaluate("name => window.kioskSound.play(name)", name) is True
        sources = page.evaluate("window.__audio.sources")
        assert sources and all(s["stop"] is not None for s in sources), (name, sources)
        lengths[name] = max(s["stop"] for s in sources) - min(s["start"] for s in sources)
    for name, length in lengths.items():
        limit = 1.2 if name == "end-win" else 0.6
        assert 0 < length <= limit + 0.001, lengths


def test_with_sound_off_nothing_plays(new_context, sound_server):
    page = audio_page(new_context)
    start(page, sound_server.url + SNAP)
    control(page).tap()
    expect(control(page)).to_have_attribute("aria-pressed", "false")
    turn_a_card(page)
    assert page.evaluate(SHOW, "card call win end-win") == []
    count = len(page.evaluate(PAINTED))
    page.get_by_role("button", name="Snap!", exact=True).tap()
    wait_painted(page, count)
    assert page.evaluate("window.kioskSound.play('win')") is False
    assert played(page) == []
    assert page.evaluate("window.kioskSound.started") == 0
    assert page.evaluate("window.__audio.sources.length") == 0


def test_a_whole_game_of_snap_plays_each_tables_sounds(new_context, sound_server):
    page = audio_page(new_context)
    page.goto(sound_server.url + SNAP)
    start_game(page, 3, None)
    result = play_a_game(page, rank)
    assert result.wrong_calls == 1
    audio = page.evaluate("window.__audio")
    log = page.evaluate("window.kioskSound.played")
    asked = [name for names in audio["shown"] for name in names]
    table = [p["name"] for p in log if p["from"] == "table"]
    assert table == asked  # every table's sounds, in order, none twice, none left out
    assert table.count("card") >= 10, table
    assert "wrong" in table, table  # the wrong call on purpose
    assert table[-1] in ("end-win", "end-lose"), table
    assert set(table) <= set(NAMES), table
    # the visitor's own calls sounded at their taps, never in a table's sounds twice over
    taps = [p for p in log if p["from"] == "tap"]
    calls = page.evaluate("() => window.kioskPlay.log.filter(e => e.type === 'call')")
    assert calls
    for call in calls:
        assert any(abs(t["at"] - call["tapAt"]) < 50 for t in taps), (call, taps)
    assert len(audio["sources"]) == page.evaluate("window.kioskSound.started")
    snap(page, "sound-snap-result", full_page=False)


@pytest.mark.parametrize("game", ["happy-families", "snitchems"])
def test_the_turn_games_tables_play_their_sounds(new_context, sound_server, game):
    page = audio_page(new_context)
    url, root = GAMES[game]
    start(page, sound_server.url + url, root)
    # the computer players move at their pace (or the visitor's first move is waited for)
    card = page.locator(f"{root} .sn-hand__card:enabled, {root} button.hf-pick:enabled").first
    asked = "() => window.__audio.shown.flat().length"
    if not page.evaluate(asked):
        expect(card.or_(page.locator(f"{root}[data-sounds]")).first).to_be_visible(timeout=30_000)
        if not page.evaluate(asked) and card.count():
            count = page.evaluate("window.kioskPlay.log.length")
            card.tap()
            page.wait_for_function("n => window.kioskPlay.log.length > n", arg=count)
    page.wait_for_function(f"() => ({asked})() > 0", timeout=30_000)
    audio, log = page.evaluate("[window.__audio, window.kioskSound.played]")
    names = [name for shown in audio["shown"] for name in shown]
    assert [p["name"] for p in log if p["from"] == "table"] == names
    assert set(names) <= set(NAMES), names


# --------------------------------------------------------------------------- the defaults


def test_off_by_default_in_an_embed_and_kept_across_a_reload(new_context, sound_server):
    page = audio_page(new_context)
    embed = sound_server.url + "/embed" + SNAP
    start(page, embed)
    button = control(page)
    expect(button).to_have_attribute("aria-pressed", "false")
    turn_a_card(page)
    assert played(page) == []
    assert page.evaluate(SHOW, "card win") == []
    assert played(page) == []

    button.tap()
    expect(button).to_have_attribute("aria-pressed", "true")
    page.reload()
    table_again(page)
    assert page.evaluate("window.kioskSound.enabled()") is True
    expect(control(page)).to_have_attribute("aria-pressed", "true")


def test_on_by_default_in_kiosk_mode_and_kept_across_a_reload(new_context, kiosk_server):
    page = audio_page(new_context)
    url = kiosk_server.url + SNAP
    start(page, url)
    button = control(page)
    expect(button).to_have_attribute("aria-pressed", "true")
    button.tap()
    expect(button).to_have_attribute("aria-pressed", "false")
    page.reload()
    table_again(page)
    assert page.evaluate("window.kioskSound.enabled()") is False
    expect(control(page)).to_have_attribute("aria-pressed", "false")


def test_the_idle_reset_clears_the_setting(new_context, quick_kiosk):
    page = audio_page(new_context)
    home = quick_kiosk.url + "/"
    start(page, quick_kiosk.url + SNAP)
    button = control(page)
    expect(button).to_have_attribute("aria-pressed", "true")
    button.tap()
    expect(button).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("sessionStorage.getItem('kiosk.sound')") == "off"

    page.wait_for_url(home, timeout=20_000)  # 4 s idle, then 2 s of countdown: reset
    page.wait_for_load_state()
    assert page.evaluate("sessionStorage.getItem('kiosk.sound')") is None
    start(page, quick_kiosk.url + SNAP)
    expect(control(page)).to_have_attribute("aria-pressed", "true")  # the next visitor's


def test_storage_that_throws_keeps_the_setting_for_the_page(new_context, sound_server):
    page = audio_page(new_context)
    page.add_init_script(NO_STORAGE)
    start(page, sound_server.url + SNAP)
    button = control(page)
    expect(button).to_have_attribute("aria-pressed", "true")
    button.tap()
    expect(button).to_have_attribute("aria-pressed", "false")
    turn_a_card(page)
    expect(button).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(SHOW, "card") == []
    assert played(page) == []


def test_boosted_navigation_loads_it_once(new_context, sound_server):
    page = audio_page(new_context)
    start(page, sound_server.url + SNAP)
    page.evaluate("window.__first = window.kioskSound")
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Sets").tap()  # boosted: the same document throughout
    page.wait_for_url("**/sets/")
    page.locator("a[href$='/sets/twizzles-happy-families']").first.tap()
    page.wait_for_url("**/sets/twizzles-happy-families")
    page.get_by_role("link", name="Play Happy Families").first.tap()
    page.wait_for_url("**/play/happy-families")
    page.get_by_role("button", name="Start").tap()
    expect(page.locator("#happy-families-game[data-step]")).to_be_visible()
    assert page.evaluate("window.sameDocument") is True
    assert page.evaluate("window.__first === window.kioskSound")  # sound.js ran again: no new one
    expect(control(page)).to_be_visible()
    expect(control(page)).to_have_attribute("aria-pressed", "true")
    assert [p["name"] for p in page.evaluate(SHOW, "card")] == ["card"]  # one listener


# --------------------------------------------------------------------------- accessibility


def test_a_game_page_with_the_control_passes_axe_and_target_sizes(new_context, sound_server):
    page = audio_page(new_context)
    start(page, sound_server.url + "/sets/misc-869-1986/play")
    expect(control(page)).to_be_visible()
    assert_no_axe_violations(page)
    assert_targets_at_least(page)
    control(page).tap()
    expect(control(page)).to_have_attribute("aria-pressed", "false")
    page.get_by_role("link", name="See how it works, step by step").focus()
    page.keyboard.press("Tab")  # the control comes next, with its focus ring
    focused = page.evaluate(
        """() => { const el = document.activeElement;
          return [el.id, el.matches(':focus-visible'), getComputedStyle(el).outlineStyle]; }"""
    )
    assert focused == ["sound-toggle", True, "solid"], focused
    assert_no_axe_violations(page)
    snap(page, "sound-control-focused", full_page=False)
