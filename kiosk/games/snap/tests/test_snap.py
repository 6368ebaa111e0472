"""The Snap engine: options, dealing, every variant's rule, running out, bounds, views, replay
(late calls, fair timing and false starts are in test_snap_timing.py)."""

from __future__ import annotations

import json
import random

import pytest

from kiosk.games.cards import standard_deck
from kiosk.games.core import IllegalAction, OptionsError
from kiosk.games.snap import engine as snap

from .snap_table import call, follow, game, turn, types


def strings(value) -> set[str]:
    """Every string anywhere in a JSON-ready value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) | strings(k) for k, v in value.items())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("variant", "overrides", "words"),
    [
        ("classic", {"players": 1}, "at least two players"),
        ("easy", {"speed": True}, "Easy Snap and Speed Snap"),
        ("speed", {"layout": "central"}, "Easy Snap and Speed Snap"),
        ("nonsense", {}, "unknown Snap variant"),
        ("classic", {"colour": "red"}, "unknown Snap option"),
        ("forfeits", {"pool": True}, "no pool"),
        ("easy", {"pool": True}, "Easy Snap has one central pile"),
        ("classic", {"penalty": "spanking"}, "unknown penalty"),
        ("classic", {"humans": (2,)}, "human seats"),
        ("classic", {"level": "wizard"}, "unknown level"),
        ("classic", {"max_turns": 0}, "max_turns"),
        ("classic", {"decks": 3}, "one deck or two"),
    ],
)
def test_bad_options_are_refused_with_words(variant, overrides, words) -> None:
    with pytest.raises(OptionsError, match=words):
        snap.options_for(variant, **overrides)


@pytest.mark.parametrize("name", list(snap.VARIANTS))
def test_every_variant_names_its_seed_and_makes_a_game(name) -> None:
    variant = snap.VARIANTS[name]
    assert variant.name == name
    assert ".txt" in variant.source and '"' in variant.source  # quotes the seed's words
    options = snap.options_for(name, players=3)
    assert snap.options_from_json(options.to_json()) == options
    state, _ = snap.new_game(standard_deck(), options, seed=3)
    assert sum(len(v) for v in snap.places(state).values()) == 52


def test_classic_is_the_default_variant() -> None:
    assert next(iter(snap.VARIANTS)) == "classic"


# --------------------------------------------------------------------------- dealing


def test_deal_gives_every_card_uneven_hands_allowed() -> None:
    state, events = snap.new_game(standard_deck(), snap.options_for(players=3), seed=5)
    assert [len(d) for d in state.down] == [18, 17, 17]
    assert types(events) == ["shuffle", "deal"]
    assert state.current == 0  # the player to the dealer's left turns first


def test_missing_cards_are_fine() -> None:
    deck = standard_deck()[:47]
    state, _ = snap.new_game(deck, snap.options_for(players=4), seed=5)
    assert sorted(len(d) for d in state.down) == [11, 12, 12, 12]


def test_two_decks_have_distinct_ids() -> None:
    state, _ = snap.new_game(standard_deck(), snap.options_for(players=4, decks=2), seed=5)
    ids = [c for pile in state.down for c in pile]
    assert len(ids) == len(set(ids)) == 104
    assert any(c.endswith("~2") for c in ids)


def test_forfeits_deal_equal_hands_and_set_the_rest_aside() -> None:
    state, _ = snap.new_game(standard_deck(), snap.options_for("forfeits", players=5), seed=5)
    assert [len(d) for d in state.down] == [10] * 5
    assert len(state.aside) == 2


def test_unshuffled_deal_follows_the_deck_order() -> None:
    state, _ = game("A B C", "D E F")
    assert [state.match[c] for c in state.down[0]] == ["C", "B", "A"]  # bottom first
    turn(state)
    assert state.match[state.up[0][-1]] == "A"


# --------------------------------------------------------------------------- classic


def test_first_call_takes_both_piles_to_the_bottom_of_its_pack() -> None:
    state, _ = game("X A B", "Y A C")
    turn(state), turn(state), turn(state)
    events = turn(state)  # seat 1 turns A onto seat 0's A
    assert state.window.snap
    up0, up1 = list(state.up[0]), list(state.up[1])
    events = call(state, 1, 420.0)
    events += follow(state, {"type": "close", "player": 0})  # seat 0 never called
    snapped = [e for e in events if e.type == "snap"]
    assert len(snapped) == 1 and snapped[0].data["player"] == 1
    assert snapped[0].data["won"] == 4
    assert state.up == [[], []]
    # both piles turned face down under seat 1's pack
    assert state.down[1][:4] == up0[::-1] + up1[::-1] or state.down[1][:4] == (
        up1[::-1] + up0[::-1]
    )
    # play continues from the player after the last to turn
    assert state.current == 0


def test_player_out_of_turn_is_refused() -> None:
    state, _ = game("A B", "C D")
    with pytest.raises(IllegalAction, match="player 0's turn"):
        turn(state, 1)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "jump", "player": 0},
        {"type": "turn", "player": 7},
        {"type": "turn", "player": True},
        "turn",
    ],
)
def test_malformed_actions_are_illegal(action) -> None:
    state, _ = game("A B", "C D")
    with pytest.raises(IllegalAction):
        snap.apply(state, action)


@pytest.mark.parametrize("ms", [-1, "fast", None, 10**9, True])
def test_a_call_needs_a_believable_reaction_time(ms) -> None:
    state, _ = game("A B", "A D")
    turn(state), turn(state)
    with pytest.raises(IllegalAction, match="reaction_ms"):
        call(state, 0, ms)


def test_a_computer_seat_cannot_send_calls() -> None:
    state, _ = game("A B", "A D", humans=(0,))
    turn(state), turn(state)
    with pytest.raises(IllegalAction, match="computer seat"):
        call(state, 1, 300.0)


def test_tie_without_a_pool_goes_to_the_faster_call() -> None:
    state, _ = game("A B", "A D")
    turn(state), turn(state)
    call(state, 0, 500.0)
    events = call(state, 1, 470.0)
    snapped = next(e for e in events if e.type == "snap")
    assert snapped.data["player"] == 1 and snapped.data["tie"]
    assert not snapped.data["tie_broken_by_lot"]


def test_an_exact_tie_without_a_pool_is_settled_by_lot_reproducibly() -> None:
    winners = set()
    for _ in range(3):
        state, _ = game("A B", "A D")
        turn(state), turn(state)
        call(state, 0, 500.0)
        events = call(state, 1, 500.0)
        snapped = next(e for e in events if e.type == "snap")
        assert snapped.data["tie_broken_by_lot"]
        winners.add(snapped.data["player"])
    assert len(winners) == 1  # the game's RNG, not the clock


def test_unclaimed_match_is_recorded_when_the_window_closes() -> None:
    state, _ = game("A B C", "A D E")
    turn(state), turn(state)
    events = turn(state)
    assert "unclaimed" in types(events)
    assert "snap" not in types(events)


# --------------------------------------------------------------------------- pool


def test_snap_pool_tie_makes_a_pool_and_a_pool_call_wins_it() -> None:
    state, _ = game("A B Q", "A C Q", variant="snap-pool")
    turn(state), turn(state)
    call(state, 0, 500.0)
    events = call(state, 1, 540.0)  # within the 60 ms tie window
    formed = next(e for e in events if e.type == "pool-formed")
    assert sorted(formed.data["players"]) == [0, 1]
    assert len(state.pool) == 2 and state.up == [[], []]
    turn(state)  # B
    turn(state)  # C
    turn(state)  # Q: no pool match yet (the pool's top is an A)
    assert not state.window.pool
    state2, _ = game("A B", "A A", variant="snap-pool")
    turn(state2), turn(state2)
    call(state2, 0, 500.0), call(state2, 1, 500.0)
    turn(state2)  # seat 0 turns B
    turn(state2)  # seat 1 turns A: matches the pool's top
    assert state2.window.pool
    call(state2, 1, 450.0, kind="call-pool")
    events = call(state2, 0, 900.0, kind="call")  # a Snap call on no match: mistaken
    assert "pool-won" in types(state2.last) or "pool-won" in types(events)
    assert state2.pool == [] and state2.pools == 1


def test_pool_call_tie_leaves_the_pool() -> None:
    state, _ = game("A B", "A A", variant="snap-pool")
    turn(state), turn(state)
    call(state, 0, 500.0), call(state, 1, 500.0)
    turn(state), turn(state)
    call(state, 0, 450.0, kind="call-pool")
    events = call(state, 1, 460.0, kind="call-pool")
    tie = next(e for e in events if e.type == "tie")
    assert tie.data["outcome"] == "pool-stays" and len(state.pool) == 2


# --------------------------------------------------------------------------- penalties


@pytest.mark.parametrize(
    ("variant", "check"),
    [
        ("snap-pool", lambda s, before: s.down == before[0] and s.up == before[1]),
        ("classic", lambda s, before: [len(d) for d in s.down] == [0, 4, 4]),
        ("penalty-card-each", lambda s, before: [len(d) for d in s.down] == [0, 4, 4]),
        ("penalty-face-up-to-pool", lambda s, before: s.up[0] == [] and len(s.pool) == 2),
        ("woolworths", lambda s, before: s.up[0] == [] and len(s.pool) == 2),
        ("penalty-face-down-to-pool", lambda s, before: s.down[0] == [] and len(s.pool) == 2),
    ],
)
def test_mistaken_call_penalties(variant, check) -> None:
    state, _ = game("A B C D", "E F G H", "I J K L", variant=variant)
    turn(state), turn(state), turn(state), turn(state)  # seat 0 has 2 down, 2 up
    before = ([list(d) for d in state.down], [list(u) for u in state.up])
    call(state, 0, 600.0)
    assert types(call(state, 1, 600.0, turn_no=state.turn - 5)) == ["late-call"]  # stale
    events = follow(state, {"type": "close", "player": 2})
    expected = "mistaken-call" if variant == "snap-pool" else "penalty"
    assert types(events) == [expected]
    assert events[0].data["player"] == 0 and events[0].data["call"] == "snap"
    assert check(state, before), (variant, state.down, state.up, state.pool)


# --------------------------------------------------------------------------- running out


def test_empty_pack_turns_its_face_up_pile_over() -> None:
    state, _ = game("A B", "C D")
    for _ in range(4):
        turn(state)
    assert state.down == [[], []]
    events = turn(state)
    assert types(events) == ["turn-over", "turn"]
    assert state.match[state.up[0][-1]] == "A"  # the first card turned comes round again


def test_a_player_with_no_cards_is_out_and_the_winner_holds_all() -> None:
    state, _ = game("A", "A")
    turn(state), turn(state)
    events = call(state, 0, 400.0) + call(state, 1, 700.0)
    assert "out" in types(events) and "game-over" in types(events)
    assert snap.result(state)["winners"] == [0]
    assert len(state.down[0]) == 2 and state.over
    assert snap.legal_actions(state, 0) == [] and snap.to_move(state) == []


def test_the_last_player_collects_the_pool() -> None:
    state, _ = game("A B", "A C", variant="woolworths")
    turn(state), turn(state)
    call(state, 0, 500.0), call(state, 1, 510.0)  # together: the two As go to the pool
    assert len(state.pool) == 2
    turn(state), turn(state)  # B, C: no match
    call(state, 0, 600.0)  # in error: seat 0's face-up B goes to the pool too
    events = follow(state, {"type": "close", "player": 1})
    assert types(events)[-3:] == ["out", "collect", "game-over"]
    assert state.winners == [1] and state.pool == []
    assert len(state.down[1]) + len(state.up[1]) == 4  # the winner holds all the cards


# --------------------------------------------------------------------------- forfeits


def test_forfeits_chain() -> None:
    state, _ = game("A X Y", "A X Z", "A Q W", variant="forfeits", counters=5)
    assert types(turn(state)) == ["turn"]
    e1 = turn(state)
    forfeit = next(e for e in e1 if e.type == "forfeit")
    assert forfeit.data["payer"] == 0 and forfeit.data["paid"] == 1
    e2 = turn(state)
    forfeit = next(e for e in e2 if e.type == "forfeit")
    assert forfeit.data["payer"] == 1 and forfeit.data["owed"] == 2
    assert state.counters == [4, 3, 5] and state.kitty == 3
    e3 = turn(state)  # seat 0 turns X after seat 2's A: the chain is broken
    assert "forfeit" not in types(e3)
    assert types(turn(state)) == ["turn", "forfeit"]  # seat 1's X matches seat 0's X
    assert state.counters == [3, 3, 5]


def test_forfeits_last_with_counters_wins_and_calls_are_refused() -> None:
    state, _ = game("A B", "A C", variant="forfeits", counters=1)
    turn(state)
    with pytest.raises(IllegalAction, match="no calls"):
        call(state, 1, 300.0)
    events = turn(state)
    assert "game-over" in types(events)
    assert snap.result(state)["winners"] == [1]
    assert state.out == [True, False]


# --------------------------------------------------------------------------- Easy, Speed


def test_easy_snap_calls_on_the_central_pile() -> None:
    state, _ = game("A B", "A C", variant="easy")
    turn(state)
    assert state.centre and state.up == [[], []]
    turn(state)
    assert state.window.snap
    events = call(state, 1, 400.0) + call(state, 0, 650.0)
    snapped = next(e for e in events if e.type == "snap")
    assert snapped.data["player"] == 1
    assert snapped.data["from"] == ["centre"] and snapped.data["won"] == 2
    assert state.centre == []


def test_speed_snap_turns_every_pile_at_once() -> None:
    state, _ = game("A B", "C D", "E F", variant="speed")
    events = turn(state, 2)  # any player in the game may start the count
    assert types(events) == ["turn", "turn", "turn"]
    assert [len(u) for u in state.up] == [1, 1, 1] and state.turn == 1


def test_speed_snap_takes_every_matching_pile() -> None:
    state, _ = game("A B", "A D", "C E", "C F", variant="speed", decks=1)
    turn(state)
    events = call(state, 0, 300.0)
    for p in (1, 2, 3):
        events += call(state, p, 900.0)
    snapped = next(e for e in events if e.type == "snap")
    assert snapped.data["matches"] == ["A", "C"] and snapped.data["won"] == 4


# --------------------------------------------------------------------------- kiosk bound


def test_kiosk_bound_ends_after_the_last_turns_window() -> None:
    opts = snap.options_for(players=2, humans=(0,), **snap.kiosk_bound())
    assert snap.VARIANTS["classic"].historic  # the bound is an option, not a variant
    state, _ = snap.new_game(standard_deck(), opts, seed=2)
    while snap.can_turn(state):
        turn(state)
    assert state.turn == snap.KIOSK_MAX_TURNS and not state.over
    assert [a["type"] for a in snap.legal_actions(state, 0)][-1] == "close"
    with pytest.raises(IllegalAction, match="kiosk bound"):
        turn(state)
    follow(state, {"type": "close", "player": 0})
    res = snap.result(state)
    assert state.over and res["reason"] == "kiosk-bound"
    assert res["winners"] == [p for p in (0, 1) if res["cards"][p] == max(res["cards"])]


def test_max_snaps_bound() -> None:
    state, _ = game("A B C", "A B C", max_snaps=1)
    turn(state), turn(state)
    call(state, 0, 400.0)
    call(state, 1, 500.0)
    assert state.over and state.reason == "kiosk-bound" and state.winners == [0]


# --------------------------------------------------------------------------- views


def test_view_shows_counts_and_tops_but_no_face_down_card() -> None:
    opts = snap.options_for("woolworths", players=3, humans=(0,))
    state, _ = snap.new_game(standard_deck(), opts, seed=4)
    for _ in range(10):
        turn(state)
    v = snap.view(state, 0)
    json.dumps(v)  # JSON-ready
    assert [p["down"] for p in v["players"]] == [len(d) for d in state.down]
    for seat, up in zip(v["players"], state.up, strict=True):
        assert (seat["top"] or {}).get("id") == (up[-1] if up else None)
    hidden = {c for pile in state.down for c in pile}
    assert not hidden & strings(v)
    assert v["turn"] == 10 and v["current"] == state.current
    assert "bot_calls" not in json.dumps(v)
    assert set(v["actions"]) <= {"turn", "call", "call-pool", "close"}


# --------------------------------------------------------------------------- replay


def test_replay_rebuilds_the_same_state_whatever_the_global_random_does() -> None:
    opts = snap.options_for("woolworths", players=3, humans=(0,), max_turns=120)
    state, _ = snap.new_game(standard_deck(), opts, seed="museum")
    policy = random.Random(9)
    record = []
    while not state.over:
        seat = snap.to_move(state)[0]
        legal = {a["type"]: a for a in snap.legal_actions(state, 0)}
        if "call" in legal and policy.random() < 0.3:
            action = {**legal["call"], "reaction_ms": round(policy.uniform(200, 900), 1)}
        else:
            kinds = [a["type"] for a in snap.legal_actions(state, seat)]
            action = {"type": "turn" if "turn" in kinds else "close", "player": seat}
        record.append(action)
        state, _ = snap.apply(state, action)
    random.seed(12345)
    random.random()
    again = snap.replay(standard_deck(), opts, "museum", record)
    assert again == state
    different = snap.replay(standard_deck(), opts, "other", record[:5])
    assert different != state


def test_apply_leaves_the_state_it_is_given_as_it_was() -> None:
    state, _ = game("A B", "A D", humans=(0,))
    before = state.key()
    after, _ = snap.apply(state, {"type": "turn", "player": 0})
    assert after is not state and after != state and state.key() == before
    later, _ = snap.apply(after, {"type": "turn", "player": 1})  # a match: a window opens
    assert later.window.snap and after.window is not later.window
    called, _ = snap.apply(later, {"type": "call", "player": 0, "turn": 2, "reaction_ms": 900})
    assert called.window is None and called.snaps == 1  # settled: somebody took the piles
    assert later.window.calls == () and [len(up) for up in later.up] == [1, 1]  # as it was
