"""The Snap engine: options, dealing, every variant's rule, fair timing, late calls, views."""

from __future__ import annotations

import json
import random

import pytest

from kiosk.games.cards import Card, standard_deck
from kiosk.games.core import IllegalAction, OptionsError
from kiosk.games.snap import engine as snap

from .snap_table import follow


def stacked(*piles: str) -> list[Card]:
    """A deck that, dealt unshuffled, gives seat p the cards of ``piles[p]`` in turning order."""
    seats = [pile.split() for pile in piles]
    k = len(seats[0])
    assert all(len(s) == k for s in seats)
    deck = []
    for j in range(k):  # deal round j: each seat's j-th card from the bottom
        for p, pile in enumerate(seats):
            t = k - 1 - j
            key = pile[t]
            deck.append(Card(id=f"s{p}t{t}{key}", name=f"card {key}", match=key))
    return deck


def game(*piles: str, variant: str = "classic", humans=None, **options):
    players = len(piles)
    humans = tuple(range(players)) if humans is None else humans
    opts = snap.options_for(variant, players=players, shuffle=False, humans=humans, **options)
    state, events = snap.new_game(stacked(*piles), opts, seed=1)
    return state, events


def turn(state, player=None):
    player = state.current if player is None else player
    return follow(state, {"type": "turn", "player": player})


def call(state, player, ms, kind="call", turn_no=None):
    action = {
        "type": kind,
        "player": player,
        "reaction_ms": ms,
        "turn": state.turn if turn_no is None else turn_no,
    }
    return follow(state, action)


def types(events):
    return [e.type for e in events]


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


# --------------------------------------------------------------------------- late calls


def test_a_snap_pool_call_without_a_pool_match_is_mistaken() -> None:
    state, _ = game("A B", "C D", variant="penalty-card-each")
    turn(state), turn(state)
    call(state, 0, 700.0, kind="call-pool")
    events = call(state, 1, 800.0)
    assert [(e.data["player"], e.data["call"]) for e in events if e.type == "penalty"] == [
        (0, "pool"),
        (1, "snap"),
    ]


def test_late_and_duplicate_calls_change_nothing() -> None:
    state, _ = game("A B C", "A D E", humans=(0, 1))
    turn(state), turn(state)
    call(state, 0, 400.0)
    snapshot = (snap.places(state), snap.public_state(state))
    events = call(state, 0, 300.0)  # the same player again, same window
    assert types(events) == ["late-call"] and events[0].data["why"] == "already called"
    assert (snap.places(state), snap.public_state(state)) == snapshot
    call(state, 1, 800.0)  # settles: seat 0 wins
    snapshot = (snap.places(state), snap.public_state(state))
    for ms in (100.0, 200.0):
        events = call(state, 1, ms, turn_no=state.turn)  # after the window settled
        assert types(events) == ["late-call"]
        events = call(state, 1, ms, turn_no=state.turn - 1)  # a stale turn number
        assert types(events) == ["late-call"] and events[0].data["why"] == "window closed"
    assert (snap.places(state), snap.public_state(state)) == snapshot


# --------------------------------------------------------------------------- fair timing


def bot_reaction(state) -> float:
    return min(ms for ms, seat, kind in state.window.bot_calls if kind == "snap")


def seed_with_a_bot_call(variant: str = "classic"):
    for seed in range(200):
        opts = snap.options_for(variant, shuffle=False, humans=(0,), level="hard")
        state, _ = snap.new_game(stacked("A B", "A C"), opts, seed=seed)
        turn(state), turn(state)
        if any(k == "snap" for _, _, k in state.window.bot_calls):
            return state
    raise AssertionError("no seed gave a bot call")


@pytest.mark.parametrize(
    ("variant", "delta", "outcome", "winner"),
    [
        ("classic", -100, "snap", 0),  # quicker than the computer's drawn reaction
        ("classic", +100, "snap", 1),  # slower: too slow
        ("snap-pool", +30, "pool-formed", None),  # inside the tie window: together
        ("classic", +30, "snap", 1),  # together, no pool: the quicker call still wins
    ],
)
def test_human_call_is_judged_against_the_pre_drawn_bot_reaction(
    variant, delta, outcome, winner
) -> None:
    state = seed_with_a_bot_call(variant)
    bot = bot_reaction(state)
    assert bot >= 350.0  # the floor
    events = call(state, 0, max(0.0, bot + delta))
    settled = next(e for e in events if e.type == outcome)
    if winner is not None:
        assert settled.data["player"] == winner


def test_bot_calls_are_settled_by_the_next_turn() -> None:
    state = seed_with_a_bot_call()
    events = turn(state)
    snapped = next(e for e in events if e.type == "snap")
    assert snapped.data["player"] == 1
    assert types(events).index("snap") < types(events).index("turn")


@pytest.mark.parametrize("level", snap.LEVELS)
def test_bot_reactions_are_never_below_the_floor(level) -> None:
    opts = snap.options_for(players=4, level=level, max_turns=200)
    state, _ = snap.new_game(standard_deck(), opts, seed=11)
    seen = []
    while not state.over:
        if state.window:
            seen += [ms for ms, _, _ in state.window.bot_calls]
        seat = snap.to_move(state)[0]
        action = "turn" if "turn" in snap.view(state, seat)["actions"] else "close"
        state, _ = snap.apply(state, {"type": action, "player": seat})
    assert seen and min(seen) >= 350.0


# --------------------------------------------------------------------------- false starts


def settled_by(state, player: int) -> list:
    """The events of closing the window that name ``player``: a win, a pool, a penalty."""
    events = follow(state, {"type": "close", "player": 0})
    won = [e for e in events if e.type in ("snap", "pool-won") and e.data["player"] == player]
    pooled = [e for e in events if e.type == "pool-formed" and player in e.data["players"]]
    paid = [
        e for e in events if e.type in ("penalty", "mistaken-call") and e.data["player"] == player
    ]
    return won + pooled + paid


@pytest.mark.parametrize("ms", [0, 50, 99.9])
@pytest.mark.parametrize("variant", ["classic", "woolworths"])
def test_a_false_start_on_a_match_is_too_late_and_never_wins(variant, ms) -> None:
    state, _ = game("A B", "A D", variant=variant, humans=(0,), level="hard")
    turn(state), turn(state)
    assert state.window.snap
    before = (snap.places(state), snap.public_state(state), state.rng.getstate())
    events = call(state, 0, ms)
    assert types(events) == ["late-call"]
    assert events[0].data["why"] == "false start" and events[0].data["turn"] == state.turn
    # nothing changed, not even the RNG: the match's window stays open for a real call
    assert (snap.places(state), snap.public_state(state), state.rng.getstate()) == before
    assert state.window.calls == () and "call" in snap.view(state, 0)["actions"]
    assert settled_by(state, 0) == []  # the match goes to the computer, or to nobody


@pytest.mark.parametrize("ms", [0, 50, 99.9])
@pytest.mark.parametrize(
    "variant", ["woolworths", "penalty-card-each", "penalty-face-down-to-pool"]
)
def test_a_false_start_on_no_match_pays_no_penalty(variant, ms) -> None:
    state, _ = game("A B C D", "E F G H", "I J K L", variant=variant)
    turn(state), turn(state), turn(state), turn(state)
    assert not (state.window.snap or state.window.pool)
    before = (snap.places(state), snap.public_state(state))
    events = call(state, 0, ms)
    assert types(events) == ["late-call"] and events[0].data["why"] == "false start"
    assert settled_by(state, 0) == []
    assert (snap.places(state), state.penalties) == (before[0], 0)


@pytest.mark.parametrize("kind", ["call", "call-pool"])
def test_a_false_start_on_a_pool_match_is_too_late(kind) -> None:
    state, _ = game("A B", "A A", variant="snap-pool")
    turn(state), turn(state)
    call(state, 0, 500.0), call(state, 1, 500.0)  # together: a pool of two A's
    turn(state), turn(state)  # seat 1 turns an A: it matches the pool's top
    assert state.window.pool
    events = call(state, 1, 0, kind=kind)
    assert types(events) == ["late-call"] and events[0].data["why"] == "false start"
    assert settled_by(state, 1) == [] and len(state.pool) == 2


def test_a_false_start_leaves_the_window_to_a_real_call() -> None:
    state, _ = game("A B", "A D", humans=(0, 1))
    turn(state), turn(state)
    call(state, 0, 30.0)  # seat 0 jumps the gun, then calls for real, after seat 1
    call(state, 1, 400.0)
    events = call(state, 0, 450.0)
    snapped = next(e for e in events if e.type == "snap")
    assert snapped.data["player"] == 1
    assert [c["player"] for c in snapped.data["calls"]] == [1, 0]


@pytest.mark.parametrize(("variant", "outcome"), [("classic", "snap"), ("woolworths", "penalty")])
def test_a_call_at_the_false_start_line_is_judged_normally(variant, outcome) -> None:
    assert snap.FALSE_START_MS == 100
    if outcome == "snap":  # on a match, 100 ms beats any computer player
        state, _ = game("A B", "A D", variant=variant, humans=(0,), level="hard")
    else:  # on no match, a mistaken call pays its penalty
        state, _ = game("A B", "C D", variant=variant, humans=(0,), level="hard")
    turn(state), turn(state)
    events = call(state, 0, 100)
    assert "late-call" not in types(events)
    assert types(events)[0] == "call" and events[0].data["reaction_ms"] == 100.0
    settled = next(e for e in events if e.type == outcome)
    assert settled.data["player"] == 0


BAD_REACTIONS = [-5, -0.1, float("nan"), float("inf"), float("-inf"), 60_000.1]


@pytest.mark.parametrize("ms", BAD_REACTIONS)
def test_a_negative_or_non_finite_reaction_is_a_bad_request(ms) -> None:
    state, _ = game("A B", "A D")
    turn(state), turn(state)
    before = (snap.places(state), snap.public_state(state), state.actions)
    with pytest.raises(snap.BadReaction, match="reaction_ms"):
        call(state, 0, ms)
    assert issubclass(snap.BadReaction, IllegalAction)
    assert (snap.places(state), snap.public_state(state), state.actions) == before


@pytest.mark.parametrize("ms", BAD_REACTIONS)
def test_a_bad_reaction_is_refused_after_the_game_too(ms) -> None:
    state, _ = game("A", "B", max_turns=1)
    turn(state)
    follow(state, {"type": "close", "player": 0})
    assert state.over
    with pytest.raises(snap.BadReaction):
        call(state, 0, ms)
    assert types(call(state, 0, 0)) == ["late-call"]  # a finite one is just too late


def test_no_computer_player_ever_calls_inside_the_false_start_line() -> None:
    assert snap.bots.FLOOR_MS >= snap.FALSE_START_MS


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
