"""The one play flow, for every game: addresses, bad tokens, stale taps, wrong buttons, the
bookmarked action address, the htmx fragment against the full page, and the visitor counts."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.web import insights, tokens
from kiosk.web.play import flow
from kiosk.web.play.games import adapters

# game -> (a set that plays it, its setup address, a setup form, a button that does something)
GAMES: dict[str, tuple[str, str, dict[str, str], dict[str, str]]] = {
    "snap": ("snap-standard-deck", "/sets/snap-standard-deck/play", {"bots": "1"}, {"act": "turn"}),
    "happy-families": (
        "twizzles-happy-families",
        "/sets/twizzles-happy-families/play/happy-families",
        {"bots": "2"},
        {"move": "next"},
    ),
    "snitchems": ("snitchems-1797", "/sets/snitchems-1797/play/snitchems", {}, {"move": "next"}),
}
STEPPED = [game for game in GAMES if not adapters()[game].own_script]


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "flow-test-secret",
            "INSIGHTS_DB": str(tmp_path / "insights.sqlite3"),
            "PLAY_MAX_TURNS": 30,  # a short game of Snap
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def started(client, game: str):
    """The first table of a new game, its page parsed."""
    _, setup, form, _ = GAMES[game]
    response = client.post(setup, data=form)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return soup(response)


def fields(page: BeautifulSoup) -> dict[str, str]:
    """The table form's hidden fields (token, step or turn...)."""
    form = page.find(id="play-form")
    return {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}


def tap(client, game: str, page: BeautifulSoup, **more: Any):
    """Post the table's form with the game's button (or ``more``) as a page would."""
    button = GAMES[game][3]
    data = {**fields(page), **button, **more}
    return client.post(page.find(id="play-form")["action"], data=data)


def status(response) -> str:
    region = soup(response).find(id="game-status")
    return " ".join(region.get_text(" ").split()) if region else ""


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_setup_and_action_addresses(client, game):
    set_slug, setup, _, _ = GAMES[game]
    page = soup(client.get(setup))
    assert page.find(id=f"{game}-game")
    assert page.select_one("form.setup")["action"] == setup
    long = f"/sets/{set_slug}/play/{game}"
    assert client.get(long).status_code == 200  # Snap's long address too
    assert started(client, game).find(id="play-form")["action"] == setup + "/act"
    assert client.get(f"/sets/{set_slug}/play/no-such-game").status_code == 404
    assert client.get(f"/sets/no-such-set/play/{game}").status_code == 404


@pytest.mark.parametrize("game", ["happy-families", "snitchems"])
def test_a_set_not_played_with_a_game_is_404(client, game):
    assert client.get(f"/sets/misc-869-1986/play/{game}").status_code == 404
    assert client.post(f"/sets/misc-869-1986/play/{game}/act").status_code == 404


@pytest.mark.parametrize("game", GAMES)
def test_get_on_the_action_address_goes_back_to_setup(client, game):
    set_slug, setup, _, _ = GAMES[game]
    for act in (setup + "/act", f"/sets/{set_slug}/play/{game}/act"):
        response = client.get(act)
        assert response.status_code == 303
        assert response.headers["Location"] == setup


@pytest.mark.parametrize("game", GAMES)
def test_a_choice_not_on_the_list_is_400_with_the_setup(client, game):
    response = client.post(GAMES[game][1], data={"level": "grandmaster"})
    assert response.status_code == 400
    assert "Please choose again" in response.get_data(as_text=True)
    assert soup(response).select_one("form.setup")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("", "were not sent with the page"),
        ("forged.token", "cannot trust it"),
    ],
)
def test_a_bad_token_gets_the_friendly_400(client, game, token, words):
    page = started(client, game)
    response = tap(client, game, page, token=token)
    assert response.status_code == 400
    body = soup(response)
    assert words in body.get_text()
    assert body.find(id=f"{game}-game")  # htmx swaps the game region: the page keeps its shape
    assert body.find("a", href=GAMES[game][1], string="Start a new game")


@pytest.mark.parametrize("game", GAMES)
def test_another_games_token_is_named_so(app, client, game):
    other = next(g for g in GAMES if g != game)
    token = fields(started(client, other))["token"]
    response = tap(client, game, started(client, game), token=token)
    assert response.status_code == 400
    assert "belongs to another game" in soup(response).get_text()


@pytest.mark.parametrize("game", GAMES)
def test_another_sets_token_is_named_so(app, client, game):
    page = started(client, game)
    with app.test_request_context():
        record = tokens.load(fields(page)["token"], game)
        moved = tokens.dump(tokens.PlayRecord(**{**record.__dict__, "set_slug": "elsewhere"}))
    response = tap(client, game, page, token=moved)
    assert response.status_code == 400
    assert "belongs to another set of cards" in soup(response).get_text()


def record_of(app, page: BeautifulSoup, game: str) -> tokens.PlayRecord:
    """The game record in a page's token (tokens made a second apart differ in their stamp)."""
    with app.test_request_context():
        return tokens.load(fields(page)["token"], game)


@pytest.mark.parametrize("game", GAMES)
def test_a_button_not_of_the_game_is_400_with_the_table(app, client, game):
    page = started(client, game)
    field = adapters()[game].field
    response = tap(client, game, page, **{field: "explode"})
    assert response.status_code == 400
    assert flow.NOT_A_BUTTON in status(response)
    assert record_of(app, soup(response), game) == record_of(app, page, game)  # nothing played


@pytest.mark.parametrize("game", STEPPED)
def test_a_stale_tap_changes_nothing_and_shows_the_game(app, client, game):
    page = started(client, game)
    later = page
    while fields(later)["step"] == fields(page)["step"]:  # a move: the step goes on
        following = later.find(id="next-button")
        move = None if following is None or following.has_attr("disabled") else "next"
        later = soup(tap(client, game, later, move=move or visitor_move(later)["move"]))
    response = tap(client, game, later, step=fields(page)["step"])
    assert response.status_code == 200
    assert flow.STALE in status(response)
    assert record_of(app, soup(response), game) == record_of(app, later, game)


@pytest.mark.parametrize("game", GAMES)
def test_the_tables_own_htmx_post_gets_the_game_region_alone(client, game):
    page = started(client, game)
    region = tap(client, game, page)
    fragment = client.post(
        page.find(id="play-form")["action"],
        data={**fields(page), **GAMES[game][3]},
        headers={"HX-Request": "true"},
    )
    assert region.status_code == fragment.status_code == 200
    text = fragment.get_data(as_text=True)
    assert text.lstrip().startswith(f'<div id="{game}-game"')
    assert "<html" not in text and "<html" in region.get_data(as_text=True)
    boosted = client.post(
        page.find(id="play-form")["action"],
        data={**fields(page), **GAMES[game][3]},
        headers={"HX-Request": "true", "HX-Boosted": "true"},
    )
    assert soup(boosted).find(id="main")  # a boosted page gets the page (base.html decides)


@pytest.mark.parametrize("game", GAMES)
def test_the_game_files_title_names_the_play_pages(tmp_path, game):
    """The title is the curators' (content/games/<slug>.md): an edit there shows when playing."""
    content = tmp_path / "content"
    shutil.copytree(Path(__file__).resolve().parents[1] / "content", content)
    game_file = content / "games" / f"{game}.md"
    text = game_file.read_text(encoding="utf-8")
    renamed = re.sub("^title: .*$", "title: Old Game", text, count=1, flags=re.MULTILINE)
    game_file.write_text(renamed, encoding="utf-8")
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "CONTENT_DIR": str(content)})
    client = app.test_client()
    _, setup, form, _ = GAMES[game]
    page = soup(client.get(setup))
    assert " ".join(page.find("h1").get_text().split()) == "Play Old Game"
    assert page.title.get_text().startswith("Play Old Game: ")
    assert page.find("meta", attrs={"name": "description"})["content"].startswith("Play Old Game")
    table = soup(client.post(setup, data=form))
    assert table.title.get_text().startswith("Old Game: ")
    assert table.find("h1").get_text().split()[:2] == ["Old", "Game"]


def test_snaps_long_address_is_served_not_redirected(client):
    assert client.get("/sets/snap-standard-deck/play/snap").status_code == 200
    started_here = client.post("/sets/snap-standard-deck/play/snap", data={"bots": "1"})
    assert started_here.status_code == 200
    page = soup(started_here)
    turned = client.post(
        "/sets/snap-standard-deck/play/snap/act", data={**fields(page), "act": "turn"}
    )
    assert turned.status_code == 200 and "You turn up" in status(turned)


def game_counts(app) -> dict[tuple, int]:
    recorder = app.extensions[insights.EXTENSION]
    recorder.flush()
    out: dict[tuple, int] = {}
    for row in recorder.store.rows("games"):
        key = (row["event"], row["game"], row["outcome"])
        out[key] = out.get(key, 0) + row["n"]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_start_and_an_end_are_counted_once(app, client, game):
    page = started(client, game)
    assert game_counts(app) == {("started", game, ""): 1}
    if game == "snap":  # the computer turns the visitor's cards too: "Next" plays it out
        page = soup(tap(client, game, page, act="auto-on"))
    for _ in range(3000):
        if page.find(id=f"{game}-game")["data-over"] == "1":
            break
        button = GAMES[game][3] if game != "snap" else {"act": "next"}
        following = page.find(id="next-button")
        if game != "snap" and (following is None or following.has_attr("disabled")):
            button = visitor_move(page)
        response = client.post(page.find(id="play-form")["action"], data={**fields(page), **button})
        assert response.status_code == 200, status(response)
        page = soup(response)
    else:
        raise AssertionError("the game never ended")
    again = tap(client, game, page)  # a tap on the finished table counts nothing more
    assert again.status_code in (200, 400)
    counts = game_counts(app)
    assert counts[("started", game, "")] == 1
    finished = {k: n for k, n in counts.items() if k[0] == "finished"}
    assert sum(finished.values()) == 1
    assert next(iter(finished))[2] in ("won", "lost", "shared")


def visitor_move(page: BeautifulSoup) -> dict[str, str]:
    """The first thing the visitor may do on a turn-based table: pick, then ask or play."""
    for selector in (".hf-offer", ".sn-capture", ".sn-lay", "button.hf-pick:not([disabled])"):
        button = page.select_one(f"#play-form {selector}")
        if button is not None:
            return {"move": button["value"]}
    card = page.select_one("#play-form .sn-hand__card:not([disabled])")
    assert card is not None, status_of(page)
    return {"move": card["value"]}


def status_of(page: BeautifulSoup) -> str:
    region = page.find(id="game-status")
    return " ".join(region.get_text(" ").split()) if region else ""
