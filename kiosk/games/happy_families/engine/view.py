"""What one Happy Families player may see: their own hand, counts, tricks, the public log."""

from __future__ import annotations

from typing import Any

from kiosk.games.happy_families.engine.options import GAME
from kiosk.games.happy_families.engine.rules import legal_actions
from kiosk.games.happy_families.engine.state import (
    State,
    hand_of,
    names,
    public_state,
    trick_families,
)


def _redact(state: State, event: dict[str, Any], player: int) -> dict[str, Any] | None:
    """An event as one player saw it; None when it says nothing to them."""
    kind = event["type"]
    if kind in ("shuffle", "sort"):
        return None  # the order of the pack and of other hands is nobody's business
    if kind == "deal":
        counts = [0] * state.players
        for move in event["moves"]:
            counts[int(move["to"].split(":")[1])] += 1
        return {"type": "deal", "dealer": event["dealer"], "counts": counts}
    out = {k: v for k, v in event.items() if k != "moves"}
    if kind == "trick" and event["player"] != player and state.options.tricks_face_down:
        out["family"] = None
    return out


def view(state: State, player: int) -> dict[str, Any]:
    """What one player may see: own hand, counts, tricks (face down), the public log."""
    face_up = not state.options.tricks_face_down
    tricks = []
    for s in range(state.players):
        fams = trick_families(state, s)
        tricks.append({"count": len(fams), "families": fams if (face_up or s == player) else None})
    log = []
    for event in state.events:
        seen = _redact(state, event.to_json(), player)
        if seen is not None:
            log.append(seen)
    return {
        "game": GAME,
        "me": player,
        "players": state.players,
        "names": names(state),
        "variation": state.options.variation,
        "tricks_face_down": state.options.tricks_face_down,
        "deck": [{"id": c.id, "name": c.name, "family": c.family} for c in state.cards.values()],
        "families": list(state.families),
        "hand": list(hand_of(state, player)),
        "log": log,
        "tricks_on_table": tricks,
        "legal": legal_actions(state, player),
        **public_state(state),
    }
