"""Playing Happy Families through the web: whole games against the computer players, what the
remembering ones say they thought, and the words the page says."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kiosk.games.happy_families import engine as hf
from kiosk.games.happy_families import web as pf
from kiosk.games.happy_families.engine import words as hfw

from .happy_families_pages import (
    act,
    game_of,
    level_names,
    soup,
    start,
    status_text,
    to_your_turn,
)
from .happy_families_pages import app as app  # the fixture: pytest finds it by name

# ----------------------------------------------------------------- the remembering bot


def play_to_the_end(app, client, response, limit: int = 400) -> tuple[Any, list[str]]:
    """Play a whole game as a simple visitor: the first player, the first card offered."""
    said = []
    for _ in range(limit):
        page = soup(response)
        if page.find(id="result-title"):
            return response, said
        state = game_of(app, response).state
        if state.turn != pf.HUMAN:
            response = act(client, response, "next")
        else:
            target = next(
                b["value"] for b in page.select("button.hf-pick") if not b.has_attr("disabled")
            )
            picked = act(client, response, target)
            response = act(client, picked, soup(picked).select("button.hf-offer")[0]["value"])
        assert response.status_code == 200
        said.append(status_text(response))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("variant", "bots"), [("classic", 2), ("classic", 3), ("variation", 2), ("variation", 3)]
)
def test_a_whole_game_to_the_result(app, client, variant, bots):
    response, said = play_to_the_end(app, client, start(client, variant=variant, bots=str(bots)))
    page = soup(response)
    state = game_of(app, response).state
    assert hf.is_over(state)
    title = page.find(id="result-title").get_text().removeprefix("★ ")  # a win's rosette
    assert title == pf.result_words(state) and title.startswith("Game over")
    rules = page.find("a", string=re.compile("step by step"))
    assert rules["href"] == f"/rules/happy-families/{variant}"
    again = page.find("button", string="Play again").find_parent("form")
    assert {i["name"]: i["value"] for i in again.find_all("input")} == {
        "variant": variant,
        "level": "remembering",
        "bots": str(bots),
    }
    items = [li.get_text() for li in page.select(".result__list li")]
    assert len(items) == bots + 1
    assert sum(int(re.search(r"(\d+) trick", t).group(1)) for t in items) == 3
    thoughts = [line for line in said if "thought: “" in line]
    assert thoughts, "the remembering computer players say what they were thinking"


def test_the_forgetful_players_keep_their_thoughts_to_themselves(app, client):
    response = start(client, level="forgetful")
    _, said = play_to_the_end(app, client, response)
    assert said and not any("thought:" in line for line in said)


def test_a_remembered_ask_is_explained_in_words(app, client):
    """A computer player asked for a card it saw handed over: it says it remembered."""
    for _ in range(30):
        _, said = play_to_the_end(app, client, start(client, bots="3"))
        lines = [
            line
            for line in said
            if "and got it, so I asked" in line or "so I knew" in line or "I remembered" in line
        ]
        if lines:
            assert re.search(r"thought: “.+”", lines[0])
            return
    raise AssertionError("no computer player ever explained a remembered ask")


def test_tricks_lie_face_up_in_the_plain_game_and_face_down_in_the_variation(app, client):
    for variant, face_down in (("classic", False), ("variation", True)):
        response = start(client, variant=variant)
        assert game_of(app, response).state.options.tricks_face_down is face_down
        for _ in range(200):
            state = game_of(app, response).state
            counts = hf.trick_counts(state)
            if any(counts[1:]) or hf.is_over(state):
                break
            response = (
                to_your_turn(app, client, act(client, response, "next"))
                if state.turn != pf.HUMAN
                else play_one_ask(client, response)
            )
        seat = next(s for s in (1, 2) if hf.trick_counts(state)[s])
        text = soup(response).find(id=f"seat-{seat}").select_one(".hf-tricks").get_text(" ")
        if face_down:
            assert "face down" in text
        else:
            assert "family" in text and "face down" not in text


def play_one_ask(client, response):
    page = soup(response)
    target = next(b["value"] for b in page.select("button.hf-pick") if not b.has_attr("disabled"))
    picked = act(client, response, target)
    return act(client, picked, soup(picked).select("button.hf-offer")[0]["value"])


# ----------------------------------------------------------------- the words


def bots_game(asks: int) -> hf.State:
    """A game of computer players only, ``asks`` asks in, its seats named as the visitor's are."""
    options = hf.options_for(players=3, names=["You", *level_names("forgetful")[:2]])
    state, _ = hf.new_game(None, options, seed=7)
    for n in range(asks):
        if hf.is_over(state):
            break
        action = hf.make_bot("forgetful", state.turn, n).act(hf.view(state, state.turn))
        state, _ = hf.apply(state, {k: v for k, v in action.items() if k != "why"})
    return state


def test_the_live_words_are_the_games_words_said_to_the_visitor():
    state = bots_game(30)
    hearer = hfw.hearer_at(state, pf.HUMAN)
    assert pf.sentences(state.events, state) == hf.sentences(state.events, hearer)
    asks = [e for e in state.events if e.type == "ask"]
    assert asks and all(
        hfw.phrases.words(e, hearer).startswith(
            ("You ask ", *(f"{n} asks " for n in level_names("forgetful")))
        )
        for e in asks
    )


@pytest.mark.parametrize("limit", [1, 2, 4, 8])
def test_the_history_never_starts_with_an_answer_cut_from_its_ask(limit):
    state = bots_game(30)
    said = pf.history(state, limit)
    assert 0 < len(said) <= max(2, limit)  # an ask and its answer at least
    assert re.search(r"^(You ask|\w+ \w+ asks) ", said[0]), said


@pytest.mark.parametrize("bots, pace", [(2, 2200), (3, 1700)])
def test_three_computer_players_pause_less_after_each_ask(app, client, bots, pace):
    for _ in range(40):
        response = start(client, bots=bots)
        if game_of(app, response).state.turn != pf.HUMAN:
            break
    table = soup(response).find(id="happy-families-game")
    assert table["data-pace"] == str(pace)
