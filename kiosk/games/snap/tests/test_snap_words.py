"""Snap's events in words: one place, heard from the visitor's seat or by an onlooker."""

from __future__ import annotations

from kiosk.games.core import Event, Hearer
from kiosk.games.snap import engine as snap

NAMES = ["Player 1", "Player 2", "Player 3"]
VISITOR = Hearer(["You", "Steady Sue", "Speedy Sid"], 0, lambda cid: f"the {cid}")
ONLOOKER = Hearer(NAMES, None, lambda cid: f"the {cid}")


def turn(player: int, card: str, to: str) -> Event:
    move = {"cards": [card], "from": f"down:{player}", "to": to, "at": "top"}
    return Event("turn", {"player": player, "card": card, "moves": [move]})


def test_a_turn_is_said_from_the_hearers_seat_with_the_sets_card_names() -> None:
    events = [turn(0, "KD", "up:0"), turn(1, "KC", "up:1")]
    assert snap.sentences(events, VISITOR) == [
        "You turn up the KD.",
        "Steady Sue turns up the KC.",
    ]
    assert snap.sentences(events, ONLOOKER)[0] == "Player 1 turns up the KD."
    middle = snap.sentences([turn(1, "KC", "centre")], ONLOOKER)
    assert middle == ["Player 2 turns up the KC onto the pile in the middle."]


def test_a_call_is_told_to_others_and_the_outcome_to_everyone() -> None:
    call = Event("call", {"player": 0, "kind": "snap", "turn": 4, "reaction_ms": 412.5})
    won = Event("snap", {"player": 1, "won": 6, "tie": False})
    assert snap.sentences([call, won], VISITOR) == [
        "Too slow! Steady Sue called Snap! first and wins 6 cards."
    ]
    assert snap.sentences([call, won], ONLOOKER) == [
        "Player 1 calls “Snap!” (412.5 ms).",
        "Player 2 called Snap! first and wins 6 cards.",
    ]


def test_a_forfeit_says_who_gives_up_counters() -> None:
    forfeit = Event("forfeit", {"player": 1, "payer": 0, "owed": 2, "paid": 2})
    assert snap.sentences([forfeit], VISITOR) == [
        "Steady Sue's card is like yours: you give up 2 counters, a double forfeit."
    ]
    assert snap.sentences([forfeit], ONLOOKER) == [
        "Player 2's card is like Player 1's: Player 1 gives up 2 counters, a double forfeit."
    ]


def test_a_wrong_call_costs_what_the_variant_says() -> None:
    wrong = Event("penalty", {"player": 0, "call": "snap", "rule": "face-up-to-pool"})
    assert snap.sentences([wrong], VISITOR) == [
        "No match — a wrong call: your face-up pile to the pool."
    ]
    assert snap.sentences([wrong], ONLOOKER) == [
        "Player 1 called Snap! with no match and puts their face-up pile into the pool."
    ]


def test_result_words_for_the_visitor_and_for_an_onlooker() -> None:
    assert snap.result_words([0], VISITOR) == "Game over — you win!"
    assert snap.result_words([0, 2], VISITOR) == "Game over — you share the win with Speedy Sid!"
    assert snap.result_words([1, 2], ONLOOKER) == "Game over — Player 2 and Player 3 share the win."
    assert snap.result_words([], ONLOOKER) == "The game is over."


def test_said_pairs_each_event_that_speaks_with_its_sentence() -> None:
    events = [turn(0, "QH", "up:0"), Event("quiet", {}), turn(1, "QS", "up:1")]
    pairs = snap.said(events, VISITOR)
    assert [e for e, _ in pairs] == [events[0], events[2]]
    assert [w for _, w in pairs] == snap.sentences(events, VISITOR)
