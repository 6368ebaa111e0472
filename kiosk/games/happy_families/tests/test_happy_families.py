"""Happy Families engine: options, edge cases as tables, views (random games checked at every
step, and traces, are in test_happy_families_random.py)."""

from __future__ import annotations

import json

import pytest

from kiosk.games.cards import Card
from kiosk.games.core import IllegalAction, OptionsError
from kiosk.games.happy_families import engine as hf

from .json_strings import strings

# --------------------------------------------------------------------------- helpers


def stacked(hands: list[list[str]], families: int = 3, **opts) -> tuple[hf.State, list]:
    """A game dealt exactly as ``hands`` say (seat 0 is the dealer, so seat 1 asks first)."""
    deck = {c.id: c for c in hf.generic_deck(families)}
    n = len(hands)
    order: list[str] = []
    for i in range(max(len(h) for h in hands)):
        for seat in [*range(1, n), 0]:
            if i < len(hands[seat]):
                order.append(hands[seat][i])
    assert sorted(order) == sorted(deck), "the hands must hold the whole deck"
    options = hf.options_for(
        opts.pop("variant", "classic"), players=n, dealer=0, shuffle=False, **opts
    )
    state, events = hf.new_game([deck[c] for c in order], options, seed=1)
    dealt = next(e for e in events if e.type == "deal").data["moves"]
    for seat, hand in enumerate(hands):
        assert {m["cards"][0] for m in dealt if m["to"] == f"hand:{seat}"} == set(hand)
    return state, events


def ask(state: hf.State, player: int, target: int, card: str) -> tuple[hf.State, list]:
    return hf.apply(state, {"type": "ask", "player": player, "target": target, "card": card})


def types(events) -> list[str]:
    return [e.type for e in events]


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players": 2}, "more than two"),
        ({"players": 9}, "at most 8"),
        ({"players": "4"}, "whole number"),
        ({"variation": "yes"}, "true or false"),
        ({"max_asks": 0}, "at least 1"),
        ({"dealer": 4}, "seat from 0 to 3"),
        ({"names": ["a"]}, "one non-empty name per player"),
        ({"colour": "red"}, "unknown Happy Families option"),
    ],
)
def test_bad_options_are_refused_in_words(overrides, message):
    with pytest.raises(OptionsError, match=message):
        hf.options_for("classic", **overrides)


def test_unknown_variant_is_refused():
    with pytest.raises(OptionsError, match="unknown Happy Families variant"):
        hf.options_for("snap")


@pytest.mark.parametrize("variant", list(hf.VARIANTS))
def test_variants_have_source_and_description(variant):
    v = hf.VARIANTS[variant]
    assert "twizzles-happy-families-rules.txt" in v.source
    assert hf.options_for(variant).variation is (variant == "variation")


def _card(cid: str, family: str | None) -> Card:
    return Card(id=cid, name=cid, match=family or cid, family=family)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ([_card(f"A{i}", "A") for i in range(4)], "at least two complete families"),
        ([_card(f"A{i}", "A") for i in range(4)] + [_card("B1", "B")], "4 cards each"),
        ([_card(f"A{i}", "A") for i in range(4)] + [_card("X", None)], "belongs to no family"),
        ([_card("A1", "A")] * 4 + [_card(f"B{i}", "B") for i in range(4)], "its own id"),
    ],
)
def test_bad_decks_are_refused(deck, message):
    with pytest.raises(OptionsError, match=message):
        hf.new_game(deck, hf.options_for(players=3), seed=0)


def test_playable_deck_keeps_only_complete_families():
    deck = hf.generic_deck(3)
    partial = [c for c in deck if c.id != "B2"] + [_card("Z", None)]
    kept = hf.playable_deck(partial)
    assert {c.family for c in kept} == {"Family A", "Family C"}
    assert len(kept) == 8


# --------------------------------------------------------------------------- the deal


def test_deal_is_singly_from_dealers_left_and_hands_are_sorted():
    state, events = hf.new_game(hf.generic_deck(3), hf.options_for(players=3, dealer=2), 7)
    assert types(events)[:3] == ["shuffle", "deal", "sort"]
    deal = events[1].data["moves"]
    assert [m["to"] for m in deal[:4]] == ["hand:0", "hand:1", "hand:2", "hand:0"]
    assert state.turn == 0  # the player on the dealer's left
    for seat in range(3):
        hand = state.places[f"hand:{seat}"]
        fams = [state.cards[c].family for c in hand]
        assert fams == sorted(fams)


@pytest.mark.parametrize(
    ("hands", "laid", "over"),
    [
        # seat 1 is dealt Family A whole: laid down at once, face down
        (
            [["B1", "B2", "C1", "C2"], ["A1", "A2", "A3", "A4"], ["B3", "B4", "C3", "C4"]],
            {1: ["Family A"]},
            False,
        ),
        # every family whole at the deal: the game is over before anyone asks
        (
            [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"], ["C1", "C2", "C3", "C4"]],
            {0: ["Family A"], 1: ["Family B"], 2: ["Family C"]},
            True,
        ),
    ],
)
def test_families_complete_at_the_deal_are_laid_down(hands, laid, over):
    state, events = stacked(hands)
    tricks = [e for e in events if e.type == "trick"]
    assert all(e.data["at_deal"] for e in tricks)
    assert {s: hf.trick_families(state, s) for s in laid} == laid
    assert hf.is_over(state) is over
    if over:
        assert hf.result(state)["winners"] == [0, 1, 2]  # a three-way tie shares the win


def test_first_player_with_no_cards_is_skipped():
    # seat 1 (to ask first) is dealt only Family A: it is laid down, seat 1 is empty-handed
    state, events = stacked(
        [["B1", "B2", "C1", "C2"], ["A1", "A2", "A3", "A4"], ["B3", "B4", "C3", "C4"]]
    )
    passes = [e for e in events if e.type == "pass"]
    assert passes and passes[0].data == {"player": 1, "to": 2, "reason": "no cards left"}
    assert hf.to_move(state) == [2]


# --------------------------------------------------------------------------- asking

HANDS = [["A1", "B1", "C1", "C2"], ["A2", "A3", "B2", "C3"], ["A4", "B3", "B4", "C4"]]


@pytest.mark.parametrize(
    ("player", "target", "card", "message"),
    [
        (1, 2, "B2", "already hold"),
        (1, 1, "A1", "not yourself"),
        (2, 1, "A1", "not your turn"),
        (1, 2, "Z9", "no card"),
        (1, 5, "A1", "seat from 0 to 2"),
    ],
)
def test_illegal_asks_are_refused_in_words(player, target, card, message):
    state, _ = stacked(HANDS)
    with pytest.raises(IllegalAction, match=message):
        ask(state, player, target, card)


def test_may_ask_only_for_a_family_already_held():
    state, _ = stacked(
        [["A1", "A2", "B1", "C1"], ["B2", "B3", "B4", "C2"], ["A3", "A4", "C3", "C4"]]
    )
    with pytest.raises(IllegalAction, match="family you already hold"):
        ask(state, 1, 2, "A3")  # seat 1 holds no Family A card


def test_a_card_held_is_handed_over_and_the_asker_goes_on():
    state, _ = stacked(HANDS)
    after, events = ask(state, 1, 0, "A1")
    assert types(events) == ["ask", "give", "turn"]
    assert events[0].data["words"] == "Please may I have Family A, card 1?"
    assert "A1" in after.places["hand:1"] and "A1" not in after.places["hand:0"]
    assert hf.to_move(after) == [1]
    assert "A1" in state.places["hand:0"], "apply leaves the old state untouched"


def test_a_refusal_passes_the_turn_to_the_player_asked():
    state, _ = stacked(HANDS)
    after, events = ask(state, 1, 2, "A1")
    assert types(events) == ["ask", "refuse", "turn"]
    assert events[1].data["words"] == "I'm sorry, you can't"
    assert hf.to_move(after) == [2]


def test_completing_a_family_lays_it_down_at_once():
    state, _ = stacked(HANDS)
    state, _ = ask(state, 1, 0, "A1")
    state, events = ask(state, 1, 2, "A4")
    assert types(events) == ["ask", "give", "trick", "turn"]
    assert events[2].data == {
        "player": 1,
        "family": "Family A",
        "at_deal": False,
        "moves": [
            {"cards": ["A2", "A3", "A1", "A4"], "from": "hand:1", "to": "tricks:1", "at": "top"}
        ],
    }
    assert hf.trick_counts(state) == [0, 1, 0]


def test_a_player_with_no_cards_cannot_be_asked_and_is_skipped():
    hands = [["A1", "C1", "C2", "C3"], ["A2", "A3", "B1", "B2"], ["A4", "B3", "B4", "C4"]]
    state, _ = stacked(hands)
    state, events = ask(state, 1, 0, "A1")
    state, events = ask(state, 1, 2, "A4")  # seat 1 completes A
    state, events = ask(state, 1, 2, "B3")
    state, events = ask(state, 1, 2, "B4")  # completes B; seat 1 now has no cards
    assert types(events) == ["ask", "give", "trick", "pass", "turn"]
    assert events[3].data == {"player": 1, "to": 2, "reason": "no cards left"}
    with pytest.raises(IllegalAction, match="no cards left"):
        ask(state, 2, 1, "C1")
    assert all(a["target"] != 1 for a in hf.legal_actions(state, 2))


def test_game_ends_when_every_family_is_down_and_ties_share_the_win():
    hands = [["B1", "B2", "B3", "B4"], ["A2", "A3", "A4", "C1"], ["A1", "C2", "C3", "C4"]]
    state, _ = stacked(hands)
    state, _ = ask(state, 1, 2, "A1")  # seat 1 lays A (seat 0 laid B at the deal)
    assert not hf.is_over(state)
    state, events = ask(state, 1, 2, "C2")
    state, events = ask(state, 1, 2, "C3")
    state, events = ask(state, 1, 2, "C4")
    assert types(events)[-1] == "game-over"
    assert hf.result(state) == {
        "over": True,
        "scores": [1, 2, 0],
        "winners": [1],
        "reason": "every family is down",
    }
    assert hf.to_move(state) == [] and hf.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="over"):
        ask(state, 1, 0, "A1")


def test_max_asks_bound_ends_the_game_and_is_labelled_not_historic():
    state, _ = stacked(HANDS, max_asks=2)
    state, _ = ask(state, 1, 2, "A1")  # refused
    state, events = ask(state, 2, 1, "C1")  # refused again: the bound
    assert types(events)[-2:] == ["bound", "game-over"]
    assert events[-2].data["historic"] is False
    assert hf.is_over(state)


# --------------------------------------------------------------------------- the variation

VAR_HANDS = [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"], ["C1", "C2", "C3", "C4"]]


def test_variation_starts_with_most_tricks_first_from_dealers_left_on_a_tie():
    state, events = stacked(VAR_HANDS, variant="variation")
    # every family is whole at the deal: a three-way tie, so seat 1 (dealer's left) leads
    assert types(events)[-2:] == ["variation", "turn"]
    assert state.phase == "variation" and hf.to_move(state) == [1]
    legal = {(a["type"], a["target"], a["family"]) for a in hf.legal_actions(state, 1)}
    assert legal == {("claim", t, f) for t in (0, 2) for f in ("Family A", "Family C")}


@pytest.mark.parametrize(
    ("claim", "kinds", "turn", "over"),
    [
        ({"target": 0, "family": "Family A"}, ["claim", "hand-over", "turn"], 1, False),
        ({"target": 0, "family": "Family B"}, None, None, False),  # holds B itself
    ],
)
def test_variation_claims(claim, kinds, turn, over):
    state, _ = stacked(VAR_HANDS, variant="variation")
    action = {"type": "claim", "player": 1, **claim}
    if kinds is None:
        with pytest.raises(IllegalAction, match="yourself"):
            hf.apply(state, action)
        return
    state, events = hf.apply(state, action)
    assert types(events) == kinds
    assert hf.is_over(state) is over
    assert hf.to_move(state) == [turn]
    state, events = hf.apply(
        state, {"type": "claim", "player": 1, "target": 2, "family": "Family C"}
    )
    assert types(events) == ["claim", "hand-over", "game-over"]
    assert hf.result(state)["winners"] == [1] and hf.result(state)["scores"] == [0, 3, 0]


def test_variation_wrong_claim_passes_the_turn_to_the_player_asked():
    hands = [
        ["A1", "A2", "A3", "A4", "D1"],
        ["B1", "B2", "B3", "B4", "D2", "D3"],
        ["C1", "C2", "C3", "C4", "D4"],
    ]
    state, _ = stacked(hands, families=4, variant="variation")
    state, _ = ask(state, 1, 2, "D4")
    state, _ = ask(state, 1, 0, "D1")  # seat 1 lays D: 2 tricks, the leader
    assert state.phase == "variation" and hf.to_move(state) == [1]
    state, events = hf.apply(
        state, {"type": "claim", "player": 1, "target": 2, "family": "Family A"}
    )
    assert types(events) == ["claim", "refuse", "turn"]
    assert hf.to_move(state) == [2]
    with pytest.raises(IllegalAction, match="now you ask for whole families"):
        ask(state, 2, 0, "A1")


def test_variation_bound_is_not_historic():
    hands = [
        ["A1", "A2", "A3", "A4", "D1"],
        ["B1", "B2", "B3", "B4", "D2", "D3"],
        ["C1", "C2", "C3", "C4", "D4"],
    ]
    state, _ = stacked(hands, families=4, variant="variation", max_claims=1)
    for card, target in (("D4", 2), ("D1", 0)):
        state, _ = ask(state, 1, target, card)
    state, events = hf.apply(
        state, {"type": "claim", "player": 1, "target": 2, "family": "Family A"}
    )
    assert types(events)[-2:] == ["bound", "game-over"]
    assert "limit of 1 claims" in hf.result(state)["reason"]


# --------------------------------------------------------------------------- views


def test_view_hides_other_hands_and_face_down_tricks():
    hands = [["B1", "B2", "C1", "C2"], ["A1", "A2", "A3", "A4"], ["B3", "B4", "C3", "C4"]]
    state, _ = stacked(hands)
    v = hf.view(state, 0)
    assert v["hand"] == state.places["hand:0"]
    assert v["hand_counts"] == [4, 0, 4]
    assert v["tricks_on_table"][1] == {"count": 1, "families": None}
    assert [e["type"] for e in v["log"]][:1] == ["deal"]
    assert {"A1", "B3"} & strings({k: v[k] for k in v if k not in ("deck", "legal")}) == set()
    own = hf.view(state, 1)
    assert own["tricks_on_table"][1]["families"] == ["Family A"]
    up = hf.view(stacked(hands, tricks_face_down=False)[0], 0)
    assert up["tricks_on_table"][1]["families"] == ["Family A"]
    json.dumps(v)  # JSON-ready
