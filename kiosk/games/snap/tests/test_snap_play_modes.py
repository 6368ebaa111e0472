"""Snap's ways to play at the table (issue 24): two visitors at one screen and at your own pace.

Posted as the pages post them: two visitors' calls on one card in one request (``calls``),
each judged by the engine from its own reaction; a lone call closes the card's window at
once; the names are Blue and Orange everywhere; own pace has no pace, announces a match and
"Go on" moves the game a step.
"""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.games.snap import web as play
from kiosk.web import tokens
from kiosk.web.play import flow

SET = "snap-standard-deck"


@pytest.fixture
def app():
    return create_app({"TESTING": True, "SECRET_KEY": "modes-test-secret"})


@pytest.fixture
def client(app):
    return app.test_client()


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def token(response) -> str:
    return soup(response).find("input", attrs={"name": "token"})["value"]


def words(response) -> str:
    return " ".join(soup(response).find(id="game-status").get_text(" ").split())


def start(client, mode: str, bots: str = "1", **form):
    data = {"mode": mode, "bots": bots, "level": "easy", "variant": "classic", **form}
    return client.post(f"/sets/{SET}/play", data=data)


def act(client, tok: str, what: str, **form):
    return client.post(f"/sets/{SET}/play/act", data={"token": tok, "act": what, **form})


def state_of(app, tok: str):
    with app.test_request_context():
        record = tokens.load(tok, "snap")
        return flow.rebuild(play.GAME, record, flow.game_or_404("snap", SET)[1]).state


def until(client, app, tok: str, wanted, limit: int = 400) -> tuple[str, object]:
    for _ in range(limit):
        state = state_of(app, tok)
        if wanted(state):
            return tok, state
        assert not state.over, "the wanted moment never came"
        tok = token(act(client, tok, "next"))
    raise AssertionError("the wanted moment never came")


def a_match(state) -> bool:
    w = state.window
    return w is not None and w.snap and not w.calls


@pytest.mark.parametrize(
    ("mode", "bots", "ok"),
    [
        ("together", "0", True),
        ("together", "2", True),
        ("together", "3", False),
        ("computer", "0", False),
        ("own-pace", "0", False),
        ("own-pace", "3", True),
        ("nobody", "1", False),
    ],
)
def test_who_plays_and_how_many_computer_players(client, mode, bots, ok):
    response = start(client, mode, bots)
    assert response.status_code == (200 if ok else 400)
    if not ok:
        assert "Please choose again" in response.get_data(as_text=True)


def test_two_visitors_have_their_own_buttons_and_names(app, client):
    response = start(client, "together", "1")
    page = soup(response)
    assert page.find(id="snap-button-0")["value"] == "snap:0"
    assert page.find(id="snap-button-1")["value"] == "snap:1"
    names = [h.get_text() for h in page.select("#play-form .seat__name")]
    assert sorted(names) == ["Blue", "Orange", "Sleepy Sal"]
    assert "You" not in names and "Player 2" not in response.get_data(as_text=True)
    assert "Blue: key A for Snap!" in page.get_text(" ")
    options = state_of(app, token(response)).options
    assert options.humans == (0, 1) and options.players == 3


@pytest.mark.parametrize(
    ("calls", "winner"), [("0:snap:410 1:snap:620", "Blue"), ("1:snap:415.5 0:snap:700", "Orange")]
)
def test_both_calls_in_one_request_the_quicker_wins(app, client, calls, winner):
    tok = token(start(client, "together", "0"))
    tok, state = until(client, app, tok, a_match)
    response = act(client, tok, "snap:0", turn=str(state.window.turn), calls=calls)
    said = words(response)
    assert f"{winner} called Snap! first" in said
    for seat, _, ms in (c.split(":") for c in calls.split()):
        who = ("Blue", "Orange")[int(seat)]
        assert f"{who} calls “Snap!” ({float(ms):g} ms)" in said
    badges = [b.get_text() for b in soup(response).select(".seat__badge")]
    assert any(b.startswith(f"{winner}: Snap!") for b in badges)
    assert any(b.endswith("Too slow!") for b in badges)


def test_a_lone_call_is_judged_at_once_and_the_others_later_tap_is_too_late(app, client):
    tok = token(start(client, "together", "0"))
    tok, state = until(client, app, tok, a_match)
    turn = str(state.window.turn)
    response = act(client, tok, "snap:1", turn=turn, reaction_ms="512")
    assert "Orange called Snap! first" in words(response)
    assert state_of(app, token(response)).window is None  # judged, not left open
    late = act(client, token(response), "snap:0", turn=turn, reaction_ms="300")
    assert "Blue's call came too late" in words(late)


def test_two_visitors_at_the_same_moment_share_by_the_variants_tie_rule(app, client):
    tok = token(start(client, "together", "0", variant="snap-pool"))
    tok, state = until(client, app, tok, a_match)
    response = act(
        client, tok, "snap:0", turn=str(state.window.turn), calls="0:snap:500 1:snap:520"
    )
    assert "Blue and Orange called together" in words(response)
    assert state_of(app, token(response)).pool


def test_the_result_names_the_visitors(app, client):
    app.config["PLAY_MAX_TURNS"] = 6
    tok = token(start(client, "together", "1"))
    for _ in range(40):
        response = act(client, tok, "next")
        tok = token(response)
        if state_of(app, tok).over:
            break
    result = soup(response).find(class_="result").get_text(" ")
    assert "Blue" in result and "Orange" in result and "You" not in result
    again = {i["name"]: i["value"] for i in soup(response).select(".result__again input")}
    assert again["mode"] == "together" and again["bots"] == "1"


def test_own_pace_waits_announces_and_go_on_moves_a_step(app, client):
    response = start(client, "own-pace", "2", level="hard")
    assert soup(response).find(id="snap-game").get("data-pace") is None
    tok = token(response)
    for _ in range(300):
        state = state_of(app, tok)
        if a_match(state):
            break
        response = act(client, tok, "next")  # "Go on": a computer turn or the visitor's
        assert response.status_code == 200
        assert soup(response).find(id="snap-game").get("data-pace") is None
        tok = token(response)
    else:
        raise AssertionError("no match")
    assert "It's a match — press Snap!" in words(response)
    # a call a long time after the card (a minute) still wins against the hard level
    response = act(client, tok, "snap", turn=str(state.window.turn), reaction_ms="59000")
    assert "You called first" in words(response)


def test_the_count_down_is_shown_and_said_in_the_last_turns(app, client):
    app.config["PLAY_MAX_TURNS"] = 14
    tok = token(act(client, token(start(client, "computer", "1")), "auto-on"))
    seen = []
    for _ in range(30):
        response = act(client, tok, "next")
        tok = token(response)
        state = state_of(app, tok)
        if state.over:
            break
        shown = soup(response).find(id="turns-left")
        left = 14 - state.turn
        assert (shown is not None) == (left <= play.COUNTDOWN_FROM)
        if shown is not None:
            assert re.sub(r"\s+", " ", shown.get_text()).strip().startswith(f"{left} turn")
            seen.append(left)
            if any(e.type == "turn" for e in state.last):
                assert f"{left} turn" in words(response) and "left" in words(response)
    assert seen and min(seen) <= 2
