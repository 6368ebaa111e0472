"""Playing Snitch'ems through the web: setup, picking, captures, compulsion, bad tokens."""

from __future__ import annotations

import re
from typing import Any

import pytest
from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.games.snitchems import engine as sn
from kiosk.games.snitchems import web as ps
from kiosk.web import tokens
from kiosk.web.play import flow

SET = "snitchems-1797"
SETUP = f"/sets/{SET}/play/snitchems"
ACT = f"{SETUP}/act"


@pytest.fixture
def app():
    return create_app({"TESTING": True, "SECRET_KEY": "snitchems-test-secret"})


@pytest.fixture
def client(app):
    return app.test_client()


# ----------------------------------------------------------------- helpers


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def fields(response) -> dict[str, str]:
    page = soup(response)
    return {name: page.find("input", attrs={"name": name})["value"] for name in ("token", "step")}


def status_text(response) -> str:
    region = soup(response).find(id="game-status")
    return " ".join(region.get_text(" ").split()) if region else ""


def start(client, level: str = "careful"):
    response = client.post(SETUP, data={"level": level})
    assert response.status_code == 200, response.get_data(as_text=True)[:400]
    return response


def act(client, response, move: str):
    return client.post(ACT, data={**fields(response), "move": move})


def game_of(app, response) -> ps.Played:
    with app.test_request_context():
        record = tokens.load(fields(response)["token"], sn.GAME)
        return flow.rebuild(ps.GAME, record, flow.game_or_404(sn.GAME, SET)[1])


def best_move(state) -> str:
    """A move for the visitor: the first legal capture, else lay the first card."""
    legal = sn.legal_actions(state, ps.HUMAN)
    a = legal[0]
    if a["type"] == "capture":
        return f"take:{a['card']}:{a['kind']}:{','.join(a['take'])}"
    return f"lay:{a['card']}"


def advance(app, client, response, wanted, limit: int = 200):
    """Play on (Next for the computer, a legal move for the visitor) until ``wanted(state)``."""
    for _ in range(limit):
        state = game_of(app, response).state
        if wanted(state):
            return response, state
        assert not sn.is_over(state), "the game ended before the wanted moment"
        move = "next" if state.turn == ps.COMPUTER else best_move(state)
        response = act(client, response, move)
        assert response.status_code == 200, status_text(response)
    raise AssertionError("the wanted moment never came")


def your_turn(state) -> bool:
    return not sn.is_over(state) and state.turn == ps.HUMAN


def can_capture(state) -> bool:
    return your_turn(state) and bool(sn.all_captures(state, ps.HUMAN))


def cannot_capture(state) -> bool:
    return your_turn(state) and not sn.all_captures(state, ps.HUMAN)


def find(app, client, wanted, tries: int = 30):
    for _ in range(tries):
        try:
            return advance(app, client, start(client), wanted)
        except AssertionError:
            continue
    raise AssertionError("no such game came up")


# ----------------------------------------------------------------- setup and table


def test_setup_offers_the_computer_levels(client):
    response = client.get(SETUP)
    assert response.status_code == 200
    page = soup(response)
    assert [i["value"] for i in page.find_all("input", attrs={"name": "level"})] == list(sn.LEVELS)
    assert "Just learning" in page.get_text() and "Thinks ahead" in page.get_text()


@pytest.mark.parametrize(
    "slug", ["twizzles-happy-families", "misc-869-1986", "snap-standard-deck", "no-such-set"]
)
def test_a_set_without_the_game_is_404(client, slug):
    assert client.get(f"/sets/{slug}/play/snitchems").status_code == 404
    assert client.post(f"/sets/{slug}/play/snitchems/act", data={}).status_code == 404


def test_a_bad_level_is_400_with_the_setup_again(client):
    response = client.post(SETUP, data={"level": "cheating"})
    assert response.status_code == 400
    assert "Please choose again" in response.get_data(as_text=True)


def test_the_first_deal_lays_a_two_by_two_table(app, client):
    response = start(client)
    page = soup(response)
    state = game_of(app, response).state
    table = page.find(id="the-table")
    assert table["aria-labelledby"] == "table-name"
    alts = [img["alt"] for img in table.find_all("img")]
    assert alts == [state.cards[c].name for c in state.places["table"]]
    assert len(alts) == 4
    words = status_text(response)
    assert re.search(
        r"Deal 1 of 8: (You deal|Careful Cora deals) three cards to each player, one at a time, "
        r"and lays? four face up on the table\.",
        words,
    ), words
    regions = [page.find(id=s["aria-labelledby"]).get_text() for s in page.select("section.seat")]
    assert regions == ["Careful Cora", "You"]
    assert "You: 0 cards" in page.find(class_="sn-score").get_text()


def test_picking_a_card_shows_its_captures_and_marks_the_table(app, client):
    response, state = find(app, client, can_capture)
    cap = sn.all_captures(state, ps.HUMAN)[0]
    picked = act(client, response, f"pick:{cap.card}")
    page = soup(picked)
    chosen = page.find("button", attrs={"value": f"pick:{cap.card}"})
    assert chosen["aria-pressed"] == "true"
    table = [state.cards[c] for c in state.places["table"]]
    expected = sn.captures_for(state.cards[cap.card], table, state.options)
    buttons = page.select("button.sn-capture")
    assert [b["value"] for b in buttons] == [
        f"take:{c.card}:{c.kind}:{','.join(c.take)}" for c in expected
    ]
    with app.app_context():
        name = ps.hearer(state, "careful").card_name
    assert buttons[0].get_text() == "Capture: " + sn.describe(expected[0], name)
    marked = {li.img["alt"] for li in page.select("#the-table .is-takeable")}
    assert marked == {
        f"{state.cards[c].name}, can be captured" for c in {t for e in expected for t in e.take}
    }
    assert fields(picked)["step"] == fields(response)["step"]


def test_a_capture_takes_the_cards_and_scores(app, client):
    response, state = find(app, client, can_capture)
    cap = sn.all_captures(state, ps.HUMAN)[0]
    taken = act(client, response, f"take:{cap.card}:{cap.kind}:{','.join(cap.take)}")
    assert taken.status_code == 200
    after = game_of(app, taken).state
    assert len(after.places["captured:0"]) == len(cap.take) + 1
    with app.app_context():
        said = "You capture: " + sn.describe(cap, ps.hearer(state, "careful").card_name)
    assert said in status_text(taken)
    assert f"You: {len(cap.take) + 1} cards" in soup(taken).find(class_="sn-score").get_text()


def test_laying_a_card_when_a_capture_exists_is_explained(app, client):
    response, state = find(app, client, can_capture)
    card = state.places["hand:0"][0]
    refused = act(client, response, f"lay:{card}")
    assert refused.status_code == 200
    words = status_text(refused)
    assert words.startswith("You must capture when you can, and you can:"), words
    assert "A card may be laid only when no card in your hand can capture." in words
    assert fields(refused)["step"] == fields(response)["step"]
    assert soup(refused).find("button", attrs={"value": f"pick:{card}"})["aria-pressed"] == "true"


def test_when_a_capture_is_compulsory_only_capturing_cards_are_offered_and_no_lay(app, client):
    response, state = find(app, client, can_capture)
    capturing = {a["card"] for a in sn.legal_actions(state, ps.HUMAN)}
    hand = soup(response).select(".sn-hand__card")
    enabled = {b["value"].removeprefix("pick:") for b in hand if not b.has_attr("disabled")}
    assert enabled == capturing
    assert "when you can capture, you must" in status_text(response)
    for card in capturing:
        picked = soup(act(client, response, f"pick:{card}"))
        assert picked.select("button.sn-capture"), "a capturing card shows its captures"
        assert not picked.select("button.sn-lay"), "no Lay when a capture is compulsory"
        assert picked.find("button", attrs={"value": "unpick"})


def test_when_no_capture_exists_every_card_may_be_laid(app, client):
    response, state = find(app, client, cannot_capture)
    hand = soup(response).select(".sn-hand__card")
    assert hand and not any(b.has_attr("disabled") for b in hand)
    card = state.places["hand:0"][0]
    picked = soup(act(client, response, f"pick:{card}"))
    assert picked.find("button", attrs={"value": f"lay:{card}"})
    assert not picked.select("button.sn-capture")


def test_laying_a_card_when_no_capture_exists_grows_the_table(app, client):
    response, state = find(app, client, cannot_capture)
    card = state.places["hand:0"][0]
    laid = act(client, response, f"lay:{card}")
    after = game_of(app, laid).state
    assert card in after.places["table"]
    assert f"You lay the {state.cards[card].name} on the table." in status_text(laid)
    assert len(soup(laid).select("#the-table li")) == len(after.places["table"])


@pytest.mark.parametrize("how", ["wrong-cards", "wrong-kind", "nothing"])
def test_a_capture_that_is_not_legal_is_explained(app, client, how):
    response, state = find(app, client, can_capture)
    cap = sn.all_captures(state, ps.HUMAN)[0]
    legal = {
        frozenset(c.take)
        for c in sn.all_captures(state, ps.HUMAN)
        if c.card == cap.card and c.kind == cap.kind
    }
    others = [c for c in state.places["table"] if c not in cap.take]
    candidates = (others, [*cap.take, *others], ["AS"])
    wrong = next(t for t in candidates if t and frozenset(t) not in legal)
    if how == "wrong-cards":
        move = f"take:{cap.card}:{cap.kind}:{','.join(wrong)}"
    elif how == "wrong-kind":
        move = f"take:{cap.card}:sweeping:{','.join(cap.take)}"
    else:
        move = f"take:{cap.card}:pairing:"
    refused = act(client, response, move)
    assert refused.status_code == 200
    words = status_text(refused)
    assert re.search(r"not a capture the .+ can make|can capture nothing|names the table", words)
    assert fields(refused)["step"] == fields(response)["step"]


def test_a_card_not_in_your_hand_is_refused(app, client):
    response, state = find(app, client, your_turn)
    stranger = next(c for c in state.cards if c not in state.places["hand:0"])
    for move in (f"pick:{stranger}", f"lay:{stranger}"):
        refused = act(client, response, move)
        assert "That card is not in your hand." in status_text(refused)
        assert fields(refused)["step"] == fields(response)["step"]


def test_moving_on_the_computers_turn_is_refused_and_next_plays_it(app, client):
    response, state = find(app, client, lambda s: not sn.is_over(s) and s.turn == ps.COMPUTER)
    assert soup(response).find(id="snitchems-game").has_attr("data-pace")
    card = state.places["hand:0"][0]
    refused = act(client, response, f"lay:{card}")
    assert "Wait for your turn" in status_text(refused)
    assert fields(refused)["step"] == fields(response)["step"]
    moved = act(client, response, "next")
    assert int(fields(moved)["step"]) == int(fields(response)["step"]) + 1
    assert re.search(r"Careful Cora (captures|lays)", status_text(moved))
    assert "Careful Cora thought: “" in status_text(moved)


def test_next_on_your_turn_changes_nothing(app, client):
    response, _ = find(app, client, your_turn)
    assert not soup(response).find(id="snitchems-game").has_attr("data-pace")
    again = act(client, response, "next")
    assert "It is your turn." in status_text(again)
    assert fields(again)["step"] == fields(response)["step"]


def test_a_stale_step_changes_nothing(app, client):
    response, state = find(app, client, your_turn)
    data = {"token": fields(response)["token"], "step": "0", "move": best_move(state)}
    if fields(response)["step"] == "0":
        data["step"] = "5"
    stale = client.post(ACT, data=data)
    assert flow.STALE in status_text(stale)
    assert fields(stale)["step"] == fields(response)["step"]


def test_an_unknown_button_is_400(client):
    bad = act(client, start(client), "cheat:AS")
    assert bad.status_code == 400
    assert "not part of this game" in status_text(bad)


def test_the_action_address_redirects_to_setup_on_get(client):
    response = client.get(ACT)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(SETUP)


# ----------------------------------------------------------------- a whole game


@pytest.mark.parametrize("level", ["beginner", "careful"])
def test_a_whole_game_of_eight_deals(app, client, level):
    response = start(client, level)
    said: list[str] = []
    for _ in range(200):
        state = game_of(app, response).state
        if sn.is_over(state):
            break
        response = act(client, response, "next" if state.turn == ps.COMPUTER else best_move(state))
        assert response.status_code == 200
        said.append(status_text(response))
    state = game_of(app, response).state
    assert sn.is_over(state)
    deals = [line for line in said if re.search(r"Deal \d of 8: ", line)]
    assert len(deals) == 7  # deals 2 to 8 (deal 1 is on the first page)
    assert re.search(r"Deal 8 of 8: [\w ]+ three cards to each player, one at a time\.", deals[-1])
    page = soup(response)
    mine, theirs = sn.result(state)["scores"]
    assert mine + theirs == 52
    with app.app_context():
        assert page.find(id="result-title").get_text() == ps.result_words(state, level)
    if any(e.type == "last-capture" for e in state.events):
        assert "the last to capture." in said[-1]
    assert page.find("a", string=re.compile("step by step"))["href"] == "/rules/snitchems/dealing"
    again = page.find("button", string="Play again").find_parent("form")
    assert again.find("input", attrs={"name": "level"})["value"] == level
    assert page.find("button", attrs={"value": "next"}) is None


def test_the_beginner_keeps_its_thoughts_to_itself(app, client):
    response = start(client, "beginner")
    response, _ = advance(
        app, client, response, lambda s: not sn.is_over(s) and s.turn == ps.COMPUTER
    )
    assert "thought" not in status_text(act(client, response, "next"))


# ----------------------------------------------------------------- bad tokens


@pytest.mark.parametrize("token", [None, "", "garbage", "a.b.c", "x" * 70_000])
def test_bad_tokens_are_the_friendly_400(client, token):
    data: dict[str, Any] = {"move": "next", "step": "0"}
    if token is not None:
        data["token"] = token
    bad = client.post(ACT, data=data)
    assert bad.status_code == 400
    page = soup(bad)
    assert page.find("h1").get_text() == "Let's start a new game"
    assert page.find("a", string="Start a new game")["href"] == SETUP


def test_a_tampered_token_is_the_friendly_400(client):
    data = {**fields(start(client)), "move": "next"}
    data["token"] = data["token"][:-2] + ("AA" if not data["token"].endswith("AA") else "BB")
    bad = client.post(ACT, data=data)
    assert bad.status_code == 400
    assert "changed" in bad.get_data(as_text=True) or "could not read" in bad.get_data(as_text=True)


def test_an_expired_token_is_the_friendly_400():
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "GAME_MAX_AGE": -1})
    client = app.test_client()
    bad = act(client, start(client), "next")
    assert bad.status_code == 400
    assert "left for a long time" in bad.get_data(as_text=True)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"set_slug": "snap-standard-deck"}, "another set"),
        ({"deck": "0000000000000000"}, "have changed"),
        ({"actions": (["c", 0, "AS", "pairing", ["AH"]],)}, "could not read"),
        ({"actions": (["p"],)}, "could not read"),
        ({"settings": {"level": "genius"}}, "could not read"),
    ],
)
def test_a_signed_record_that_makes_no_game_is_the_friendly_400(app, client, change, words):
    response = start(client)
    with app.test_request_context():
        record = tokens.load(fields(response)["token"], sn.GAME)
        token = tokens.dump(tokens.PlayRecord(**{**record.__dict__, **change}))
    bad = client.post(ACT, data={"token": token, "step": "0", "move": "next"})
    assert bad.status_code == 400
    assert words in bad.get_data(as_text=True)
