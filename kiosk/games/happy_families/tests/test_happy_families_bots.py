"""Happy Families bots: legal moves, memory that pays, and one line saying why."""

from __future__ import annotations

import pytest

from kiosk.games.core import GameError
from kiosk.games.happy_families import engine as hf
from kiosk.games.happy_families.engine.bots import FORGETFUL_MEMORY, recent, remember

NAMES = ["You", "Ada", "Bert", "Cora"]
# dealer 3, so seat 0 (the visitor) asks first; seat 1 (the bot) lays Family E at the deal
HANDS = [
    ["A1", "B1", "B2", "C1", "D1"],
    ["A2", "E1", "E2", "E3", "E4"],
    ["A3", "B3", "C2", "C3", "D2"],
    ["A4", "B4", "C4", "D3", "D4"],
]


def dealt(hands: list[list[str]], dealer: int, **opts) -> hf.State:
    deck = {c.id: c for c in hf.generic_deck(len(hands[0]))}
    n = len(hands)
    seats = [(dealer + 1 + i) % n for i in range(n)]
    order = [hands[s][i] for i in range(len(hands[0])) for s in seats]
    options = hf.options_for(players=n, dealer=dealer, shuffle=False, names=NAMES[:n], **opts)
    state, _ = hf.new_game([deck[c] for c in order], options, seed=0)
    for seat, hand in enumerate(hands):
        assert set(state.places[f"hand:{seat}"]) | set(state.places[f"tricks:{seat}"]) == set(hand)
    return state


def ask(state, player, target, card):
    return hf.apply(state, {"type": "ask", "player": player, "target": target, "card": card})[0]


def test_remembering_bot_asks_the_player_seen_to_get_the_card_and_says_so():
    state = dealt(HANDS, dealer=3)
    state = ask(state, 0, 2, "A3")  # the visitor gets Family A, card 3
    state = ask(state, 0, 1, "C2")  # the bot has no C2: the turn passes to the bot
    assert hf.to_move(state) == [1]
    action = hf.make_bot("remembering", 1, 0).act(hf.view(state, 1))
    assert (action["target"], action["card"]) == (0, "A3")
    assert action["why"] == "You asked for Family A, card 3 and got it, so I asked you for it."
    _, events = hf.apply(state, action)  # the "why" rides along harmlessly
    assert [e.type for e in events][:2] == ["ask", "give"]


def test_memory_reads_gives_refusals_and_asks():
    state = dealt(HANDS, dealer=3)
    state = ask(state, 0, 2, "A3")
    state = ask(state, 0, 1, "C2")
    mem = remember(hf.view(state, 2))
    assert mem.holder == {"A3": 0}
    assert mem.lacks["C2"] == {0, 1}  # the visitor asked for it; the bot said no
    assert mem.asked_family[0] == {"Family A": "A3", "Family C": "C2"}


def test_remembering_bot_deduces_a_card_from_an_ask():
    # the bot holds A1-A3; Bert asked for A3, so Bert holds another A card: it can only be A4
    hands = [
        ["A1", "A2", "A3", "B1"],
        ["B2", "C1", "C2", "D1"],
        ["A4", "B3", "C3", "D2"],
        ["B4", "C4", "D3", "D4"],
    ]
    state = dealt(hands, dealer=1)  # Bert (seat 2) asks first
    state = ask(state, 2, 1, "A3")  # Ada says no: her turn
    state = ask(state, 1, 0, "C3")  # the bot says no: its turn
    action = hf.make_bot("remembering", 0, 0).act(hf.view(state, 0))
    assert (action["target"], action["card"]) == (2, "A4")
    assert action["why"] == (
        "Bert asked for Family A, card 3, so Bert must hold Family A, card 4: I asked for it."
    )


def test_forgetful_bot_remembers_only_the_last_three_asks():
    state = dealt(HANDS, dealer=3)
    for target, card in ((2, "A3"), (2, "B3"), (2, "D2"), (1, "C2")):  # the last is refused
        state = ask(state, 0, target, card)
    assert hf.to_move(state) == [1]
    view = hf.view(state, 1)
    assert remember(view).holder["A3"] == 0
    short = remember({**view, "log": recent(view["log"], FORGETFUL_MEMORY)})
    assert "A3" not in short.holder and short.holder["D2"] == 0
    remembering = hf.make_bot("remembering", 1, 0).act(view)
    assert (remembering["target"], remembering["card"]) == (0, "A3")
    for seed in range(5):
        action = hf.make_bot("forgetful", 1, seed).act(view)
        assert "got it" not in action["why"] and action["why"].endswith(".")


@pytest.mark.parametrize("level", hf.LEVELS)
def test_bots_play_only_legal_moves_with_a_reason(level):
    state, _ = hf.new_game(hf.generic_deck(5), hf.options_for("variation", players=4), 3)
    bots = [hf.make_bot(level, s, 3) for s in range(4)]
    while not hf.is_over(state):
        (seat,) = hf.to_move(state)
        action = bots[seat].act(hf.view(state, seat))
        legal = hf.legal_actions(state, seat)
        assert {k: v for k, v in action.items() if k != "why"} in legal
        assert isinstance(action["why"], str) and action["why"].endswith(".")
        state, _ = hf.apply(state, action)


def test_remembering_beats_forgetful():
    wins = {"remembering": 0.0, "forgetful": 0.0}
    games = 40
    for seed in range(games):
        levels = ["forgetful"] * 4
        star = seed % 4
        levels[star] = "remembering"
        state, _ = hf.new_game(hf.generic_deck(6), hf.options_for(players=4), seed)
        bots = [hf.make_bot(lv, s, seed) for s, lv in enumerate(levels)]
        while not hf.is_over(state):
            (seat,) = hf.to_move(state)
            state, _ = hf.apply(state, bots[seat].act(hf.view(state, seat)))
        winners = hf.result(state)["winners"]
        for w in winners:
            wins[levels[w]] += 1 / len(winners)
    # one remembering seat against three forgetful ones: it wins more than its fair share
    # (a quarter of the games), and clearly more often than a forgetful seat on average
    # (over 300 games: 36% against 21%)
    assert wins["remembering"] > 1.2 * games / 4
    assert wins["remembering"] > 1.3 * wins["forgetful"] / 3


def test_remembering_claims_a_trick_it_saw_laid_in_the_variation():
    hands = [
        ["A1", "A2", "A3", "D1"],
        ["B1", "B2", "B3", "B4"],
        ["C1", "C2", "C3", "C4"],
        ["A4", "D2", "D3", "D4"],
    ]
    state = dealt(hands, dealer=3, variation=True)
    # seat 0 asks for A4 (gets it, lays A), then for D2 from seat 3 (gets it), D3, D4, D1 own
    for card in ("A4", "D2", "D3", "D4"):
        state = ask(state, 0, 3, card)
    assert state.phase == "variation" and hf.to_move(state) == [0]
    state, _ = hf.apply(
        state, {"type": "claim", "player": 0, "target": 2, "family": "Family B"}
    )  # wrong: the turn passes to seat 2
    action = hf.make_bot("remembering", 2, 0).act(hf.view(state, 2))
    assert action["type"] == "claim" and action["target"] == 0
    assert action["family"] in ("Family A", "Family D")
    assert action["why"].startswith("I remembered you laid down")


def test_unknown_level_is_refused():
    with pytest.raises(GameError, match="unknown Happy Families level"):
        hf.make_bot("genius", 0, 0)
