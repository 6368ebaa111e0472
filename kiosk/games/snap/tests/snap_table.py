"""One Snap table, dealt as a test says, followed through a game by tests that look at it
between actions."""

from __future__ import annotations

from typing import Any

from kiosk.games.cards import Card
from kiosk.games.core import Event
from kiosk.games.snap import engine as snap


def follow(state: snap.SnapState, action: Any) -> list[Event]:
    """Apply ``action`` and carry ``state`` forward to the state after it, checking that
    ``apply`` left the state it was given as it was; the action's events."""
    before = state.key()
    after, events = snap.apply(state, action)
    assert state.key() == before, "apply changed the state it was given"
    for name in snap.SnapState.__slots__:
        setattr(state, name, getattr(after, name))
    return events


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
