"""Random Snap games checked at every state: cards conserved, awards legal, replay, views."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.games import trace
from kiosk.games.cards import standard_deck
from kiosk.games.core import Event, IllegalAction, TraceContext
from kiosk.games.snap import engine as snap

DECK = standard_deck()
IDS = {c.id for c in DECK}


def all_strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        out: set[str] = set()
        for k, v in value.items():
            out |= all_strings(k) | all_strings(v)
        return out
    if isinstance(value, list | tuple):
        out = set()
        for v in value:
            out |= all_strings(v)
        return out
    return set()


@st.composite
def games(draw):
    variant = draw(st.sampled_from(list(snap.VARIANTS)))
    players = draw(st.integers(2, 4))
    humans = tuple(p for p in range(players) if draw(st.booleans()))
    if variant == "forfeits":
        humans = ()
    level = draw(st.sampled_from(snap.LEVELS))
    decks = 2 if players == 4 and draw(st.booleans()) else 1
    options = snap.options_for(
        variant,
        players=players,
        humans=humans,
        level=level,
        decks=decks,
        max_turns=draw(st.integers(20, 160)),
    )
    return options, draw(st.integers(0, 2**32)), draw(st.integers(0, 2**16))


def chooser(policy: random.Random, record: list):
    """Any legal action a mix of people and computers could send, stale taps included."""

    def choose(state, seat):
        humans = [h for h in state.options.humans if not state.out[h]]
        if humans and state.window is not None and policy.random() < 0.4:
            h = policy.choice(humans)
            kind = policy.choice(["call", "call", "call-pool"])
            turn_no = state.turn if policy.random() < 0.9 else state.turn - 1
            action = {
                "type": kind,
                "player": h,
                "turn": turn_no,
                "reaction_ms": round(policy.uniform(150, 1500), 1),
            }
        else:
            kinds = [a["type"] for a in snap.legal_actions(state, seat)]
            action = {"type": "turn" if "turn" in kinds else "close", "player": seat}
        record.append(action)
        return action

    return choose


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_games_hold_together_at_every_state(game) -> None:
    options, seed, policy_seed = game
    record: list = []
    choose = chooser(random.Random(policy_seed), record)
    lines = list(trace.trace_game(snap, DECK, options, seed, choose))
    # the writer checked apply_moves against places() after every action; re-check the file:
    # every card in exactly one place on every line, every move real, every award legal
    n = trace.check_lines(lines, snap)
    assert n == len(lines) - 1
    final = lines[-1]
    assert final["event"]["type"] == "game-over"  # every (bounded) game ends
    state = snap.replay(DECK, options, seed, record)
    assert state.over
    # the same record rebuilds the same game, whatever the global random does
    random.seed(policy_seed)
    random.shuffle(list(range(10)))
    assert snap.replay(DECK, options, seed, record) == state
    # a player's view reveals no face-down card
    for p in range(options.players):
        hidden = {c for pile in state.down for c in pile} | set(state.aside)
        assert not hidden & all_strings(snap.view(state, p))


@settings(max_examples=25, deadline=None)
@given(games())
def test_views_never_show_face_down_cards_mid_game(game) -> None:
    options, seed, policy_seed = game
    state, _ = snap.new_game(DECK, options, seed)
    choose = chooser(random.Random(policy_seed), [])
    for _ in range(60):
        if state.over:
            break
        state, events = snap.apply(state, choose(state, snap.to_move(state)[0]))
        shown = {e.data["card"] for e in events if e.type == "turn"}  # just seen face up
        hidden = ({c for pile in state.down for c in pile} | set(state.aside)) - shown
        for p in range(options.players):
            assert not hidden & all_strings(snap.view(state, p))


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(list(snap.VARIANTS)), st.integers(2, 4), st.integers(0, 10**6))
def test_unbounded_games_end_or_reach_a_large_cap(variant, players, seed) -> None:
    options = snap.options_for(variant, players=players, max_turns=5000)
    state, _ = snap.new_game(DECK, options, seed)
    bots = [snap.make_bot("medium", p) for p in range(players)]
    for _ in range(6000):
        if state.over:
            break
        seat = snap.to_move(state)[0]
        state, _ = snap.apply(state, bots[seat].act(snap.view(state, seat)))
    assert state.over
    assert state.reason in ("all-cards", "last-with-counters", "kiosk-bound")
    held = sum(len(v) for v in snap.places(state).values())
    assert held == 52
    if state.reason == "all-cards":
        (winner,) = state.winners
        assert len(state.down[winner]) + len(state.up[winner]) == 52 - len(state.aside)


def test_checker_catches_an_illegal_award() -> None:
    options = snap.options_for("classic", max_turns=60)
    lines = list(trace.trace_game(snap, DECK, options, 3, trace.bot_chooser(snap, 2, "hard", 3)))
    bad = next(i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "turn")
    fake = dict(lines[bad])
    fake["event"] = {**fake["event"], "card": "nonsense"}
    lines[bad] = fake
    try:
        trace.check_lines(lines, snap)
    except trace.TraceError as error:
        assert "not the top" in str(error)
    else:  # pragma: no cover
        raise AssertionError("the checker let a wrong card through")


def test_a_snap_on_no_match_is_refused_by_the_checker() -> None:
    before = {"up:0": ["AS"], "up:1": ["2S"], "down:0": [], "down:1": []}
    cards = {c.id: c.header() for c in DECK}
    event = Event(
        "snap",
        {
            "player": 0,
            "matches": ["A"],
            "from": ["up:0", "up:1"],
            "moves": [
                {"cards": ["AS"], "from": "up:0", "to": "down:0", "at": "bottom"},
                {"cards": ["2S"], "from": "up:1", "to": "down:0", "at": "bottom"},
            ],
        },
    )
    context = TraceContext(cards, {"players": 2}, memo={"last": "turn"})
    assert "no two face-up" in snap.check_event(context, before, event)


def test_illegal_action_leaves_the_state_alone() -> None:
    options = snap.options_for("classic")
    state, _ = snap.new_game(DECK, options, 1)
    before = snap.places(state)
    with pytest.raises(IllegalAction):
        snap.apply(state, {"type": "turn", "player": 1})
    assert snap.places(state) == before
    assert {c for v in before.values() for c in v} == IDS
