"""What the tests that play Snap through the web share: the sets they play, their app (its own
secret, so its own deals), and the pages' token, words and state."""

from __future__ import annotations

from typing import Any

import pytest
from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.games.snap import web as play
from kiosk.web import tokens
from kiosk.web.play import flow
from kiosk.web.play.games import Played

WOOLWORTHS = "misc-869-1986"
STANDARD = "snap-standard-deck"
TWIZZLES = "twizzles-happy-families"


@pytest.fixture
def app():
    return create_app({"TESTING": True, "SECRET_KEY": "play-test-secret"})


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def token_of(response) -> str:
    field = soup(response).find("input", attrs={"name": "token"})
    assert field is not None, response.get_data(as_text=True)[:500]
    return field["value"]


def status_text(response) -> str:
    region = soup(response).find(id="game-status")
    return " ".join(region.get_text(" ").split()) if region else ""


def start(client, slug: str = STANDARD, **form: Any):
    data = {"bots": "1", "level": "medium", "variant": "classic", **form}
    response = client.post(f"/sets/{slug}/play", data=data)
    assert response.status_code == 200
    return response


def act(client, slug: str, token: str, what: str, **form: Any):
    return client.post(f"/sets/{slug}/play/act", data={"token": token, "act": what, **form})


def set_record_of(slug: str):
    return flow.game_or_404("snap", slug)[1]


def rebuild(record, set_record) -> Played:
    return flow.rebuild(play.GAME, record, set_record)


def game_of(app, token: str, slug: str = STANDARD) -> Played:
    with app.test_request_context():
        return rebuild(tokens.load(token, "snap"), set_record_of(slug))


def tokens_record(app, token: str) -> tokens.PlayRecord:
    with app.app_context():
        return tokens.load(token, "snap")
