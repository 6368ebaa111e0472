"""The resume address (issue 23): the game in a token shown as it stands, changed in nothing.

``play.js`` posts a kept token there when a reload, Back or Forward lands on a game's setup
address, or when the visitor taps "Carry on with your game". It must answer the whole game
page (the same table, "Here is your game, as you left it."), the game region alone for the
table's own htmx post, the friendly bad-token page for anything else a visitor can send, a
redirect to the setup for a GET, and stay under /embed/ in an embed.
"""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.web import insights, tokens
from kiosk.web.play import flow

# game -> (its set, its setup address, a setup form, the game's resume address)
GAMES: dict[str, tuple[str, str, dict[str, str], str]] = {
    "snap": (
        "snap-standard-deck",
        "/sets/snap-standard-deck/play",
        {"bots": "1"},
        "/sets/snap-standard-deck/play/resume",
    ),
    "happy-families": (
        "twizzles-happy-families",
        "/sets/twizzles-happy-families/play/happy-families",
        {"bots": "2"},
        "/sets/twizzles-happy-families/play/happy-families/resume",
    ),
    "snitchems": (
        "snitchems-1797",
        "/sets/snitchems-1797/play/snitchems",
        {},
        "/sets/snitchems-1797/play/snitchems/resume",
    ),
}
NEXT = {"snap": {"act": "next"}, "happy-families": {"move": "next"}, "snitchems": {"move": "next"}}


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "resume-test-secret",
            "INSIGHTS_DB": str(tmp_path / "insights.sqlite3"),
            "PLAY_MAX_TURNS": 30,
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def fields(page: BeautifulSoup) -> dict[str, str]:
    form = page.find(id="play-form")
    return {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}


def status(page: BeautifulSoup) -> str:
    region = page.find(id="game-status")
    return " ".join(region.get_text(" ").split()) if region else ""


def record(app, page: BeautifulSoup, game: str) -> tokens.PlayRecord:
    """The record in a page's token (two tokens of one record differ in their time stamp)."""
    with app.test_request_context():
        return tokens.load(fields(page)["token"], game)


def seats(page: BeautifulSoup) -> list[str]:
    """What the table shows, but for its words: every card's name and every count."""
    region = page.find(attrs={"data-game": True, "data-step": True})
    cards = [img.get("alt", "") for img in region.find_all("img") if img.get("alt")]
    counts = [" ".join(n.get_text().split()) for n in region.select(".pile__n, .seat__meta")]
    return cards + counts


def played(client, game: str, moves: int = 3, mount: str = "") -> BeautifulSoup:
    """A game a few moves in (the computer players' moves, through "Next")."""
    _, setup, form, _ = GAMES[game]
    page = soup(client.post(mount + setup, data=form))
    for _ in range(moves):
        following = page.find(id="next-button")
        if following is None or following.has_attr("disabled"):
            break
        page = tap(client, page, **NEXT[game])
    return page


def tap(client, page: BeautifulSoup, **button: str) -> BeautifulSoup:
    """The table's form posted with ``button``, as a page would."""
    response = client.post(page.find(id="play-form")["action"], data={**fields(page), **button})
    assert response.status_code == 200, status(soup(response))
    return soup(response)


def game_counts(app) -> dict[tuple, int]:
    recorder = app.extensions[insights.EXTENSION]
    recorder.flush()
    out: dict[tuple, int] = {}
    for row in recorder.store.rows("games"):
        key = (row["event"], row["game"])
        out[key] = out.get(key, 0) + row["n"]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_resume_address_shows_the_same_table(app, client, game):
    page = played(client, game)
    response = client.post(GAMES[game][3], data={"token": fields(page)["token"]})
    assert response.status_code == 200
    again = soup(response)
    assert again.find("html") is not None  # the whole page: a reload lands on it
    assert record(app, again, game) == record(app, page, game)  # nothing played
    region = again.find(id=f"{game}-game")
    before = page.find(id=f"{game}-game")
    assert region["data-step"] == before["data-step"]
    assert region["data-over"] == before["data-over"] == "0"
    assert seats(again) == seats(page)
    assert flow.RESUMED in status(again)
    assert again.find(id="play-form")["action"] == page.find(id="play-form")["action"]


@pytest.mark.parametrize("game", GAMES)
def test_a_resumed_game_plays_on(app, client, game):
    page = soup(client.post(GAMES[game][3], data={"token": fields(played(client, game))["token"]}))
    after = tap(client, page, **NEXT[game])
    assert len(record(app, after, game).actions) >= len(record(app, page, game).actions)
    assert flow.RESUMED not in status(after)


@pytest.mark.parametrize("game", GAMES)
def test_resuming_counts_no_new_game(app, client, game):
    token = fields(played(client, game))["token"]
    for _ in range(3):
        assert client.post(GAMES[game][3], data={"token": token}).status_code == 200
    assert game_counts(app).get(("started", game)) == 1


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({}, "were not sent with the page"),
        ({"token": ""}, "were not sent with the page"),
        ({"token": "forged.token"}, "cannot trust it"),
        ({"token": "x" * 5000}, "could not read"),
        ({"token": "\x00\ufffd☃"}, "could not read"),
    ],
)
def test_a_bad_or_missing_token_gets_the_friendly_400(client, game, data, words):
    response = client.post(GAMES[game][3], data=data)
    assert response.status_code == 400
    page = soup(response)
    assert "Let's start a new game" in page.get_text()
    assert words in page.get_text(), page.get_text()[:300]
    gone = page.find(id=f"{game}-game")
    assert gone["data-game-gone"] == game and gone["data-set"] == GAMES[game][0]
    assert page.find("a", href=GAMES[game][1], string="Start a new game")


@pytest.mark.parametrize("game", GAMES)
def test_another_games_or_sets_token_is_refused_kindly(app, client, game):
    other = next(g for g in GAMES if g != game)
    foreign = fields(played(client, other, moves=0))["token"]
    response = client.post(GAMES[game][3], data={"token": foreign})
    assert response.status_code == 400
    assert "belongs to another game" in soup(response).get_text()
    page = played(client, game, moves=0)
    with app.test_request_context():
        mine = tokens.load(fields(page)["token"], game)
        moved = tokens.dump(tokens.PlayRecord(**{**mine.__dict__, "set_slug": "elsewhere"}))
    response = client.post(GAMES[game][3], data={"token": moved})
    assert response.status_code == 400
    assert "belongs to another set of cards" in soup(response).get_text()


def test_unknown_games_and_sets_are_404_not_500(client):
    token = fields(played(client, "snap", moves=0))["token"]
    for address in (
        "/sets/no-such-set/play/resume",
        "/sets/snap-standard-deck/play/no-such-game/resume",
        "/sets/misc-869-1986/play/happy-families/resume",  # a set not played with that game
    ):
        assert client.post(address, data={"token": token}).status_code == 404
        assert client.get(address).status_code == 404


@pytest.mark.parametrize("game", GAMES)
def test_get_on_the_resume_address_goes_back_to_the_setup(client, game):
    set_slug, setup, _, resume = GAMES[game]
    for address in (resume, f"/sets/{set_slug}/play/{game}/resume"):
        response = client.get(address)
        assert response.status_code == 303
        assert response.headers["Location"] == setup
    embedded = client.get("/embed" + resume)
    assert embedded.status_code == 303
    assert embedded.headers["Location"] == "/embed" + setup


def test_snaps_long_resume_address_works_too(app, client):
    page = played(client, "snap")
    response = client.post(
        "/sets/snap-standard-deck/play/snap/resume", data={"token": fields(page)["token"]}
    )
    assert response.status_code == 200
    assert record(app, soup(response), "snap") == record(app, page, "snap")


@pytest.mark.parametrize("game", GAMES)
def test_the_tables_own_htmx_post_gets_the_region_and_a_boost_the_page(app, client, game):
    token = fields(played(client, game))["token"]
    region = client.post(GAMES[game][3], data={"token": token}, headers={"HX-Request": "true"})
    text = region.get_data(as_text=True)
    assert region.status_code == 200 and text.lstrip().startswith(f'<div id="{game}-game"')
    boosted = client.post(
        GAMES[game][3],
        data={"token": token},
        headers={"HX-Request": "true", "HX-Boosted": "true", "HX-Request-Type": "partial"},
    )
    page = soup(boosted)
    assert boosted.status_code == 200 and page.find(id="main") and page.find("title")
    assert flow.RESUMED in status(page)


@pytest.mark.parametrize("game", GAMES)
def test_under_embed_everything_stays_under_embed(app, client, game):
    _, setup, _, resume = GAMES[game]
    setup_page = soup(client.get("/embed" + setup))
    offer = setup_page.find(id="play-resume")
    assert offer.find("form")["data-action"] == "/embed" + resume
    page = played(client, game, mount="/embed")
    assert page.find(id="play-form")["action"].startswith("/embed/")
    response = client.post("/embed" + resume, data={"token": fields(page)["token"]})
    assert response.status_code == 200
    again = soup(response)
    assert record(app, again, game) == record(app, page, game)
    for tag, attribute in (("form", "action"), ("a", "href")):
        for element in again.select(f"#main {tag}[{attribute}]"):
            value = element[attribute]
            assert value.startswith(("/embed/", "#", "http")), (tag, value)
    bad = client.post("/embed" + resume, data={"token": "forged.token"})
    assert bad.status_code == 400
    assert soup(bad).find("a", string="Start a new game")["href"] == "/embed" + setup


@pytest.mark.parametrize("game", GAMES)
def test_the_setup_offers_carry_on_hidden_until_a_script_shows_it(client, game):
    set_slug, setup, _, resume = GAMES[game]
    offer = soup(client.get(setup)).find(id="play-resume")
    assert offer.has_attr("hidden")  # without JavaScript nothing is kept, nothing offered
    assert offer["data-game"] == game and offer["data-set"] == set_slug
    form = offer.find("form")
    assert form["data-action"] == resume
    assert not form.has_attr("action") and not form.has_attr("method")  # play.js arms it
    assert form.find("input", attrs={"name": "token"})
    assert form.find("button").get_text(strip=True) == "Carry on with your game"


def test_a_finished_game_resumes_as_finished(app, client):
    page = soup(client.post(GAMES["snap"][1], data={"bots": "1"}))
    page = tap(client, page, act="auto-on")
    for _ in range(500):
        if page.find(id="snap-game")["data-over"] == "1":
            break
        page = tap(client, page, act="next")
    assert page.find(id="snap-game")["data-over"] == "1"
    again = soup(client.post(GAMES["snap"][3], data={"token": fields(page)["token"]}))
    assert again.find(id="snap-game")["data-over"] == "1"  # play.js never asks; harmless if sent
    assert record(app, again, "snap") == record(app, page, "snap")
    assert game_counts(app).get(("finished", "snap")) == 1
