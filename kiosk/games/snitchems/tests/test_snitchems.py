"""Snitch'ems engine: every capture kind as a table, the edge cases, random games checked."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.games.cards import standard_deck
from kiosk.games.core import Event, IllegalAction, OptionsError, TraceContext, apply_moves
from kiosk.games.snitchems import engine as sn

CARDS = {c.id: c for c in standard_deck()}


def caps(played: str, table: list[str], **opts) -> set[tuple[str, frozenset[str]]]:
    options = sn.options_for(**opts)
    found = sn.captures_for(CARDS[played], [CARDS[c] for c in table], options)
    return {(c.kind, frozenset(c.take)) for c in found}


def fs(*ids: str) -> frozenset[str]:
    return frozenset(ids)


# --------------------------------------------------------------------------- capture kinds


@pytest.mark.parametrize(
    ("played", "table", "opts", "expected"),
    [
        # pairing takes every table card of the rank; court cards only this way
        ("6H", ["6C", "KD"], {}, {("pairing", fs("6C"))}),
        ("6H", ["6C", "6D", "KS"], {}, {("pairing", fs("6C", "6D"))}),
        (
            "6H",
            ["6C", "6D"],
            {"pairing_takes_all": False},
            {("pairing", fs("6C")), ("pairing", fs("6D")), ("pairing", fs("6C", "6D"))},
        ),
        ("KH", ["KC", "3D"], {}, {("pairing", fs("KC"))}),
        ("QH", ["8C", "2D"], {}, set()),
        # making 8 or 10 with one or several table number cards; court cards never count
        ("AH", ["7C", "KD"], {}, {("making-8", fs("7C"))}),
        ("AH", ["5C", "2D"], {}, {("making-8", fs("5C", "2D"))}),
        ("AH", ["5C", "2D"], {"making_several": False}, set()),
        ("3H", ["7C"], {}, {("making-10", fs("7C"))}),
        (
            "2H",
            ["3C", "3D", "2S"],
            {},
            {
                ("pairing", fs("2S")),
                ("making-8", fs("3C", "3D")),
                ("making-10", fs("3C", "3D", "2S")),
            },
        ),
        ("9H", ["KC", "2D"], {}, set()),
        # a 4 on a 4 is a pairing (and makes 8): listed once, as pairing
        ("4H", ["4C"], {}, {("pairing", fs("4C"))}),
        (
            "5H",
            ["5C", "5D"],
            {},
            {("pairing", fs("5C", "5D")), ("making-10", fs("5C")), ("making-10", fs("5D"))},
        ),
        # pairing 8s or 10s: the seed's "an Ace ... may capture a 7 and an 8"
        ("AH", ["7C", "8D"], {}, {("making-8", fs("7C")), ("pairing-8", fs("7C", "8D"))}),
        (
            "4H",
            ["6C", "10D", "10S"],
            {},
            {("making-10", fs("6C")), ("pairing-10", fs("6C", "10D", "10S"))},
        ),
        (
            "4H",
            ["6C", "10D", "10S"],
            {"pairing_made_takes_all": False},
            {
                ("making-10", fs("6C")),
                ("pairing-10", fs("6C", "10D")),
                ("pairing-10", fs("6C", "10S")),
                ("pairing-10", fs("6C", "10D", "10S")),
            },
        ),
        ("10H", ["10C", "8D"], {}, {("pairing", fs("10C"))}),
        ("2H", [], {}, set()),
    ],
)
def test_capture_kinds(played, table, opts, expected):
    assert caps(played, table, **opts) == expected


def test_pair_royal_is_flagged_and_described():
    (cap,) = sn.captures_for(CARDS["6H"], [CARDS["6C"], CARDS["6D"]], sn.options_for())
    assert cap.pair_royal
    assert sn.describe(cap, lambda cid: f"the {CARDS[cid].name}") == (
        "the 6 of Hearts makes a pair-royal with the 6 of Clubs and the 6 of Diamonds"
    )


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players": 3}, "two players"),
        ({"dealer": 2}, "seat 0 or 1"),
        ({"making_several": "no"}, "true or false"),
        ({"jokers": True}, "unknown Snitch'ems option"),
    ],
)
def test_bad_options(overrides, message):
    with pytest.raises(OptionsError, match=message):
        sn.options_for(**overrides)


def test_unknown_variant_and_short_deck_are_refused():
    with pytest.raises(OptionsError, match="unknown Snitch'ems variant"):
        sn.options_for("casino")
    with pytest.raises(OptionsError, match="at least ten cards"):
        sn.new_game(standard_deck()[:9], sn.options_for(), 0)


# --------------------------------------------------------------------------- stacked games


def stacked(seat1: list[str], seat0: list[str], table: list[str], dealer: int = 0, **opts):
    """A game with seat 0 dealing: the first hands and the layout as given, the rest in order."""
    first = [c for pair in zip(seat1, seat0, strict=True) for c in pair] + table
    rest = [c for c in CARDS if c not in first]
    options = sn.options_for(dealer=dealer, shuffle=False, **opts)
    state, events = sn.new_game([CARDS[c] for c in first + rest], options, seed=3)
    assert state.places["hand:1"] == seat1 and state.places["table"] == table
    return state, events


def types(events) -> list[str]:
    return [e.type for e in events]


def test_first_deal_three_each_singly_non_dealer_first_and_a_2x2_layout():
    state, events = stacked(["AH", "2H", "3H"], ["AC", "2C", "3C"], ["KS", "QS", "JS", "9S"])
    assert types(events) == ["shuffle", "deal", "turn"]
    dest = [m["to"] for m in events[1].data["moves"]]
    assert dest == ["hand:1", "hand:0"] * 3 + ["table"] * 4
    assert events[1].data["layout"] is True
    assert sn.to_move(state) == [1], "the non-dealer starts"
    assert sn.public_state(state)["deals"] == 8  # 4 + 8 x 6 = 52


def test_laying_when_a_capture_exists_is_refused_with_the_reason():
    state, _ = stacked(["AH", "KH", "3H"], ["AC", "2C", "3C"], ["KS", "QS", "JS", "10S"])
    with pytest.raises(IllegalAction) as err:
        sn.apply(state, {"type": "play", "player": 1, "card": "AH"})
    message = str(err.value)
    assert "You must capture when you can" in message
    assert "the King of Hearts makes a pair with the King of Spades" in message
    assert [a["type"] for a in sn.legal_actions(state, 1)] == ["capture"]


def test_a_card_is_laid_only_when_no_card_can_capture():
    state, _ = stacked(["AH", "2H", "3H"], ["AC", "2C", "3C"], ["KS", "QS", "JS", "10S"])
    legal = sn.legal_actions(state, 1)
    assert {a["type"] for a in legal} == {"play"} and len(legal) == 3
    after, events = sn.apply(state, {"type": "play", "player": 1, "card": "2H"})
    assert types(events) == ["play", "turn"]
    assert after.places["table"][-1] == "2H" and sn.to_move(after) == [0]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "capture", "player": 1, "card": "AH", "take": ["9S"]}, "It can:"),
        ({"type": "capture", "player": 1, "card": "5H", "take": ["KS"]}, "capture nothing"),
        ({"type": "capture", "player": 1, "card": "5D", "take": []}, "not a card in your hand"),
        ({"type": "play", "player": 0, "card": "AC"}, "not your turn"),
        ({"type": "shout", "player": 1, "card": "AH"}, "unknown action type"),
        ({"type": "capture", "player": 1, "card": "KH", "take": "KS"}, "names the table cards"),
    ],
)
def test_illegal_moves_are_refused_in_words(action, message):
    state, _ = stacked(["AH", "KH", "5H"], ["AC", "2C", "3C"], ["KS", "7S", "JS", "8S"])
    with pytest.raises(IllegalAction, match=message):
        sn.apply(state, action)


def test_capture_event_carries_what_a_checker_needs():
    state, _ = stacked(["AH", "KH", "3H"], ["AC", "2C", "3C"], ["KS", "7S", "JS", "8S"])
    action = {
        "type": "capture",
        "player": 1,
        "card": "AH",
        "kind": "pairing-8",
        "take": ["7S", "8S"],
    }
    after, events = sn.apply(state, action)
    assert types(events) == ["play", "capture", "turn"]
    cap = events[1].data
    assert cap["kind"] == "pairing-8" and cap["sum"] == 8
    assert cap["made"] == ["AH", "7S"] and cap["paired"] == ["8S"]
    assert cap["moves"] == [
        {"cards": ["7S", "8S", "AH"], "from": "table", "to": "captured:1", "at": "top"}
    ]
    assert after.places["table"] == ["KS", "JS"] and after.last_capturer == 1


def test_four_on_a_four_may_be_named_as_making_eight():
    state, _ = stacked(["4H", "KH", "3H"], ["AC", "2C", "3C"], ["4S", "QS", "JS", "9S"])
    _, events = sn.apply(
        state, {"type": "capture", "player": 1, "card": "4H", "kind": "making-8", "take": ["4S"]}
    )
    assert events[1].data["kind"] == "making-8" and events[1].data["sum"] == 8
    with pytest.raises(IllegalAction):
        sn.apply(
            state,
            {"type": "capture", "player": 1, "card": "4H", "kind": "making-10", "take": ["4S"]},
        )


def test_a_sweep_then_the_opponent_simply_lays():
    state, _ = stacked(["2H", "KH", "3H"], ["AC", "2C", "3C"], ["AS", "2S", "3S", "KS"])
    state, events = sn.apply(state, {"type": "capture", "player": 1, "card": "KH", "take": ["KS"]})
    assert "sweep" not in types(events)
    state, _ = sn.apply(state, {"type": "capture", "player": 0, "card": "AC", "take": ["AS"]})
    state, events = sn.apply(state, {"type": "capture", "player": 1, "card": "3H", "take": ["3S"]})
    assert state.places["table"] == ["2S"]
    state, events = sn.apply(state, {"type": "capture", "player": 0, "card": "2C", "take": ["2S"]})
    assert types(events) == ["play", "capture", "sweep", "turn"]
    assert state.places["table"] == []
    legal = sn.legal_actions(state, 1)
    assert [a["type"] for a in legal] == ["play"]  # nothing to capture: simply lay


def test_last_capturer_takes_the_table_and_most_cards_wins():
    state, _ = sn.new_game(None, sn.options_for(dealer=1), seed=11)
    bots = [sn.make_bot("careful", s, 11) for s in (0, 1)]
    events = []
    while not sn.is_over(state):
        (seat,) = sn.to_move(state)
        state, new = sn.apply(state, bots[seat].act(sn.view(state, seat)))
        events.extend(new)
    deals = [e for e in events if e.type == "deal"]
    assert len(deals) == 7 and all(not e.data["layout"] for e in deals)  # plus the first
    last = [e for e in events if e.type == "last-capture"]
    captures = [e for e in events if e.type == "capture"]
    assert last and last[0].data["player"] == captures[-1].data["player"]
    assert state.places["table"] == [] and state.places["stock"] == []
    res = sn.result(state)
    assert sum(res["scores"]) == 52 and res["next_dealer"] == 0
    assert res["winners"] == [s for s in (0, 1) if res["scores"][s] == max(res["scores"])]
    assert types(events)[-1] == "game-over"


def test_view_shows_own_hand_table_and_counts_only():
    state, _ = stacked(["AH", "2H", "3H"], ["AC", "2C", "3C"], ["KS", "QS", "JS", "9S"])
    v = sn.view(state, 0)
    assert v["hand"] == ["AC", "2C", "3C"] and v["table"] == ["KS", "QS", "JS", "9S"]
    assert v["hand_counts"] == [3, 3] and v["stock"] == 42
    shown = {k: x for k, x in v.items() if k != "deck"}
    assert not {"AH", "2H", "3H"} & strings(shown)
    json.dumps(v)


# --------------------------------------------------------------------------- random games


def strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *(strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(strings(v) for v in value))
    return set()


def naive_can_capture(hand, table, opts) -> bool:
    """An independent check that some card in hand can capture (by brute force)."""
    numbers = [c for c in table if c.value is not None]
    for card in hand:
        if any(sn.rank_of(t) == sn.rank_of(card) for t in table):
            return True
        if card.value is None:
            continue
        sizes = range(1, len(numbers) + 1) if opts.making_several else [1]
        for k in sizes:
            for combo in itertools.combinations(numbers, k):
                if card.value + sum(c.value for c in combo) in (8, 10):
                    return True
    return False


def check_capture(before: sn.State, d: dict) -> None:
    """Every capture adds up and pairing takes all of the rank as configured."""
    opts = before.options
    table = [before.cards[c] for c in before.places["table"]]
    card = before.cards[d["card"]]
    taken = [before.cards[c] for c in d["take"]]
    assert taken and set(d["take"]) <= set(before.places["table"])
    assert d["card"] in before.places[f"hand:{d['player']}"]
    if d["kind"] == "pairing":
        assert all(sn.rank_of(c) == sn.rank_of(card) for c in taken)
        if opts.pairing_takes_all:
            assert len(taken) == sum(sn.rank_of(c) == sn.rank_of(card) for c in table)
        assert d["pair_royal"] == (len(taken) >= 2)
        return
    target = int(d["kind"].split("-")[1])
    made = [before.cards[c] for c in d["made"]]
    assert made[0] is card and all(c.value is not None for c in made)
    assert sum(c.value for c in made) == target == d["sum"]
    if not opts.making_several:
        assert len(made) == 2
    if d["kind"].startswith("making"):
        assert set(d["made"][1:]) == set(d["take"])
    else:
        paired = [before.cards[c] for c in d["paired"]]
        assert paired and all(c.value == target for c in paired)
        assert set(d["made"][1:]) | set(d["paired"]) == set(d["take"])
        if opts.pairing_made_takes_all:
            assert len(paired) == sum(c.value == target for c in table if c not in made)


def check_state(state: sn.State, followed: dict[str, list[str]]) -> None:
    placed = [c for pile in state.places.values() for c in pile]
    assert sorted(placed) == sorted(state.cards)
    assert {k: v for k, v in followed.items() if v} == {
        k: v for k, v in sn.places(state).items() if v
    }
    for seat in (0, 1):
        v = sn.view(state, seat)
        assert v["hand"] == state.places[f"hand:{seat}"]
        hidden = set(state.places[f"hand:{1 - seat}"]) | set(state.places["stock"])
        assert not strings({k: x for k, x in v.items() if k != "deck"}) & hidden


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    size=st.sampled_from([52, 52, 52, 10, 17, 33]),
    takes_all=st.booleans(),
    several=st.booleans(),
    made_all=st.booleans(),
    levels=st.tuples(*[st.sampled_from([None, "beginner", "careful"])] * 2),
    chooser=st.randoms(use_true_random=False),
)
def test_random_games_are_legal_end_and_replay(
    seed, size, takes_all, several, made_all, levels, chooser
):
    deck = chooser.sample(standard_deck(), size)
    opts = sn.options_for(
        pairing_takes_all=takes_all, making_several=several, pairing_made_takes_all=made_all
    )
    state, events = sn.new_game(deck, opts, seed)
    followed = {"box": [c.id for c in deck]}
    apply_moves(followed, events)
    check_state(state, followed)
    bots = [sn.make_bot(lv, s, seed) if lv else None for s, lv in enumerate(levels)]
    turns = 0
    while not sn.is_over(state):
        (seat,) = sn.to_move(state)
        legal = sn.legal_actions(state, seat)
        assert legal
        action = bots[seat].act(sn.view(state, seat)) if bots[seat] else chooser.choice(legal)
        after, new = sn.apply(state, action)
        kinds = types(new)
        if "capture" not in kinds:
            hand = [state.cards[c] for c in state.places[f"hand:{seat}"]]
            table = [state.cards[c] for c in state.places["table"]]
            assert not naive_can_capture(hand, table, opts), "a lay while a capture existed"
        for e in new:
            if e.type == "capture":
                check_capture(state, e.data)
            if e.type == "last-capture":
                assert e.data["player"] == after.last_capturer
        apply_moves(followed, new)
        state = after
        turns += 1
        if turns % 5 == 0 or sn.is_over(state):
            check_state(state, followed)
    assert turns == size - sn.LAYOUT_SIZE
    if size == 52:
        assert state.deals == 8
    res = sn.result(state)
    assert sum(res["scores"]) + len(state.places["table"]) == size
    again = sn.replay(deck, opts, seed, state.record)
    assert again == state and again.rng.getstate() == state.rng.getstate()


@pytest.mark.parametrize("seed", [0, 5, "museum"])
def test_same_seed_same_game_even_with_global_random_disturbed(seed):
    def run() -> sn.State:
        state, _ = sn.new_game(None, sn.options_for(), seed)
        bots = [sn.make_bot("beginner", 0, seed), sn.make_bot("careful", 1, seed)]
        while not sn.is_over(state):
            random.random()
            (seat,) = sn.to_move(state)
            state, _ = sn.apply(state, bots[seat].act(sn.view(state, seat)))
        return state

    random.seed(2)
    first = run()
    random.seed(77)
    random.shuffle(list(range(40)))
    second = run()
    assert first == second and first.record == second.record


# --------------------------------------------------------------------------- trace checking


def test_trace_of_a_game_checks_and_tampering_is_caught():
    from kiosk.games import trace

    deck = standard_deck()
    lines = list(
        trace.trace_game(sn, deck, sn.options_for(), 4, trace.bot_chooser(sn, 2, "careful", 4))
    )
    assert trace.check_lines(lines, sn) == len(lines) - 1
    making = next(
        i for i, x in enumerate(lines) if x.get("event", {}).get("kind", "").startswith("making")
    )
    bad = [dict(x) for x in lines]
    event = dict(bad[making]["event"])
    event["kind"] = "making-10" if event["kind"] == "making-8" else "making-8"
    bad[making] = {**bad[making], "event": event}
    with pytest.raises(trace.TraceError, match="do not add up"):
        trace.check_lines(bad, sn)


def test_check_event_catches_a_lay_when_a_capture_was_compulsory():
    cards = {c.id: c.header() for c in standard_deck()}
    before = {"hand:0": ["6H", "2C"], "hand:1": ["3D"], "table": ["6C"]}
    context = TraceContext(cards, sn.options_for().to_json())
    assert sn.check_event(context, before, Event("play", {"player": 0, "card": "2C"})) is None
    after = {"hand:0": ["6H"], "hand:1": ["3D"], "table": ["6C", "2C"]}
    problem = sn.check_event(context, after, Event("turn", {"player": 1}))
    assert problem == "player 0 laid 2C when a capture was compulsory"


# --------------------------------------------------------------------------- scenarios
# Each rule as a step-through would show it: a stacked deal and the first move.


@pytest.mark.parametrize(
    ("hand", "table", "card", "take", "kind", "extra"),
    [
        (["6H", "KH", "QH"], ["6C", "2S", "JS", "9D"], "6H", ["6C"], "pairing", []),
        (["6H", "KH", "QH"], ["6C", "6D", "JS", "9D"], "6H", ["6C", "6D"], "pairing", []),
        (["AH", "KH", "QH"], ["7S", "JS", "QS", "KD"], "AH", ["7S"], "making-8", []),
        (["3H", "KH", "QH"], ["7S", "JS", "QS", "KD"], "3H", ["7S"], "making-10", []),
        (["AH", "KH", "QH"], ["5S", "2D", "JS", "KD"], "AH", ["5S", "2D"], "making-8", []),
        (["AH", "KH", "QH"], ["7S", "8S", "JS", "KD"], "AH", ["7S", "8S"], "pairing-8", []),
        (["4H", "KH", "QH"], ["6S", "10S", "JS", "KD"], "4H", ["6S", "10S"], "pairing-10", []),
        (
            ["AH", "KH", "QH"],
            ["2S", "5S", "8S", "8D"],
            "AH",
            ["2S", "5S", "8S", "8D"],
            "pairing-8",
            ["sweep"],
        ),
    ],
)
def test_each_capture_as_a_scripted_first_move(hand, table, card, take, kind, extra):
    state, _ = stacked(hand, ["JC", "QC", "KC"], table)
    _, events = sn.apply(
        state, {"type": "capture", "player": 1, "card": card, "take": take, "kind": kind}
    )
    assert types(events) == ["play", "capture", *extra, "turn"]
    assert events[1].data["kind"] == kind
    assert events[1].data["pair_royal"] == (kind == "pairing" and len(take) >= 2)


def test_options_from_a_token_made_before_the_options_were_a_dataclass_still_read():
    old = {
        "players": 2,
        "dealer": None,
        "shuffle": True,
        "pairing_takes_all": True,
        "making_several": True,
        "pairing_made_takes_all": True,
    }
    options = sn.options_from_json(old)
    assert options == sn.options_for()
    assert {k: v for k, v in options.to_json().items() if k in old} == old
