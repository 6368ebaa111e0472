"""Snitch'ems bots: the careful strategy (most cards, then least left), levels, reasons."""

from __future__ import annotations

import pytest

from kiosk.games.cards import standard_deck
from kiosk.games.core import GameError
from kiosk.games.snitchems import engine as sn
from kiosk.games.snitchems.engine.bots import max_take, threat

CARDS = {c.id: c for c in standard_deck()}
OPTIONS = sn.options_for()
OPTS = OPTIONS.to_json()  # as a view shows them


def stacked(seat1: list[str], seat0: list[str], table: list[str]) -> sn.State:
    first = [c for pair in zip(seat1, seat0, strict=True) for c in pair] + table
    rest = [c for c in CARDS if c not in first]
    state, _ = sn.new_game(
        [CARDS[c] for c in first + rest], sn.options_for(dealer=0, shuffle=False), seed=0
    )
    return state


@pytest.mark.parametrize(
    ("card", "table", "most"),
    [
        ("6H", ["6C", "6D", "KS"], 3),  # a pair-royal: the 6 and both table 6s
        ("AH", ["7C", "8D", "8S"], 4),  # made 8 paired with both 8s
        ("AH", ["5C", "2D", "AS", "6S"], 4),  # A + 5 + 2 = 8 or A + A + 2 + 6 = 10: four
        ("KH", ["QC", "3D"], 0),
        ("2H", [], 0),
    ],
)
def test_max_take(card, table, most):
    assert max_take(CARDS[card], [CARDS[c] for c in table], OPTS) == most


def test_threat_is_the_worst_unseen_card():
    table = [CARDS[c] for c in ("7C", "KD")]
    assert threat(table, [CARDS["AH"], CARDS["KS"]], OPTS) == 2
    assert threat(table, [CARDS["QS"]], OPTS) == 0
    assert threat([], [CARDS["AH"]], OPTS) == 0


def test_careful_takes_the_most_cards():
    # 2H takes 3S + 3D (making 8) ; KH takes only KS
    state = stacked(["2H", "KH", "9H"], ["AC", "2C", "3C"], ["3S", "3D", "KS", "QS"])
    action = sn.make_bot("careful", 1, 0).act(sn.view(state, 1))
    assert (action["card"], sorted(action["take"])) == ("2H", ["3D", "3S"])
    assert action["why"].startswith("I took 3 cards")


def test_careful_then_leaves_the_opponent_least():
    # both captures take one card; taking the King leaves 5, 4 and 10 on the table, which an
    # unseen Ace could take all of (A + 5 + 4 = 10, paired with the 10): take the 10 instead
    state = stacked(["KH", "7D", "10H"], ["JD", "JC", "4D"], ["5H", "4C", "10D", "KD"])
    action = sn.make_bot("careful", 1, 0).act(sn.view(state, 1))
    assert (action["card"], action["take"]) == ("10H", ["10D"])
    assert action["why"] == "I took 2 cards and left at most 3 for you to take."


def test_careful_lays_the_card_that_leaves_least():
    state = stacked(["KH", "9H", "4H"], ["AC", "2C", "3C"], ["QS", "JS", "JD", "QD"])
    action = sn.make_bot("careful", 1, 0).act(sn.view(state, 1))
    assert action["type"] == "play" and action["card"] == "KH"  # a 9 or 4 would be fished
    assert action["why"].startswith("I could not capture")


@pytest.mark.parametrize("level", sn.LEVELS)
def test_bots_play_only_legal_moves(level):
    state, _ = sn.new_game(None, OPTIONS, 9)
    bots = [sn.make_bot(level, s, 9) for s in (0, 1)]
    while not sn.is_over(state):
        (seat,) = sn.to_move(state)
        action = bots[seat].act(sn.view(state, seat))
        assert {k: v for k, v in action.items() if k != "why"} in sn.legal_actions(state, seat)
        state, _ = sn.apply(state, action)


def test_careful_beats_beginner():
    score = {"careful": 0.0, "beginner": 0.0}
    games = 60
    for seed in range(games):
        levels = ("careful", "beginner") if seed % 2 else ("beginner", "careful")
        state, _ = sn.new_game(None, OPTIONS, seed)
        bots = [sn.make_bot(lv, s, seed) for s, lv in enumerate(levels)]
        while not sn.is_over(state):
            (seat,) = sn.to_move(state)
            state, _ = sn.apply(state, bots[seat].act(sn.view(state, seat)))
        winners = sn.result(state)["winners"]
        for w in winners:
            score[levels[w]] += 1 / len(winners)
    assert score["careful"] > score["beginner"]


def test_unknown_level_is_refused():
    with pytest.raises(GameError, match="unknown Snitch'ems level"):
        sn.make_bot("expert", 0)
