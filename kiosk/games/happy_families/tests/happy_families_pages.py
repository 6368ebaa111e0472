"""What the tests that play Happy Families through the web share: the set, their app (its own
secret, so its own deals), the pages' fields and words, and the way to the visitor's turn."""

from __future__ import annotations

from typing import Any

import pytest
from bs4 import BeautifulSoup
from game_files import shipped_levels

from kiosk import create_app
from kiosk.games.happy_families import engine as hf
from kiosk.games.happy_families import web as pf
from kiosk.web import tokens
from kiosk.web.play import flow

TWIZZLES = "twizzles-happy-families"


def level_names(level: str) -> tuple[str, ...]:
    """What the shipped game file calls a level's computer players."""
    return next(shown for shown in shipped_levels(hf.GAME) if shown.name == level).names


SETUP = f"/sets/{TWIZZLES}/play/happy-families"
ACT = f"{SETUP}/act"


@pytest.fixture
def app():
    return create_app({"TESTING": True, "SECRET_KEY": "families-test-secret"})


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def fields(response) -> dict[str, str]:
    page = soup(response)
    return {name: page.find("input", attrs={"name": name})["value"] for name in ("token", "step")}


def status_text(response) -> str:
    region = soup(response).find(id="game-status")
    return " ".join(region.get_text(" ").split()) if region else ""


def start(client, **form: Any):
    data = {"bots": "2", "level": "remembering", "variant": "classic", **form}
    response = client.post(SETUP, data=data)
    assert response.status_code == 200, response.get_data(as_text=True)[:400]
    return response


def act(client, response, move: str, **extra: str):
    return client.post(ACT, data={**fields(response), "move": move, **extra})


def game_of(app, response) -> pf.Played:
    with app.test_request_context():
        record = tokens.load(fields(response)["token"], hf.GAME)
        return flow.rebuild(pf.GAME, record, flow.game_or_404(hf.GAME, TWIZZLES)[1])


def to_your_turn(app, client, response, limit: int = 200):
    """Press Next until it is the visitor's turn (or the game is over)."""
    for _ in range(limit):
        state = game_of(app, response).state
        if hf.is_over(state) or state.turn == pf.HUMAN:
            return response
        response = act(client, response, "next")
        assert response.status_code == 200
    raise AssertionError("the visitor's turn never came")
