"""Issue 12, "fair to the slowest finger": a visitor who calls Snap! 0 ms after every card.

Nobody reacts to a card in under 100 ms (``snap.FALSE_START_MS``), so such calls answer the
card before the one on screen: they are too late, never a win and never a penalty. Played
for whole games against the quickest computer player (``hard``) on the classic rules and on
the Woolworths instruction card (Snap Pool, and a penalty for mistaken calls), the 0 ms
caller's game must come out exactly as if they had never called at all.
"""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.games.cards import standard_deck
from kiosk.games.snap import engine as snap
from kiosk.web import tokens

VARIANTS = ["classic", "woolworths"]
SEEDS = range(8)


def whole_game(variant: str, players: int, seed: int, jumpy: bool) -> tuple[snap.SnapState, list]:
    """A game as the kiosk plays it (the visitor in seat 0, the kiosk bound); when ``jumpy``
    the visitor calls Snap! (and Snap Pool! where it can) 0 ms after every card turned.
    Returns the final state and every event the visitor's calls caused."""
    options = snap.options_for(
        variant, players=players, humans=(0,), level="hard", **snap.kiosk_bound()
    )
    state, _ = snap.new_game(standard_deck(), options, seed)
    answers: list = []
    called_on = None
    while not state.over:
        w = state.window
        if jumpy and w is not None and w.turn != called_on and not state.out[0]:
            called_on = w.turn
            for kind in ("call", "call-pool"):
                action = {"type": kind, "player": 0, "turn": w.turn, "reaction_ms": 0}
                state, more = snap.apply(state, action)
                answers += more
            continue
        seat = snap.to_move(state)[0]
        kinds = [a["type"] for a in snap.legal_actions(state, seat)]
        state, _ = snap.apply(
            state, {"type": "turn" if "turn" in kinds else "close", "player": seat}
        )
    return state, answers


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_calling_at_0_ms_after_every_card_wins_nothing_and_costs_nothing(variant, players):
    matches = 0
    for seed in SEEDS:
        jumpy, answers = whole_game(variant, players, seed, jumpy=True)
        still, _ = whole_game(variant, players, seed, jumpy=False)
        assert answers, "the visitor called on every card"
        # every one of those calls was a false start, answered "too late"
        assert {(e.type, e.data["why"]) for e in answers} == {("late-call", "false start")}
        # and the game went exactly as if the visitor had never called: no card won, no
        # penalty paid, no pool formed with them, not even a draw of the RNG moved
        assert snap.places(jumpy) == snap.places(still)
        assert snap.result(jumpy) == snap.result(still)
        assert jumpy.rng.getstate() == still.rng.getstate()
        matches += jumpy.snaps
    assert matches > 0  # there were matches to steal, and the computer took them


@pytest.fixture
def client():
    app = create_app({"TESTING": True, "SECRET_KEY": "false-start-secret", "PLAY_MAX_TURNS": 60})
    return app.test_client()


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def live(page: BeautifulSoup, button_id: str) -> bool:
    button = page.find(id=button_id)
    return button is not None and not button.has_attr("disabled")


def record_of(client, page: BeautifulSoup) -> tokens.PlayRecord:
    with client.application.app_context():
        return tokens.load(page.find("input", attrs={"name": "token"})["value"], snap.GAME)


@pytest.mark.parametrize(
    ("slug", "variant"),
    [
        ("snap-standard-deck", "classic"),
        ("misc-869-1986", "woolworths"),
    ],
)
def test_a_visitor_tapping_at_0_ms_through_the_web_is_always_too_late(client, slug, variant):
    response = client.post(
        f"/sets/{slug}/play", data={"bots": "1", "level": "hard", "variant": variant}
    )
    taps = 0
    for _ in range(400):
        assert response.status_code == 200
        page = soup(response)
        game = page.find(id="snap-game")
        if game["data-over"] == "1":
            break
        token = page.find("input", attrs={"name": "token"})["value"]
        form = {"token": token, "turn": game["data-turn"], "reaction_ms": "0"}
        for act in ("snap", "pool"):
            if live(page, f"{act}-button"):
                tapped = client.post(f"/sets/{slug}/play/act", data={**form, "act": act})
                taps += 1
                assert tapped.status_code == 200
                status = " ".join(soup(tapped).find(id="game-status").get_text(" ").split())
                assert status.startswith("Too late — that card has gone."), status
                assert "You called" not in status and "No match" not in status, status
                assert record_of(client, soup(tapped)) == record_of(client, page)
        act = "turn" if live(page, "turn-button") else "next"
        response = client.post(f"/sets/{slug}/play/act", data={"token": token, "act": act})
    assert soup(response).find(id="snap-game")["data-over"] == "1"
    assert taps > 10
    actions = record_of(client, soup(response)).actions
    assert not any(str(a).startswith(("c0", "p0")) for a in actions), actions
