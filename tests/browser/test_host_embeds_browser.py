"""Embeds in the iframes school sites really make: WordPress, Moodle, Google Sites, a plain page.

Each host page is served from another origin than the kiosk (``localhost`` on its own port;
the kiosk is on ``127.0.0.1``) and holds the markup that host produces:

- **WordPress** runs an oEmbed answer from a provider it does not know through
  ``wp_filter_oembed_result`` (WordPress core, ``wp-includes/embed.php``): only ``blockquote``,
  ``a href`` and the iframe's plain attributes survive; the iframe gets
  ``class="wp-embedded-content" sandbox="allow-scripts" security="restricted"``, a 10-letter
  secret in its address (``#?secret=…``) and ``data-secret``, and, when a blockquote came
  with it, ``style="position: absolute; clip: rect(1px, 1px, 1px, 1px);"`` until the frame
  speaks. :func:`wordpress_filter` does those steps. The host page's listener is WordPress's
  ``wp.receiveEmbedMessage`` (``wp-includes/js/wp-embed.js``) written again: a message with
  the frame's secret hides the blockquote and shows the frame; ``height`` sets it, kept
  between 200 and 1000 px; ``link`` sends the host page to an address on the frame's host.
- **Moodle**'s oEmbed filter (``filter/oembed`` in moodle/moodle; its test ``test_embed_html``
  shows the output) puts the provider's HTML, unchanged, in ``<div class="oembed-content">``.
- **Google Sites** runs "Embed code" in a frame of its own, from another origin, sandboxed.
  Google does not publish that frame's flags for Sites; we use the ones Google documents for
  the user HTML it sandboxes the same way (Apps Script's HTML service, IFRAME mode:
  https://developers.google.com/apps-script/guides/html/restrictions): our inference.
- **A plain page**: the "Embed this" code as a teacher pastes it.

In each: a whole Snap game (Start, turns, a call, the end, Play again), a Happy Families ask,
a Snitch'ems capture and a rule step-through; the frame is shown and fits its content; no
console error; axe-core finds nothing inside the frame. A frame that may run no script and
send no form says so in one line and offers the page itself.
"""

from __future__ import annotations

import json
import re
import secrets
import string
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.request import urlopen

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from .harness import LiveServer, assert_no_axe_violations, html_app
from .test_play_browser import PACE_MS, play_a_game, rank, start_game
from .test_play_more_browser import (
    MY_CARD,
    said_at,
    start_families,
    step,
    wait_step,
    wait_turn,
)

SNAP = "/sets/snap-standard-deck/play"
HF = "/sets/twizzles-happy-families/play/happy-families"
SN = "/sets/snitchems-1797/play/snitchems"
RULE = "/rules/snap/classic/1"

# The sandbox Google documents for the user HTML it serves in a frame (see the docstring).
GOOGLE_SANDBOX = (
    "allow-same-origin allow-forms allow-scripts allow-popups allow-downloads allow-modals"
    " allow-popups-to-escape-sandbox"
)
# WordPress's wp.receiveEmbedMessage (wp-includes/js/wp-embed.js), in our own words.
WP_EMBED_LISTENER = """
window.addEventListener("message", function (e) {
  var data = e.data;
  if (!data || !(data.secret || data.message || data.value)) return;
  if (/[^a-zA-Z0-9]/.test(data.secret)) return;
  var quotes = document.querySelectorAll('blockquote[data-secret="' + data.secret + '"]');
  var frames = document.querySelectorAll('iframe[data-secret="' + data.secret + '"]');
  quotes.forEach(function (q) { q.style.display = "none"; });
  frames.forEach(function (frame) {
    if (e.source !== frame.contentWindow) return;
    frame.removeAttribute("style");
    if (data.message === "height") {
      var h = parseInt(data.value, 10);
      frame.height = h > 1000 ? 1000 : (~~h < 200 ? 200 : h);
    }
    if (data.message === "link") {
      var from = document.createElement("a"), to = document.createElement("a");
      from.href = frame.getAttribute("src");
      to.href = data.value;
      if (to.host === from.host && document.activeElement === frame) {
        window.top.location.href = data.value;
      }
    }
  });
});
"""
# the embed block's own rule (WordPress's block library style.css): no wider than the page
WP_EMBED_STYLE = ".wp-block-embed iframe { max-width: 100%; }"
# what the kiosk's content measures as its height (embedded.js's contentHeight)
CONTENT_HEIGHT = """() => {
  const main = document.getElementById("main");
  let bottom = main.getBoundingClientRect().top;
  for (const child of main.children) {
    bottom = Math.max(bottom, child.getBoundingClientRect().bottom);
  }
  const padding = parseFloat(getComputedStyle(main).paddingBottom) || 0;
  return Math.ceil(bottom + padding + window.scrollY);
}"""


def page_html(title: str, body: str, head: str = "") -> str:
    """A host's page: accessible on its own (axe checks it with the frame)."""
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
        f"{head}</head><body><main><h1>{title}</h1>{body}</main></body></html>"
    )


def oembed_html(server: LiveServer, path: str) -> str:
    """Our oEmbed answer's ``html`` for the page at ``path``, found as WordPress finds it
    (``WP_oEmbed::discover``, wp-includes/class-wp-oembed.php): the page's JSON discovery
    link's ``href``, fetched as it stands, with WordPress's ``maxwidth`` and ``maxheight``."""
    with urlopen(server.url + path, timeout=10) as response:  # our own test server
        page = response.read().decode("utf-8")
    link = BeautifulSoup(page, "html.parser").find("link", type="application/json+oembed")
    assert link is not None, path
    with urlopen(link["href"] + "&maxwidth=1240&maxheight=1000", timeout=10) as response:
        return str(json.load(response)["html"])


def wordpress_filter(html: str) -> str:
    """``wp_filter_oembed_result`` (wp-includes/embed.php) for a provider WordPress does not
    know: keep what its allow-list keeps, add the secret, hide the frame behind the blockquote,
    sandbox it."""
    allowed = {
        "a": {"href"},
        "blockquote": set(),
        "iframe": {"src", "width", "height", "frameborder", "marginwidth", "marginheight"}
        | {"scrolling", "title"},
    }
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(True):
        if tag.name not in allowed:
            tag.unwrap() if tag.name != "script" else tag.decompose()
            continue
        tag.attrs = {k: v for k, v in tag.attrs.items() if k in allowed[tag.name]}
    kept = str(soup)
    found = re.search(r"(<blockquote>.*?</blockquote>)?.*(<iframe.*?></iframe>)", kept, re.S)
    assert found and found.group(2), kept
    quote_part, frame = found.group(1) or "", found.group(2)
    out = quote_part + frame
    src = re.search(r' src=([\'"])(.*?)\1', out)
    if src:
        secret = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(10))
        q = src.group(1)
        out = out.replace(
            src.group(0), f" src={q}{src.group(2)}#?secret={secret}{q} data-secret={q}{secret}{q}"
        )
        out = out.replace("<blockquote", f'<blockquote data-secret="{secret}"')
    if quote_part:
        out = out.replace(
            "<iframe", '<iframe style="position: absolute; clip: rect(1px, 1px, 1px, 1px);"'
        )
        out = out.replace("<blockquote", '<blockquote class="wp-embedded-content"')
    return out.replace(
        "<iframe",
        '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"',
    )


def snippet(server: LiveServer, path: str) -> str:
    """The "Embed this" code for ``path``, as the kiosk's own page gives it to a teacher."""
    with server.app.test_request_context(base_url=server.url):
        from kiosk.web.teach import embed_snippet

        return embed_snippet(path, "A card game at the museum")


class Host:
    """One school site's page around the kiosk page at ``path``."""

    def __init__(self, name: str, serve: Callable[[str], str], server: LiveServer) -> None:
        self.name, self.serve, self.server = name, serve, server

    def url(self, path: str) -> str:
        server = self.server
        if self.name == "wordpress":
            body = (  # the Embed block a pasted address becomes, around the filtered answer
                '<p>Our lesson.</p><figure class="wp-block-embed is-type-rich">'
                '<div class="wp-block-embed__wrapper">'
                + wordpress_filter(oembed_html(server, path))
                + "</div></figure>"
            )
            head = f"<style>{WP_EMBED_STYLE}</style><script>{WP_EMBED_LISTENER}</script>"
            return self.serve(page_html("Our lesson", body, head))
        if self.name == "moodle":
            body = f'<div class="oembed-content">{oembed_html(server, path)}</div>'
            return self.serve(page_html("Course page", body))
        if self.name == "google-sites":
            inner = self.serve(page_html("Embedded code", snippet(server, path)))
            body = (
                f'<iframe sandbox="{GOOGLE_SANDBOX}" src="{inner}" title="Embedded content"'
                ' width="1240" height="1400" style="border:0"></iframe>'
            )
            return self.serve(page_html("Our class site", body))
        return self.serve(page_html("Our lesson", snippet(server, path)))


HOSTS = ["wordpress", "moodle", "google-sites", "plain"]


@pytest.fixture(scope="module")
def kiosk() -> Iterator[LiveServer]:
    """The kiosk as deployed (any site may frame /embed/), with short games at a quick pace."""
    config = {
        "PLAY_PACE_MS": PACE_MS,
        "PLAY_MORE_PACE_MS": 120,
        "PLAY_MAX_TURNS": 24,
        "PLAY_NONCE": "host-embeds-0",  # the same deals every run; the visitor asks first
    }
    with LiveServer(config) as server:
        yield server


@pytest.fixture(params=HOSTS)
def host(request, kiosk, make_server) -> Host:
    def serve(body: str) -> str:
        return make_server(app=html_app(body)).at("localhost") + "/"

    return Host(request.param, serve, kiosk)


@pytest.fixture
def visitor(new_context) -> Any:
    return new_context(has_touch=True).new_page()


def our_frame(page: Any, kiosk: LiveServer) -> Any:
    """The kiosk's frame, however deep the host nests it."""
    for _ in range(10):  # a lazy frame (loading="lazy") loads after the page
        for frame in page.frames:
            if frame.url.startswith(kiosk.url):
                return frame
        page.wait_for_event("framenavigated")
    raise AssertionError([f.url for f in page.frames])


def frame_element(frame: Any) -> Any:
    return frame.frame_element()


def assert_fits(frame: Any, host: Host) -> None:
    """The frame is shown (not clipped away) and as tall as its content (WordPress: kept
    between 200 and 1000 px, as its wp-embed script keeps it)."""
    element = frame_element(frame)
    expect(frame.locator("#main")).to_be_visible()
    for _ in range(20):  # the content may grow while we look (a table's cards settling)
        wanted = int(frame.evaluate(CONTENT_HEIGHT))
        if host.name == "wordpress":
            wanted = min(max(wanted, 200), 1000)
        try:
            element.wait_for_element_state("visible")
            frame.parent_frame.wait_for_function(
                "([el, h]) => Math.abs(el.clientHeight - h) <= 2"
                " && !el.getAttribute('style')?.includes('clip')",
                arg=[element, wanted],
                timeout=3000,
            )
            return
        except Exception:  # measured again: the content moved
            continue
    raise AssertionError(f"the frame never fitted its content ({wanted} px)")


def open_in(host: Host, page: Any, path: str) -> Any:
    page.goto(host.url(path))
    frame = our_frame(page, host.server)
    expect(frame.locator("h1").first).to_be_visible()
    return frame


def test_a_whole_game_of_snap(host, visitor):
    frame = open_in(host, visitor, SNAP)
    assert_fits(frame, host)
    start_game(frame, 1, None)
    assert_fits(frame, host)
    played = play_a_game(frame, rank)
    assert played.turns_taken >= 1 and played.wrong_calls == 1, played.lines[-5:]
    expect(frame.get_by_role("heading", name=re.compile("^Game over"))).to_be_visible()
    assert_fits(frame, host)
    assert_no_axe_violations(visitor)
    frame.get_by_role("button", name="Play again").tap()
    expect(frame.locator("#snap-game[data-over='0']")).to_have_count(1)
    expect(frame.get_by_role("button", name="Snap!", exact=True)).to_be_visible()


def test_a_reloaded_frame_carries_on_with_the_game(host, visitor):
    """A reload keeps the game: brought back by itself where the frame keeps its history
    entry's state, offered as "Carry on with your game" where only the frame's name keeps it
    (WordPress's sandbox: an opaque origin, no storage, no state after a reload)."""
    frame = open_in(host, visitor, SNAP)
    start_game(frame, 1, None)
    turn = frame.get_by_role("button", name="Turn your card")
    expect(turn).to_be_enabled()
    turn.tap()
    # the turned card's table shown, so kept (play.js keeps a game when it shows its table)
    frame.wait_for_function(
        "() => window.kioskPlay.log.some(e => e.type === 'shown' && Number(e.step) > 0)"
    )
    before = frame.evaluate("() => document.querySelector('#snap-game').dataset.step")
    frame.evaluate("() => { window.beforeReload = true; setTimeout(() => location.reload(), 0); }")
    frame.wait_for_function("() => !window.beforeReload && document.readyState !== 'loading'")
    if host.name == "wordpress":
        carry_on = frame.get_by_role("button", name="Carry on with your game")
        expect(carry_on).to_be_visible()
        carry_on.tap()
    # the first table shown after the reload is the game as it was, saying so (read from
    # play.js's log: the computer player's pace may move the game on at once)
    shown = "() => window.kioskPlay && window.kioskPlay.log.find(e => e.type === 'shown')"
    frame.wait_for_function(shown)
    first = frame.evaluate(shown)
    # not a new game: at least as far on as before (the pace may have moved it once more
    # before the reload)
    assert int(first["step"]) >= int(before) > 0, (first, before)
    assert "Here is your game, as you left it." in first["said"], first
    assert_fits(frame, host)


def test_a_happy_families_ask(host, visitor):
    frame = open_in(host, visitor, HF)
    start_families(frame, 2, "Good memories")
    asks = frame.get_by_role("button", name=re.compile(r"^Ask (?!someone)"))
    for _ in range(30):  # the computer players may ask first
        if any(b.is_enabled() for b in asks.all()):
            break
        wait_turn(frame, step(frame))
    next(b for b in asks.all() if b.is_enabled()).tap()
    offer = frame.get_by_role("button", name=re.compile(r"^Please may I have .+\?$")).first
    wanted = offer.inner_text().strip()
    old = step(frame)
    offer.tap()
    wait_step(frame, old)
    assert f"“{wanted}”" in said_at(frame, old + 1)  # as shown: the players may have moved on
    assert_fits(frame, host)
    assert_no_axe_violations(visitor)


def test_a_snitchems_capture(host, visitor):
    frame = open_in(host, visitor, SN)
    frame.get_by_role("button", name="Start").tap()
    hand = frame.get_by_role("region", name="You", exact=True).get_by_role("button")
    captures = frame.get_by_role("button", name=re.compile(r"^Capture: "))
    for _ in range(200):
        old = step(frame)
        cards = [b for b in hand.all() if b.is_enabled()]
        if not cards:
            wait_turn(frame, old, MY_CARD)
            continue
        names = [c.inner_text().strip() for c in cards]
        for name in names:
            hand.filter(has_text=name).first.tap()
            expect(frame.get_by_role("heading", name=f"The {name}", exact=True)).to_be_visible()
            if captures.count():
                break
        if captures.count():
            old = step(frame)
            captures.first.tap()
            wait_step(frame, old)
            # the words of the table the capture made, as they were shown: at this pace the
            # computer player may already have moved on
            assert "You capture:" in said_at(frame, old + 1)
            break
        frame.get_by_role("button", name=f"Lay the {names[-1]} on the table").tap()
        wait_step(frame, old)
    else:
        raise AssertionError("no capture came in 200 moves")
    assert_fits(frame, host)
    assert_no_axe_violations(visitor)


def test_a_rule_step_through(host, visitor):
    frame = open_in(host, visitor, RULE)
    caption = frame.locator("#rules-caption")
    expect(caption).to_contain_text("Step 1 of")
    for n in (2, 3):
        frame.get_by_role("link", name=re.compile(r"^Next")).tap()
        expect(caption).to_contain_text(f"Step {n} of")
    frame.get_by_role("link", name=re.compile(r"^Previous")).tap()
    expect(caption).to_contain_text("Step 2 of")
    assert_fits(frame, host)
    assert_no_axe_violations(visitor)


def test_wordpress_shows_the_frame_only_once_it_speaks(kiosk, make_server, visitor):
    """The blockquote says what the embed is and links to it; the frame replaces it."""
    html = wordpress_filter(oembed_html(kiosk, SNAP))
    quote_tag = BeautifulSoup(html, "html.parser").blockquote
    assert quote_tag.a["href"] == kiosk.url + SNAP
    assert "museum kiosk" in quote_tag.get_text()
    url = make_server(
        app=html_app(page_html("Lesson", html, f"<script>{WP_EMBED_LISTENER}</script>"))
    )
    visitor.goto(url.at("localhost") + "/")
    frame = our_frame(visitor, kiosk)
    expect(visitor.locator("blockquote")).to_be_hidden()
    expect(frame.get_by_role("button", name="Start")).to_be_visible()
    assert frame.evaluate("() => window.origin") == "null"  # the sandbox: an opaque origin


def test_a_sandboxed_frame_boosts_nothing_however_late_its_script_comes(
    kiosk, make_server, visitor
):
    """In WordPress's sandbox (an opaque origin) no link or form is boosted: htmx takes the
    page's elements on a timer of its own, and one it took as boosted keeps the body's target
    (#main), so "Carry on with your game" once swapped a table in place of the whole page.
    embedded.js turns boosting off before htmx runs, even when it is the slowest to arrive."""

    def late(route: Any) -> None:
        time.sleep(0.4)  # a slow network for this one script: htmx is in before it
        route.continue_()

    visitor.context.route("**/js/embedded.js*", late)
    html = wordpress_filter(oembed_html(kiosk, SNAP))
    url = make_server(
        app=html_app(page_html("Lesson", html, f"<script>{WP_EMBED_LISTENER}</script>"))
    )
    visitor.goto(url.at("localhost") + "/")
    frame = our_frame(visitor, kiosk)
    start = frame.get_by_role("button", name="Start")
    expect(start).to_be_visible()
    # htmx has taken the page (the Start form is its own), then: which did it boost?
    frame.wait_for_function("() => !!document.querySelector('form.setup')._htmx")
    boosted = frame.evaluate(
        "() => [...document.querySelectorAll('a, form')]"
        ".filter(e => e._htmx && e._htmx.boosted).map(e => e.outerHTML.slice(0, 80))"
    )
    assert boosted == []
    assert frame.evaluate("() => document.body.dataset.hxBoost") == "false"


@pytest.mark.expect_page_errors
def test_a_frame_that_allows_nothing_says_so(kiosk, make_server, visitor, page_errors):
    """No script and no form (``sandbox=""``): one line, and the page to open instead."""
    body = (
        f'<iframe sandbox="" src="{kiosk.url}/embed{SNAP}" title="Snap" width="1000"'
        ' height="900"></iframe>'
    )
    url = make_server(app=html_app(page_html("Lesson", body))).at("localhost") + "/"
    visitor.goto(url)
    frame = our_frame(visitor, kiosk)
    line = frame.locator(".setup__cannot")
    expect(line).to_be_visible()
    expect(line).to_contain_text("If Start does nothing here")
    expect(line.get_by_role("link")).to_have_attribute("href", kiosk.url + SNAP)
    errors = page_errors.console + page_errors.page_errors + page_errors.failed_requests
    assert all("Blocked script execution" in e for e in errors), errors
