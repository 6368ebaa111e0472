"""Adding a game takes one folder and its content, and nothing else: a small game of the
tests' own (``tests/fixtures/games/higher``, never shipped) is put beside the kiosk's games
(its folder on ``kiosk.games``' path), found like them, and played through every part of the
kiosk that reads the registry."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

import kiosk.games
from kiosk import create_app
from kiosk.commands.check import check
from kiosk.config import ROOT
from kiosk.games import registry, simulate
from kiosk.games.core import missing_from
from kiosk.web import tokens
from kiosk.web.play import flow

FIXTURE = Path(__file__).parent / "fixtures" / "games" / "higher"
SET = "snap-standard-deck"


@pytest.fixture
def higher(monkeypatch):
    """The game's folder beside the kiosk's own games, and taken away again after the test."""
    monkeypatch.setattr(kiosk.games, "__path__", [*kiosk.games.__path__, str(FIXTURE.parent)])
    registry.forget()
    yield registry.engine("higher")
    monkeypatch.undo()
    registry.forget()
    for name in [name for name in sys.modules if name.startswith("kiosk.games.higher")]:
        del sys.modules[name]


@pytest.fixture
def content(tmp_path):
    """The shipped content with the game's own file and example, and one set listing it."""
    folder = tmp_path / "content"
    shutil.copytree(ROOT / "content", folder)
    shutil.copytree(FIXTURE / "content", folder, dirs_exist_ok=True)
    set_file = folder / "sets" / f"{SET}.md"
    text = set_file.read_text(encoding="utf-8")
    set_file.write_text(text.replace("games: [snap]", "games: [snap, higher]"), encoding="utf-8")
    return folder


@pytest.fixture
def client(higher, content):
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "CONTENT_DIR": str(content)})
    return app.test_client()


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def test_its_engine_follows_the_protocol_and_simulates(higher):
    assert missing_from(higher) == []
    assert registry.names()[-1] == "higher" and registry.names()[0] == flow.FIRST
    options = simulate.make_options(higher, "classic", None, None)
    run = simulate.play(higher, higher.default_deck(), options, 1, "steady")
    assert run.finished and len(run.actions) == 40 and sum(run.result["scores"]) <= 40


def test_kiosk_check_takes_its_file_its_example_and_the_set(higher, content):
    result = CliRunner().invoke(check, ["--fatal", str(content)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].endswith(" 0 problems")


def test_a_set_that_cannot_deal_it_is_told_by_the_games_own_recipe(higher, content):
    pictures = content / "sets" / "misc-869-1986.md"
    text = pictures.read_text(encoding="utf-8")
    pictures.write_text(text.replace("games: [snap]", "games: [snap, higher]"), encoding="utf-8")
    result = CliRunner().invoke(check, ["--notes", str(content)])
    assert re.search(
        r"misc-869-1986\.md:\d+:\d+: warning: games\[1\]: higher needs numbered cards",
        result.output,
    )


def test_the_set_offers_it_and_its_setup_and_css_are_served(client):
    record = soup(client.get(f"/sets/{SET}"))
    assert record.find("a", href=f"/sets/{SET}/play/higher") is not None
    setup = client.get(f"/sets/{SET}/play/higher")
    assert setup.status_code == 200
    page = soup(setup)
    assert page.find(id="page-title").get_text(strip=True) == "Play Higher"
    css = page.find("link", href=re.compile("higher.css"))
    with client.get(css["href"]) as served:
        assert served.status_code == 200


def test_a_whole_game_is_played_and_its_rule_example_shown(client):
    response = client.post(f"/sets/{SET}/play/higher", data={"level": "steady"})
    assert response.status_code == 200
    for _ in range(100):
        page = soup(response)
        if page.find(id="result-title"):
            break
        move = "turn" if page.find(id="turn-button") else "next"
        form = page.find(id="play-form")
        data = {i["name"]: i["value"] for i in form.select("input[type=hidden]")}
        response = client.post(form["action"], data={**data, "move": move})
        assert response.status_code == 200
    page = soup(response)
    assert page.find(id="result-title") is not None
    assert "Steady Hand" in page.find(class_="higher-score").get_text()  # the file's name
    rules = page.find("a", string=re.compile("step by step"))["href"]
    first = client.get(rules)
    assert first.status_code in (302, 303) and first.location.endswith("/rules/higher/first/1")
    said = [client.get(f"/rules/higher/first/{n}").get_data(as_text=True) for n in range(1, 6)]
    assert any("Player 2 takes both cards." in text for text in said)  # the engine's words
    token = page.find("input", attrs={"name": "token"})["value"]
    with client.application.test_request_context(), pytest.raises(tokens.BadToken) as refused:
        tokens.load(token, "snap")
    assert refused.value.reason == "wrong-game"


def test_a_game_without_its_web_adapter_stops_the_start(higher, content, monkeypatch):
    monkeypatch.setitem(sys.modules, "kiosk.games.higher.web", None)  # as if web.py were not there
    with pytest.raises(RuntimeError, match="game 'higher' has no web adapter"):
        create_app({"TESTING": True, "CONTENT_DIR": str(content)})


def test_its_rule_example_is_drawn_by_its_own_table(client):
    """A rule step is the game's own table template watching (its adapter's ``step_table``),
    not a table of places kept in the rules pages."""
    deal = soup(client.get("/rules/higher/first/1")).select_one("#rules-table .higher-watch")
    assert deal.select_one(".higher-pack").get_text() == "The pack: 4 cards"
    later = soup(client.get("/rules/higher/first/4")).select_one("#rules-table .higher-watch")
    seats = later.select("section.higher-seat")
    assert len(seats) == 2
    turned = later.select("img[data-card]")
    assert turned and all(img["data-up"] == "1" for img in turned)
    assert {img["data-place"] for img in turned} <= {"up:0", "up:1"}
