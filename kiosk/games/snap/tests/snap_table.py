"""One Snap table followed through a game by tests that look at it between actions."""

from __future__ import annotations

from typing import Any

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
