"""The Snap engine's timing: late calls, calls judged against the computer's drawn reaction,
false starts and reactions no one could have."""

from __future__ import annotations

import pytest

from kiosk.games.cards import standard_deck
from kiosk.games.core import IllegalAction
from kiosk.games.snap import engine as snap

from .snap_table import call, follow, game, stacked, turn, types

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
