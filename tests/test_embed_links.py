"""Inside an embed every link a page draws stays under ``/embed/``: a walk of the play and
rule pages.

For every set and every game it plays (from the app's own catalogue and ``adapters()``),
the walk opens the embedded setup page, submits the setup form with its defaults, plays
the game to its end with the table's own buttons and checks the setup, every table and the
result page. It then walks the embedded rule step-throughs from ``/embed/rules/``. On each
page every same-site URL a visitor's browser may follow (``<a href>``, ``<form action>``,
``formaction``, ``data-hx-*`` requests, ``src``, stylesheets and any other ``data-*``
address) must be under ``/embed/``: a page outside it may not be framed by another site, so
the browser would refuse it. Allowed besides: a fragment (``#main``), and a link that opens
in a new tab (``target="_blank"``), either to another site or, as an absolute address, the
same page on the full kiosk (the embed's one way out; a root-relative one would be put
back under ``/embed/`` by the server). Every ``<a>`` the walk meets is also opened, and
must end (after redirects) on a page that is served, still under ``/embed/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup, Tag

from kiosk import create_app
from kiosk.web import content
from kiosk.web.embed import PREFIX
from kiosk.web.play import flow
from kiosk.web.play.games import adapters

HOST = "localhost"  # Flask's test client's host
ORIGIN = f"http://{HOST}"
MAX_TURNS = 12  # a short game of Snap (the kiosk's bound is 100 turns)
MAX_MOVES = 3000  # the longest walk through one game before it counts as never ending
HX_REQUESTS = ("data-hx-get", "data-hx-post", "data-hx-put", "data-hx-patch", "data-hx-delete")
URL_ATTRS = ("href", "action", "formaction", "src", *HX_REQUESTS)
NEVER = ("unpick", "auto-off")  # buttons that only take a step back: the walk never taps them
FIRST = ("next", "auto-on")  # the computer plays on (in Snap, for the visitor too)


def _catalogue() -> tuple[list[tuple[str, str]], list[str]]:
    """Every (set, game) the kiosk plays and every rule step-through, from its own content."""
    app = create_app({"TESTING": True, "SECRET_KEY": "embed-links-collect"})
    with app.test_request_context():
        snapshot = content.current()
        plays = [
            (slug, game)
            for slug, entry in snapshot.sets.items()
            for game, plugin in adapters().items()
            if plugin.plays(entry.record)  # type: ignore[arg-type]
        ]
        return plays, sorted(snapshot.scenarios)


PLAYS, SCENARIOS = _catalogue()


@pytest.fixture
def client(app):
    app.config["PLAY_MAX_TURNS"] = MAX_TURNS
    return app.test_client()


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def in_embed(path: str) -> bool:
    return path == PREFIX or path.startswith(PREFIX + "/")


def addresses(page: BeautifulSoup) -> Iterator[tuple[Tag, str, str]]:
    """Every (element, attribute, value) of the page that a browser may load or follow."""
    for tag in page.find_all(True):
        if tag.name == "link" and "alternate" in (tag.get("rel") or []):
            continue  # oEmbed discovery: read by the host site's CMS, never opened in the frame
        for attr, value in tag.attrs.items():
            if not isinstance(value, str):
                continue
            if attr in URL_ATTRS or (attr.startswith("data-") and value.startswith("/")):
                yield tag, attr, value


def leaks(path: str, page: BeautifulSoup) -> list[str]:
    """The addresses on ``path``'s page that would take the frame out of ``/embed/``."""
    found = []
    for tag, attr, value in addresses(page):
        value = value.strip()
        if value.startswith("#"):
            continue
        url = urlsplit(urljoin(ORIGIN + path, value))
        new_tab = tag.name == "a" and tag.get("target") == "_blank"
        said = f"<{tag.name} {attr}={value!r}> ({tag.get_text(' ', strip=True)[:40]!r})"
        if url.scheme not in ("http", "https"):
            ok = tag.name == "a" and url.scheme in ("mailto", "tel")
        elif url.netloc != HOST:
            ok = new_tab  # another site, never in the pupil's frame
        else:  # outside the embed only the way out: the full kiosk, new tab, absolute address
            ok = in_embed(url.path) or (new_tab and urlsplit(value).netloc == HOST)
        if not ok:
            found.append(said)
    return found


class Walk:
    """A visitor inside the frame: every page checked, every link opened once."""

    def __init__(self, client) -> None:
        self.client = client
        self.opened: dict[str, int] = {}

    def check(self, path: str, page: BeautifulSoup, what: str) -> None:
        assert not leaks(path, page), (what, path, leaks(path, page))

    def open_links(self, path: str, page: BeautifulSoup) -> None:
        """Open each same-site ``<a>`` of the page that stays in the embed (once per walk)."""
        for a in page.select("a[href]"):
            url = urlsplit(urljoin(ORIGIN + path, a["href"]))
            if url.netloc != HOST or not in_embed(url.path) or not url.path.strip("/"):
                continue
            address = url.path + (f"?{url.query}" if url.query else "")
            if address in self.opened:
                continue
            response = self.client.get(address, follow_redirects=True)
            self.opened[address] = response.status_code
            assert response.status_code == 200, (path, address, response.status_code)
            assert in_embed(response.request.path), (path, address, response.request.path)

    def get(self, path: str, what: str) -> BeautifulSoup:
        response = self.client.get(path)
        assert response.status_code == 200, (what, path, response.status_code)
        page = soup(response)
        self.check(path, page, what)
        return page

    def post(self, action: str, data: dict[str, str], what: str) -> BeautifulSoup:
        response = self.client.post(action, data=data)
        assert response.status_code == 200, (what, action, response.get_data(as_text=True)[:400])
        page = soup(response)
        self.check(action, page, what)
        return page


def form_defaults(form: Tag) -> dict[str, str]:
    """What the form sends as it is drawn: hidden and text fields, checked boxes, selects."""
    data: dict[str, str] = {}
    for field in form.select("input[name], select[name], textarea[name]"):
        if field.has_attr("disabled"):
            continue
        name = field["name"]
        if field.name == "select":
            chosen = field.select_one("option[selected]") or field.select_one("option")
            if chosen is not None:
                data[name] = chosen.get("value", chosen.get_text())
        elif field.name == "textarea":
            data[name] = field.get_text()
        elif field.get("type", "text") in ("radio", "checkbox"):
            if field.has_attr("checked"):
                data[name] = field.get("value", "on")
        elif field.get("type") not in ("submit", "button", "image", "reset", "file"):
            data[name] = field.get("value", "")
    return data


def a_button(form: Tag) -> tuple[str, str]:
    """The table's button the walk taps: the computer's move first, a pick (which only opens
    a choice) last, never a step back."""
    buttons = [
        b
        for b in form.select("button[type=submit][name]")
        if not b.has_attr("disabled") and b.get("value") not in NEVER
    ]
    assert buttons, form.get_text(" ", strip=True)[:400]
    for value in FIRST:
        for b in buttons:
            if b.get("value") == value:
                return b["name"], value
    others = [b for b in buttons if not b.get("value", "").startswith("pick:")]
    chosen = (others or buttons)[0]
    return chosen["name"], chosen.get("value", "")


def region_over(page: BeautifulSoup, game: str) -> bool:
    region = page.find(id=f"{game}-game")
    assert region is not None, page.get_text(" ", strip=True)[:400]
    return region.get("data-over") == "1"


@pytest.mark.parametrize(("slug", "game"), PLAYS, ids=[f"{s}-{g}" for s, g in PLAYS])
def test_every_link_of_an_embedded_game_stays_in_the_embed(client, slug, game):
    walk = Walk(client)
    setup = f"{PREFIX}/sets/{slug}/play" + ("" if game == flow.FIRST else f"/{game}")
    page = walk.get(setup, "setup")
    walk.open_links(setup, page)
    form = page.select_one("form.setup")
    assert form is not None and form.get("action"), setup
    page = walk.post(urljoin(setup, form["action"]), form_defaults(form), "first table")
    walk.open_links(setup, page)
    for move in range(MAX_MOVES):
        if region_over(page, game):
            break
        table = page.find(id="play-form")
        action = table["action"]
        name, value = a_button(table)
        page = walk.post(action, {**form_defaults(table), name: value}, f"table {move + 1}")
    else:
        raise AssertionError(f"{slug} {game}: the game never ended")
    result = page.select_one(".result")
    assert result is not None, (slug, game)
    walk.open_links(action, page)
    again = result.select_one("form[action]")
    walk.post(again["action"], form_defaults(again), "Play again")
    assert any("/rules/" in address for address in walk.opened), walk.opened


def test_the_walk_sees_a_leak(client):
    """The check itself: a root-relative link out of the embed, or a form, is a leak."""
    page = BeautifulSoup(
        '<a href="/rules/snap/classic">x</a><form action="/sets/"></form>'
        '<div data-hx-post="/sets/x/play/act"></div><a href="#main">skip</a>'
        '<a href="/embed/rules/">in</a><a href="https://example.org/" target="_blank">out</a>'
        '<a href="http://localhost/rules/" target="_blank">kiosk</a>'
        '<a href="/rules/" target="_blank">root-relative: not the way out</a>',
        "html.parser",
    )
    assert len(leaks("/embed/sets/", page)) == 4


def test_every_embedded_rule_page_stays_in_the_embed(client):
    """From the rules' list, every step of every scenario, its links opened."""
    walk = Walk(client)
    index = f"{PREFIX}/rules/"
    seen: set[str] = set()
    todo = [index]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        page = walk.get(path, "rules")
        walk.open_links(path, page)
        for a in page.select("a[href]"):
            url = urlsplit(urljoin(ORIGIN + path, a["href"]))
            if url.netloc == HOST and url.path.startswith(index) and url.path not in seen:
                todo.append(url.path)
    with client.application.test_request_context():
        runs = content.current().runs
        steps = {
            f"{index}{key}/{n}" for key in SCENARIOS for n in range(1, len(runs[key].steps) + 1)
        }
    assert steps <= seen, sorted(steps - seen)[:5]


@pytest.mark.parametrize("key", SCENARIOS)
def test_an_embedded_rule_step_has_no_trail_out_but_a_way_out(client, key):
    """No "Home › Rules" trail around the kiosk inside a teacher's frame: one link, in a new
    tab, to the same step on the full kiosk."""
    path = f"{PREFIX}/rules/{key}/1"
    page = soup(client.get(path))
    assert page.select("nav.breadcrumbs a[href$='/embed/']") == []
    assert not any(a.get_text(strip=True) == "Home" for a in page.select("a"))
    out = [a for a in page.select("a[target=_blank]") if urlsplit(a["href"]).netloc == HOST]
    assert len(out) == 1, out
    assert urlsplit(out[0]["href"]).path == path.removeprefix(PREFIX)
    assert "noopener" in out[0].get("rel", [])
    assert client.get(urlsplit(out[0]["href"]).path).status_code == 200
    plain = soup(client.get(path.removeprefix(PREFIX)))
    assert plain.select("nav.breadcrumbs a.crumb-link"), "the kiosk's own page keeps its trail"
    assert not plain.select("a[target=_blank]")


def test_the_embedded_rules_list_has_no_trail_out_but_a_way_out(client):
    """The list of step-throughs likewise: no "Home" in the frame, the one way out in a new tab
    (the list on the full kiosk), every other link a step-through under /embed/rules/."""
    path = f"{PREFIX}/rules/"
    page = soup(client.get(path))
    assert not any(a.get_text(strip=True) == "Home" for a in page.select("a"))
    out = [a for a in page.select("a[target=_blank]") if urlsplit(a["href"]).netloc == HOST]
    assert [urlsplit(a["href"]).path for a in out] == ["/rules/"], out
    inside = [a["href"] for a in page.select("a[href]") if a not in out and a["href"] != "#main"]
    assert inside and all(h.startswith(f"{PREFIX}/rules/") for h in inside), inside
    plain = soup(client.get("/rules/"))
    assert plain.select("nav.breadcrumbs a.crumb-link"), "the kiosk's own list keeps its trail"
