"""The Happy Families words: one event, said to whoever hears it (the live game, a rule step)."""

from __future__ import annotations

import pytest

from kiosk.games.cards import Card
from kiosk.games.core import Event, Hearer
from kiosk.games.happy_families import engine as hf
from kiosk.games.happy_families.engine import words as hfw

NAMES = ["You", "Dreamy Dan", "Dreamy Dot"]
VISITOR = Hearer(NAMES, me=0)
ONLOOKER = Hearer(["Player 1", "Player 2", "Player 3"])
ASK = {
    "type": "ask",
    "player": 1,
    "target": 2,
    "card": "cap-1",
    "family": "Twizzle",
    "words": hf.ask_words("Twizzle's cap"),
}


def event(data: dict) -> Event:
    """An event as the engine makes it, from its JSON."""
    return Event(data["type"], {k: v for k, v in data.items() if k != "type"})


def ask(player: int, target: int) -> dict:
    return {**ASK, "player": player, "target": target}


@pytest.mark.parametrize(
    ("data", "hearer", "words"),
    [
        (ask(0, 1), VISITOR, "You ask Dreamy Dan: “Please may I have Twizzle's cap?”"),
        (ask(1, 0), VISITOR, "Dreamy Dan asks you: “Please may I have Twizzle's cap?”"),
        (ask(1, 2), VISITOR, "Dreamy Dan asks Dreamy Dot: “Please may I have Twizzle's cap?”"),
        (ask(1, 2), ONLOOKER, "Player 2 asks Player 3: “Please may I have Twizzle's cap?”"),
        (
            {
                "type": "claim",
                "player": 2,
                "target": 0,
                "family": "Twizzle",
                "words": hf.ask_words(hf.family_words("Twizzle")),
            },
            VISITOR,
            "Dreamy Dot asks you: “Please may I have the Twizzle family?”",
        ),
        (
            {"type": "give", "player": 2, "to": 1, "card": "cap-1"},
            VISITOR,
            "Dreamy Dot: “Here you are.”",
        ),
        (
            {"type": "give", "player": 0, "to": 1, "card": "cap-1"},
            VISITOR,
            "You have it, so you hand it over.",
        ),
        (
            {"type": "hand-over", "player": 1, "to": 0, "family": "Twizzle"},
            VISITOR,
            "Dreamy Dan: “Here you are.”",
        ),
        (
            {"type": "refuse", "player": 2, "asker": 1, "card": "cap-1", "words": hf.REFUSAL},
            VISITOR,
            "Dreamy Dot: “I'm sorry, you can't.”",
        ),
        (
            {"type": "refuse", "player": 0, "asker": 1, "card": "cap-1", "words": hf.REFUSAL},
            VISITOR,
            "You haven't got it: “I'm sorry, you can't.”",
        ),
        (
            {"type": "deal", "dealer": 2, "moves": []},
            ONLOOKER,
            "Player 3 deals the cards round singly, face down.",
        ),
        (
            {"type": "deal", "dealer": 0, "moves": []},
            VISITOR,
            "You deal the cards round singly, face down.",
        ),
        (
            {"type": "trick", "player": 0, "family": "Twizzle", "at_deal": False},
            VISITOR,
            "You lay down the Twizzle family!",
        ),
        (
            {"type": "trick", "player": 1, "family": "Twizzle", "at_deal": True},
            ONLOOKER,
            "Player 2 lays down the Twizzle family.",
        ),
        (
            {"type": "pass", "player": 0, "to": 1},
            VISITOR,
            "You have no cards left, so the turn passes on.",
        ),
        (
            {"type": "variation", "player": 0, "tricks": [2, 1, 0]},
            VISITOR,
            "Every family is down. You have the most tricks and ask first for whole families.",
        ),
        (
            {"type": "variation", "player": 1, "tricks": [1, 2, 0]},
            VISITOR,
            "Every family is down. Dreamy Dan has the most tricks and asks first for whole "
            "families.",
        ),
        ({"type": "game-over", "winners": [0]}, VISITOR, "Game over: you win!"),
        (
            {"type": "game-over", "winners": [0, 2]},
            VISITOR,
            "Game over: you share the win with Dreamy Dot!",
        ),
        (
            {"type": "game-over", "winners": [1, 2]},
            ONLOOKER,
            "Game over: Player 2 and Player 3 win.",
        ),
        ({"type": "shuffle", "moves": []}, VISITOR, ""),
        ({"type": "sort", "moves": []}, VISITOR, "Each player sorts their cards into families."),
        ({"type": "turn", "player": 1}, VISITOR, ""),
    ],
)
def test_each_event_is_said_from_the_hearers_seat(data, hearer, words):
    assert hfw.phrases.words(event(data), hearer) == words
    assert hf.sentences([event(data)], hearer) == ([words] if words else [])


def test_a_trick_laid_face_down_at_the_deal_keeps_its_family_from_the_others():
    hearer = Hearer(NAMES, me=0, extra={"hidden_tricks": True})
    theirs = {"type": "trick", "player": 1, "family": "Twizzle", "at_deal": True}
    assert hfw.phrases.words(event(theirs), hearer) == "Dreamy Dan lays down a whole family."
    mine = event({**theirs, "player": 0})
    assert hfw.phrases.words(mine, hearer) == "You lay down the Twizzle family!"
    assert "Twizzle" in hfw.phrases.words(event({**theirs, "at_deal": False}), hearer)


def test_an_ask_and_its_answer_name_the_card_once():
    give = {"type": "give", "player": 2, "to": 1}
    said = " ".join(hf.sentences([event(ask(1, 2)), event(give)], VISITOR))
    assert said.count("Twizzle's cap") == 1 and said.count("asks") == 1


def test_a_live_game_hears_its_own_names_and_options():
    state, events = hf.new_game(None, hf.options_for(players=3, names=NAMES, dealer=2), seed=1)
    hearer = hfw.hearer_at(state, 0)
    assert list(hearer.names) == NAMES and hearer.extra["hidden_tricks"] is True
    assert hf.sentences(events, hearer)[0] == (
        "Dreamy Dot deals the cards round singly, face down."
    )


@pytest.mark.parametrize(
    ("name", "family", "master", "spoken"),
    [
        ("Trowel", "Broomstick Man", False, "Broomstick Man's trowel"),
        ("Twizzle", "Twizzle", False, "Twizzle's master card"),
        ("Twizzle", "Twizzle", True, "Twizzle's master card"),
        ("The Lady", "Sally Cross", True, "Sally Cross's master card"),
        (
            "Sally Cross: second card",
            "Sally Cross",
            False,
            "Sally Cross's second card (article not recorded)",
        ),
        # a printed name that says its family is asked for as printed (Jaques' pack)
        ("Mrs Bun the Baker's Wife", "Bun", False, "Mrs Bun the Baker's Wife"),
        ("Mr Bun the Baker", "Bun", False, "Mr Bun the Baker"),
        ("Ace of Spades", None, False, "Ace of Spades"),
    ],
)
def test_cards_are_named_as_they_are_asked_for(name, family, master, spoken):
    assert hfw.spoken_name(name, family, master) == spoken


def test_a_spoken_deck_renames_only_the_names():
    deck = [
        Card("cap-1", "Cap", "Twizzle", family="Twizzle", face="tw/cap"),
        Card("lady-1", "The Lady", "Sally", family="Sally", face="tw/lady"),
    ]
    spoken = hfw.spoken_deck(deck, masters={"tw/lady"})
    assert [c.name for c in spoken] == ["Twizzle's cap", "Sally's master card"]
    assert [(c.id, c.family, c.face) for c in spoken] == [(c.id, c.family, c.face) for c in deck]
