"""Playing Happy Families through the web: setup, every action and refusal, bad tokens (whole
games, the computer players' memory and the words said are in test_play_happy_families_bots.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kiosk import create_app
from kiosk.catalogue.schema import CardFace
from kiosk.games.core import Event, IllegalAction
from kiosk.games.happy_families import engine as hf
from kiosk.games.happy_families import web as pf
from kiosk.web import tokens
from kiosk.web.play import flow

from .happy_families_pages import (
    ACT,
    SETUP,
    TWIZZLES,
    act,
    fields,
    game_of,
    level_names,
    soup,
    start,
    status_text,
    to_your_turn,
)
from .happy_families_pages import app as app  # the fixture: pytest finds it by name


def your_turn_game(app, client, wanted=lambda state: True, tries: int = 60, **form: Any):
    """A new game at the visitor's turn where ``wanted(state)`` holds."""
    for _ in range(tries):
        response = to_your_turn(app, client, start(client, **form))
        state = game_of(app, response).state
        if not hf.is_over(state) and wanted(state):
            return response, state
    raise AssertionError("no such game was dealt")


def held_families(state) -> set[str]:
    return {state.cards[c].family for c in state.places["hand:0"]}


# ----------------------------------------------------------------- setup


def test_setup_offers_players_memory_and_rules(client):
    response = client.get(SETUP)
    assert response.status_code == 200
    page = soup(response)
    assert [i["value"] for i in page.find_all("input", attrs={"name": "bots"})] == ["2", "3"]
    levels = [i["value"] for i in page.find_all("input", attrs={"name": "level"})]
    assert levels == list(hf.LEVELS)
    assert "Daydreamers" in page.get_text() and "Good memories" in page.get_text()
    variants = [i["value"] for i in page.find_all("input", attrs={"name": "variant"})]
    assert variants == list(hf.VARIANTS)
    assert "Twizzle, Broomstick Man, Sally Cross" in page.get_text()


@pytest.mark.parametrize(
    "path",
    [
        "/sets/snitchems-1797/play/happy-families",  # the set is not played with this game
        "/sets/misc-869-1986/play/happy-families",
        "/sets/no-such-set/play/happy-families",
    ],
)
def test_a_set_without_the_game_is_404(client, path):
    assert client.get(path).status_code == 404
    assert client.post(path, data={"bots": "2"}).status_code == 404


@pytest.mark.parametrize(
    "form",
    [{"bots": "1"}, {"bots": "4"}, {"bots": "two"}, {"level": "psychic"}, {"variant": "snap"}],
)
def test_bad_setup_is_400_with_the_setup_again(client, form):
    data = {"bots": "2", "level": "forgetful", "variant": "classic", **form}
    response = client.post(SETUP, data=data)
    assert response.status_code == 400
    assert "Please choose again" in response.get_data(as_text=True)
    assert soup(response).find("button", string="Start") is not None


@pytest.mark.parametrize(
    ("face", "spoken"),
    [
        (
            CardFace(name="Trowel", family="Broomstick Man", role="article"),
            "Broomstick Man's trowel",
        ),
        (
            CardFace(name="Stick & Bundle", family="Twizzle", role="article"),
            "Twizzle's stick & bundle",
        ),
        (CardFace(name="Twizzle", family="Twizzle", role="master"), "Twizzle's master card"),
        (
            CardFace(
                name="Sally Cross: third card",
                family="Sally Cross",
                role="article",
                recorded=False,
            ),
            "Sally Cross's third card (article not recorded)",
        ),
    ],
)
def test_cards_are_asked_for_by_family_and_name(face, spoken):
    assert pf.spoken_name(face) == spoken


def test_the_deck_is_the_recorded_families_named_as_asked(app):
    with app.app_context():
        deck = pf.GAME.deck(flow.game_or_404(hf.GAME, TWIZZLES)[1])
    assert len(deck) == 12
    assert {c.family for c in deck} == {"Twizzle", "Broomstick Man", "Sally Cross"}
    assert "Broomstick Man's trowel" in {c.name for c in deck}


# ----------------------------------------------------------------- the table


@pytest.mark.parametrize("bots", [2, 3])
def test_the_table_has_a_region_per_player_and_the_hand_by_family(app, client, bots):
    response = start(client, bots=str(bots))
    page = soup(response)
    regions = [page.find(id=s["aria-labelledby"]).get_text() for s in page.select("section.seat")]
    assert regions == [*level_names("remembering")[:bots], "You"]
    status = page.find(id="game-status")
    assert status["role"] == "status" and status["aria-live"] == "polite"
    state = game_of(app, response).state
    you = page.find(id="seat-0")
    shown = sorted(img["alt"] for img in you.select(".hf-family img"))
    assert shown == sorted(state.cards[c].name for c in state.places["hand:0"])
    groups = [h.get_text() for h in you.select(".hf-family__name")]
    assert groups == [f"{f} family" for f in state.families if f in held_families(state)]


def test_computer_players_ask_one_at_a_time_with_next(app, client):
    for _ in range(40):
        response = start(client)
        if game_of(app, response).state.turn != pf.HUMAN:
            break
    page = soup(response)
    assert page.find(id="happy-families-game").has_attr("data-pace")
    assert not page.find("button", attrs={"value": "next"}).has_attr("disabled")
    before = len(game_of(app, response).record.actions)
    response = act(client, response, "next")
    assert response.status_code == 200
    assert len(game_of(app, response).record.actions) == before + 1
    words = status_text(response)
    assert re.search(r"asks (you|Canny \w+): “Please may I have .+\?”", words), words
    assert re.search(r"“Here you are\.”|“I'm sorry, you can't\.”|You have it", words), words


def test_next_on_your_turn_changes_nothing(app, client):
    response, _ = your_turn_game(app, client)
    assert not soup(response).find(id="happy-families-game").has_attr("data-pace")
    again = act(client, response, "next")
    assert "It is your turn" in status_text(again)
    assert fields(again)["step"] == fields(response)["step"]


def test_tap_a_player_then_a_card(app, client):
    response, state = your_turn_game(app, client)
    picked = act(client, response, "pick:1")
    page = soup(picked)
    assert page.find("button", attrs={"value": "pick:1"})["aria-pressed"] == "true"
    offers = [b["value"] for b in page.select("button.hf-offer")]
    legal = [f"ask:1:{a['card']}" for a in hf.legal_actions(state, 0) if a["target"] == 1]
    assert offers == legal
    names = [" ".join(b.get_text(" ").split()) for b in page.select("button.hf-offer")]
    assert all(re.fullmatch(r"Please may I have .+\?", n) for n in names), names
    asked = act(client, picked, offers[0])
    assert asked.status_code == 200
    card = state.cards[offers[0].rsplit(":", 1)[1]]
    words = status_text(asked)
    assert f"You ask Canny Kit: “Please may I have {card.name}?”" in words
    after = game_of(app, asked).state
    assert after.record[-1]["card"] == card.id
    if card.id in state.places["hand:1"]:
        assert "“Here you are.”" in words
        assert card.id in after.places["hand:0"] or any(
            card.id in after.places[place] for place in after.places if place.startswith("trick")
        )
    else:
        assert "“I'm sorry, you can't.”" in words
        assert after.turn == 1


def test_asking_for_a_family_you_do_not_hold_is_explained(app, client):
    response, state = your_turn_game(app, client, lambda s: len(held_families(s)) < 3)
    other = next(c for c in state.cards.values() if c.family not in held_families(state))
    refused = act(client, response, f"ask:1:{other.id}")
    assert refused.status_code == 200
    words = status_text(refused)
    assert "You can't ask that" in words and f"you hold no card of {other.family}" in words
    assert fields(refused)["step"] == fields(response)["step"]


def test_asking_for_a_card_you_hold_is_explained(app, client):
    response, state = your_turn_game(app, client)
    mine = state.places["hand:0"][0]
    words = status_text(act(client, response, f"ask:1:{mine}"))
    assert "you already hold" in words


@pytest.mark.parametrize("move", ["pick:0", "ask:0:{card}"])
def test_asking_yourself_is_refused(app, client, move):
    response, state = your_turn_game(app, client)
    wanted = next(a["card"] for a in hf.legal_actions(state, 0))
    refused = act(client, response, move.format(card=wanted))
    assert refused.status_code == 200
    assert "Ask another player, not yourself." in status_text(refused)
    assert fields(refused)["step"] == fields(response)["step"]


@pytest.mark.parametrize("move", ["pick:7", "pick:x", "ask:9:cap-1", "ask:1:no-such-card"])
def test_nonsense_asks_are_refused_in_words(app, client, move):
    response, _ = your_turn_game(app, client)
    refused = act(client, response, move)
    assert refused.status_code == 200
    words = status_text(refused)
    assert "not at this table" in words or "no card 'no-such-card'" in words, words
    assert fields(refused)["step"] == fields(response)["step"]


def test_asking_out_of_turn_is_refused(app, client):
    for _ in range(40):
        response = start(client)
        state = game_of(app, response).state
        if state.turn != pf.HUMAN:
            break
    wanted = next(c for c in state.cards if c not in state.places["hand:0"])
    refused = act(client, response, f"ask:1:{wanted}")
    assert "Wait for your turn" in status_text(refused)
    assert fields(refused)["step"] == fields(response)["step"]


def test_a_stale_step_changes_nothing(app, client):
    response, state = your_turn_game(app, client)
    wanted = next(a for a in hf.legal_actions(state, 0))
    stale = client.post(
        ACT,
        data={
            "token": fields(response)["token"],
            "step": "99",
            "move": f"ask:{wanted['target']}:{wanted['card']}",
        },
    )
    assert stale.status_code == 200
    assert flow.STALE in status_text(stale)
    assert fields(stale)["step"] == fields(response)["step"]


def test_an_unknown_button_is_400_with_the_table(client):
    response = start(client)
    bad = act(client, response, "shuffle")
    assert bad.status_code == 400
    assert "not part of this game" in status_text(bad)


def test_the_action_address_redirects_to_setup_on_get(client):
    response = client.get(ACT)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(SETUP)


def test_the_same_token_gives_the_same_table(client):
    response = start(client)
    first, second = act(client, response, "unpick"), act(client, response, "unpick")
    strip = re.compile(r'name="token" value="[^"]*"')
    assert strip.sub("", first.get_data(as_text=True)) == strip.sub(
        "", second.get_data(as_text=True)
    )


def test_the_token_reveals_no_hand(app, client):
    response = start(client)
    state = game_of(app, response).state
    with app.test_request_context():
        record = tokens.load(fields(response)["token"], hf.GAME)
    text = repr(record.to_json())
    assert state.seed not in text
    assert "hand" not in text


# ----------------------------------------------------------------- bad tokens


def test_a_missing_token_is_the_friendly_400(client):
    response = client.post(ACT, data={"move": "next", "step": "0"})
    assert response.status_code == 400
    page = soup(response)
    assert page.find("h1").get_text() == "Let's start a new game"
    assert page.find("a", string="Start a new game")["href"] == SETUP


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t[:-3] + ("AAA" if not t.endswith("AAA") else "BBB"),  # tampered signature
        lambda t: "not a token at all",
        lambda t: t.replace(".", "", 1),
        lambda t: "x" * 70_000,
    ],
)
def test_a_bad_token_is_the_friendly_400(client, mangle):
    response = start(client)
    data = {**fields(response), "move": "next"}
    data["token"] = mangle(data["token"])
    bad = client.post(ACT, data=data)
    assert bad.status_code == 400
    assert "start a new game" in bad.get_data(as_text=True).lower()


def test_an_expired_token_is_the_friendly_400():
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "GAME_MAX_AGE": -1})
    client = app.test_client()
    response = act(client, start(client), "next")
    assert response.status_code == 400
    assert "left for a long time" in response.get_data(as_text=True)


def test_another_games_token_is_refused(client):
    snitch = client.post("/sets/snitchems-1797/play/snitchems", data={"level": "beginner"})
    response = client.post(ACT, data={**fields(snitch), "move": "next"})
    assert response.status_code == 400
    assert "another game" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"set_slug": "misc-869-1986"}, "another set"),
        ({"deck": "0000000000000000"}, "have changed"),
        ({"actions": (["a", 0, 5, "cap-1"],)}, "could not read"),
        ({"actions": (["z"],)}, "could not read"),
        ({"settings": {}}, "could not read"),
    ],
)
def test_a_signed_record_that_makes_no_game_is_the_friendly_400(app, client, change, words):
    response = start(client)
    with app.test_request_context():
        record = tokens.load(fields(response)["token"], hf.GAME)
        token = tokens.dump(tokens.PlayRecord(**{**record.__dict__, **change}))
    bad = client.post(ACT, data={"token": token, "step": "0", "move": "next"})
    assert bad.status_code == 400
    assert words in bad.get_data(as_text=True)


@pytest.mark.parametrize(
    ("engine_words", "target", "said"),
    [
        ("player 2 has no cards left to ask for", 1, "Canny Kit has no cards left to ask for."),
        ("player 3 has no tricks to ask for", 2, "Canny Kate has no tricks left to ask for."),
        ("target must be a seat from 0 to 2", None, "That player is not at this table."),
        ("ask another player, not yourself", 0, "Ask another player, not yourself."),
        (
            "you already hold Twizzle's cap",
            1,
            "You can't ask that: you already hold Twizzle's cap.",
        ),
    ],
)
def test_the_engines_refusals_are_said_with_names(app, client, engine_words, target, said):
    state = game_of(app, start(client)).state
    assert pf.explain(IllegalAction(engine_words), state, target) == said


def test_a_flagged_family_is_left_out_and_the_page_says_why(tmp_path):
    """A family with a flagged card is incomplete once the card is left out: no game piece."""
    import shutil

    content = tmp_path / "content"
    shutil.copytree(Path(__file__).resolve().parents[4] / "content", content)
    path = content / "sets" / "twizzles-happy-families.md"
    text = path.read_text(encoding="utf-8")
    flag = (
        "  - name: Sally Cross\n    family: Sally Cross\n    role: master\n"
        "    content_note:\n      shows: a test picture that is flagged\n      note: golliwog\n"
    )
    text = text.replace("  - name: Sally Cross\n    family: Sally Cross\n    role: master\n", flag)
    path.write_text(text, encoding="utf-8")
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "CONTENT_DIR": str(content)})
    client = app.test_client()
    page = soup(client.get(SETUP))
    notice = page.find(attrs={"role": "note"})
    assert notice is not None and "left out of this game" in notice.get_text()
    assert notice.find("a")["href"] == "/notes/golliwog"
    lead = " ".join(page.find(class_="game__lead").get_text().split())
    assert lead.endswith(
        "the 2 recorded families of Twizzles Happy Families: Twizzle, Broomstick Man."
    ), lead
    game = soup(client.post(SETUP, data={"bots": "2", "level": "forgetful"}))
    assert "Sally Cross" not in " ".join(img.get("alt", "") for img in game.find_all("img"))
    assert "left out of this game" in game.find(attrs={"role": "note"}).get_text()


@pytest.mark.parametrize(
    ("player", "said"),
    [(pf.HUMAN, "You have no cards left"), (1, "Canny Kit has no cards left")],
)
def test_running_out_of_cards_is_said_in_good_english(app, client, player, said):
    _, state = your_turn_game(app, client)
    words = pf.sentences([Event("pass", {"player": player})], state)
    assert words[0].startswith(said), words
