"""Playing Snap through the web: every action, from a turn to the game's result."""

from __future__ import annotations

import re

import pytest

from kiosk import create_app
from kiosk.games.snap import engine as snap
from kiosk.games.snap import web as play
from kiosk.web.play.games import HUMAN, Played

from .snap_pages import (
    STANDARD,
    WOOLWORTHS,
    act,
    game_of,
    soup,
    start,
    status_text,
    token_of,
    tokens_record,
)
from .snap_pages import app as app  # the fixture: pytest finds it by name


def advance_until(client, app, slug, token, wanted, limit=1500):
    """Press Next / turn the visitor's card until ``wanted(state)``; return the token.

    A game that ends first is dealt again with the same choices (a few times at most).
    """
    setup = tokens_record(app, token).options
    deals = 0
    for _ in range(limit):
        state = game_of(app, token, slug).state
        if wanted(state):
            return token
        if state.over or state.out[HUMAN]:
            deals += 1
            assert deals < 5, "the wanted moment never came in five deals"
            token = token_of(
                start(
                    client,
                    slug,
                    bots=str(setup["players"] - 1),
                    level=setup["level"],
                    variant=setup["variant"],
                )
            )
            continue
        legal = {a["type"] for a in snap.legal_actions(state, HUMAN)}
        response = act(client, slug, token, "turn" if "turn" in legal else "next")
        assert response.status_code == 200
        token = token_of(response)
    raise AssertionError("the wanted moment never came")


def match_showing(state) -> bool:
    w = state.window
    return w is not None and w.snap and not w.calls


def nothing_showing(state) -> bool:
    w = state.window
    return w is not None and not (w.snap or w.pool) and not w.bot_calls


# ----------------------------------------------------------------- actions


def test_turn_then_wait_for_your_turn(app, client):
    token = token_of(start(client))
    response = act(client, STANDARD, token, "turn")
    token2 = token_of(response)
    assert len(tokens_record(app, token2).actions) == 1
    again = act(client, STANDARD, token2, "turn")
    assert "Wait for your turn." in status_text(again)
    assert tokens_record(app, token_of(again)).actions == tokens_record(app, token2).actions


def test_next_turns_for_the_computer_and_waits_for_you(app, client):
    token = token_of(act(client, STANDARD, token_of(start(client)), "turn"))
    response = act(client, STANDARD, token, "next")
    assert "Steady Sue turns up" in status_text(response)
    record = tokens_record(app, token_of(response))
    assert record.actions[-1] == "t1"
    # now it is the visitor's turn: the page waits for them, unless the computer's card left
    # something to settle (a match, or a call), which the page's pace then closes
    state = game_of(app, token_of(response)).state
    assert snap.to_move(state) == [0]
    settles = state.window is not None and state.window.has_to_settle()
    assert ('data-pace="' in response.get_data(as_text=True)) == settles


def test_next_on_your_turn_changes_nothing(app, client):
    token = token_of(start(client))  # seat 0 (the visitor) turns first
    response = act(client, STANDARD, token, "next")
    assert tokens_record(app, token_of(response)).actions == ()
    assert "Your turn" in status_text(response)


def test_auto_turn(app, client):
    token = token_of(start(client))
    response = act(client, STANDARD, token, "auto-on")
    token = token_of(response)
    assert tokens_record(app, token).settings["auto"] is True
    assert soup(response).find(id="auto-button")["aria-pressed"] == "true"
    response = act(client, STANDARD, token, "next")  # now "next" turns the visitor's card too
    assert "You turn up" in status_text(response)
    response = act(client, STANDARD, token_of(response), "auto-off")
    assert tokens_record(app, token_of(response)).settings["auto"] is False


def test_snap_on_a_match_wins_the_cards(app, client):
    token = advance_until(
        client, app, STANDARD, token_of(start(client, level="easy")), match_showing
    )
    game = game_of(app, token)
    turn = game.state.window.turn
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms="100")
    words = status_text(response)
    # 100 ms, the quickest a reaction can be, beats any computer player (never under 350 ms)
    assert re.search(r"You called first — you win \d+ cards", words), words
    after = game_of(app, token_of(response)).state
    assert after.snaps == game.state.snaps + 1
    # told at the cards: the winner's seat is marked, both matched cards face up there
    page = soup(response)
    region = page.find(id="snap-game")
    assert region["data-outcome"] == "won"
    assert region["data-sounds"].split() == ["win"]
    seat = page.find(id="seat-0")
    assert "seat--won" in seat["class"]
    matched = seat.select(".seat__match img.is-match")
    assert len(matched) == 2 and all(img["src"] for img in matched)
    assert "You win" in seat.select_one(".seat__badge").get_text()


def test_too_slow(app, client):
    def bot_calls_first(state):
        w = state.window
        return match_showing(state) and any(c[2] == "snap" for c in w.bot_calls)

    token = advance_until(
        client, app, STANDARD, token_of(start(client, level="hard")), bot_calls_first
    )
    turn = game_of(app, token).state.window.turn
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms="59000")
    assert re.search(r"Too slow! Speedy Sid called Snap! first", status_text(response))
    page = soup(response)
    assert page.find(id="snap-game")["data-outcome"] == "slow"
    assert "seat--slow" in page.find(id="seat-0")["class"]
    winner = page.find(id="seat-1")
    assert "seat--won" in winner["class"] and len(winner.select("img.is-match")) == 2


def test_mistaken_call_pays_a_penalty(app, client):
    slug = STANDARD
    token = token_of(start(client, variant="penalty-card-each"))
    token = advance_until(client, app, slug, token, nothing_showing)
    before = game_of(app, token).state
    turn = before.window.turn
    response = act(client, slug, token, "snap", turn=turn, reaction_ms="500")
    assert "No match — a wrong call: a card to each other player." in status_text(response)
    after = game_of(app, token_of(response)).state
    assert len(after.down[0]) == len(before.down[0]) - 1
    page = soup(response)
    assert page.find(id="snap-game")["data-outcome"] == "wrong"
    assert "wrong" in page.find(id="snap-game")["data-sounds"].split()
    seat = page.find(id="seat-0")
    assert "seat--wrong" in seat["class"]
    assert seat.select_one(".seat__badge").get_text() == "No match! −1 card"


def test_mistaken_call_without_a_penalty(app, client):
    start_ = token_of(start(client, variant="snap-pool"))  # a variant that forgives mistakes
    token = advance_until(client, app, STANDARD, start_, nothing_showing)
    turn = game_of(app, token).state.window.turn
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms="500")
    assert "No match — no penalty for a wrong call." in status_text(response)


def test_snap_pool_call(app, client):
    slug = WOOLWORTHS
    token = token_of(start(client, slug, variant="woolworths"))
    token = advance_until(client, app, slug, token, nothing_showing)
    turn = game_of(app, token, slug).state.window.turn
    # with no pool at all a Snap Pool! call is mistaken: the face-up pile goes to the pool
    response = act(client, slug, token, "pool", turn=turn, reaction_ms="400")
    assert "No match — a wrong call: your face-up pile to the pool." in status_text(response)
    assert soup(response).find(id="pool-name")


def test_late_and_duplicate_calls_change_nothing(app, client):
    token = advance_until(client, app, STANDARD, token_of(start(client)), nothing_showing)
    turn = game_of(app, token).state.window.turn
    late = act(client, STANDARD, token, "snap", turn=turn - 1, reaction_ms="300")
    assert late.status_code == 200
    assert "Too late — that card has gone." in status_text(late)
    assert soup(late).find(id="snap-game")["data-outcome"] == "late"
    assert "seat--late" in soup(late).find(id="seat-0")["class"]
    assert tokens_record(app, token_of(late)) == tokens_record(app, token)
    unmeasured = act(client, STANDARD, token, "snap", turn="abc")
    assert "Too late" in status_text(unmeasured)


@pytest.mark.parametrize("raw", ["", "  ", None])
def test_unmeasured_reactions_count_as_the_default(raw):
    assert play.reaction(raw) == play.UNMEASURED_MS
    assert play.reaction("431.26") == 431.3


@pytest.mark.parametrize(
    ("raw", "read"),
    [("0", 0.0), ("99.94", 99.9), ("-5", -5.0), ("1e9", 60_000.0), ("inf", float("inf"))],
)
def test_reactions_are_read_as_sent_for_the_engine_to_judge(raw, read):
    # only read: a minute away counts as the slowest reaction, the rest is the engine's
    assert play.reaction(raw) == read


@pytest.mark.parametrize("raw", ["nan", "abc", "NaN"])
def test_a_reaction_that_is_no_number_reads_as_nan(raw):
    assert play.reaction(raw) != play.reaction(raw)  # NaN: the engine refuses it


def a_match_to_call(app, client, level: str = "hard") -> tuple[str, int]:
    token = advance_until(
        client, app, STANDARD, token_of(start(client, level=level)), match_showing
    )
    return token, game_of(app, token).state.window.turn


@pytest.mark.parametrize("raw", ["nan", "-5", "inf", "-inf", "abc", "-0.1"])
def test_a_bad_reaction_is_a_friendly_400_with_the_table(app, client, raw):
    token, turn = a_match_to_call(app, client)
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms=raw)
    assert response.status_code == 400
    words = status_text(response)
    assert play.BAD_REACTION_WORDS in words, words
    assert "You called" not in words and "No match" not in words
    # the table stays as it was, and the match can still be called
    assert tokens_record(app, token_of(response)) == tokens_record(app, token)
    assert soup(response).find(id="snap-button").get("disabled") is None


@pytest.mark.parametrize("raw", ["0", "50", "99.9"])
def test_a_false_start_is_too_late_and_the_match_can_still_be_called(app, client, raw):
    token, turn = a_match_to_call(app, client)
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms=raw)
    assert response.status_code == 200
    words = status_text(response)
    assert "Too late — that card has gone." in words, words
    assert "You called" not in words and "No match" not in words and "Too slow" not in words
    assert tokens_record(app, token_of(response)) == tokens_record(app, token)  # not recorded
    assert soup(response).find(id="snap-button").get("disabled") is None
    again = act(client, STANDARD, token_of(response), "snap", turn=turn, reaction_ms="100")
    assert re.search(r"You called first — you win \d+ cards", status_text(again))


def test_a_false_start_on_no_match_pays_no_penalty(app, client):
    token = token_of(start(client, variant="penalty-card-each"))
    token = advance_until(client, app, STANDARD, token, nothing_showing)
    before = game_of(app, token).state
    response = act(client, STANDARD, token, "snap", turn=before.window.turn, reaction_ms="0")
    assert "Too late — that card has gone." in status_text(response)
    assert "penalty" not in status_text(response)
    assert game_of(app, token_of(response)).state.down == before.down


@pytest.mark.parametrize("level", snap.LEVELS)
def test_a_match_stays_on_the_table_as_long_as_at_the_slowest_level(app, client, level):
    token, _ = a_match_to_call(app, client, level)
    state = game_of(app, token).state
    game = Played(tokens_record(app, token), state, [])
    with app.test_request_context():
        pace = play.GAME.pace_ms(game)
    assert pace is not None and pace >= play.MATCH_OPEN_MS == play.PACE_MS["easy"]
    quiet = advance_until(
        client,
        app,
        STANDARD,
        token,
        lambda s: not (s.window and s.window.has_to_settle()) and snap.to_move(s) != [HUMAN],
    )
    game = Played(tokens_record(app, quiet), game_of(app, quiet).state, [])
    with app.test_request_context():
        assert play.GAME.pace_ms(game) == play.PACE_MS[level]  # other cards keep the level's pace


def test_unknown_button_is_400_with_the_table(client):
    token = token_of(start(client))
    response = act(client, STANDARD, token, "cheat")
    assert response.status_code == 400
    assert "That button is not part of this game." in status_text(response)
    assert token_of(response)


def test_get_on_the_action_address_goes_back_to_setup(client):
    response = client.get(f"/sets/{STANDARD}/play/act")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/sets/{STANDARD}/play")


def test_a_short_game_ends_with_a_result(client):
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "PLAY_MAX_TURNS": 4})
    client = app.test_client()
    token = token_of(start(client, STANDARD))
    for _ in range(20):
        state = game_of(app, token).state
        if state.over:
            break
        legal = {a["type"] for a in snap.legal_actions(state, 0)}
        response = act(client, STANDARD, token, "turn" if "turn" in legal else "next")
        token = token_of(response)
    page = soup(response)
    result = page.find(class_="result")
    assert result is not None and "Game over" in result.get_text()
    # said once: the result's title, not the status as well
    assert "Game over" not in status_text(response)
    players = result.select(".result__player")
    assert len(players) == 2 and len(result.select(".result__player.is-winner")) >= 1
    assert page.find(id="snap-game")["data-sounds"].split()[-1] in ("end-win", "end-lose")
    assert result.find("button", string="Play again")
    assert result.find("a", href="/rules/snap/classic")
    assert page.find(id="snap-game")["data-over"] == "1"
    assert not page.find(id="snap-button")
    again = client.post(
        f"/sets/{STANDARD}/play",
        data={i["name"]: i["value"] for i in result.find_all("input", attrs={"type": "hidden"})},
    )
    assert again.status_code == 200 and soup(again).find(id="snap-button")
